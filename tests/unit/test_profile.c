// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/profile/{rst,phrase,profile,override}: RST structure
 * (heading levels by first use, what is not a heading, markup), every
 * phrase the issue lists, short answers from the 2018 seed profile,
 * provenance of each kind, unrecognised sections, override files (and
 * their errors with line numbers), P: paths that leave the tree, and
 * hostile input fed from exactly-sized buffers so that ASan sees any
 * over-read.
 */
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/phrase.h"
#include "profile/profile.h"
#include "profile/rst.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

/* An exactly-sized heap copy, without a NUL. */
static char *exact(const char *s, size_t len)
{
	char *p = xmalloc(len ? len : 1);

	memcpy(p, s, len);
	return p;
}

static struct pc_profile *parse_doc(const char *text)
{
	size_t len = strlen(text);
	char *t = exact(text, len);
	struct pc_profile *p;
	struct pc_err err = { 0 };

	assert_int_equal(pc_profile_parse(&p, t, len, "doc.rst", NULL, &err),
			 0);
	free(t);
	return p;
}

/* Field f of p formatted (caller frees). */
static char *fmt(const struct pc_profile *p, enum pc_prof_field f)
{
	struct pc_buf b = PC_BUF_INIT;

	pc_profile_format(&b, &p->policy, f);
	return pc_buf_detach(&b, NULL);
}

static void assert_field(const struct pc_profile *p, enum pc_prof_field f,
			 const char *value, enum pc_prof_source kind)
{
	char *v = fmt(p, f);

	if (strcmp(v, value) != 0 || p->policy.from[f].kind != kind)
		fail_msg("%s: got '%s' (%s), want '%s' (%s)",
			 pc_profile_field_key(f), v,
			 pc_profile_source_name(p->policy.from[f].kind), value,
			 pc_profile_source_name(kind));
	free(v);
}

static int has_note(const struct pc_profile *p, const char *needle)
{
	size_t i;

	for (i = 0; i < p->n_notes; i++)
		if (strstr(p->notes[i], needle))
			return 1;
	return 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* ---- RST ---- */

static void test_profile__rst_levels_by_first_use(void **state)
{
	static const char doc[] = "=====\n"
				  "Title\n"
				  "=====\n"
				  "\n"
				  "intro\n"
				  "\n"
				  "A\n"
				  "~~~~\n"
				  "\n"
				  "body a\n"
				  "\n"
				  "B\n"
				  "----\n"
				  "body b\n"
				  "\n"
				  "C\n"
				  "~~~~\n"
				  "\n"
				  "Title again\n"
				  "===========\n"
				  "text\n";
	struct pc_rst_doc *d;
	struct pc_err err = { 0 };
	char *t = exact(doc, sizeof(doc) - 1);

	(void)state;
	assert_int_equal(pc_rst_parse(&d, t, sizeof(doc) - 1, &err), 0);
	assert_int_equal(d->n_sec, 6);
	assert_string_equal(d->sec[1].title, "Title");
	assert_int_equal(d->sec[1].level, 1); /* overlined '=' */
	assert_int_equal(d->sec[1].line, 2);
	assert_int_equal(d->sec[2].level, 2); /* '~' came next */
	assert_int_equal(d->sec[3].level, 3); /* then '-' */
	assert_int_equal(d->sec[3].parent, 2);
	assert_int_equal(d->sec[4].level, 2);
	assert_int_equal(d->sec[4].parent, 1);
	/* Underlined '=' is a new style: overlines count. */
	assert_int_equal(d->sec[5].level, 4);
	assert_int_equal(d->sec[3].n_paras, 1);
	assert_string_equal(d->para[d->sec[3].first_para].text, "body b");
	assert_int_equal(pc_rst_subtree_end(d, 2), 3);
	pc_rst_doc_free(d);
	free(t);
}

static void test_profile__rst_not_headings(void **state)
{
	static const char doc[] = "Short\n"
				  "--\n"
				  "\n"
				  "Example::\n"
				  "\n"
				  "    Literal\n"
				  "    -------\n"
				  "    not read\n"
				  "\n"
				  ".. a comment\n"
				  "   that goes on\n"
				  "\n"
				  ".. _the-label:\n"
				  "\n"
				  "Real One\n"
				  "--------\n"
				  "- first item\n"
				  "  continued\n"
				  "- second item\n"
				  "\n"
				  ".. note::\n"
				  "   A note is prose.\n"
				  "\n"
				  "=====  =====\n"
				  "a      b\n"
				  "=====  =====\n";
	struct pc_rst_doc *d;
	struct pc_err err = { 0 };
	char *t = exact(doc, sizeof(doc) - 1);
	size_t i;

	(void)state;
	assert_int_equal(pc_rst_parse(&d, t, sizeof(doc) - 1, &err), 0);
	/* "Short" over "--" is text: the underline is shorter than the
	 * title and than 4 characters. */
	assert_int_equal(d->n_sec, 2);
	assert_string_equal(d->sec[1].title, "Real One");
	assert_int_equal(d->sec[0].n_paras, 2);
	assert_string_equal(d->para[0].text, "Short\n--");
	assert_string_equal(d->para[1].text, "Example:");
	for (i = 0; i < d->n_para; i++) {
		assert_null(strstr(d->para[i].text, "Literal"));
		assert_null(strstr(d->para[i].text, "comment"));
	}
	assert_int_equal(pc_rst_find_label(d, "THE-LABEL"), 1);
	assert_int_equal(pc_rst_find_label(d, "other"), PC_RST_NONE);
	assert_int_equal(d->sec[1].n_paras, 4);
	assert_true(d->para[d->sec[1].first_para].item);
	assert_string_equal(d->para[d->sec[1].first_para].text,
			    "first item\ncontinued");
	assert_string_equal(d->para[d->sec[1].first_para + 2].text,
			    "A note is prose.");
	assert_string_equal(d->para[d->sec[1].first_para + 3].text, "a      b");
	assert_int_equal(pc_rst_para_line(&d->para[d->sec[1].first_para], 11),
			 18);
	pc_rst_doc_free(d);
	free(t);
}

static void strip_eq(const char *in, const char *want)
{
	struct pc_buf b = PC_BUF_INIT;
	char *t = exact(in, strlen(in));

	pc_rst_strip(&b, t, strlen(in), NULL, NULL);
	if (strcmp(b.buf, want) != 0)
		fail_msg("strip '%s': got '%s', want '%s'", in, b.buf, want);
	pc_buf_release(&b);
	free(t);
}

static void test_profile__rst_markup(void **state)
{
	struct pc_rst_ref *refs = NULL;
	struct pc_buf b = PC_BUF_INIT;
	size_t n = 0, i;
	static const char refs_in[] =
		"See :ref:`Documentation/process/ <submittingpatches>` and "
		":ref:`resend_reminders`, :doc:`/process/howto`.";

	(void)state;
	strip_eq("Run ``make check`` now", "Run make check now");
	strip_eq("*at* *least* a week", "at least a week");
	strip_eq("**bold** text", "bold text");
	strip_eq("`ndctl <https://github.com/pmem/ndctl>`_",
		 "ndctl <https://github.com/pmem/ndctl>");
	strip_eq("`the tests`_ pass", "the tests pass");
	strip_eq(":c:func:`kmalloc` fails", "kmalloc fails");
	strip_eq("bindings/media/\\ [1]_", "bindings/media/");
	strip_eq("drivers/nvdimm/\\*_devs.c", "drivers/nvdimm/*_devs.c");
	/* Unbalanced or not markup at all: kept as written. */
	strip_eq("*foo", "*foo");
	strip_eq("`x", "`x");
	strip_eq("2 * 3 * 4", "2 * 3 * 4");
	strip_eq("a ``b", "a ``b");
	strip_eq("F: drivers/net/*", "F: drivers/net/*");
	pc_rst_strip(&b, refs_in, strlen(refs_in), &refs, &n);
	assert_string_equal(b.buf, "See Documentation/process/ and "
				   "resend_reminders, /process/howto.");
	assert_int_equal(n, 3);
	assert_string_equal(refs[0].target, "submittingpatches");
	assert_false(refs[0].is_doc);
	assert_string_equal(refs[1].target, "resend_reminders");
	assert_string_equal(refs[2].target, "/process/howto");
	assert_true(refs[2].is_doc);
	for (i = 0; i < n; i++)
		free(refs[i].target);
	free(refs);
	pc_buf_release(&b);
}

/* ---- phrases ---- */

struct dur_case {
	const char *in;
	unsigned count;
	enum pc_prof_unit unit;
};

static void test_profile__durations(void **state)
{
	static const struct dur_case ok[] = {
		{ "8 business days", 8, PC_PROF_UNIT_BUSINESS_DAYS },
		{ "up to one week", 1, PC_PROF_UNIT_WEEKS },
		{ "within a week", 1, PC_PROF_UNIT_WEEKS },
		{ "a couple of weeks", 2, PC_PROF_UNIT_WEEKS },
		{ "a minimum of one week", 1, PC_PROF_UNIT_WEEKS },
		{ "24h", 24, PC_PROF_UNIT_HOURS },
		{ "at least a week", 1, PC_PROF_UNIT_WEEKS },
		{ "1 - 2 weeks", 2, PC_PROF_UNIT_WEEKS },
		{ "48 hours.", 48, PC_PROF_UNIT_HOURS },
		{ "3 working days", 3, PC_PROF_UNIT_BUSINESS_DAYS },
		{ "5 weekdays", 5, PC_PROF_UNIT_BUSINESS_DAYS },
		{ "a fortnight", 2, PC_PROF_UNIT_WEEKS },
		{ "10 Days", 10, PC_PROF_UNIT_DAYS },
		{ "One Week", 1, PC_PROF_UNIT_WEEKS },
	};
	static const char *const bad[] = {
		"",	      "soon",
		"a few days", "-rc5",
		"2.5 weeks",  "0 days",
		"week",	      "8 business",
		"24 h ago",   "one 24h period",
		"12345 days", "8 business hoursx",
	};
	struct pc_prof_duration d;
	struct pc_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(ok); i++) {
		char *t = exact(ok[i].in, strlen(ok[i].in));

		if (pc_phrase_duration(&d, t, strlen(ok[i].in), &err) < 0)
			fail_msg("'%s': %s", ok[i].in, err.msg);
		if (d.count != ok[i].count || d.unit != ok[i].unit)
			fail_msg("'%s': got %u/%d", ok[i].in, d.count, d.unit);
		free(t);
	}
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++) {
		char *t = exact(bad[i], strlen(bad[i]));

		if (pc_phrase_duration(&d, t, strlen(bad[i]), &err) !=
		    PC_EPARSE)
			fail_msg("'%s' read as %u/%d", bad[i], d.count, d.unit);
		free(t);
	}
	assert_non_null(strstr(err.msg, "is not a duration"));
}

