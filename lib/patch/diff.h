/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unified diffs in mail: the files a patch touches (renames, copies,
 * deletions, mode changes, binary), its diffstat, its base-commit, and a
 * patch-id with `git patch-id --stable` semantics.
 */
#ifndef PC_PATCH_DIFF_H
#define PC_PATCH_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum pc_diff_status {
	PC_DIFF_MODIFIED = 'M',
	PC_DIFF_ADDED = 'A',
	PC_DIFF_DELETED = 'D',
	PC_DIFF_RENAMED = 'R',
	PC_DIFF_COPIED = 'C',
};

struct pc_diff_file {
	char *old_path; /* owned; NULL for an added file */
	char *new_path; /* owned; NULL for a deleted file */
	int status; /* enum pc_diff_status */
	unsigned added, removed; /* lines */
	unsigned old_mode, new_mode; /* octal values, 0 if not given */
	int similarity; /* rename/copy similarity %, -1 if not given */
	unsigned binary : 1;
};

struct pc_diff {
	struct pc_diff_file *files; /* owned */
	size_t nfiles, alloc;
	unsigned insertions, deletions;
	/* 40 hex digits of `git patch-id --stable`, "" when no diff. */
	char patch_id[41];
	/* "base-commit: <hex>" if the mail has one, else "". */
	char base_commit[65];
	/* Byte offset in the input where the first diff starts, or the
	 * input length when there is no diff. */
	size_t diff_off;
};

#define PC_DIFF_INIT \
	{            \
		0    \
	}

void pc_diff_release(struct pc_diff *d);

/*
 * Parses every diff in (text, len) — git, plain unified (--- / +++),
 * CVS/SVN "Index:" and --no-prefix forms, with C-quoted paths — and
 * fills out. A file named twice (the same diff pasted twice) is listed
 * once. Returns 0 (with nfiles == 0 when there is no diff), or PC_ELIMIT
 * when more than PC_DIFF_MAX_FILES files are named.
 */
#define PC_DIFF_MAX_FILES 20000
int pc_diff_parse(struct pc_diff *out, const char *text, size_t len,
		  struct pc_err *err);

/* Whether (text, len) contains something that starts a diff. */
int pc_diff_present(const char *text, size_t len);

/*
 * The lines the hunks in (text, len) add and remove, each as a 64-bit
 * hash of its sign and its text less trailing blanks, sorted and each
 * once: what a change does, whatever its context, line numbers or
 * subject. A hunk whose header gives no line counts is skipped. Sets
 * *out (free() it; NULL when there are none) and returns the count.
 */
size_t pc_diff_changes(const char *text, size_t len, uint64_t **out);

/* Sorts the n hashes of v and keeps each once; returns how many are
 * left (to merge the changes of several patches). */
size_t pc_diff_changes_unique(uint64_t *v, size_t n);

/* Whether every hash of the sorted set a (na) is in the sorted set b. */
int pc_diff_changes_within(const uint64_t *a, size_t na, const uint64_t *b,
			   size_t nb);

#endif
