-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 25: a mail in doubt is known.
--
-- A sender killed after the SMTP server accepted a mail and before it
-- marked the row sent leaves the row pending: the next sender sends it
-- again (issue 36, item 8). outbox.sending_at is written, committed,
-- when a sender claims the row to send it, and cleared with the outcome;
-- a row found with it still set was being sent when its sender stopped:
-- it is sent again, and the row and the log say it may arrive twice.
-- outbox.server_reply keeps the server's answer to the message ("250 OK
-- id=1tJx3b-000Abc-2K"): its queue id finds the mail in the server's log.
ALTER TABLE outbox ADD COLUMN sending_at INTEGER;
ALTER TABLE outbox ADD COLUMN server_reply TEXT;

PRAGMA user_version = 25;
