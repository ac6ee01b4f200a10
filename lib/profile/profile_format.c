// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names and formatting of policy values (see profile.h).
 */
#include <assert.h>
#include <string.h>

#include "profile_internal.h"
#include "util/util.h"
#include "util/banned.h"

const char *pc_profile_source_name(enum pc_prof_source s)
{
	switch (s) {
	case PC_PROF_SRC_SHORT:
		return "short answer";
	case PC_PROF_SRC_PROSE:
		return "prose";
	case PC_PROF_SRC_OVERRIDE:
		return "override file";
	case PC_PROF_SRC_DEFAULT:
		return "default";
	case PC_PROF_SRC_MAINTAINERS:
		return "MAINTAINERS";
	case PC_PROF_SRC_NONE:
		break;
	}
	return "not stated";
}

const char *pc_profile_unit_name(enum pc_prof_unit u)
{
	static const char *const n[] = { NULL, "hours", "days", "business days",
					 "weeks" };

	return (size_t)u < PC_ARRAY_SIZE(n) ? n[u] : NULL;
}

void pc_profile_format_duration(struct pc_buf *out,
				const struct pc_prof_duration *d)
{
	const char *u = pc_profile_unit_name(d->unit);

	if (!u)
		return;
	if (d->count == 1)
		pc_buf_addf(out, "1 %.*s", (int)strlen(u) - 1, u);
	else
		pc_buf_addf(out, "%u %s", d->count, u);
}

void pc_profile_format_deadline(struct pc_buf *out,
				const struct pc_prof_deadline *d)
{
	switch (d->kind) {
	case PC_PROF_DL_RC:
		pc_buf_addf(out, "%s -rc%u", d->inclusive ? "by" : "before",
			    d->rc);
		break;
	case PC_PROF_DL_LAST_RC:
		pc_buf_addstr(out, "end of last -rc");
		break;
	case PC_PROF_DL_MERGE_WINDOW:
		if (d->lead.unit == PC_PROF_UNIT_NONE) {
			pc_buf_addstr(out, "before the merge window opens");
			break;
		}
		pc_profile_format_duration(out, &d->lead);
		pc_buf_addstr(out, " before the merge window");
		break;
	case PC_PROF_DL_NONE:
		break;
	}
}

static void format_days(struct pc_buf *out, unsigned days)
{
	static const char *const names[] = { "sun", "mon", "tue", "wed",
					     "thu", "fri", "sat" };
	int first = -1, last = -1, d, runs = 0;

	/* One contiguous run (Monday first): "mon-fri"; else a list. */
	for (d = 1; d <= 7; d++) {
		int in = (days >> (d % 7)) & 1;

		if (in && first < 0)
			first = d;
		if (in)
			last = d;
		if (in && (d == 1 || !((days >> ((d - 1) % 7)) & 1)))
			runs++;
	}
	if (runs == 1 && last > first) {
		pc_buf_addf(out, "%s-%s", names[first % 7], names[last % 7]);
		return;
	}
	for (d = 1; d <= 7; d++)
		if ((days >> (d % 7)) & 1)
			pc_buf_addf(out, "%s%s", out->len && runs ? "," : "",
				    names[d % 7]);
}

static void format_hours(struct pc_buf *out, const struct pc_prof_hours *h)
{
	if (h->days) {
		struct pc_buf d = PC_BUF_INIT;

		format_days(&d, h->days);
		pc_buf_addf(out, "%s ", d.buf);
		pc_buf_release(&d);
	}
	pc_buf_addf(out, "%02d:%02d-%02d:%02d", h->start / 60, h->start % 60,
		    h->end / 60, h->end % 60);
	if (h->zone[0])
		pc_buf_addf(out, " %s", h->zone);
}

static void format_people(struct pc_buf *out, const struct pc_prof_person *p,
			  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			pc_buf_addstr(out, ", ");
		if (p[i].name && p[i].addr)
			pc_buf_addf(out, "%s <%s>", p[i].name, p[i].addr);
		else
			pc_buf_addstr(out, p[i].name ? p[i].name : p[i].addr);
	}
}

/* Each enumerated field's names, from its list in policy.h. */
#define VALUE_NAME(e, name) [e] = name,
#define ENUM_NAME_CASE(field, values)                                       \
	case field: {                                                       \
		static const char *const n[] = { values(VALUE_NAME) };      \
                                                                            \
		return v > 0 && (size_t)v < PC_ARRAY_SIZE(n) ? n[v] : NULL; \
	}

const char *pc_profile_enum_name(enum pc_prof_field f, int v)
{
	switch (f) {
		PC_PROF_ENUM_FIELDS(ENUM_NAME_CASE)
	default:
		return NULL;
	}
}
#undef ENUM_NAME_CASE
#undef VALUE_NAME

/* Formatting a member, by kind: the cases come from the field table. */
#define FORMAT_DURATION(m) pc_profile_format_duration(out, &pol->m)
#define FORMAT_DEADLINE(m) pc_profile_format_deadline(out, &pol->m)
#define FORMAT_HOURS(m) format_hours(out, &pol->m)
#define FORMAT_PEOPLE(m) format_people(out, pol->m, pol->n_trusted)
#define FORMAT_TEST(m)                              \
	do {                                        \
		if (pol->m)                         \
			pc_buf_addstr(out, pol->m); \
	} while (0)
#define FORMAT_ENUM(m)                                                \
	do {                                                          \
		const char *s = pc_profile_enum_name(f, (int)pol->m); \
		if (s)                                                \
			pc_buf_addstr(out, s);                        \
	} while (0)
#define FORMAT(f, key, label, kind, member) \
	case f:                             \
		FORMAT_##kind(member);      \
		break;

void pc_profile_format(struct pc_buf *out, const struct pc_policy *pol,
		       enum pc_prof_field f)
{
	if (pol->from[f].kind == PC_PROF_SRC_NONE)
		return;
	switch (f) {
		PC_PROF_FIELDS(FORMAT)
	case PC_PROF_NFIELDS:
		assert(0);
	}
}
