// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Section titles: which policy question a profile section is named
 * after (profile_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "util/util.h"
#include "util/banned.h"

static const struct {
	const char *title; /* normalised */
	enum pc_profile__title_kind kind;
	enum pc_prof_field field;
} titles[] = {
	{ "patches or pull requests", T_FIELD, PC_PROF_SUBMIT },
	{ "pull requests", T_FIELD, PC_PROF_SUBMIT },
	{ "patches or pull requests policy", T_FIELD, PC_PROF_SUBMIT },
	{ "last rc for new feature submissions", T_FIELD,
	  PC_PROF_NEW_FEATURES },
	{ "last day for new feature submissions", T_FIELD,
	  PC_PROF_NEW_FEATURES },
	{ "last rc for new features", T_FIELD, PC_PROF_NEW_FEATURES },
	{ "last day for new features", T_FIELD, PC_PROF_NEW_FEATURES },
	{ "new feature submissions", T_FIELD, PC_PROF_NEW_FEATURES },
	{ "last rc to merge features", T_FIELD, PC_PROF_MERGE_FEATURES },
	{ "last day to merge features", T_FIELD, PC_PROF_MERGE_FEATURES },
	{ "last rc for merging features", T_FIELD, PC_PROF_MERGE_FEATURES },
	{ "last rc to merge", T_FIELD, PC_PROF_MERGE_FEATURES },
	{ "non author ack review tags required", T_FIELD, PC_PROF_REVIEW },
	{ "non author review tags required", T_FIELD, PC_PROF_REVIEW },
	{ "ack review tags required", T_FIELD, PC_PROF_REVIEW },
	{ "review tags required", T_FIELD, PC_PROF_REVIEW },
	{ "review tags", T_FIELD, PC_PROF_REVIEW },
	{ "review requirements", T_FIELD, PC_PROF_REVIEW },
	{ "test suite", T_FIELD, PC_PROF_TEST_SUITE },
	{ "test suites", T_FIELD, PC_PROF_TEST_SUITE },
	{ "testing", T_FIELD, PC_PROF_TEST_SUITE },
	{ "tests", T_FIELD, PC_PROF_TEST_SUITE },
	{ "resubmit cadence", T_FIELD, PC_PROF_PING_AFTER },
	{ "review cadence", T_FIELD, PC_PROF_PING_AFTER },
	{ "resend cadence", T_FIELD, PC_PROF_PING_AFTER },
	{ "ping cadence", T_FIELD, PC_PROF_PING_AFTER },
	{ "patch resend or reminders", T_FIELD, PC_PROF_PING_AFTER },
	{ "resending patches", T_FIELD, PC_PROF_PING_AFTER },
	{ "minimum repost interval", T_FIELD, PC_PROF_REPOST_MIN },
	{ "repost interval", T_FIELD, PC_PROF_REPOST_MIN },
	{ "reminders", T_FIELD, PC_PROF_REMINDER },
	{ "reminder", T_FIELD, PC_PROF_REMINDER },
	{ "trusted reviewers", T_FIELD, PC_PROF_TRUSTED },
	{ "time zone office hours", T_FIELD, PC_PROF_OFFICE_HOURS },
	{ "time zones office hours", T_FIELD, PC_PROF_OFFICE_HOURS },
	{ "office hours time zone", T_FIELD, PC_PROF_OFFICE_HOURS },
	{ "office hours", T_FIELD, PC_PROF_OFFICE_HOURS },
	{ "time zone", T_FIELD, PC_PROF_OFFICE_HOURS },
	{ "timezone", T_FIELD, PC_PROF_OFFICE_HOURS },
	{ "checkpatch style cleanups", T_FIELD, PC_PROF_STYLE },
	{ "checkpatch style cleanup", T_FIELD, PC_PROF_STYLE },
	{ "style cleanups", T_FIELD, PC_PROF_STYLE },
	{ "style cleanup", T_FIELD, PC_PROF_STYLE },
	{ "style cleanup patches", T_FIELD, PC_PROF_STYLE },
	{ "coding style cleanups", T_FIELD, PC_PROF_STYLE },
	{ "off list review", T_FIELD, PC_PROF_OFF_LIST },
	{ "offlist review", T_FIELD, PC_PROF_OFF_LIST },
	{ "review tag attestation", T_FIELD, PC_PROF_ATTESTATION },
	{ "review attestation", T_FIELD, PC_PROF_ATTESTATION },
	{ "isa extensions", T_FIELD, PC_PROF_EXTENSIONS },
	{ "extensions", T_FIELD, PC_PROF_EXTENSIONS },
	{ "key cycle dates", T_DATES, 0 },
	{ "overview", T_INFO, 0 },
	{ "core", T_INFO, 0 },
	{ "leaf", T_INFO, 0 },
	{ "todo", T_INFO, 0 },
	{ "submit checklist addendum", T_TEXT, 0 },
	{ "coding style addendum", T_TEXT, 0 },
	{ "existing profiles", T_INFO, 0 },
	{ "short answers", T_INFO, 0 },
};

/* Lower case, every run of non-alphanumerics one blank, trimmed. */
static char *norm_title(const char *t)
{
	struct pc_buf b = PC_BUF_INIT;
	int blank = 1;

	for (; *t; t++) {
		unsigned char c = (unsigned char)*t;

		if (pc_isalnum(c) || c >= 0x80) {
			pc_buf_addch(&b, (char)pc_tolower(c));
			blank = 0;
		} else if (!blank) {
			pc_buf_addch(&b, ' ');
			blank = 1;
		}
	}
	pc_buf_rtrim(&b);
	return pc_buf_detach(&b, NULL);
}

enum pc_profile__title_kind pc_profile__classify_title(const char *title,
						       enum pc_prof_field *f,
						       int *testish)
{
	char *n;
	size_t k;
	enum pc_profile__title_kind kind = T_UNKNOWN;

	*testish = 0;
	if (!title)
		return T_INFO;
	n = norm_title(title);
	*testish = strstr(n, "test") != NULL || strstr(n, "checklist") != NULL;
	for (k = 0; k < PC_ARRAY_SIZE(titles); k++)
		if (!strcmp(n, titles[k].title)) {
			kind = titles[k].kind;
			*f = titles[k].field;
			break;
		}
	free(n);
	return kind;
}
