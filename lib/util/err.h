/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One error convention for libpatchclock: a failing function returns a
 * negative PC_E* code and, when given a struct pc_err, fills in a one-line,
 * lower-case message that names what failed.
 */
#ifndef PC_UTIL_ERR_H
#define PC_UTIL_ERR_H

#include <stddef.h>

enum {
	PC_OK = 0,
	PC_EIO = -1, /* reading or writing failed (errno in the text) */
	PC_EPARSE = -2, /* input is malformed */
	PC_ENOTFOUND = -3,
	PC_ELIMIT = -4, /* input exceeds an explicit limit */
	PC_EDB = -5, /* the SQLite store failed */
	PC_EUSAGE = -6, /* the caller asked for something invalid */
	PC_EGIT = -7, /* libgit2 failed */
	PC_EEXIST = -8,
	PC_ENET = -9, /* a network peer failed or went away: try again later */
	PC_EAUTH = -10, /* a peer refused our credentials or its certificate
			   failed verification: retrying will not help */
	/* a source is damaged part way (a corrupt or cut gzip stream):
	 * what was read before the damage is good */
	PC_EDAMAGED = -11,
	/* the database stayed locked by another process past the busy
	 * timeout: try again when it is done */
	PC_EBUSY = -12,
};

/* Whether code is a failure of the database (PC_EDB or PC_EBUSY), as
 * against one of the input or the request. */
static inline int pc_err_is_db(int code)
{
	return code == PC_EDB || code == PC_EBUSY;
}

struct pc_err {
	int code;
	char msg[256];
};

/*
 * Fills err (if not NULL) with code and a printf-formatted message, and
 * returns code, so callers can write `return pc_err_set(err, ...)`.
 */
int pc_err_set(struct pc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like pc_err_set() but appends ": strerror(errno)". */
int pc_err_errno(struct pc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like pc_err_set() but appends ": " and libgit2's message for its
 * last failure (err_git.c). */
int pc_err_git(struct pc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Adds context in front of an existing message ("<prefix>: <old>") and
 * returns err->code. The code is never changed.
 */
int pc_err_prefix(struct pc_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A short name for a code ("parse error", "i/o error"...). */
const char *pc_err_name(int code);

#endif