struct dl_case {
	const char *in;
	enum pc_prof_deadline_kind kind;
	unsigned rc;
	int inclusive;
};

static void test_profile__deadlines(void **state)
{
	static const struct dl_case ok[] = {
		{ "before -rc4", PC_PROF_DL_RC, 4, 0 },
		{ "by -rc6", PC_PROF_DL_RC, 6, 1 },
		{ "Before -rc5", PC_PROF_DL_RC, 5, 0 },
		{ "End of last -rc", PC_PROF_DL_LAST_RC, 0, 0 },
		{ "end of the last -rc.", PC_PROF_DL_LAST_RC, 0, 0 },
		{ "last -rc", PC_PROF_DL_LAST_RC, 0, 0 },
		{ "prior to rc3", PC_PROF_DL_RC, 3, 0 },
		{ "no later than -rc 7", PC_PROF_DL_RC, 7, 1 },
		{ "before the -rc5", PC_PROF_DL_RC, 5, 0 },
	};
	static const char *const bad[] = {
		"-rc5",
		"rc5",
		"after -rc6",
		"before -rc0",
		"before -rc99",
		"by Friday",
		"before -rc5 or so",
		"sometime before -rc5",
		"",
	};
	struct pc_prof_deadline d;
	struct pc_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(ok); i++) {
		if (pc_phrase_deadline(&d, ok[i].in, strlen(ok[i].in), &err) <
		    0)
			fail_msg("'%s': %s", ok[i].in, err.msg);
		if (d.kind != ok[i].kind || d.rc != ok[i].rc ||
		    d.inclusive != ok[i].inclusive)
			fail_msg("'%s': got %d %u %d", ok[i].in, d.kind, d.rc,
				 d.inclusive);
	}
	assert_int_equal(pc_phrase_deadline(&d,
					    "at least a week before the merge "
					    "window opens",
					    45, &err),
			 0);
	assert_int_equal(d.kind, PC_PROF_DL_MERGE_WINDOW);
	assert_int_equal(d.lead.count, 1);
	assert_int_equal(d.lead.unit, PC_PROF_UNIT_WEEKS);
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++)
		if (pc_phrase_deadline(&d, bad[i], strlen(bad[i]), &err) !=
		    PC_EPARSE)
			fail_msg("'%s' read as a deadline", bad[i]);
}

struct hours_case {
	const char *in;
	unsigned days;
	int start, end;
	const char *zone;
};

static void test_profile__office_hours_and_zones(void **state)
{
	static const struct hours_case ok[] = {
		{ "8:00am to 5:00pm Pacific Time Zone", 0, 480, 1020,
		  "America/Los_Angeles" },
		{ "Mon-Fri 09:00-17:00 Europe/Berlin", PC_PROF_WEEKDAYS, 540,
		  1020, "Europe/Berlin" },
		{ "9am-5pm CET, Monday through Friday", PC_PROF_WEEKDAYS, 540,
		  1020, "Europe/Berlin" },
		{ "10:00 to 18:00 UTC+2", 0, 600, 1080, "Etc/GMT-2" },
		{ "noon to midnight Eastern", 0, 720, 1440,
		  "America/New_York" },
		{ "weekdays 8:30-16:30 america/new_york", PC_PROF_WEEKDAYS, 510,
		  990, "America/New_York" },
		{ "Sat-Sun 10:00-12:00", 0x41, 600, 720, "" },
		{ "8 a.m. to 5 p.m. PST", 0, 480, 1020, "America/Los_Angeles" },
	};
	static const char *const bad[] = {
		"whenever",
		"5pm to 8am PT",
		"8:00am to 5:00pm Mars Time",
		"25:00-26:00 UTC",
		"8 to 5 Pacific",
		"",
	};
	static const struct {
		const char *in, *zone;
	} zones[] = {
		{ "PST", "America/Los_Angeles" },
		{ "Pacific Time (PT)", "America/Los_Angeles" },
		{ "Central European Time", "Europe/Berlin" },
		{ "GMT-5", "Etc/GMT+5" },
		{ "UTC", "UTC" },
		{ "Asia/Kolkata", "Asia/Kolkata" },
		{ "in the US/Eastern time zone", "America/New_York" },
		{ "US/Eastern", "US/Eastern" },
	};
	struct pc_prof_hours h;
	struct pc_err err = { 0 };
	char z[PC_PROFILE_ZONE_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(ok); i++) {
		char *t = exact(ok[i].in, strlen(ok[i].in));

		if (pc_phrase_hours(&h, t, strlen(ok[i].in), &err) < 0)
			fail_msg("'%s': %s", ok[i].in, err.msg);
		if (h.days != ok[i].days || h.start != ok[i].start ||
		    h.end != ok[i].end || strcmp(h.zone, ok[i].zone) != 0)
			fail_msg("'%s': got %x %d-%d '%s'", ok[i].in, h.days,
				 h.start, h.end, h.zone);
		free(t);
	}
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++)
		if (pc_phrase_hours(&h, bad[i], strlen(bad[i]), &err) !=
		    PC_EPARSE)
			fail_msg("'%s' read as office hours", bad[i]);
	for (i = 0; i < PC_ARRAY_SIZE(zones); i++) {
		if (pc_phrase_zone(z, sizeof(z), zones[i].in,
				   strlen(zones[i].in)) < 0)
			fail_msg("zone '%s' not found", zones[i].in);
		assert_string_equal(z, zones[i].zone);
	}
	assert_int_equal(pc_phrase_zone(z, sizeof(z), "nowhere", 7),
			 PC_ENOTFOUND);
}

