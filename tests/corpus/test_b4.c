// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus test against b4's trailer samples (corpus/b4), each mbox
 * ingested into a fresh store. For every trailers-followup-* case the
 * trailers the store attributes to each patch from the list (replies,
 * replies to replies, replies to the cover letter) must be exactly those
 * the reference output adds after the patch's own trailers; the expected
 * lines are computed from the -ref-*.txt and *.verify files with the
 * trailer parser, minus b4's own "Signed-off-by: Test Override" and the
 * Cc: lines of its copyccs option. Also: a "naked" cover letter, the
 * single follow-up in a b4-sent thread, and the simple trailer parse.
 */
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "patch/trailer.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

static const char *b4(const char *file)
{
	static char rel[128];

	snprintf(rel, sizeof(rel), "corpus/b4/%s", file);
	return t_data(rel);
}

/* Trailers of a commit message (pc_trailers_from_patch). */
static void patch_trailers(struct pc_trailer_list *out, const char *body,
			   size_t len)
{
	struct pc_err err = { 0 };

	assert_int_equal(pc_trailers_from_patch(out, body, len, &err), 0);
}

static int is_b4_artifact(const struct pc_trailer *t)
{
	return !strcmp(t->name, "Cc") ||
	       (!strcmp(t->name, "Signed-off-by") && t->addr &&
		!strcmp(t->addr, "test-override@example.com"));
}

/*
 * The follow-ups: the trailers of the reference commit message, less
 * (once each) those of the original patch and b4's own lines, as
 * "Name: value" lines.
 */
static char *expected_followups(const struct pc_trailer_list *ref,
				const struct pc_trailer_list *orig)
{
	struct pc_buf out = PC_BUF_INIT;
	char *used = xcalloc(orig->n + 1, 1);
	size_t i, j;

	for (i = 0; i < ref->n; i++) {
		const struct pc_trailer *t = &ref->v[i];

		for (j = 0; j < orig->n; j++)
			if (!used[j] && !strcmp(orig->v[j].name, t->name) &&
			    !strcmp(orig->v[j].value, t->value))
				break;
		if (j < orig->n) {
			used[j] = 1;
			continue;
		}
		if (is_b4_artifact(t))
			continue;
		pc_buf_addf(&out, "%s%s: %s", out.len ? "\n" : "", t->name,
			    t->value);
	}
	free(used);
	return pc_buf_detach(&out, NULL);
}

/* Store side: one patch of a listed series. */
struct found {
	const char *msgid; /* or NULL to match by name */
	const char *name;
	char *got; /* follow-ups as "Name: value" lines */
	char *orig_msgid;
	int via_cover; /* how many came through the cover letter */
	int found;
};

static int find_patch(const struct pc_series_info *s, void *arg)
{
	struct found *f = arg;
	size_t i, j;

	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *p = &s->patches[i];
		struct pc_buf got = PC_BUF_INIT;

		if (strcmp(p->kind, "patch"))
			continue;
		if (f->msgid ? strcmp(p->msgid, f->msgid) :
			       !strstr(p->subject, f->name))
			continue;
		for (j = 0; j < p->ntrailers; j++) {
			const struct pc_trailer_info *t = &p->trailers[j];

			if (!t->from_reply || t->suggested)
				continue;
			pc_buf_addf(&got, "%s%s: %s", got.len ? "\n" : "",
				    t->name, t->value);
			f->via_cover += t->via_cover;
		}
		f->got = pc_buf_detach(&got, NULL);
		f->orig_msgid = xstrdup(p->msgid);
		f->found++;
	}
	return 0;
}

static void lookup(struct t_store *ts, struct found *f)
{
	struct pc_series_filter filt = { .with_patches = 1 };
	struct pc_err err = { 0 };

	assert_int_equal(pc_series_list(ts->st, &filt, find_patch, f, &err), 0);
	assert_int_equal(f->found, 1);
}

/* The original patch's own trailers, from its stored raw bytes. */
static void original_trailers(struct pc_trailer_list *out, struct t_store *ts,
			      const char *msgid)
{
	struct pc_message_info *mi = NULL;
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;
	char *raw;
	size_t len;

	assert_int_equal(pc_message_get(&mi, ts->st, msgid, &err), 0);
	assert_int_equal(pc_message_raw(&raw, &len, ts->st, mi->id, &err), 0);
	assert_int_equal(pc_msg_parse(&m, raw, len, &err), 0);
	patch_trailers(out, m->body.buf, m->body.len);
	pc_msg_free(m);
	free(raw);
	pc_message_info_free(mi);
}

/* Known store difference, see test_b4__followups_single. */
static const char mismatched[] =
	"Reviewed-by: Mismatched Reviewer1 <mismatched-reviewer1@example.net>";

/*
 * Checks every patch of a -ref-*.txt output against the store built from
 * the mbox. Returns how many patches had a known mismatched-sender extra.
 */
