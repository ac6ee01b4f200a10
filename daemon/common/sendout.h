/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sending the outbox's due mail, for `patchclock send` and patchclockd's
 * sender child: each mail claimed in a transaction first (another sender
 * skips it), sent through lib/notify/smtp, and its outcome recorded by
 * the policy of lib/notify/deliver.h (sent right after the server's OK,
 * retried with backoff, failed on 5xx).
 */
#ifndef PC_CLI_SENDOUT_H
#define PC_CLI_SENDOUT_H

#include <stdint.h>

#include "notify/smtp.h"
#include "store/store.h"

struct sendout {
	struct pc_store *st; /* borrowed */
	struct pc_smtp_options o;
	struct pc_smtp_conn conn; /* kept open for the run (zeroed: none) */
	int dry_run; /* print instead of sending */
	int64_t now;
	unsigned sent, retry, failed;
	unsigned partial; /* of sent: some recipients refused */
	unsigned skipped; /* claimed by another sender */
	/* its sender stopped mid-send before: sent again, may arrive twice */
	unsigned in_doubt;
	int db_error;
	char who[256]; /* the claim's name: "host:pid" (filled when empty) */
};

/* How long a claim on an outbox row lasts (real seconds): longer than
 * one SMTP exchange may take (its timeout is 60 s by default). */
#define SENDOUT_LEASE 600

/* Reads "user:password" from path (warns when others may read it). */
int sendout_credentials(const char *path, char **user, char **pass);

/* Sends everything due at sd->now; returns pc_outbox_list()'s result. */
int sendout_run(struct sendout *sd, struct pc_err *err);

#endif
