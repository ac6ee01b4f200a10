/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Links to a message in the list's archive: a URL pattern with one "%s"
 * for the Message-ID (lore.kernel.org's by default). Mail, the CLI's
 * JSON, the dashboard and the Link: trailers of applied commits all
 * write them the same way.
 */
#ifndef PC_MAIL_ARCHIVE_H
#define PC_MAIL_ARCHIVE_H

#include "util/buf.h"
#include "util/err.h"

#define PC_ARCHIVE_DEFAULT "https://lore.kernel.org/r/%s"
#define PC_ARCHIVE_PATTERN_MAX 256 /* longer patterns are refused */

/* Whether pattern has exactly one "%s", at most PC_ARCHIVE_PATTERN_MAX
 * bytes and no spaces, controls or bytes above ASCII. */
int pc_archive_pattern_ok(const char *pattern);

/*
 * Appends the archive link for msgid (no brackets) to out: pattern
 * (NULL: PC_ARCHIVE_DEFAULT) with its "%s" replaced by msgid,
 * percent-encoded where a URL path needs it ('/', '%', '?', '#', ...).
 * Returns 0 or PC_EUSAGE when pattern is not pc_archive_pattern_ok()
 * (out unchanged).
 */
int pc_archive_url(struct pc_buf *out, const char *pattern, const char *msgid,
		   struct pc_err *err);

#endif