struct prose_case {
	enum pc_prof_field f;
	const char *sentence;
	const char *want; /* formatted value, or NULL: nothing found */
};

static void test_profile__prose(void **state)
{
	static const struct prose_case cases[] = {
		{ PC_PROF_PING_AFTER,
		  "In general, please wait up to one week before pinging for "
		  "feedback.",
		  "1 week" },
		{ PC_PROF_PING_AFTER,
		  "Do not hesitate to send a ping if you have not heard back "
		  "within a week of sending a patch.",
		  "1 week" },
		{ PC_PROF_PING_AFTER,
		  "Feel free to ping if you don't get a feedback in a couple "
		  "of weeks",
		  "2 weeks" },
		{ PC_PROF_PING_AFTER,
		  "Wait for a minimum of one week before resubmitting or "
		  "pinging reviewers",
		  "1 week" },
		{ PC_PROF_PING_AFTER,
		  "You should receive comments within a week or so", NULL },
		{ PC_PROF_PING_AFTER,
		  "don't repost your patches within one 24h period", NULL },
		{ PC_PROF_REPOST_MIN,
		  "don't repost your patches within one 24h period",
		  "24 hours" },
		{ PC_PROF_REPOST_MIN,
		  "Allow at least 24 hours to pass between postings.",
		  "24 hours" },
		{ PC_PROF_NEW_FEATURES,
		  "they should be sent before -rc4, and ideally stabilized in "
		  "the libnvdimm-for-next branch by -rc6.",
		  "before -rc4" },
		{ PC_PROF_MERGE_FEATURES,
		  "they should be sent before -rc4, and ideally stabilized in "
		  "the libnvdimm-for-next branch by -rc6.",
		  "by -rc6" },
		{ PC_PROF_NEW_FEATURES,
		  "Such patches should be submitted in mergeable state *at* "
		  "*least* a week before the merge window opens.",
		  "1 week before the merge window" },
		/* No such tag as "-rc-3". */
		{ PC_PROF_NEW_FEATURES,
		  "New features should be sent before -rc-3.", NULL },
		{ PC_PROF_NEW_FEATURES,
		  "New features should be sent before rc 3.", "before -rc3" },
		{ PC_PROF_NEW_FEATURES,
		  "Of course if a patch set requires more than 2 weeks of "
		  "review, -rc4 is already too late.",
		  NULL },
		{ PC_PROF_MERGE_FEATURES,
		  "we don't usually add new patches to the development tree "
		  "between -rc6 and the next -rc1.",
		  NULL },
		{ PC_PROF_REVIEW,
		  "authors should additionally expect to require reviews from "
		  "at least one of the listed reviewers.",
		  "reviewers" },
		{ PC_PROF_REVIEW,
		  "If a patch set requires more than 2 weeks of review, -rc4 is "
		  "already too late.",
		  NULL },
		{ PC_PROF_SUBMIT,
		  "Pull requests for new patch submissions are usually not "
		  "accepted.",
		  "patches" },
		{ PC_PROF_SUBMIT,
		  "The tip maintainers accept git pull requests from maintainers "
		  "who provide subsystem changes.",
		  NULL },
		{ PC_PROF_SUBMIT, "Style cleanups are not welcome.", NULL },
		{ PC_PROF_STYLE,
		  "Style cleanups are welcome when they come together with "
		  "other changes at the files where the style changes will "
		  "affect.",
		  "with-changes" },
		{ PC_PROF_STYLE,
		  "Standalone style-cleanups to existing code are not welcome.",
		  "unwelcome" },
		{ PC_PROF_REMINDER, "A private mail reminder is preferred.",
		  "private" },
		{ PC_PROF_REMINDER,
		  "Feel free to ping or to ask other developers to publicly add "
		  "Reviewed-by tags.",
		  NULL },
		{ PC_PROF_OFF_LIST,
		  "Review tags given off-list are not trusted.", "distrusted" },
		{ PC_PROF_OFFICE_HOURS,
		  "We monitor the list from 8:00am to 5:00pm Pacific Time "
		  "Zone.",
		  "08:00-17:00 America/Los_Angeles" },
		{ PC_PROF_TEST_SUITE,
		  "There are unit tests via the ndctl utility: "
		  "https://github.com/pmem/ndctl",
		  "There are unit tests via the ndctl utility: "
		  "https://github.com/pmem/ndctl" },
	};
	struct pc_buf b = PC_BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(cases); i++) {
		const struct prose_case *c = &cases[i];
		struct pc_phrase_value v;
		struct pc_policy pol;
		struct pc_buf in = PC_BUF_INIT;
		char *t;
		int found;

		/* Through the markup stripper, as profile.c reads prose. */
		pc_rst_strip(&in, c->sentence, strlen(c->sentence), NULL, NULL);
		t = exact(in.buf, in.len);
		found = pc_phrase_prose(&v, c->f, t, in.len, 0);
		free(t);
		pc_buf_release(&in);
		if (!c->want) {
			if (found)
				fail_msg("%s found in '%s'",
					 pc_profile_field_key(c->f),
					 c->sentence);
			continue;
		}
		if (!found)
			fail_msg("%s not found in '%s'",
				 pc_profile_field_key(c->f), c->sentence);
		memset(&pol, 0, sizeof(pol));
		pc_phrase_value_store(&pol, c->f, &v);
		pol.from[c->f].kind = PC_PROF_SRC_PROSE;
		pc_buf_reset(&b);
		pc_profile_format(&b, &pol, c->f);
		if (strcmp(b.buf, c->want) != 0)
			fail_msg("%s in '%s': got '%s', want '%s'",
				 pc_profile_field_key(c->f), c->sentence, b.buf,
				 c->want);
		free(pol.test_suite);
		free(pol.test_url);
	}
	pc_buf_release(&b);
	assert_true(pc_phrase_is_example("for example \"1 week\"", 20));
	assert_true(pc_phrase_is_example("State \"Patches only\", or \"Pull "
					 "requests accepted\".",
					 50));
	assert_false(pc_phrase_is_example("Patches only.", 13));
}

struct collected {
	char s[8][64];
	size_t n;
};

static int collect(void *arg, size_t off, size_t len)
{
	struct collected *c = arg;

	if (c->n < 8)
		snprintf(c->s[c->n], sizeof(c->s[0]), "%zu+%zu", off, len);
	c->n++;
	return 0;
}

static void test_profile__sentences(void **state)
{
	static const char t[] = "One e.g. two. Three?  Four! 5.10 is a "
				"version. Last";
	struct collected c = { { { 0 } }, 0 };

	(void)state;
	pc_phrase_sentences(t, strlen(t), collect, &c);
	/* "e.g." and "5.10" do not end a sentence. */
	assert_int_equal(c.n, 5);
	assert_string_equal(c.s[0], "0+13"); /* One e.g. two. */
	assert_string_equal(c.s[1], "14+6"); /* Three? */
	assert_string_equal(c.s[2], "22+5"); /* Four! */
	assert_string_equal(c.s[3], "28+18"); /* 5.10 is a version. */
	assert_string_equal(c.s[4], "47+4"); /* Last */
}

