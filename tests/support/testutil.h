/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the unit and corpus tests. */
#ifndef PC_TESTUTIL_H
#define PC_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mail/source.h"
#include "store/ingest.h"
#include "store/query.h"
#include "store/store.h"
#include "util/buf.h"

/* Reads a whole file (gunzipping *.gz); fails the test if it cannot. */
void t_read_file(struct pc_buf *out, const char *path);
/* Path under tests/data (corpus/..., seeds/...); returns a static buffer. */
const char *t_data(const char *rel);
/* A fresh temporary directory (mkdtemp); caller frees the string. */
char *t_mkdtemp(void);
/* Removes a directory tree made by t_mkdtemp(). */
void t_rmtree(const char *dir);
/* Runs cmd with sh in dir, output discarded; fails the test unless it
 * exits 0. */
void t_sh(const char *dir, const char *cmd);
/* A new git repository in a temporary directory (caller frees the path;
 * t_rmtree removes it): branch main, one commit "base" holding
 * drivers/w/w.c with the lines a, b, c. */
char *t_git_repo(void);

/*
 * A fresh SQLite store in its own temporary directory: corpus fixtures are
 * independent scenarios and each gets one (Message-IDs recur across them).
 */
struct t_store {
	char *dir; /* owned */
	struct pc_store *st; /* owned */
	struct pc_ingest_stats stats; /* summed over t_ingest() calls */
};

void t_store_open(struct t_store *ts);
/* Closes the store and removes its directory. */
void t_store_close(struct t_store *ts);
/*
 * Ingests every message of path, opened as kind (PC_SOURCE_AUTO guesses),
 * in one transaction ended by pc_ingest_finish(); fails the test on a
 * source or store error. Returns the number of messages read.
 */
size_t t_ingest(struct t_store *ts, const char *path, enum pc_source_kind kind);
/*
 * Ingests one hand-built mail, in its own transaction ended by
 * pc_ingest_finish(): From, Subject, Date (date, UTC), Message-ID <id>,
 * In-Reply-To <irt> (when not NULL), then the header lines in `headers`
 * (each ending in "\n"; may be NULL), and body. Fails the test on error.
 */
void t_ingest_mail(struct t_store *ts, const char *id, const char *from,
		   const char *subject, int64_t date, const char *irt,
		   const char *headers, const char *body);
/*
 * Runs a read-only query; returns its rows joined by '\n', columns by '|',
 * SQL NULL as "NULL". Caller frees.
 */
char *t_query(struct t_store *ts, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The first column of the first row as a number (0 when no row). */
long long t_query_int(struct t_store *ts, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
