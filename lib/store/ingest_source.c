// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a whole source into the store: the one ingest loop. See
 * ingest.h.
 */
#include <string.h>

#include "mail/source.h"
#include "store/ingest.h"
#include "store/ingest_internal.h"
#include "util/banned.h"

/* An oversized message: its head stored once, or nothing said. */
static int oversized(struct pc_store *st, const struct pc_ingest_job *job,
		     const struct pc_ingest_options *opt,
		     const struct pc_ingest_loop *loop,
		     struct pc_ingest_stats *stats, struct pc_err *err)
{
	int rc;

	rc = pc_ingest_oversized(st, job->msg.data, job->msg.len,
				 job->msg.where, job->err.msg, opt, stats, err);
	if (rc == 0 && !job->msg.len && loop->skipped)
		loop->skipped(job->err.msg, loop->arg);
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

/*
 * Where the writer's jobs come from: the pool's threads, or, with one
 * thread, the source read here (analysis then waits until the
 * Message-ID is known to be new, as pc_ingest_message() does).
 */
struct feed {
	struct pc_source *src;
	struct pc_ingest_pool *pool; /* or NULL */
	struct pc_ingest_job one;
};

static struct pc_ingest_job *feed_next(struct feed *f)
{
	struct pc_ingest_job *j = &f->one;

	if (f->pool)
		return pc_ingest__pool_next(f->pool);
	memset(j, 0, sizeof(*j));
	j->rc = pc_source_next(f->src, &j->msg, &j->err);
	pc_source_progress(f->src, &j->done, &j->total);
	if (j->rc == 1)
		pc_ingest__prepare(&j->prep, j->msg.data, j->msg.len, 0);
	return j;
}

static void feed_done(struct feed *f, struct pc_ingest_job *j)
{
	if (f->pool)
		pc_ingest__pool_done(f->pool, j);
	else
		pc_ingest__prepared_release(&j->prep);
}

int pc_ingest_source(struct pc_store *st, struct pc_source *src,
		     const char *where, const struct pc_ingest_options *opt,
		     const struct pc_ingest_loop *loop,
		     struct pc_ingest_stats *stats,
		     struct pc_ingest_stats *committed, struct pc_err *err)
{
	struct feed feed = { .src = src };
	struct pc_ingest_job *job;
	unsigned in_batch = 0;
	int rc, damaged = 0;
	struct pc_err damage = { 0 };

	if (committed)
		*committed = *stats;
	if ((rc = pc_store_begin(st, err)) < 0)
		return rc;
	if (loop->jobs > 1)
		feed.pool = pc_ingest__pool_start(src, loop->jobs);
	for (;;) {
		job = feed_next(&feed);
		rc = job->rc;
		if (rc == 0) {
			feed_done(&feed, job);
			break;
		}
		if (rc == PC_ELIMIT) {
			rc = oversized(st, job, opt, loop, stats, err);
			feed_done(&feed, job);
			if (rc < 0)
				goto fail;
			continue;
		}
		if (rc == PC_EDAMAGED) {
			/* Keep what was read before the damage. */
			damage = job->err;
			damaged = 1;
			feed_done(&feed, job);
			if ((rc = pc_ingest_unreadable(st, where, damage.msg,
						       stats, err)) < 0)
				goto fail;
			break;
		}
		if (rc < 0) {
			*err = job->err;
			feed_done(&feed, job);
			goto fail;
		}
		rc = pc_ingest__store(st, &job->prep, job->msg.data,
				      job->msg.len, job->msg.where, opt, stats,
				      err);
		if (rc >= 0 && loop->progress)
			loop->progress(job->done, job->total, stats, loop->arg);
		feed_done(&feed, job);
		if (rc < 0)
			goto fail;
		if (++in_batch >= loop->batch) {
			if ((rc = next_batch(st, committed, stats, err)) < 0)
				goto fail;
			in_batch = 0;
		}
	}
	pc_ingest__pool_stop(feed.pool);
	feed.pool = NULL;
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
	pc_ingest__pool_stop(feed.pool);
	pc_store_rollback(st);
	return rc;
}