/* ---- profiles ---- */

/* The seed RFC's libnvdimm profile (2018 names, short answers), taken
 * from the patch's added lines. */
static char *seed_profile(size_t *len)
{
	struct pc_buf in = PC_BUF_INIT, out = PC_BUF_INIT;
	const char *p, *end;
	int on = 0;

	t_read_file(&in, t_data("seeds/004-patch-libnvdimm-maintainers-"
				"subsystem-profile.patch"));
	p = in.buf;
	end = in.buf + in.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n >= 6 && !memcmp(p, "+++ b/", 6))
			on = n > 6 && pc_mem_starts(p + 6, n - 6,
						    "Documentation/nvdimm/");
		else if (n >= 4 && !memcmp(p, "diff", 4))
			on = 0;
		else if (on && n && p[0] == '+') {
			pc_buf_add(&out, p + 1, n - 1);
			pc_buf_addch(&out, '\n');
		}
		if (!nl)
			break;
		/* The seed holds the patch three times; one is enough. */
		if (n >= 7 && !memcmp(p, "WARNING", 7) && out.len)
			break;
		p = nl + 1;
	}
	pc_buf_release(&in);
	return pc_buf_detach(&out, len);
}

static void test_profile__seed_short_answers(void **state)
{
	struct pc_profile *p;
	struct pc_err err = { 0 };
	size_t len, i;
	char *doc = seed_profile(&len);
	char *t = exact(doc, len);
	const struct pc_prof_origin *o;

	(void)state;
	assert_true(len > 1000);
	assert_int_equal(pc_profile_parse(&p, t, len, "seed.rst", NULL, &err),
			 0);
	assert_field(p, PC_PROF_SUBMIT, "patches", PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_NEW_FEATURES, "before -rc5", PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_MERGE_FEATURES, "end of last -rc",
		     PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_REVIEW, "non-author", PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_PING_AFTER, "8 business days",
		     PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_OFFICE_HOURS, "08:00-17:00 America/Los_Angeles",
		     PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_STYLE, "welcome", PC_PROF_SRC_SHORT);
	assert_field(
		p, PC_PROF_TRUSTED,
		"Johannes Thumshirn, Toshi Kani, Jeff Moyer, Robert Elliott",
		PC_PROF_SRC_SHORT);
	assert_string_equal(p->policy.test_url,
			    "https://github.com/pmem/ndctl");
	assert_int_equal(p->policy.from[PC_PROF_TEST_SUITE].kind,
			 PC_PROF_SRC_SHORT);
	assert_int_equal(p->policy.from[PC_PROF_REPOST_MIN].kind,
			 PC_PROF_SRC_NONE);
	assert_int_equal(p->policy.from[PC_PROF_OFF_LIST].kind,
			 PC_PROF_SRC_NONE);
	/* Provenance of a short answer: file, heading, line, the answer. */
	o = &p->policy.from[PC_PROF_PING_AFTER];
	assert_string_equal(o->file, "seed.rst");
	assert_string_equal(o->heading, "Resubmit Cadence");
	assert_string_equal(o->quote, "8 business days");
	assert_null(o->via);
	for (i = 0; i < len; i++)
		if (!strncmp(doc + i, "\n8 business days\n", 17))
			break;
	assert_true(i < len);
	{
		unsigned line = 2;
		size_t k;

		for (k = 0; k < i; k++)
			line += doc[k] == '\n';
		assert_int_equal(o->line, line);
	}
	o = &p->policy.from[PC_PROF_NEW_FEATURES];
	assert_string_equal(o->heading, "Last day for new feature submissions");
	/* Nothing unread: Overview and Core are introductions. */
	assert_int_equal(p->n_unread, 0);
	assert_int_equal(p->n_notes, 0);
	pc_profile_free(p);
	free(t);
	free(doc);
}

static void test_profile__synonyms_and_case(void **state)
{
	struct pc_profile *p = parse_doc(
		"Profile\n"
		"=======\n"
		"\n"
		"REVIEW CADENCE\n"
		"~~~~~~~~~~~~~~\n"
		"2 weeks\n"
		"\n"
		"last -RC for new feature submissions\n"
		"~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
		"By -rc3\n"
		"\n"
		"Last day to merge features\n"
		"~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
		"``Before -rc6``\n"
		"\n"
		"Checkpatch / Style cleanups\n"
		"~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
		"Style-cleanups to existing code only welcome with other "
		"feature changes\n"
		"\n"
		"Off-list review\n"
		"~~~~~~~~~~~~~~~\n"
		"Developers from organization X, please seek internal review "
		"before requesting upstream review.\n");

	(void)state;
	assert_field(p, PC_PROF_PING_AFTER, "2 weeks", PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_NEW_FEATURES, "by -rc3", PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_MERGE_FEATURES, "before -rc6",
		     PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_STYLE, "with-changes", PC_PROF_SRC_SHORT);
	assert_field(p, PC_PROF_OFF_LIST, "required", PC_PROF_SRC_SHORT);
	assert_string_equal(p->policy.from[PC_PROF_PING_AFTER].heading,
			    "REVIEW CADENCE");
	pc_profile_free(p);
}

static void test_profile__core_answers_are_noted(void **state)
{
	struct pc_profile *p =
		parse_doc("Last -rc for new feature submissions\n"
			  "------------------------------------\n"
			  "Before -rc5\n"
			  "Core: Before -rc4\n");

	(void)state;
	assert_field(p, PC_PROF_NEW_FEATURES, "before -rc5", PC_PROF_SRC_SHORT);
	assert_true(has_note(p, "doc.rst:4 \"Last -rc for new feature "
				"submissions\": 'Core: Before -rc4' answers "
				"for core files only"));
	pc_profile_free(p);
}

static void test_profile__prose_provenance_and_conflict(void **state)
{
	struct pc_profile *p = parse_doc(
		"Foo profile\n"
		"===========\n"
		"\n"
		"Review Cadence\n"
		"--------------\n"
		"Please wait up to one week before pinging. A private\n"
		"mail reminder is preferred.\n"
		"\n"
		"Resubmit Cadence\n"
		"----------------\n"
		"8 business days\n");
	const struct pc_prof_origin *o;

	(void)state;
	/* The short answer wins over prose, and the disagreement is
	 * noted. */
	assert_field(p, PC_PROF_PING_AFTER, "8 business days",
		     PC_PROF_SRC_SHORT);
	assert_int_equal(p->policy.from[PC_PROF_PING_AFTER].line, 11);
	assert_int_equal(p->n_notes, 1);
	assert_true(has_note(p, "'8 business days'"));
	assert_true(has_note(p, "doc.rst:6 says '1 week'"));
	/* Prose: the sentence quoted, its line, its section. */
	assert_field(p, PC_PROF_REMINDER, "private", PC_PROF_SRC_PROSE);
	o = &p->policy.from[PC_PROF_REMINDER];
	assert_string_equal(o->quote, "A private mail reminder is preferred.");
	assert_int_equal(o->line, 6);
	assert_string_equal(o->heading, "Review Cadence");
	pc_profile_free(p);
}

