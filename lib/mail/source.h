/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where mail comes from: an mbox (mboxo or mboxrd, LF or CRLF, plain or
 * gzip), a maildir, a single message file, standard input, or a
 * public-inbox git archive. A source yields one raw message at a time; its
 * memory does not grow with the size of the source.
 *
 * Messages come out with LF line endings (CRLF is converted here, at the
 * input edge) and without mbox framing (the From_ line, mboxrd quoting and
 * the separating blank line are removed), so the same mail read from any
 * source has the same bytes.
 */
#ifndef PC_MAIL_SOURCE_H
#define PC_MAIL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum pc_source_kind {
	PC_SOURCE_AUTO = 0,
	PC_SOURCE_MBOX,
	PC_SOURCE_MAILDIR,
	PC_SOURCE_MESSAGE, /* one message per file */
	PC_SOURCE_PUBLIC_INBOX,
	PC_SOURCE_LIST, /* messages the caller holds: pc_source_from_list() */
};

enum pc_mbox_format {
	PC_MBOX_AUTO = 0, /* mboxrd when the From_ line says "From mboxrd@z" */
	PC_MBOX_MBOXO, /* ">From " lines are left alone */
	PC_MBOX_MBOXRD, /* one '>' is removed from every ">+From " line */
};

struct pc_source_options {
	enum pc_source_kind kind;
	enum pc_mbox_format mbox_format;
	/* A message larger than this is skipped and reported (PC_ELIMIT). */
	size_t max_message;
	/* Most bytes asked of the input per read; 0 for the default. Tests
	 * set 1 or random sizes to exercise every buffer boundary. */
	size_t read_size;
	/* With read_size, a seed: each read asks for 1..read_size bytes. */
	unsigned read_seed;
};

#define PC_SOURCE_MAX_MESSAGE_DEFAULT (64u << 20)
#define PC_SOURCE_OPTIONS_INIT                                       \
	{                                                            \
		.kind = PC_SOURCE_AUTO, .mbox_format = PC_MBOX_AUTO, \
		.max_message = PC_SOURCE_MAX_MESSAGE_DEFAULT         \
	}

struct pc_source;

struct pc_source_msg {
	const char *data; /* borrowed until the next pc_source_next() */
	size_t len;
	/* Where it was found, for error reports: "FILE:LINE" for an mbox,
	 * the file name in a maildir, "EPOCH:COMMIT" in a public-inbox. */
	const char *where; /* borrowed like data */
	uint64_t ordinal; /* 1-based position in the source */
};

/*
 * Opens path ("-" is standard input) as opt->kind, or guesses the kind:
 * a directory with cur/ and new/ is a maildir, a git repository or a
 * public-inbox v2 directory (git/N.git) is a public-inbox archive, a file
 * whose first line is an mbox From_ line is an mbox, anything else is one
 * message. gzip is detected by its magic bytes. Caller frees with
 * pc_source_free(). Errors: PC_EIO, PC_EGIT, PC_EUSAGE.
 */
int pc_source_open(struct pc_source **out, const char *path,
		   const struct pc_source_options *opt, struct pc_err *err);

/*
 * Reads the next message into *msg. Returns 1 with a message, 0 at the
 * end, or a negative code: PC_ELIMIT for one oversized message (reading
 * may go on after it; *msg then holds its head, as many whole lines as
 * fit the limit, or nothing), PC_EIO/PC_EGIT when the source failed
 * (stop).
 */
int pc_source_next(struct pc_source *src, struct pc_source_msg *msg,
		   struct pc_err *err);

/*
 * A source over messages the caller already holds (an IMAP fetch), so
 * that they go through the same ingest loop as a file's: msgs[0..n) are
 * borrowed and must outlive the source. A message whose data is NULL was
 * not received: pc_source_next() gives PC_ELIMIT with an empty head and
 * missing (borrowed) as the reason. Data is given as it is (the caller
 * has converted line endings). Caller frees with pc_source_free().
 */
void pc_source_from_list(struct pc_source **out,
			 const struct pc_source_msg *msgs, size_t n,
			 const char *missing);

/* The kind that was opened (after guessing). */
enum pc_source_kind pc_source_kind(const struct pc_source *src);

/*
 * Progress: units done and the total, when known (bytes of the input
 * file for mbox, messages for maildir and public-inbox); total is 0 when
 * unknown (a pipe).
 */
void pc_source_progress(const struct pc_source *src, uint64_t *done,
			uint64_t *total);

void pc_source_free(struct pc_source *src);

const char *pc_source_kind_name(enum pc_source_kind kind);

#endif
