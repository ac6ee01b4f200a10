// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The send and retry policy for outbox rows. See deliver.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "notify/deliver.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define BACKOFF_FIRST 300
#define BACKOFF_MAX (6 * 3600)

int64_t pc_deliver_backoff(int attempts)
{
	int64_t d = BACKOFF_FIRST;

	while (attempts-- > 0 && d < BACKOFF_MAX)
		d *= 2;
	return d > BACKOFF_MAX ? BACKOFF_MAX : d;
}

size_t pc_deliver_recipients(char *s, const char ***out)
{
	size_t n = 0, alloc = 0;
	char *p = s;

	*out = NULL;
	while (*p) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		PC_ALLOC_GROW(*out, n + 1, alloc);
		(*out)[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	return n;
}

static int record(struct pc_store *st, const struct pc_outbox_item *it,
		  const struct pc_smtp_result *res, int64_t now,
		  struct pc_err *err)
{
	char note[600];

	switch (res->outcome) {
	case PC_SMTP_SENT:
		if (!res->nrejected)
			return pc_outbox_sent(st, it->id, now, NULL, err);
		snprintf(note, sizeof(note), "not delivered to %u: %s",
			 res->nrejected, res->rejected);
		/* A 451 for one recipient: the others have it; it goes to
		 * that one alone, later (the row stays pending for them). */
		if (res->nretry)
			return pc_outbox_sent_partly(
				st, it->id, now,
				now + pc_deliver_backoff(it->attempts),
				res->retry, note, err);
		return pc_outbox_sent(st, it->id, now, note, err);
	case PC_SMTP_TEMPORARY:
		return pc_outbox_retry(st, it->id,
				       now + pc_deliver_backoff(it->attempts),
				       res->detail, err);
	case PC_SMTP_PERMANENT:
		break;
	}
	return pc_outbox_failed(st, it->id, res->detail, err);
}

int pc_deliver_record(struct pc_store *st, const struct pc_outbox_item *it,
		      const struct pc_smtp_result *res, int64_t now,
		      struct pc_err *err)
{
	int rc;

	if ((rc = pc_store_begin(st, err)) < 0)
		return rc;
	if ((rc = record(st, it, res, now, err)) < 0 ||
	    (res->outcome == PC_SMTP_SENT && res->server_reply[0] &&
	     (rc = pc_outbox_server_reply(st, it->id, res->server_reply, err)) <
		     0) ||
	    (rc = pc_store_commit(st, err)) < 0) {
		pc_store_rollback(st);
		return rc;
	}
	return 0;
}