static int check_ref(const char *mbox, const char *ref)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	struct t_store ts;
	int rc, npatches = 0, known = 0;

	print_message("b4/%s against %s\n", mbox, ref);
	t_store_open(&ts);
	assert_true(t_ingest(&ts, b4(mbox), PC_SOURCE_AUTO) >= 2);
	assert_int_equal(ts.stats.errors, 0);
	assert_int_equal(pc_source_open(&src, b4(ref), &opt, &err), 0);
	while ((rc = pc_source_next(src, &msg, &err)) == 1) {
		struct pc_trailer_list rt = PC_TRAILER_LIST_INIT,
				       ot = PC_TRAILER_LIST_INIT;
		struct pc_msg *m = NULL;
		struct found f = { 0 };
		char *want;

		assert_int_equal(pc_msg_parse(&m, msg.data, msg.len, &err), 0);
		f.msgid = m->msgid;
		lookup(&ts, &f);
		patch_trailers(&rt, m->body.buf, m->body.len);
		original_trailers(&ot, &ts, f.orig_msgid);
		want = expected_followups(&rt, &ot);
		print_message("  %s: want [%s] got [%s]\n", m->msgid, want,
			      f.got);
		assert_true(want[0] != '\0'); /* every case has follow-ups */
		if (strcmp(f.got, want) != 0 &&
		    !strncmp(f.got, want, strlen(want)) &&
		    !strcmp(f.got + strlen(want) + 1, mismatched))
			known++;
		else
			assert_string_equal(f.got, want);
		npatches++;
		free(want);
		free(f.got);
		free(f.orig_msgid);
		pc_trailer_list_release(&rt);
		pc_trailer_list_release(&ot);
		pc_msg_free(m);
	}
	assert_int_equal(rc, 0);
	assert_true(npatches >= 1);
	pc_source_free(src);
	t_store_close(&ts);
	return known;
}

static void test_b4__followups_single(void **state)
{
	(void)state;
	/*
	 * fwup-message-3 is from "Mismatched Reviewer
	 * <mismatched-reviewer1@example.com>" but gives "Reviewed-by:
	 * Mismatched Reviewer1 <mismatched-reviewer1@example.net>": neither
	 * name nor address is the sender's, so b4 does not apply it, and
	 * neither may the store.
	 */
	assert_int_equal(check_ref("trailers-followup-single.mbox",
				   "trailers-followup-single-ref-defaults.txt"),
			 0);
}

static void test_b4__followups_custody(void **state)
{
	(void)state;
	assert_int_equal(check_ref("trailers-followup-custody.mbox",
				   "trailers-followup-custody-ref-"
				   "unordered.txt"),
			 0);
}

static void test_b4__followups_with_diffstat(void **state)
{
	(void)state;
	assert_int_equal(check_ref("trailers-followup-with-diffstat.mbox",
				   "trailers-followup-with-diffstat-ref-"
				   "defaults.txt"),
			 0);
}

static void test_b4__followups_non_git_patch(void **state)
{
	(void)state;
	assert_int_equal(check_ref("trailers-followup-non-git-patch.mbox",
				   "trailers-followup-non-git-patch-ref-"
				   "defaults.txt"),
			 0);
}

static void test_b4__followups_stripped_lines(void **state)
{
	(void)state;
	assert_int_equal(check_ref("trailers-followup-stripped-lines.mbox",
				   "trailers-followup-stripped-lines-ref-"
				   "defaults.txt"),
			 0);
}

static void test_b4__followups_with_cover(void **state)
{
	struct t_store ts;
	struct found f1 = { .msgid = "patch-1-message@example.com" };
	struct found f2 = { .msgid = "patch-2-message@example.com" };

	(void)state;
	assert_int_equal(check_ref("trailers-followup-with-cover.mbox",
				   "trailers-followup-with-cover-ref-"
				   "defaults.txt"),
			 0);
	/* The cover reviewer reaches both patches through the cover. */
	t_store_open(&ts);
	t_ingest(&ts, b4("trailers-followup-with-cover.mbox"), PC_SOURCE_AUTO);
	lookup(&ts, &f1);
	lookup(&ts, &f2);
	assert_int_equal(f1.via_cover, 1);
	assert_int_equal(f2.via_cover, 1);
	assert_string_equal(f1.got, "Reviewed-by: Coverletter Reviewer1 "
				    "<followup-reviewer1@example.com>");
	free(f1.got);
	free(f2.got);
	free(f1.orig_msgid);
	free(f2.orig_msgid);
	t_store_close(&ts);
}

static void test_b4__naked_cover(void **state)
{
	struct t_store ts;
	char *row;

	(void)state;
	t_store_open(&ts);
	assert_int_equal(t_ingest(&ts, b4("naked-cover-single.mbox"),
				  PC_SOURCE_AUTO),
			 2);
	row = t_query(&ts, "SELECT m.kind, s.name FROM series s "
			   "JOIN messages m ON m.id = s.cover_id");
	assert_string_equal(row, "cover|do a thing to the widget subsystem");
	free(row);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM series"), 1);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE kind = 'patch' AND "
					  "series_id IS NOT NULL"),
			 1);
	t_store_close(&ts);
}

