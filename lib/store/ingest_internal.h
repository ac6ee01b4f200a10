/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ingest in two halves, for the worker threads of ingest_pool.c: what
 * can be done with the raw bytes alone (parse, analyse), in any thread,
 * and what needs the store (is the Message-ID new, store, place in a
 * series), in the one writer thread, in the order the source gave.
 * pc_ingest_message() is the two halves back to back.
 */
#ifndef PC_STORE_INGEST_INTERNAL_H
#define PC_STORE_INGEST_INTERNAL_H

#include <stddef.h>

#include "mail/message.h"
#include "mail/source.h"
#include "patch/analysis.h"
#include "store/ingest.h"
#include "store/raw.h"

struct pc_ingest_prepared {
	struct pc_msg *m; /* owned; NULL when the mail did not parse */
	struct pc_analysis d; /* valid when analysed and !broken */
	int analysed;
	/* owned: why the mail is kept raw only (it did not parse, or its
	 * analysis hit a limit), or NULL */
	char *broken;
	/* the raw bytes compressed by a worker, when encoded */
	struct pc_raw_encoded enc;
	int encoded;
	int64_t enc_dict; /* the encoder's dictionary, 0 for none */
};

/*
 * Parses (raw, len) into *p and, with analyse, analyses it, and with an
 * encoder (may be NULL) compresses the raw bytes. Touches nothing
 * shared: safe in any thread. Always fills *p; release it with
 * pc_ingest__prepared_release().
 */
void pc_ingest__prepare(struct pc_ingest_prepared *p, const char *raw,
			size_t len, int analyse, struct pc_raw_encoder *enc);

/* Analyses a prepared message now, if not done yet. */
void pc_ingest__analyse(struct pc_ingest_prepared *p);

void pc_ingest__prepared_release(struct pc_ingest_prepared *p);

/*
 * Stores a prepared message as pc_ingest_message() does, with the same
 * return values and counts. Analyses it first when that was left for
 * later (a duplicate is then never analysed).
 */
int pc_ingest__store(struct pc_store *st, struct pc_ingest_prepared *p,
		     const char *raw, size_t len, const char *where,
		     const struct pc_ingest_options *opt,
		     struct pc_ingest_stats *stats, struct pc_err *err);

/*
 * One step of a source, as the writer sees it: what pc_source_next()
 * returned (rc, msg, err), how far the source was then, and the message
 * prepared.
 */
struct pc_ingest_job {
	int rc; /* pc_source_next()'s: 1 a message, 0 the end, or < 0 */
	struct pc_source_msg msg;
	struct pc_err err;
	uint64_t done, total; /* pc_source_progress() after reading it */
	struct pc_ingest_prepared prep; /* when rc is 1 */
	/* the pool's: */
	int state;
	char *copy; /* owned: msg.data and msg.where */
};

/*
 * The threads of a parallel ingest (ingest_pool.c): one reads src into a
 * ring of jobs, `workers` prepare them, and the caller takes them back
 * in the source's order. The ring holds at most a few hundred messages
 * and PC_INGEST_POOL_BYTES of mail (one larger message still passes), so
 * memory does not grow with the source.
 */
#define PC_INGEST_POOL_BYTES (16u << 20)
struct pc_ingest_pool;

/* Starts the threads; NULL when none could start (the caller then reads
 * on its own). src is used by the reading thread until the pool stops.
 * Workers compress with codec and dict (may be NULL). */
struct pc_ingest_pool *pc_ingest__pool_start(struct pc_source *src,
					     unsigned workers,
					     enum pc_raw_codec codec,
					     const struct pc_raw_dict *dict);

/* The dictionary workers compress with from now on (the writer
 * recompresses what they did before with the old one). */
void pc_ingest__pool_set_dict(struct pc_ingest_pool *pool,
			      const struct pc_raw_dict *dict);

/* The next job in the source's order, prepared: it blocks until it is.
 * The job is the pool's until pc_ingest__pool_done(). After a job whose
 * rc is not 1 (nor PC_ELIMIT), nothing more is read. */
struct pc_ingest_job *pc_ingest__pool_next(struct pc_ingest_pool *pool);
void pc_ingest__pool_done(struct pc_ingest_pool *pool,
			  struct pc_ingest_job *job);

/* Stops reading and preparing, joins the threads, frees what is left. */
void pc_ingest__pool_stop(struct pc_ingest_pool *pool);

#endif