/* The fields netdev, tip, doc-guide and media state in their own words. */
static void test_profile__handbook_fields(void **state)
{
	struct pc_profile *p = parse_doc(
		"Handbook\n"
		"========\n"
		"\n"
		"Cadence\n"
		"-------\n"
		"At the beginning of the 2-week merge window, the net-next\n"
		"tree will be closed - no new changes/features.\n"
		"\n"
		"What level of testing is expected before I submit?\n"
		"--------------------------------------------------\n"
		"Contact the list if you need help getting the test\n"
		"environment set up. At the very minimum your changes must\n"
		"survive an allmodconfig build with W=1. Code should be\n"
		"tested. Ideally you will have run selftests.\n"
		"\n"
		"Media maintainers\n"
		"-----------------\n"
		"We have senior developers that are responsible for doing\n"
		"the code reviews:\n"
		"\n"
		"- HDMI CEC:\n"
		"    Hans Verkuil <hverkuil@xs4all.nl>\n"
		"- Sensor drivers:\n"
		"    Sakari Ailus <sakari.ailus@linux.intel.com>\n"
		"- V4L2 drivers:\n"
		"    Hans Verkuil <hverkuil@xs4all.nl>\n"
		"\n"
		"Contacts\n"
		"--------\n"
		"Send questions to Jane Doe <jane@example.org>.\n");
	const struct pc_policy *pol = &p->policy;

	(void)state;
	assert_field(p, PC_PROF_NEW_FEATURES, "before the merge window opens",
		     PC_PROF_SRC_PROSE);
	assert_int_equal(pol->new_features.kind, PC_PROF_DL_MERGE_WINDOW);
	assert_int_equal(pol->new_features.lead.count, 0);
	/* The rule's two sentences; not the request for help, not the
	 * wish. */
	assert_field(p, PC_PROF_TEST_SUITE,
		     "At the very minimum your changes must survive an "
		     "allmodconfig build with W=1. Code should be tested.",
		     PC_PROF_SRC_PROSE);
	assert_null(pol->test_url);
	/* Each reviewer once; a contact address is not a reviewer. */
	assert_int_equal(pol->n_trusted, 2);
	assert_string_equal(pol->trusted[0].name, "Hans Verkuil");
	assert_string_equal(pol->trusted[0].addr, "hverkuil@xs4all.nl");
	assert_string_equal(pol->trusted[1].addr,
			    "sakari.ailus@linux.intel.com");
	assert_string_equal(pol->from[PC_PROF_TRUSTED].heading,
			    "Media maintainers");
	pc_profile_free(p);
}

/* RISC-V's patch-acceptance.rst, as Linux 6.1 writes it and as later
 * kernels do (frozen or ratified, a published ECR, or hardware widely
 * available); a mention of drafts in the overview is no rule. */
static void test_profile__isa_extensions(void **state)
{
	static const char *const addenda[] = {
		"We'll only accept patches for new modules or extensions if "
		"the\nspecifications for those modules or extensions are "
		"listed as being\n\"Frozen\" or \"Ratified\" by the RISC-V "
		"Foundation.  (Developers may, of\ncourse, maintain their own "
		"Linux kernel trees that contain code for\nany draft "
		"extensions that they wish.)\n",
		"We'll only accept patches for new modules or extensions if "
		"the\nspecifications for those modules or extensions are "
		"listed as being\nunlikely to be incompatibly changed in the "
		"future.  For\nspecifications from the RISC-V foundation "
		"this means \"Frozen\" or\n\"Ratified\", for the UEFI forum "
		"specifications this means a published\nECR.\n",
	};
	struct pc_buf doc = PC_BUF_INIT;
	struct pc_profile *p;
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(addenda); i++) {
		pc_buf_reset(&doc);
		pc_buf_addstr(&doc,
			      "arch/riscv maintenance guidelines for "
			      "developers\n"
			      "==============================================="
			      "=\n\nOverview\n--------\nThe RISC-V instruction "
			      "set architecture is developed in the open:\n"
			      "in-progress drafts are available for all to "
			      "review and to experiment\nwith "
			      "implementations.\n\nSubmit Checklist Addendum\n"
			      "-------------------------\n");
		pc_buf_addstr(&doc, addenda[i]);
		p = parse_doc(doc.buf);
		assert_int_equal(p->policy.extensions, PC_PROF_EXT_RATIFIED);
		assert_int_equal(p->policy.from[PC_PROF_EXTENSIONS].kind,
				 PC_PROF_SRC_PROSE);
		assert_string_equal(p->policy.from[PC_PROF_EXTENSIONS].heading,
				    "Submit Checklist Addendum");
		pc_profile_free(p);
	}
	/* A short answer, and the overview alone states nothing. */
	p = parse_doc("Profile\n=======\n\nISA extensions\n--------------\n"
		      "ratified\n");
	assert_int_equal(p->policy.extensions, PC_PROF_EXT_RATIFIED);
	assert_int_equal(p->policy.from[PC_PROF_EXTENSIONS].kind,
			 PC_PROF_SRC_SHORT);
	pc_profile_free(p);
	p = parse_doc("Overview\n========\n\nin-progress drafts of new "
		      "extensions are available for all to review.\n");
	assert_int_equal(p->policy.extensions, PC_PROF_EXT_UNSET);
	pc_profile_free(p);
	pc_buf_release(&doc);
}

static void test_profile__unrecognised_sections(void **state)
{
	struct pc_profile *p = parse_doc("Title\n"
					 "=====\n"
					 "Intro text is not reported.\n"
					 "\n"
					 "Overview\n"
					 "--------\n"
					 "Neither is an overview.\n"
					 "\n"
					 "Mystery Rules\n"
					 "-------------\n"
					 "Always wear a hat.\n"
					 "\n"
					 "Resubmit Cadence\n"
					 "----------------\n"
					 "When we feel like it\n"
					 "\n"
					 "Submit Checklist Addendum\n"
					 "-------------------------\n"
					 "Build it with W=1.\n");

	(void)state;
	assert_int_equal(p->n_unread, 3);
	assert_string_equal(p->unread[0].heading, "Mystery Rules");
	assert_string_equal(p->unread[0].text, "Always wear a hat.");
	assert_int_equal(p->unread[0].line, 9);
	assert_string_equal(p->unread[0].file, "doc.rst");
	assert_non_null(strstr(p->unread[0].why, "no profile field"));
	assert_string_equal(p->unread[1].heading, "Resubmit Cadence");
	assert_non_null(strstr(p->unread[1].why, "is not a duration"));
	assert_string_equal(p->unread[2].heading, "Submit Checklist Addendum");
	assert_non_null(strstr(p->unread[2].why, "kept as text"));
	/* Nothing guessed: no ping delay at all (no default in parse). */
	assert_int_equal(p->policy.from[PC_PROF_PING_AFTER].kind,
			 PC_PROF_SRC_NONE);
	pc_profile_free(p);
}

static void test_profile__ref_in_same_document(void **state)
{
	struct pc_profile *p = parse_doc(
		"Handbook\n"
		"========\n"
		"\n"
		"Patch resend or reminders\n"
		"^^^^^^^^^^^^^^^^^^^^^^^^^\n"
		"\n"
		"See :ref:`be_patient`.\n"
		"\n"
		"Testing\n"
		"^^^^^^^\n"
		"See :ref:`nowhere`.\n"
		"\n"
		".. _be_patient:\n"
		"\n"
		"Don't get discouraged\n"
		"^^^^^^^^^^^^^^^^^^^^^\n"
		"Wait for a minimum of one week before resubmitting or pinging\n"
		"reviewers.\n");
	const struct pc_prof_origin *o = NULL;

	(void)state;
	assert_field(p, PC_PROF_PING_AFTER, "1 week", PC_PROF_SRC_PROSE);
	o = &p->policy.from[PC_PROF_PING_AFTER];
	assert_string_equal(o->heading, "Don't get discouraged");
	assert_int_equal(o->line, 17);
	assert_non_null(o->via);
	assert_non_null(strstr(o->via, "\"Patch resend or reminders\": "
				       ":ref:`be_patient`"));
	assert_true(has_note(p, "cannot follow :ref:`nowhere`"));
	pc_profile_free(p);
}

