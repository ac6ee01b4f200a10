/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Applying and boot-testing series, as stored (schema 6): one row per
 * apply and per boot test. Storing either marks the series for judging
 * again: "applied", "tested" and a failed test change its verdict.
 */
#ifndef PC_STORE_TESTRUN_H
#define PC_STORE_TESTRUN_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/* An apply's outcome; strings borrowed, NULL where unknown. */
struct pc_apply_row {
	int64_t series_id;
	int version;
	const char *tree, *base, *branch;
	const char *commits; /* hex ids, space-separated */
	int applied; /* 1 applied, 0 failed */
	int failed_patch;
	const char *file, *hunk, *reason;
	int64_t at;
};

/* A boot test's verdict; strings borrowed. */
struct pc_boot_row {
	int64_t series_id;
	int64_t apply_id; /* 0 when not from a stored apply */
	const char *commit_id;
	int passed;
	const char *reason, *checks, *timings, *console;
	const char *summary; /* one "result  name  detail" line per check */
	int64_t at;
};

int pc_testrun_add_apply(struct pc_store *st, const struct pc_apply_row *r,
			 int64_t *id_out, struct pc_err *err);

int pc_testrun_add_boot(struct pc_store *st, const struct pc_boot_row *r,
			int64_t *id_out, struct pc_err *err);

/*
 * The series' latest successful apply: its id, branch and last commit
 * (caller frees both). Returns 1, 0 when it was never applied, or a
 * negative code.
 */
int pc_testrun_last_apply(int64_t *id_out, char **branch_out, char **commit_out,
			  struct pc_store *st, int64_t series_id,
			  struct pc_err *err);

/*
 * The next accepted series to apply and test: the oldest posted by now
 * whose current version has no apply yet, in *series_out (0 when none);
 * and a series' version. Errors: PC_EDB.
 */
int pc_testrun_next(struct pc_store *st, int64_t now, int64_t *series_out,
		    struct pc_err *err);
int pc_testrun_version(struct pc_store *st, int64_t series_id,
		       int64_t *version_out, struct pc_err *err);

/* One apply or boot test, as listed; strings borrowed for the call. */
struct pc_testrun_info {
	int64_t series_id;
	int boot; /* 1 a boot test, 0 an apply */
	int ok; /* applied / passed */
	const char *what; /* the branch (apply) or commit (boot), or NULL */
	const char *reason, *summary; /* or NULL */
	int64_t at;
};

typedef int (*pc_testrun_fn)(const struct pc_testrun_info *t, void *arg);

/*
 * Calls fn for every apply and boot test, by series, then in the order
 * they were made; fn returning non-zero stops. Errors: PC_EDB.
 */
int pc_testrun_list(struct pc_store *st, pc_testrun_fn fn, void *arg,
		    struct pc_err *err);

#endif
