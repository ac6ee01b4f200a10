// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Links to a message in the list's archive. See archive.h.
 */
#include <string.h>

#include "mail/archive.h"
#include "util/util.h"
#include "util/banned.h"

int pc_archive_pattern_ok(const char *pat)
{
	const char *s;
	size_t i, n = strlen(pat);

	if (n > PC_ARCHIVE_PATTERN_MAX || !(s = strstr(pat, "%s")) ||
	    strstr(s + 2, "%s"))
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)pat[i] <= 0x20 ||
		    (unsigned char)pat[i] >= 0x7f)
			return 0;
	return 1;
}

int pc_archive_url(struct pc_buf *out, const char *pattern, const char *msgid,
		   struct pc_err *err)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";
	const char *s;
	size_t i, n = msgid ? strlen(msgid) : 0;

	if (!pattern)
		pattern = PC_ARCHIVE_DEFAULT;
	if (!pc_archive_pattern_ok(pattern))
		return pc_err_set(err, PC_EUSAGE,
				  "invalid archive url pattern: it needs one "
				  "'%%s' and no spaces");
	s = strstr(pattern, "%s");
	pc_buf_add(out, pattern, (size_t)(s - pattern));
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)msgid[i];

		if (pc_isalnum(c) || strchr(keep, c))
			pc_buf_addch(out, c);
		else
			pc_buf_addf(out, "%%%02X", c);
	}
	pc_buf_addstr(out, s + 2);
	return 0;
}