static void test_profile__examples_are_not_policy(void **state)
{
	/* The RFC's template describes the questions; its sentences carry
	 * policy words, as examples. */
	struct pc_profile *p = parse_doc(
		"Subsystem Profile\n"
		"=================\n"
		"\n"
		"Patches or Pull requests\n"
		"------------------------\n"
		"Some subsystems allow contributors to send pull requests, most "
		"require mailed patches. State \xe2\x80\x9cPatches only\xe2\x80"
		"\x9d, or \xe2\x80\x9cPull requests accepted\xe2\x80\x9d.\n"
		"\n"
		"Resubmit Cadence\n"
		"----------------\n"
		"Define a rate at which a contributor should wait to resubmit a "
		"patchset that has not yet received comments. A general "
		"guideline is to try to meet a deadline of 1 - 2 weeks to "
		"acknowledge starting consideration for a patch set.\n"
		"\n"
		"Time Zone / Office Hours\n"
		"------------------------\n"
		"Say when, for example \"8:00am to 5:00pm Pacific Time Zone\".\n");
	int f;

	(void)state;
	for (f = 0; f < PC_PROF_NFIELDS; f++)
		if (p->policy.from[f].kind != PC_PROF_SRC_NONE)
			fail_msg("%s read from a template",
				 pc_profile_field_key((enum pc_prof_field)f));
	assert_int_equal(p->n_unread, 3);
	pc_profile_free(p);
}

/* ---- override files ---- */

static int ov_read(struct pc_overrides *ov, const char *text,
		   struct pc_err *err)
{
	size_t len = strlen(text);
	char *t = exact(text, len);
	int rc = pc_overrides_read_mem(ov, "t.ini", t, len, err);

	free(t);
	return rc;
}

static void test_profile__overrides(void **state)
{
	struct pc_overrides *ov = pc_overrides_new();
	const struct pc_prof_origin *from = NULL;
	struct pc_profile *p;
	struct pc_err err = { 0 };
	const char *doc;

	(void)state;
	assert_int_equal(
		ov_read(ov,
			"; the fallback map\n"
			"# a comment too\n"
			"[NETWORKING [GENERAL]]\n"
			"profile = Documentation/process/maintainer-netdev.rst\n"
			"office_hours = Mon-Fri 9:00-17:00 America/Los_Angeles\n"
			"trusted_reviewers = Jane Doe <jane@example.org>\n"
			"  John Roe\n"
			"review = required  ; inline comment\n"
			"\n"
			"[TIMEKEEPING, CLOCKSOURCE CORE, NTP, ALARMTIMER, AND A "
			"NAME LONGER THAN FIFTY BYTES]\n"
			"repost-min = 24h\n",
			&err),
		0);
	assert_int_equal(pc_overrides_count(ov), 2);
	doc = pc_overrides_profile(ov, "networking [general]", &from);
	assert_string_equal(doc, "Documentation/process/maintainer-netdev.rst");
	assert_int_equal(from->line, 4);
	assert_string_equal(from->file, "t.ini");
	assert_null(pc_overrides_profile(ov, "NETWORKING", NULL));
	/* A byte order mark, and an indented first key. */
	assert_int_equal(ov_read(ov,
				 "\xef\xbb\xbf[BOM ENTRY]\n"
				 "  review = none\n"
				 "submit = patches only\n",
				 &err),
			 0);
	assert_int_equal(pc_overrides_count(ov), 3);
	/* A later file wins field by field. */
	assert_int_equal(ov_read(ov,
				 "[Networking [General]]\n"
				 "office_hours = 10:00-18:00 Europe/Berlin\n",
				 &err),
			 0);
	assert_int_equal(pc_overrides_count(ov), 3);

	p = parse_doc("Resubmit Cadence\n"
		      "----------------\n"
		      "1 week\n"
		      "\n"
		      "Non-author Ack / Review Tags Required\n"
		      "-------------------------------------\n"
		      "Not required\n");
	pc_overrides_apply(p, ov, "NETWORKING [GENERAL]");
	assert_field(p, PC_PROF_OFFICE_HOURS, "10:00-18:00 Europe/Berlin",
		     PC_PROF_SRC_OVERRIDE);
	assert_int_equal(p->policy.from[PC_PROF_OFFICE_HOURS].line, 2);
	assert_string_equal(p->policy.from[PC_PROF_OFFICE_HOURS].quote,
			    "office_hours = 10:00-18:00 Europe/Berlin");
	assert_field(p, PC_PROF_TRUSTED,
		     "Jane Doe <jane@example.org>, John Roe",
		     PC_PROF_SRC_OVERRIDE);
	assert_int_equal(p->policy.from[PC_PROF_TRUSTED].line, 6);
	assert_field(p, PC_PROF_REVIEW, "non-author", PC_PROF_SRC_OVERRIDE);
	assert_true(has_note(p, "says 'none'"));
	assert_field(p, PC_PROF_PING_AFTER, "1 week", PC_PROF_SRC_SHORT);
	pc_profile_free(p);

	p = parse_doc("");
	pc_overrides_apply(
		p, ov,
		"timekeeping, clocksource core, ntp, alarmtimer, and "
		"a name longer than fifty bytes");
	assert_field(p, PC_PROF_REPOST_MIN, "24 hours", PC_PROF_SRC_OVERRIDE);
	pc_profile_free(p);
	pc_overrides_free(ov);
}

struct ov_bad {
	const char *text;
	int code;
	const char *msg; /* a part of the message, after "t.ini:LINE: " */
	unsigned line;
};

static void test_profile__override_errors(void **state)
{
	char long_line[400];
	char nul_text[] = "[X]\nreview = req\0ired\n";
	static const struct ov_bad bad[] = {
		{ "[X]\nbogus = 1\n", PC_EPARSE, "unknown key 'bogus' in [X]",
		  2 },
		{ "[X]\n\nping_after = soonish\n", PC_EPARSE,
		  "[X] ping_after: 'soonish' is not a duration", 3 },
		{ "ping_after = 1 week\n", PC_EPARSE, "is outside a section",
		  1 },
		{ "[X]\nreview = required\nreview = none\n", PC_EPARSE,
		  "'review' is given twice in [X] (first on line 2)", 3 },
		{ "[X\nreview = none\n", PC_EPARSE, "closing ']'", 1 },
		{ "[ ]\n", PC_EPARSE, "empty section name", 1 },
		{ "[X] trailing\n", PC_EPARSE, "text after the section", 1 },
		{ "[X]\njunk line\n", PC_EPARSE, "cannot read this line", 2 },
		{ "[X]\nping_after = 1 week\n  2 weeks\n", PC_EPARSE,
		  "'ping_after' takes one line", 3 },
		{ "[X]\nnew_features = -rc5\n", PC_EPARSE, "not a deadline",
		  2 },
		{ "[X]\noffice_hours = 9-5\n", PC_EPARSE, "not office hours",
		  2 },
		{ "[X]\ntrusted_reviewers = <bad\n", PC_EPARSE, "not a person",
		  2 },
		{ "[X]\nprofile =\n", PC_EPARSE, "'profile' has no value", 2 },
		{ "[X]\nstyle_cleanups = maybe\n", PC_EPARSE, "cannot read",
		  2 },
	};
	struct pc_overrides *ov;
	struct pc_err err = { 0 };
	char want[64];
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++) {
		ov = pc_overrides_new();
		err.msg[0] = '\0';
		if (ov_read(ov, bad[i].text, &err) != bad[i].code)
			fail_msg("'%s' accepted", bad[i].text);
		snprintf(want, sizeof(want), "t.ini:%u: ", bad[i].line);
		if (strncmp(err.msg, want, strlen(want)) != 0 ||
		    !strstr(err.msg, bad[i].msg))
			fail_msg("'%s': message '%s', want '%s...%s'",
				 bad[i].text, err.msg, want, bad[i].msg);
		/* A bad file changes nothing. */
		assert_int_equal(pc_overrides_count(ov), 0);
		pc_overrides_free(ov);
	}
	/* Lines longer than inih's buffer. */
	memset(long_line, 'x', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\0';
	memcpy(long_line, "test_suite = ", 13);
	{
		struct pc_buf b = PC_BUF_INIT;

		pc_buf_addf(&b, "[X]\n%s\n", long_line);
		ov = pc_overrides_new();
		assert_int_equal(pc_overrides_read_mem(ov, "t.ini", b.buf,
						       b.len, &err),
				 PC_ELIMIT);
		assert_non_null(strstr(err.msg, "t.ini:2: line is longer"));
		pc_overrides_free(ov);
		pc_buf_release(&b);
	}
	ov = pc_overrides_new();
	assert_int_equal(pc_overrides_read_mem(ov, "t.ini", nul_text,
					       sizeof(nul_text) - 1, &err),
			 PC_EPARSE);
	assert_non_null(strstr(err.msg, "t.ini:2: NUL byte"));
	/* A failing file after a good one keeps the good one's values. */
	assert_int_equal(ov_read(ov, "[X]\nreview = none\n", &err), 0);
	assert_int_equal(ov_read(ov, "[X]\nreview = required\nbogus = 1\n",
				 &err),
			 PC_EPARSE);
	{
		struct pc_profile *p = parse_doc("");

		pc_overrides_apply(p, ov, "x");
		assert_field(p, PC_PROF_REVIEW, "none", PC_PROF_SRC_OVERRIDE);
		pc_profile_free(p);
	}
	pc_overrides_free(ov);
	ov = pc_overrides_new();
	assert_int_equal(pc_overrides_read(ov, "/nonexistent/profiles.ini",
					   &err),
			 PC_ENOTFOUND);
	pc_overrides_free(ov);
}

