/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the state back: series with their patches and the trailers
 * that apply to each, and single messages. Used by the CLI and tests.
 */
#ifndef PC_STORE_QUERY_H
#define PC_STORE_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "store/raw.h"
#include "store/store.h"
#include "util/err.h"

struct pc_trailer_info {
	char *name, *value, *person, *addr; /* owned; person/addr may be NULL */
	char *given_in; /* owned; Message-ID of the mail that carried it */
	int from_reply; /* given on the list, not in the patch itself */
	int via_cover; /* given in reply to the cover letter */
	int suggested; /* a bot's suggestion, not a review */
	int mismatch; /* given in a reply by someone it does not name */
};

/* One file of a patch's diffstat. */
struct pc_file_info {
	char *path; /* owned; the new path, or the old one if deleted */
	char *old_path; /* owned; the old path of a rename or copy, or NULL */
	char status; /* 'M', 'A', 'D', 'R', 'C' */
	unsigned added, removed;
	int binary;
};

struct pc_patch_info {
	int64_t id;
	char *msgid; /* owned */
	char *kind; /* owned: "patch" or "cover" */
	int idx;
	char *subject; /* owned */
	char *author_name, *author_addr; /* owned (git-am author) */
	int64_t date;
	int has_date;
	char *patch_id; /* owned, or NULL */
	struct pc_file_info *files; /* owned; the diffstat, in diff order */
	size_t nfiles;
	struct pc_trailer_info *trailers; /* owned */
	size_t ntrailers;
};

/* A MAINTAINERS entry a series maps to (see store/mapping.h). */
struct pc_entry_info {
	char *name; /* owned */
	char *profile; /* owned: its P:, or NULL */
	int depth, files, k_hit, k_only;
};

struct pc_series_info {
	int64_t id;
	char *name; /* owned */
	char *author_name, *author_addr; /* owned */
	int version, total, received, is_rfc;
	int64_t first_posted;
	int has_date;
	int64_t superseded_by; /* 0 when current */
	char *anchor_msgid; /* owned */
	char *cover_msgid; /* owned, or NULL */
	char *topic, *list_id, *change_id; /* owned, or NULL */
	struct pc_patch_info *patches; /* owned; cover first, then by index */
	size_t npatches;
	/* owned; with with_patches: the entries it maps to, in
	 * get_maintainer.pl order (none until mapped) */
	struct pc_entry_info *entries;
	size_t nentries;
};

struct pc_series_filter {
	int64_t id; /* one series, or 0 for all */
	int current_only; /* skip superseded series */
	int with_patches; /* load patches, files, trailers and entries */
};

typedef int (*pc_series_fn)(const struct pc_series_info *s, void *arg);

/*
 * Calls fn for each matching series, oldest first; fn returning non-zero
 * stops the listing. A patch's trailers leave out tags given in a reply
 * by someone the tag does not name (b4 does not apply those either);
 * pc_message_get() on the reply still shows them, marked.
 */
int pc_series_list(struct pc_store *st, const struct pc_series_filter *f,
		   pc_series_fn fn, void *arg, struct pc_err *err);

/* The base-commit: trailer of the series' first message that has one,
 * in *out (caller frees), or NULL. Errors: PC_EDB. */
int pc_series_base_commit(char **out, struct pc_store *st, int64_t series_id,
			  struct pc_err *err);

/* The series a message belongs to (0 when none), by Message-ID. */
int pc_series_of_message(struct pc_store *st, const char *msgid,
			 int64_t *series_out, int64_t *message_out,
			 struct pc_err *err);

struct pc_message_info {
	int64_t id;
	char *msgid, *kind, *subject, *from_name, *from_addr; /* owned */
	char *author_name, *author_addr, *in_reply_to; /* owned */
	char *list_id, *source, *parse_error; /* owned/NULL */
	int64_t date;
	int has_date;
	int64_t series_id;
	int version, idx, total;
	size_t raw_size;
	struct pc_file_info *files; /* owned; the diffstat */
	size_t nfiles;
	struct pc_trailer_info *trailers; /* owned: trailers written in it */
	size_t ntrailers;
};

/* Loads one message by Message-ID (with or without <>). PC_ENOTFOUND. */
int pc_message_get(struct pc_message_info **out, struct pc_store *st,
		   const char *msgid, struct pc_err *err);
void pc_message_info_free(struct pc_message_info *m);

/* pc_message_raw(): store/raw.h */

/* Calls fn(where, msgid, reason, arg) for each recorded ingest error. */
typedef int (*pc_error_fn)(const char *where, const char *msgid,
			   const char *reason, void *arg);
int pc_ingest_errors(struct pc_store *st, pc_error_fn fn, void *arg,
		     struct pc_err *err);

#endif
