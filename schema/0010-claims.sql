-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 10: exactly once with several senders. A sender
-- claims an outbox row in a transaction before it talks to the SMTP
-- server; another sender skips a row whose claim is still running. The
-- claim is a lease: when its holder dies, the row is claimed again after
-- claim_until (real time) and sent with the same Message-ID.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claim_until INTEGER;

PRAGMA user_version = 10;