/* Every field's canonical form reads back as the same value. */
static void test_profile__format_round_trip(void **state)
{
	size_t len;
	char *doc = seed_profile(&len);
	struct pc_profile *p;
	struct pc_err err = { 0 };
	int f;

	(void)state;
	assert_int_equal(pc_profile_parse(&p, doc, len, "seed.rst", NULL, &err),
			 0);
	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		struct pc_phrase_value a, b;
		char *v;

		if (p->policy.from[f].kind == PC_PROF_SRC_NONE)
			continue;
		v = fmt(p, (enum pc_prof_field)f);
		if (pc_phrase_short(&b, (enum pc_prof_field)f, v, strlen(v),
				    &err) < 0)
			fail_msg("%s: '%s' does not read back: %s",
				 pc_profile_field_key((enum pc_prof_field)f), v,
				 err.msg);
		pc_phrase_value_from_policy(&a, &p->policy,
					    (enum pc_prof_field)f);
		assert_true(
			pc_phrase_value_equal((enum pc_prof_field)f, &a, &b));
		pc_phrase_value_release(&a);
		pc_phrase_value_release(&b);
		free(v);
	}
	pc_profile_free(p);
	free(doc);
}

/* ---- entries: URLs, the default, paths leaving the tree ---- */

static void test_profile__entry_url_and_default(void **state)
{
	const char *url[] = { "https://example.org/profile.html" };
	const unsigned lines[] = { 1234 };
	struct pc_overrides *ov = pc_overrides_new();
	struct pc_profile *p;
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(ov_read(ov, "[FOO]\nping_after = 3 days\n", &err), 0);
	assert_int_equal(pc_profile_for_entry(&p, "FOO", url, lines, 1, ov,
					      NULL, &err),
			 0);
	assert_true(p->doc_is_url);
	assert_string_equal(p->doc, url[0]);
	assert_int_equal(p->doc_from.kind, PC_PROF_SRC_MAINTAINERS);
	assert_int_equal(p->doc_from.line, 1234);
	assert_true(has_note(p, "not fetched"));
	assert_field(p, PC_PROF_PING_AFTER, "3 days", PC_PROF_SRC_OVERRIDE);
	pc_profile_free(p);

	/* No profile, no override: the built-in default, said as such. */
	assert_int_equal(pc_profile_for_entry(&p, "BAR", NULL, NULL, 0, ov,
					      NULL, &err),
			 0);
	assert_null(p->doc);
	assert_true(has_note(p, "no profile"));
	assert_field(p, PC_PROF_PING_AFTER, "1 week", PC_PROF_SRC_DEFAULT);
	assert_string_equal(p->policy.from[PC_PROF_PING_AFTER].file,
			    "Documentation/process/submitting-patches.rst");
	assert_int_equal(p->policy.from[PC_PROF_PING_AFTER].line, 0);
	assert_non_null(strstr(p->policy.from[PC_PROF_PING_AFTER].quote,
			       "a minimum of one week"));
	pc_profile_free(p);
	pc_overrides_free(ov);
}

static void test_profile__tree_paths(void **state)
{
	char *tree = t_mkdtemp(), *outside = t_mkdtemp();
	struct pc_profile_opts opts = PC_PROFILE_OPTS_INIT;
	struct pc_profile *p;
	struct pc_err err = { 0 };
	char path[4096], target[4096];
	const char *v[1];

	(void)state;
	opts.tree_dir = tree;
	snprintf(path, sizeof(path), "%s/Documentation", tree);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/Documentation/process", tree);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/Documentation/x.rst", tree);
	write_file(path, "Review Cadence\n--------------\n2 weeks\n");
	snprintf(target, sizeof(target), "%s/secret.rst", outside);
	write_file(target, "Review Cadence\n--------------\n3 weeks\n");
	snprintf(path, sizeof(path), "%s/Documentation/evil.rst", tree);
	assert_int_equal(symlink(target, path), 0);

	v[0] = "Documentation/x.rst";
	assert_int_equal(pc_profile_for_entry(&p, "E", v, NULL, 1, NULL, &opts,
					      &err),
			 0);
	assert_field(p, PC_PROF_PING_AFTER, "2 weeks", PC_PROF_SRC_SHORT);
	assert_string_equal(p->policy.from[PC_PROF_PING_AFTER].file,
			    "Documentation/x.rst");
	pc_profile_free(p);
	v[0] = "../secret.rst";
	assert_int_equal(pc_profile_for_entry(&p, "E", v, NULL, 1, NULL, &opts,
					      &err),
			 PC_EPARSE);
	assert_non_null(strstr(err.msg, "leaves the tree"));
	v[0] = "/etc/passwd";
	assert_int_equal(pc_profile_for_entry(&p, "E", v, NULL, 1, NULL, &opts,
					      &err),
			 PC_EPARSE);
	v[0] = "Documentation/evil.rst";
	assert_int_equal(pc_profile_for_entry(&p, "E", v, NULL, 1, NULL, &opts,
					      &err),
			 PC_EPARSE);
	assert_non_null(strstr(err.msg, "out of the tree"));
	v[0] = "Documentation/missing.rst";
	assert_int_equal(pc_profile_for_entry(&p, "E", v, NULL, 1, NULL, &opts,
					      &err),
			 PC_ENOTFOUND);

	/* The default comes from the tree's submitting-patches.rst when it
	 * has one. */
	snprintf(path, sizeof(path),
		 "%s/Documentation/process/submitting-patches.rst", tree);
	write_file(path, ".. _resend_reminders:\n"
			 "\n"
			 "Don't get discouraged - or impatient\n"
			 "------------------------------------\n"
			 "\n"
			 "Be patient. Wait for a minimum of ten days before\n"
			 "resubmitting or pinging reviewers.\n");
	assert_int_equal(pc_profile_for_entry(&p, "E", NULL, NULL, 0, NULL,
					      &opts, &err),
			 0);
	assert_field(p, PC_PROF_PING_AFTER, "10 days", PC_PROF_SRC_DEFAULT);
	assert_int_equal(p->policy.from[PC_PROF_PING_AFTER].line, 6);
	pc_profile_free(p);
	/* And :ref: labels are found across Documentation/. */
	snprintf(path, sizeof(path), "%s/Documentation/tip.rst", tree);
	write_file(path, "Patch resend or reminders\n"
			 "-------------------------\n"
			 "See :ref:`resend_reminders`.\n");
	assert_int_equal(
		pc_profile_read(&p, "Documentation/tip.rst", &opts, &err), 0);
	assert_field(p, PC_PROF_PING_AFTER, "10 days", PC_PROF_SRC_PROSE);
	assert_string_equal(p->policy.from[PC_PROF_PING_AFTER].file,
			    "Documentation/process/submitting-patches.rst");
	assert_non_null(p->policy.from[PC_PROF_PING_AFTER].via);
	pc_profile_free(p);
	/* :doc: names a document relative to the referring one. */
	snprintf(path, sizeof(path), "%s/Documentation/doc.rst", tree);
	write_file(path, "Review Cadence\n"
			 "--------------\n"
			 "See :doc:`process/submitting-patches`.\n");
	assert_int_equal(
		pc_profile_read(&p, "Documentation/doc.rst", &opts, &err), 0);
	assert_field(p, PC_PROF_PING_AFTER, "10 days", PC_PROF_SRC_PROSE);
	assert_non_null(strstr(p->policy.from[PC_PROF_PING_AFTER].via,
			       ":doc:`process/submitting-patches`"));
	pc_profile_free(p);
	t_rmtree(tree);
	t_rmtree(outside);
	free(tree);
	free(outside);
}

