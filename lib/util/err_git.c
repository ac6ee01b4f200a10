// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pc_err_git(): an error with libgit2's own message. See err.h. Kept
 * apart from err.c so that what links only the error functions does not
 * pull in libgit2.
 */
#include <git2.h>
#include <stdarg.h>
#include <stdio.h>

#include "util/err.h"
#include "util/banned.h"

int pc_err_git(struct pc_err *err, int code, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	char what[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return code;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pc_err_set(err, code, "%s: %s", what,
			  e && e->message ? e->message : "libgit2 error");
}
