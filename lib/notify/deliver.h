/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a sending attempt means for an outbox row: the send and retry
 * policy, apart from the SMTP session (smtp.h) and the program that runs
 * it (daemon/sendout.c). Sent is marked right after the server's OK;
 * a temporary failure is tried again after a backoff that doubles from
 * 5 minutes to at most 6 hours; a permanent one fails the mail for good;
 * recipients refused at RCPT are recorded on a mail that was sent, and
 * those refused for now (4xx) get it alone after the backoff: the row
 * stays pending with them as its recipients.
 */
#ifndef PC_NOTIFY_DELIVER_H
#define PC_NOTIFY_DELIVER_H

#include <stddef.h>
#include <stdint.h>

#include "notify/smtp.h"
#include "store/outbox.h"
#include "store/store.h"
#include "util/err.h"

/* Seconds to wait before the next try, after `attempts` tries. */
int64_t pc_deliver_backoff(int attempts);

/*
 * Splits the outbox's space-separated recipients (s, modified) into an
 * array of n pointers into s (caller frees the array). Returns n.
 */
size_t pc_deliver_recipients(char *s, const char ***out);

/*
 * Records the outcome res of sending it at now, in one transaction of
 * its own. Returns 0 or a store error.
 */
int pc_deliver_record(struct pc_store *st, const struct pc_outbox_item *it,
		      const struct pc_smtp_result *res, int64_t now,
		      struct pc_err *err);

#endif
