/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ingest: one raw message into the state. Parses it, classifies it,
 * stores the raw bytes, the message, its references, files and trailers,
 * and places patches and cover letters in series. Idempotent: a
 * Message-ID already stored changes nothing.
 *
 * Callers batch messages in a transaction (pc_store_begin/commit) and call
 * pc_ingest_finish() before committing the last batch of a run.
 */
#ifndef PC_STORE_INGEST_H
#define PC_STORE_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct pc_ingest_stats {
	uint64_t read; /* messages offered */
	uint64_t added; /* new messages stored */
	uint64_t duplicates; /* Message-ID already stored */
	uint64_t patches, covers, replies, pulls, other;
	uint64_t errors; /* stored raw with kind 'error', or unreadable */
	uint64_t not_commands; /* left out by commands_only */
	/* Net change in the number of series: those created, less those
	 * merged into another (a late cover letter can join two). Can be
	 * negative. */
	int64_t series;
};

/* Called for every message that could not be parsed or read. */
typedef void (*pc_ingest_warn_fn)(const char *where, const char *msgid,
				  const char *reason, void *arg);

struct pc_ingest_options {
	/* Recorded as the list of messages that carry no List-Id. */
	const char *list_id;
	/* How raw messages are stored (enum pc_raw_codec, store/raw.h):
	 * 0 as they are, 1 zlib, 2 zstd with a dictionary: the one
	 * patchclock ships (pc_raw_dict_builtin()), or with dict_samples
	 * one trained on the database's first dict_samples messages once
	 * it holds that many. See doc/speed.md for the sizes. */
	int compress;
	unsigned dict_samples;
	/* Store only mail holding commands to patchclock (lib/patch/
	 * command.h): patchclock's own mailbox, whose other mail (private
	 * replies, spam) is no list traffic. The rest is counted in
	 * not_commands and returns 1, as a duplicate does. */
	int commands_only;
	pc_ingest_warn_fn warn;
	void *warn_arg;
};

#define PC_INGEST_OPTIONS_INIT \
	{                      \
		0              \
	}

/*
 * Ingests (raw, len), read at `where`. Returns 0 when stored (including a
 * message stored with kind 'error' because it could not be parsed: it is
 * counted in stats->errors and reported through opt->warn), 1 for a
 * duplicate, or a negative code when the store failed (PC_EDB): the
 * caller should roll back.
 */
int pc_ingest_message(struct pc_store *st, const char *raw, size_t len,
		      const char *where, const struct pc_ingest_options *opt,
		      struct pc_ingest_stats *stats, struct pc_err *err);

/*
 * Records input that could not be read at all (a message the server did
 * not send, a damaged archive), with where and why, once: the same where
 * and reason again count as a duplicate. Counted in stats->errors.
 */
int pc_ingest_unreadable(struct pc_store *st, const char *where,
			 const char *reason, struct pc_ingest_stats *stats,
			 struct pc_err *err);

/* How much of an oversized message is kept. */
#define PC_INGEST_OVERSIZED_KEEP (1u << 20)

/*
 * A message over the size limit, of which the source kept the first
 * (head, len) bytes: stored once as a message of kind 'error' with the
 * first PC_INGEST_OVERSIZED_KEEP bytes as its raw mail and reason as its
 * error (read again, it is a duplicate: no second row, no second error).
 * With len 0, as pc_ingest_unreadable().
 */
int pc_ingest_oversized(struct pc_store *st, const char *head, size_t len,
			const char *where, const char *reason,
			const struct pc_ingest_options *opt,
			struct pc_ingest_stats *stats, struct pc_err *err);

/*
 * End of a run: attributes reply trailers whose patch or cover letter
 * arrived after them. Call inside the last transaction.
 */
int pc_ingest_finish(struct pc_store *st, struct pc_err *err);

/*
 * The transaction size for a long read (a whole mbox): one ends after
 * PC_INGEST_BATCH messages or PC_INGEST_BATCH_BYTES of raw rows,
 * whichever comes first. A transaction's new pages must fit in the page
 * cache (16 MiB, store.c) beside the index pages its inserts read: past
 * it SQLite writes dirty pages to the WAL in the middle of the
 * transaction and reads them back for the next insert. The sizes and
 * what they were measured against: doc/speed.md, "Transaction size".
 */
#define PC_INGEST_BATCH 1000u
#define PC_INGEST_BATCH_BYTES (4u << 20)

/*
 * The one loop that reads a whole source into the store (the CLI's
 * ingest, the daemon's spools, and IMAP's fetched batches as a list
 * source): every message stored, batch messages (or batch_bytes of raw
 * rows) to a transaction, an oversized one kept as its head
 * (pc_ingest_oversized()), pc_ingest_finish() in the last transaction.
 * progress (may be NULL) is called after each message. A damaged source
 * (PC_EDAMAGED: a gzip stream cut short) keeps what was read before the
 * damage, records it (pc_ingest_unreadable()) and returns 1 with the
 * damage in err. *committed (may be NULL) gets the counts of what is
 * stored: on an error the current batch is rolled back and *stats still
 * counts it. Returns 0, 1, or a negative error.
 */
struct pc_source;
struct pc_ingest_loop {
	unsigned batch; /* messages per transaction, > 0 */
	/* raw bytes (as stored) that end a transaction early, or 0 */
	size_t batch_bytes;
	/* Threads that parse and analyse (ingest_pool.c): 0 or 1 reads,
	 * parses and stores in the caller's thread, one message at a time;
	 * N > 1 adds a thread that reads the source and N that parse, while
	 * the caller's thread stores, in the source's order. The stored
	 * state is the same either way. */
	unsigned jobs;
	/* After each message, in the caller's thread: how far the source is
	 * read (pc_source_progress() as of that message). */
	void (*progress)(uint64_t done, uint64_t total,
			 const struct pc_ingest_stats *stats, void *arg);
	void *arg;
	/* called with an oversized message's reason when it stored
	 * nothing (an empty head), or NULL */
	void (*skipped)(const char *why, void *arg);
	/* called in the last transaction, after pc_ingest_finish(), or
	 * NULL: what the caller records of how far it read (IMAP's UID
	 * cursor) commits with the messages or not at all */
	int (*finish)(struct pc_store *st, void *arg, struct pc_err *err);
};

int pc_ingest_source(struct pc_store *st, struct pc_source *src,
		     const char *where, const struct pc_ingest_options *opt,
		     const struct pc_ingest_loop *loop,
		     struct pc_ingest_stats *stats,
		     struct pc_ingest_stats *committed, struct pc_err *err);

#endif
