// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a whole source into the store: the one ingest loop. See
 * ingest.h.
 */
#include <string.h>

#include "mail/source.h"
#include "store/ingest.h"
#include "store/ingest_internal.h"
#include "store/raw.h"
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

/* How long a batch waits for the write lock. `patchclock status` in
 * another process holds it while it judges (and rolls back), which on a
 * loaded machine or at a million messages outlasts SQLite's 30 s busy
 * timeout (fault.readers: a 44 s `status` under AddressSanitizer failed
 * the ingest beside it); a bulk ingest waits for it rather than fail. */
#define BATCH_LOCK_MS (10 * 60 * 1000)

static int begin_batch(struct pc_store *st, struct pc_err *err)
{
	return pc_store_try_begin(st, BATCH_LOCK_MS, err);
}

static int next_batch(struct pc_store *st, struct pc_ingest_stats *committed,
		      const struct pc_ingest_stats *stats, struct pc_err *err)
{
	int rc;

	if ((rc = pc_store_commit(st, err)) < 0)
		return rc;
	if (committed)
		*committed = *stats;
	return begin_batch(st, err);
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
		pc_ingest__prepare(&j->prep, j->msg.data, j->msg.len, 0, NULL);
	return j;
}

static void feed_done(struct feed *f, struct pc_ingest_job *j)
{
	if (f->pool)
		pc_ingest__pool_done(f->pool, j);
	else
		pc_ingest__prepared_release(&j->prep);
}

/*
 * zstd's dictionary, trained on the database's first `samples` messages
 * right after the one that makes them stored: at the same message
 * whatever the number of threads (the writer compresses again what
 * workers compressed before it), however the mail is split into sources
 * and runs, and after a crash. Each message stored adds one raw row.
 */
struct trainer {
	int on;
	unsigned samples;
	int64_t rows0; /* raw rows when the run began */
	uint64_t added0; /* stats->added then */
};

static const char SQL_RAW_ROWS[] = "SELECT max(id) FROM raw";

static int maybe_train(struct pc_store *st, struct trainer *t,
		       const struct pc_ingest_stats *stats, struct feed *f,
		       struct pc_err *err)
{
	const struct pc_raw_dict *d;
	int rc;

	if (t->rows0 + (int64_t)(stats->added - t->added0) <
	    (int64_t)t->samples)
		return 0;
	if ((rc = pc_raw_dict_train(st, t->samples, 0, &d, err)) < 0)
		return rc;
	/* Trained, or the mail would not train: once a run either way. */
	t->on = 0;
	if (d && f->pool)
		pc_ingest__pool_set_dict(f->pool, d);
	return 0;
}

int pc_ingest_source(struct pc_store *st, struct pc_source *src,
		     const char *where, const struct pc_ingest_options *opt,
		     const struct pc_ingest_loop *loop,
		     struct pc_ingest_stats *stats,
		     struct pc_ingest_stats *committed, struct pc_err *err)
{
	struct pc_ingest_options defaults = PC_INGEST_OPTIONS_INIT;
	struct feed feed = { .src = src };
	struct trainer trainer = { 0 };
	const struct pc_raw_dict *dict = NULL;
	struct pc_ingest_job *job;
	unsigned in_batch = 0;
	uint64_t batch_raw0 = pc_raw_stored_bytes(st);
	int rc, damaged = 0;
	struct pc_err damage = { 0 };

	if (committed)
		*committed = *stats;
	if (!opt)
		opt = &defaults;
	if ((rc = begin_batch(st, err)) < 0)
		return rc;
	if (opt->compress == PC_RAW_ZSTD) {
		if ((rc = pc_raw_dict_current(st, &dict, err)) < 0)
			goto fail;
		/* A new database starts with the shipped dictionary; one is
		 * trained only when asked for (dict_samples). */
		if (!dict && !opt->dict_samples &&
		    (rc = pc_raw_dict_builtin(st, &dict, err)) < 0)
			goto fail;
		trainer.on = !dict;
		trainer.samples = opt->dict_samples;
		trainer.added0 = stats->added;
		if (trainer.on &&
		    ((rc = pc_store_int(st, SQL_RAW_ROWS, 0, &trainer.rows0,
					err)) < 0 ||
		     (rc = maybe_train(st, &trainer, stats, &feed, err)) < 0))
			goto fail;
		if (!trainer.on &&
		    (rc = pc_raw_dict_current(st, &dict, err)) < 0)
			goto fail;
	}
	if (loop->jobs > 1)
		feed.pool = pc_ingest__pool_start(
			src, loop->jobs, (enum pc_raw_codec)opt->compress,
			dict);
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
		if (trainer.on &&
		    (rc = maybe_train(st, &trainer, stats, &feed, err)) < 0)
			goto fail;
		if (++in_batch >= loop->batch ||
		    (loop->batch_bytes &&
		     pc_raw_stored_bytes(st) - batch_raw0 >=
			     loop->batch_bytes)) {
			if ((rc = next_batch(st, committed, stats, err)) < 0)
				goto fail;
			in_batch = 0;
			batch_raw0 = pc_raw_stored_bytes(st);
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
