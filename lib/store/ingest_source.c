// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a whole source into the store: the one ingest loop. See
 * ingest.h.
 */
#include <stdio.h>

#include "mail/source.h"
#include "store/ingest.h"
#include "util/banned.h"

/* An oversized message: its head stored once, or nothing said. */
static int oversized(struct pc_store *st, const struct pc_source_msg *msg,
		     const struct pc_ingest_options *opt,
		     const struct pc_ingest_loop *loop,
		     struct pc_ingest_stats *stats, struct pc_err *err)
{
	char why[sizeof(err->msg)];
	int rc;

	snprintf(why, sizeof(why), "%s", err->msg);
	rc = pc_ingest_oversized(st, msg->data, msg->len, msg->where, why, opt,
				 stats, err);
	if (rc == 0 && !msg->len && loop->skipped)
		loop->skipped(why, loop->arg);
	return rc < 0 ? rc : 0;
}

static int next_batch(struct pc_store *st, struct pc_ingest_stats *committed,
		      const struct pc_ingest_stats *stats, struct pc_err *err)
{
	int rc;

	if ((rc = pc_store_commit(st, err)) < 0)
		return rc;
	if (committed)
		*committed = *stats;
	return pc_store_begin(st, err);
}

int pc_ingest_source(struct pc_store *st, struct pc_source *src,
		     const char *where, const struct pc_ingest_options *opt,
		     const struct pc_ingest_loop *loop,
		     struct pc_ingest_stats *stats,
		     struct pc_ingest_stats *committed, struct pc_err *err)
{
	struct pc_source_msg msg;
	unsigned in_batch = 0;
	int rc, damaged = 0;
	struct pc_err damage = { 0 };

	if (committed)
		*committed = *stats;
	if ((rc = pc_store_begin(st, err)) < 0)
		return rc;
	while ((rc = pc_source_next(src, &msg, err)) != 0) {
		if (rc == PC_ELIMIT) {
			if ((rc = oversized(st, &msg, opt, loop, stats, err)) <
			    0)
				goto fail;
			continue;
		}
		if (rc == PC_EDAMAGED) {
			/* Keep what was read before the damage. */
			damage = *err;
			damaged = 1;
			if ((rc = pc_ingest_unreadable(st, where, err->msg,
						       stats, err)) < 0)
				goto fail;
			break;
		}
		if (rc < 0)
			goto fail;
		if ((rc = pc_ingest_message(st, msg.data, msg.len, msg.where,
					    opt, stats, err)) < 0)
			goto fail;
		if (++in_batch >= loop->batch) {
			if ((rc = next_batch(st, committed, stats, err)) < 0)
				goto fail;
			in_batch = 0;
		}
		if (loop->progress)
			loop->progress(src, stats, loop->arg);
	}
	if ((rc = pc_ingest_finish(st, err)) < 0 ||
	    (loop->finish && (rc = loop->finish(st, loop->arg, err)) < 0) ||
	    (rc = pc_store_commit(st, err)) < 0)
		goto fail;
	if (committed)
		*committed = *stats;
	if (damaged) {
		*err = damage;
		return 1;
	}
	return 0;
fail:
	pc_store_rollback(st);
	return rc;
}
