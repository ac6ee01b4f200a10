// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The error convention's helpers: fixed-size messages, never truncated
 * silently into garbage (a cut message ends in "...").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "util/banned.h"

static void vset(struct pc_err *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vset(struct pc_err *err, const char *fmt, va_list ap)
{
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);

	if (n >= (int)sizeof(err->msg))
		memcpy(err->msg + sizeof(err->msg) - 4, "...", 4);
}

int pc_err_set(struct pc_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vset(err, fmt, ap);
	va_end(ap);
	return code;
}

int pc_err_errno(struct pc_err *err, int code, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t len;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vset(err, fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	if (len < sizeof(err->msg) - 1)
		snprintf(err->msg + len, sizeof(err->msg) - len, ": %s",
			 strerror(saved));
	return code;
}

int pc_err_prefix(struct pc_err *err, const char *fmt, ...)
{
	char prefix[sizeof(err->msg)], old[sizeof(err->msg)];
	va_list ap;
	int n;

	if (!err)
		return PC_EUSAGE;
	va_start(ap, fmt);
	n = vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	if (n < 0)
		return err->code;
	memcpy(old, err->msg, sizeof(old));
	n = snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old);
	if (n >= (int)sizeof(err->msg))
		memcpy(err->msg + sizeof(err->msg) - 4, "...", 4);
	return err->code;
}

const char *pc_err_name(int code)
{
	switch (code) {
	case PC_OK:
		return "ok";
	case PC_EIO:
		return "i/o error";
	case PC_EPARSE:
		return "parse error";
	case PC_ENOTFOUND:
		return "not found";
	case PC_ELIMIT:
		return "limit exceeded";
	case PC_EDB:
		return "database error";
	case PC_EUSAGE:
		return "usage error";
	case PC_EGIT:
		return "git error";
	case PC_EEXIST:
		return "already exists";
	case PC_ENET:
		return "network error";
	case PC_EAUTH:
		return "authentication error";
	case PC_EDAMAGED:
		return "damaged input";
	case PC_EBUSY:
		return "database busy";
	}
	return "unknown error";
}