/*
 * A .verify file (git log --format=%ae%n%s%n%b---, some with the
 * committer's address after the author's): for each commit, the
 * follow-ups its message gained over the posted patch must be exactly
 * what the store attributes. Returns how many commits gained some.
 */
static int check_verify(const char *mbox, const char *verify)
{
	struct pc_buf v = PC_BUF_INIT;
	struct t_store ts;
	const char *p, *end;
	int gained = 0, commits = 0;

	t_store_open(&ts);
	t_ingest(&ts, b4(mbox), PC_SOURCE_AUTO);
	t_read_file(&v, b4(verify));
	p = v.buf;
	end = v.buf + v.len;
	while (p < end) {
		const char *email_end = memchr(p, '\n', (size_t)(end - p));
		const char *subj, *subj_end, *body, *sep;
		struct pc_trailer_list rt = PC_TRAILER_LIST_INIT,
				       ot = PC_TRAILER_LIST_INIT;
		struct found f = { 0 };
		char *name, *want;

		assert_non_null(email_end);
		subj = email_end + 1;
		for (;;) {
			/* Some formats add the committer's address too. */
			subj_end = memchr(subj, '\n', (size_t)(end - subj));
			assert_non_null(subj_end);
			if (!memchr(subj, '@', (size_t)(subj_end - subj)) ||
			    memchr(subj, ' ', (size_t)(subj_end - subj)))
				break;
			subj = subj_end + 1;
		}
		body = subj_end + 1;
		for (sep = body; sep < end;) {
			const char *nl = memchr(sep, '\n', (size_t)(end - sep));

			if (nl && nl - sep == 3 && !memcmp(sep, "---", 3))
				break;
			sep = nl ? nl + 1 : end;
		}
		assert_true(sep < end);
		name = xmemdupz(subj, (size_t)(subj_end - subj));
		f.name = name;
		lookup(&ts, &f);
		patch_trailers(&rt, body, (size_t)(sep - body));
		original_trailers(&ot, &ts, f.orig_msgid);
		want = expected_followups(&rt, &ot);
		print_message("  %s: want [%s] got [%s]\n", name, want, f.got);
		assert_string_equal(f.got, want);
		if (want[0]) {
			gained++;
			assert_string_equal(name,
					    "Minor typo changes imitation");
			assert_string_equal(f.orig_msgid,
					    "20221025-test1-v1-4-"
					    "e4f28f57990c@linuxfoundation.org");
		}
		commits++;
		free(want);
		free(name);
		free(f.got);
		free(f.orig_msgid);
		pc_trailer_list_release(&rt);
		pc_trailer_list_release(&ot);
		p = sep + 4;
	}
	assert_int_equal(commits, 4);
	pc_buf_release(&v);
	t_store_close(&ts);
	return gained;
}

static void test_b4__thread_with_followups(void **state)
{
	(void)state;
	/* Exactly one patch gains a follow-up. */
	assert_int_equal(check_verify("trailers-thread-with-followups.mbox",
				      "trailers-thread-with-followups.verify"),
			 1);
	assert_int_equal(
		check_verify("shazam-git1-just-series.mbox",
			     "shazam-git1-just-series-defaults.verify"),
		0);
}

static void test_b4__simple_trailers(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
	struct pc_buf f = PC_BUF_INIT;
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;

	(void)state;
	t_read_file(&f, b4("trailers-test-simple.txt"));
	assert_int_equal(pc_msg_parse(&m, f.buf, f.len, &err), 0);
	patch_trailers(&l, m->body.buf, m->body.len);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[0].name, "Reported-by");
	assert_string_equal(l.v[0].person, "Doe, Jane");
	assert_string_equal(l.v[0].addr, "jane@example.com");
	assert_true(l.v[0].is_person);
	assert_string_equal(l.v[1].name, "Reviewed-by");
	assert_string_equal(l.v[1].person, "Bogus Bupkes");
	assert_string_equal(l.v[1].addr, "bogus@example.com");
	assert_true(l.v[1].is_person);
	assert_string_equal(l.v[2].name, "Fixes");
	assert_string_equal(l.v[2].value, "abcdef01234567890");
	assert_false(l.v[2].is_person);
	assert_string_equal(l.v[3].name, "Link");
	assert_string_equal(l.v[3].value, "https://msgid.link/some@msgid.here");
	assert_false(l.v[3].is_person);
	pc_trailer_list_release(&l);
	pc_msg_free(m);
	pc_buf_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b4__followups_single),
		cmocka_unit_test(test_b4__followups_custody),
		cmocka_unit_test(test_b4__followups_with_diffstat),
		cmocka_unit_test(test_b4__followups_non_git_patch),
		cmocka_unit_test(test_b4__followups_stripped_lines),
		cmocka_unit_test(test_b4__followups_with_cover),
		cmocka_unit_test(test_b4__naked_cover),
		cmocka_unit_test(test_b4__thread_with_followups),
		cmocka_unit_test(test_b4__simple_trailers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