/* ---- hostile input ---- */

static unsigned long rnd(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

static void test_profile__hostile(void **state)
{
	static const char sample[] =
		"=====\nTitle\n=====\n.. _l:\n\nResubmit Cadence\n-------\n"
		"``8 business`` *days* `x <http://y>`_ :ref:`l` \\\n"
		"Time Zone / Office Hours\n~~~~\n8:00am to 5:00pm Pacific\n"
		"- a\n- b::\n\n    lit\n.. note:: n\n[1]_ *at* *least*\n";
	static const char alphabet[] = "=-~:`*_<>[]\\ \n\tab8.-rc5ping week";
	struct pc_profile *p;
	struct pc_err err = { 0 };
	struct pc_buf b = PC_BUF_INIT;
	unsigned long seed = 42;
	size_t len, i, k;
	char *t;
	int rc, f;

	(void)state;
	/* Every prefix, exactly sized. */
	for (len = 0; len <= sizeof(sample) - 1; len++) {
		t = exact(sample, len);
		assert_int_equal(pc_profile_parse(&p, t, len, "h", NULL, &err),
				 0);
		pc_profile_free(p);
		free(t);
	}
	/* Random documents from markup-heavy bytes, and raw bytes. */
	for (i = 0; i < 300; i++) {
		len = rnd(&seed) % 600;
		t = xmalloc(len ? len : 1);
		for (k = 0; k < len; k++)
			t[k] = i % 2 ? alphabet[rnd(&seed) %
						(sizeof(alphabet) - 1)] :
				       (char)rnd(&seed);
		rc = pc_profile_parse(&p, t, len, "h", NULL, &err);
		assert_int_equal(rc, 0);
		pc_profile_free(p);
		for (f = 0; f < PC_PROF_NFIELDS; f++) {
			struct pc_phrase_value v;

			if (pc_phrase_prose(&v, (enum pc_prof_field)f, t, len,
					    1))
				pc_phrase_value_release(&v);
			if (pc_phrase_short(&v, (enum pc_prof_field)f, t, len,
					    &err) == 0)
				pc_phrase_value_release(&v);
		}
		{
			struct pc_overrides *ov = pc_overrides_new();

			(void)pc_overrides_read_mem(ov, "r", t, len, &err);
			pc_overrides_free(ov);
		}
		free(t);
	}
	/* Limits. */
	pc_buf_reset(&b);
	for (i = 0; i < 20; i++) {
		/* Twenty adornment styles: levels stop at the maximum. */
		pc_buf_addf(&b, "T%zu\n", i);
		for (k = 0; k < 4; k++)
			pc_buf_addch(&b, "!\"#$%&'()*+,-./:;<=>?"[i]);
		pc_buf_addch(&b, '\n');
	}
	{
		struct pc_rst_doc *d;

		assert_int_equal(pc_rst_parse(&d, b.buf, b.len, &err), 0);
		assert_int_equal(d->n_sec, 21);
		assert_int_equal(d->sec[20].level, PC_RST_MAX_LEVELS);
		pc_rst_doc_free(d);
	}
	pc_buf_reset(&b);
	for (i = 0; i < PC_RST_MAX_SECTIONS + 1; i++)
		pc_buf_addstr(&b, "Tx\n--\n");
	assert_int_equal(pc_profile_parse(&p, b.buf, b.len, "h", NULL, &err),
			 PC_ELIMIT);
	pc_buf_reset(&b);
	for (i = 0; i < PC_RST_MAX_LINES + 1; i++)
		pc_buf_addch(&b, '\n');
	assert_int_equal(pc_profile_parse(&p, b.buf, b.len, "h", NULL, &err),
			 PC_ELIMIT);
	pc_buf_reset(&b);
	pc_buf_grow(&b, PC_RST_MAX_BYTES + 1);
	memset(b.buf, 'a', PC_RST_MAX_BYTES + 1);
	pc_buf_setlen(&b, PC_RST_MAX_BYTES + 1);
	assert_int_equal(pc_profile_parse(&p, b.buf, b.len, "h", NULL, &err),
			 PC_ELIMIT);
	/* Too many trusted reviewers. */
	pc_buf_reset(&b);
	pc_buf_addstr(&b, "Trusted Reviewers\n-----------------\n");
	for (i = 0; i < PC_PROFILE_MAX_PEOPLE + 1; i++)
		pc_buf_addf(&b, "- Person Number%c%c\n", 'a' + (int)(i / 26),
			    'a' + (int)(i % 26));
	assert_int_equal(pc_profile_parse(&p, b.buf, b.len, "h", NULL, &err),
			 0);
	assert_int_equal(p->policy.from[PC_PROF_TRUSTED].kind,
			 PC_PROF_SRC_NONE);
	assert_int_equal(p->n_unread, 1);
	assert_non_null(strstr(p->unread[0].why, "more than"));
	pc_profile_free(p);
	/* A long quote is cut on a character boundary. */
	pc_buf_reset(&b);
	pc_buf_addstr(&b, "Test Suite\n----------\n");
	for (i = 0; i < 200; i++)
		pc_buf_addstr(&b, "\xc3\xa9");
	pc_buf_addstr(&b, " http://x/\n");
	assert_int_equal(pc_profile_parse(&p, b.buf, b.len, "h", NULL, &err),
			 0);
	pc_profile_free(p);
	pc_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile__rst_levels_by_first_use),
		cmocka_unit_test(test_profile__rst_not_headings),
		cmocka_unit_test(test_profile__rst_markup),
		cmocka_unit_test(test_profile__durations),
		cmocka_unit_test(test_profile__deadlines),
		cmocka_unit_test(test_profile__office_hours_and_zones),
		cmocka_unit_test(test_profile__prose),
		cmocka_unit_test(test_profile__sentences),
		cmocka_unit_test(test_profile__isa_extensions),
		cmocka_unit_test(test_profile__seed_short_answers),
		cmocka_unit_test(test_profile__synonyms_and_case),
		cmocka_unit_test(test_profile__core_answers_are_noted),
		cmocka_unit_test(test_profile__prose_provenance_and_conflict),
		cmocka_unit_test(test_profile__handbook_fields),
		cmocka_unit_test(test_profile__unrecognised_sections),
		cmocka_unit_test(test_profile__ref_in_same_document),
		cmocka_unit_test(test_profile__examples_are_not_policy),
		cmocka_unit_test(test_profile__overrides),
		cmocka_unit_test(test_profile__override_errors),
		cmocka_unit_test(test_profile__format_round_trip),
		cmocka_unit_test(test_profile__entry_url_and_default),
		cmocka_unit_test(test_profile__tree_paths),
		cmocka_unit_test(test_profile__hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
