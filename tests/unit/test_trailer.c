// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/patch/trailer: b4's trailer oracles (the simple
 * trailer test and the follow-up collections), a real kernel test robot
 * report from the nvdimm archive, the trailer block rules of a commit
 * message, reply stop markers and bot suggestions, and every prefix of a
 * real body fed from an exactly-sized buffer (so ASan sees any over-read).
 * Bodies are cut out of the mbox files simply (after the first blank
 * line); these files need no MIME decoding.
 */
#include "testutil.h"
#include <stdlib.h>
#include <string.h>

#include "patch/trailer.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

/* memmem() is a GNU extension; the build is C11 with _DEFAULT_SOURCE. */
static const char *find(const char *p, size_t len, const char *needle,
			size_t nlen)
{
	size_t i;

	for (i = 0; i + nlen <= len; i++)
		if (memcmp(p + i, needle, nlen) == 0)
			return p + i;
	return NULL;
}

struct msg {
	const char *head, *body;
	size_t head_len, body_len;
};

/* Splits an mbox at its "From " lines; caller frees *out. */
static size_t split_mbox(struct msg **out, const char *p, size_t len)
{
	const char *end = p + len, *next;
	struct msg *v = NULL;
	size_t n = 0, alloc = 0;

	while (p < end) {
		const char *blank;

		next = find(p + 1, (size_t)(end - p - 1), "\nFrom ", 6);
		next = next ? next + 1 : end;
		PC_ALLOC_GROW(v, n + 1, alloc);
		blank = find(p, (size_t)(next - p), "\n\n", 2);
		v[n].head = p;
		v[n].head_len = blank ? (size_t)(blank - p) :
					(size_t)(next - p);
		v[n].body = blank ? blank + 2 : next;
		v[n].body_len = (size_t)(next - v[n].body);
		n++;
		p = next;
	}
	*out = v;
	return n;
}

static int is_reply(const struct msg *m)
{
	return find(m->head, m->head_len, "\nSubject: Re:", 13) != NULL;
}

static void assert_trailer(const struct pc_trailer *t, const char *name,
			   const char *value, const char *person,
			   const char *addr, int is_person)
{
	assert_string_equal(t->name, name);
	if (value)
		assert_string_equal(t->value, value);
	if (person)
		assert_string_equal(t->person, person);
	else
		assert_null(t->person);
	if (addr)
		assert_string_equal(t->addr, addr);
	else
		assert_null(t->addr);
	assert_int_equal(t->is_person, is_person);
}

static void patch_str(struct pc_trailer_list *l, const char *body)
{
	struct pc_err err = { 0 };

	assert_int_equal(pc_trailers_from_patch(l, body, strlen(body), &err),
			 0);
}

static void reply_str(struct pc_trailer_list *l, const char *body)
{
	struct pc_err err = { 0 };

	assert_int_equal(pc_trailers_from_reply(l, body, strlen(body), &err),
			 0);
}

/* b4's test_parse_trailers oracle, in order. */
static void test_trailer__b4_simple_oracle(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
	struct pc_buf f = PC_BUF_INIT;
	struct pc_err err = { 0 };
	struct msg *m;

	(void)state;
	t_read_file(&f, t_data("corpus/b4/trailers-test-simple.txt"));
	assert_int_equal(split_mbox(&m, f.buf, f.len), 1);
	assert_int_equal(pc_trailers_from_patch(&l, m->body, m->body_len, &err),
			 0);
	assert_int_equal(l.n, 4);
	assert_trailer(&l.v[0], "Reported-by",
		       "\"Doe, Jane\" <jane@example.com>", "Doe, Jane",
		       "jane@example.com", 1);
	assert_int_equal(l.v[0].line, 3);
	assert_trailer(&l.v[1], "Reviewed-by",
		       "Bogus Bupkes <bogus@example.com>", "Bogus Bupkes",
		       "bogus@example.com", 1);
	assert_trailer(&l.v[2], "Fixes", "abcdef01234567890", NULL, NULL, 0);
	assert_trailer(&l.v[3], "Link", "https://msgid.link/some@msgid.here",
		       NULL, NULL, 0);
	assert_int_equal(l.v[3].line, 6);
	assert_false(l.v[0].suggested || l.v[3].suggested);
	pc_trailer_list_release(&l);
	assert_int_equal(l.n, 0);
	free(m);
	pc_buf_release(&f);
}

/* The custody fixture's patch: its whole chain, in order. */
static void test_trailer__b4_custody_patch(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
	struct pc_buf f = PC_BUF_INIT;
	struct pc_err err = { 0 };
	struct msg *m;

	(void)state;
	t_read_file(&f, t_data("corpus/b4/trailers-followup-custody.mbox"));
	assert_int_equal(split_mbox(&m, f.buf, f.len), 3);
	assert_int_equal(
		pc_trailers_from_patch(&l, m[0].body, m[0].body_len, &err), 0);
	assert_int_equal(l.n, 7);
	assert_trailer(&l.v[0], "Link", "https://msgid.link/some@msgid.here",
		       NULL, NULL, 0);
	assert_trailer(&l.v[1], "Reviewed-by", NULL, "Original Reviewer",
		       "original-reviewer@example.com", 1);
	assert_trailer(&l.v[2], "Signed-off-by", NULL, "Original Submitter",
		       "original-submitter@example.com", 1);
	assert_trailer(&l.v[3], "Suggested-by", NULL, "Friendly Suggester",
		       "suggested-by@example.com", 1);
	assert_trailer(&l.v[4], "Fixes", "abcdef01234567890", NULL, NULL, 0);
	assert_trailer(&l.v[5], "Link",
		       "https://lore.kernel.org/other@msgid.here  # bug "
		       "discussion",
		       NULL, NULL, 0);
	assert_trailer(&l.v[6], "Signed-off-by", NULL, "Test Override",
		       "test-override@example.com", 1);
	pc_trailer_list_release(&l);
	free(m);
	pc_buf_release(&f);
}

struct followup_case {
	const char *file;
	/* The trailers of all replies, in file order: "Name|addr". */
	const char *want[4];
};

/*
 * b4's follow-up fixtures: what the ref-*.txt files add to the patches
 * comes from the replies. The "single" fixture also holds a reply whose
 * trailer address differs from its sender; b4 drops it, but that is a
 * policy for the caller, not for the parser, so it is here.
 */
static const struct followup_case followups[] = {
	{ "corpus/b4/trailers-followup-single.mbox",
	  { "Reviewed-by|followup-reviewer1@example.com",
	    "Tested-by|followup-reviewer2@example.com",
	    "Reviewed-by|mismatched-reviewer1@example.net" } },
	{ "corpus/b4/trailers-followup-custody.mbox",
	  { "Reviewed-by|followup-reviewer1@example.com",
	    "Tested-by|followup-reviewer2@example.com" } },
	{ "corpus/b4/trailers-followup-with-diffstat.mbox",
	  { "Reviewed-by|followup-reviewer1@example.com" } },
	{ "corpus/b4/trailers-followup-non-git-patch.mbox",
	  { "Reviewed-by|followup-reviewer1@example.com" } },
	{ "corpus/b4/trailers-followup-stripped-lines.mbox",
	  { "Reviewed-by|followup-reviewer1@example.com" } },
	{ "corpus/b4/trailers-followup-with-cover.mbox",
	  { "Reviewed-by|followup-reviewer1@example.com",
	    "Reviewed-by|followup-reviewer1@example.com" } },
	{ "corpus/b4/trailers-thread-with-followups.mbox",
	  { "Reviewed-by|follow.upper@example.org" } },
};

static void test_trailer__b4_followups(void **state)
{
	size_t i, j, k, n, want;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(followups); i++) {
		const struct followup_case *c = &followups[i];
		struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
		struct pc_trailer_list own = PC_TRAILER_LIST_INIT;
		struct pc_buf f = PC_BUF_INIT;
		struct msg *m;

		print_message("%s\n", c->file);
		t_read_file(&f, t_data(c->file));
		n = split_mbox(&m, f.buf, f.len);
		for (j = 0; j < n; j++) {
			struct pc_err err = { 0 };

			if (is_reply(&m[j]))
				assert_int_equal(pc_trailers_from_reply(
							 &l, m[j].body,
							 m[j].body_len, &err),
						 0);
			else
				assert_int_equal(pc_trailers_from_patch(
							 &own, m[j].body,
							 m[j].body_len, &err),
						 0);
		}
		for (want = 0; want < 4 && c->want[want]; want++)
			;
		assert_int_equal(l.n, want);
		for (k = 0; k < want; k++) {
			const char *bar = strchr(c->want[k], '|');

			assert_int_equal(strlen(l.v[k].name),
					 (size_t)(bar - c->want[k]));
			assert_memory_equal(l.v[k].name, c->want[k],
					    strlen(l.v[k].name));
			assert_string_equal(l.v[k].addr, bar + 1);
			assert_true(l.v[k].is_person);
			assert_false(l.v[k].suggested);
		}
		/* Every patch and cover of these fixtures signs off. */
		assert_true(own.n > 0);
		pc_trailer_list_release(&own);
		pc_trailer_list_release(&l);
		free(m);
		pc_buf_release(&f);
	}
}

/* A real kernel test robot report: its Reported-by is only a suggestion. */
static void test_trailer__robot_report(void **state)
{
	static const char id[] = "<202106280955.e9tU6X8V-lkp@intel.com>";
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
	struct pc_buf f = PC_BUF_INIT;
	struct pc_err err = { 0 };
	const char *hit, *start, *end, *body;

	(void)state;
	t_read_file(&f, t_data("corpus/lore-nvdimm/"
			       "nvdimm-2021-05_2021-12.mboxrd.gz"));
	hit = find(f.buf, f.len, id, strlen(id));
	assert_non_null(hit);
	for (start = hit;
	     start > f.buf && memcmp(start, "\nFrom mboxrd@z ", 15); start--)
		;
	end = find(hit, f.len - (size_t)(hit - f.buf), "\nFrom mboxrd@z ", 15);
	assert_non_null(end);
	body = find(hit, (size_t)(end - hit), "\n\n", 2);
	assert_non_null(body);
	assert_int_equal(pc_trailers_from_reply(&l, body + 2,
						(size_t)(end - body - 2), &err),
			 0);
	assert_int_equal(l.n, 1);
	assert_trailer(&l.v[0], "Reported-by", NULL, "kernel test robot",
		       "lkp@intel.com", 1);
	assert_true(l.v[0].suggested);
	pc_trailer_list_release(&l);
	pc_buf_release(&f);
}

static void test_trailer__patch_block_rules(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;

	(void)state;
	/* Prose that merely mentions a tag is no trailer block. */
	patch_str(&l, "Subject line\n\n"
		      "This was broken by the change below, see\n"
		      "Fixes: 0123456789ab (\"foo: bar\")\n"
		      "for the details.\n");
	assert_int_equal(l.n, 0);
	/* Only the last paragraph counts. */
	patch_str(&l, "Reviewed-by: Early Bird <early@example.com>\n\n"
		      "Then some prose.\n\n\n \n");
	assert_int_equal(l.n, 0);
	/* ... but link footnotes after the trailers leave them the block
	 * (commits that cite "[1]" and list the links last). */
	patch_str(&l, "Fix it, as discussed [1].\n\n"
		      "Signed-off-by: A U Thor <author@example.com>\n"
		      "Reviewed-by: Rita Viewer <rita@example.com>\n\n"
		      "[1] https://lore.kernel.org/r/x@y\n"
		      "[2]: https://example.com/a-very-long\n"
		      "     /continued\n");
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[1].name, "Reviewed-by");
	pc_trailer_list_release(&l);
	patch_str(&l, "[1] https://lore.kernel.org/r/x@y\n");
	assert_int_equal(l.n, 0);
	/* Custody notes, folded values, trailing blank lines, CRLF. */
	patch_str(&l, "Fix the widget.\r\n\r\n"
		      "Signed-off-by: A U Thor <author@example.com>\r\n"
		      "[ dj: fixed typo ]\r\n"
		      "Fixes: 0123456789ab (\"widget: make it spin\r\n"
		      "  faster\")\r\n"
		      "Signed-Off-By: D J <DJ@Example.COM>\r\n"
		      "X-Custom-Tag: kept as written\r\n"
		      "\r\n\r\n");
	assert_int_equal(l.n, 4);
	assert_trailer(&l.v[0], "Signed-off-by", NULL, "A U Thor",
		       "author@example.com", 1);
	assert_int_equal(l.v[0].line, 3);
	assert_trailer(&l.v[1], "Fixes",
		       "0123456789ab (\"widget: make it spin faster\")", NULL,
		       NULL, 0);
	assert_int_equal(l.v[1].line, 5);
	assert_trailer(&l.v[2], "Signed-off-by", "D J <DJ@Example.COM>", "D J",
		       "dj@example.com", 1);
	assert_trailer(&l.v[3], "X-Custom-Tag", "kept as written", NULL, NULL,
		       0);
	pc_trailer_list_release(&l);
	/* A continuation cannot open the block; a URL line is no trailer. */
	patch_str(&l, "x\n\n  indented: foo\nAcked-by: A <a@example.com>\n");
	assert_int_equal(l.n, 0);
	patch_str(&l, "x\n\nhttps://example.com/bug\n");
	assert_int_equal(l.n, 0);
	/* Reading stops at "---" and at the diff. */
	patch_str(&l, "x\n\nAcked-by: A <a@example.com>\n---\n\n"
		      "Reviewed-by: Not Here <no@example.com>\n");
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].name, "Acked-by");
	pc_trailer_list_release(&l);
	patch_str(&l, "Acked-by: A <a@example.com>\n"
		      "diff --git a/x b/x\n");
	assert_int_equal(l.n, 1);
	pc_trailer_list_release(&l);
	patch_str(&l, "Acked-by: A <a@example.com>\n"
		      "Index: foo.c\n");
	assert_int_equal(l.n, 1);
	pc_trailer_list_release(&l);
	patch_str(&l, "");
	assert_int_equal(l.n, 0);
}

/*
 * git interpret-trailers' second form, as in a real ndctl patch on the
 * nvdimm list: a Signed-off-by glued to a reference line still counts.
 */
static void test_trailer__patch_block_with_sob(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;

	(void)state;
	patch_str(&l,
		  "PDSM_SMART_INJECT posted at [1].\n\n"
		  "[1] : https://lore.kernel.org/nvdimm/x@y\n"
		  "Signed-off-by: Shivaprasad G Bhat <sbhat@linux.ibm.com>\n"
		  "Signed-off-by: Vaibhav Jain <vaibhav@linux.ibm.com>\n");
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].addr, "sbhat@linux.ibm.com");
	assert_string_equal(l.v[1].addr, "vaibhav@linux.ibm.com");
	pc_trailer_list_release(&l);
	/* Prose that goes on after the tags is still prose. */
	patch_str(&l, "x\n\nFixes: 0123456789ab (\"foo\")\n"
		      "Signed-off-by: A <a@example.com>\n"
		      "and then it goes on.\n");
	assert_int_equal(l.n, 0);
	/* Under a quarter of the lines are trailers. */
	patch_str(&l, "x\n\none\ntwo\nthree\nfour\n"
		      "Signed-off-by: A <a@example.com>\n");
	assert_int_equal(l.n, 0);
	/* No Signed-off-by: every line must be a trailer. */
	patch_str(&l, "x\n\nSee [1].\nAcked-by: A <a@example.com>\n");
	assert_int_equal(l.n, 0);
	/* A cover letter's diffstat is not a folded trailer. */
	patch_str(&l,
		  "Cover.\n\nDiffstat:\n"
		  " block/genhd.c  |  149 +++++-----\n"
		  " drivers/x.c    |  Bin 10 -> 12 bytes\n"
		  " 2 files changed, 297 insertions(+), 466 deletions(-)\n");
	assert_int_equal(l.n, 0);
}

struct person_case {
	const char *line;
	const char *name, *person, *addr;
	int is_person;
};

static const struct person_case persons[] = {
	{ "Reviewed-by: Jane Doe <Jane.Doe@Example.COM>", "Reviewed-by",
	  "Jane Doe", "jane.doe@example.com", 1 },
	{ "Acked-by: \"Doe, Jane\" <jane@example.com>", "Acked-by", "Doe, Jane",
	  "jane@example.com", 1 },
	{ "Acked-by: \"Jane \\\"JD\\\" Doe\" <jane@example.com>", "Acked-by",
	  "Jane \"JD\" Doe", "jane@example.com", 1 },
	{ "Tested-by: jane@example.com", "Tested-by", NULL, "jane@example.com",
	  1 },
	{ "Tested-by: <jane@example.com>", "Tested-by", NULL,
	  "jane@example.com", 1 },
	{ "Tested-by: jane@example.com (Jane Doe)", "Tested-by", "Jane Doe",
	  "jane@example.com", 1 },
	{ "Tested-by: Jane Doe jane@example.com", "Tested-by", "Jane Doe",
	  "jane@example.com", 1 },
	{ "Reported-by: syzbot", "Reported-by", "syzbot", NULL, 0 },
	{ "Reported-by: Jane <no address>", "Reported-by", "Jane", NULL, 0 },
	{ "reported-AND-tested-BY: J <j@example.com> # v5.10",
	  "Reported-and-tested-by", "J", "j@example.com", 1 },
	{ "Debugged-by: J <j@example.com>", "Debugged-by", "J", "j@example.com",
	  1 },
	{ "Cc: <stable@vger.kernel.org> # 5.10", "Cc", NULL, NULL, 0 },
	{ "message-id: <x@y>", "Message-ID", NULL, NULL, 0 },
	{ "change-ID: I0123", "Change-Id", NULL, NULL, 0 },
	{ "closes: https://example.com/1", "Closes", NULL, NULL, 0 },
	{ "Co-Developed-By: A <a@b.c>", "Co-developed-by", "A", "a@b.c", 1 },
};

static void test_trailer__mailboxes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(persons); i++) {
		const struct person_case *c = &persons[i];
		struct pc_trailer_list l = PC_TRAILER_LIST_INIT;

		print_message("%s\n", c->line);
		patch_str(&l, c->line);
		assert_int_equal(l.n, 1);
		assert_trailer(&l.v[0], c->name, NULL, c->person, c->addr,
			       c->is_person);
		pc_trailer_list_release(&l);
	}
}

static void test_trailer__reply_rules(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;

	(void)state;
	reply_str(&l, "On Mon, Jane wrote:\n"
		      "> Reviewed-by: Quoted <quoted@example.com>\n"
		      "  > Acked-by: Quoted <quoted@example.com>\n"
		      "Looks good.\n"
		      "    Acked-by: Four Spaces <four@example.com>\n"
		      "     Acked-by: Five Spaces <five@example.com>\n"
		      "\tAcked-by: Tab <tab@example.com>\n"
		      "Reported-by: syzbot\n"
		      "Link: https://example.com/x\n"
		      "Fixes: the thing\n"
		      "Fixes: 0123456789ab (\"foo: bar\")\n"
		      "@@ -1,3 +1,3 @@\n"
		      " Signed-off-by: Context <context@example.com>\n"
		      "+Signed-off-by: Added <added@example.com>\n"
		      "\n"
		      "Tested-by: After Hunk <after@example.com>\n"
		      "-----Original Message-----\n"
		      "Reviewed-by: Outlook <outlook@example.com>\n");
	assert_int_equal(l.n, 3);
	assert_trailer(&l.v[0], "Acked-by", NULL, "Four Spaces",
		       "four@example.com", 1);
	assert_int_equal(l.v[0].line, 5);
	assert_trailer(&l.v[1], "Fixes", "0123456789ab (\"foo: bar\")", NULL,
		       NULL, 0);
	assert_trailer(&l.v[2], "Tested-by", NULL, "After Hunk",
		       "after@example.com", 1);
	pc_trailer_list_release(&l);

	/* Outlook's unmarked original under From:/Sent:. */
	reply_str(&l, "Reviewed-by: Mine <mine@example.com>\n\n"
		      "From: Other <other@example.com>\n"
		      "Sent: Friday, March 15, 2024 1:09 AM\n"
		      "Reviewed-by: Theirs <theirs@example.com>\n");
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].addr, "mine@example.com");
	pc_trailer_list_release(&l);

	/* A signature ends the text; a person's value may fold. */
	reply_str(&l, "Acked-by: Jane Doe\n <jane@example.com>\n"
		      "-- \n"
		      "Reviewed-by: Sig <sig@example.com>\n");
	assert_int_equal(l.n, 1);
	assert_trailer(&l.v[0], "Acked-by", "Jane Doe <jane@example.com>",
		       "Jane Doe", "jane@example.com", 1);
	pc_trailer_list_release(&l);
}

static void test_trailer__bot_suggestions(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;

	(void)state;
	/* The kernel test robot's newer form, with '|' lines. */
	reply_str(&l, "If you fix the issue in a separate patch/commit (i.e. "
		      "not just a new version of\n"
		      "the same patch/commit), kindly add following tags\n"
		      "| Reported-by: kernel test robot <lkp@intel.com>\n"
		      "| Closes: https://lore.kernel.org/oe-kbuild-all/x@y/\n"
		      "\n"
		      "All errors (new ones prefixed by >>):\n"
		      "\n"
		      "one\ntwo\nthree\nfour\n"
		      "Reviewed-by: Human <human@example.com>\n"
		      "\n"
		      "   | Tested-by: Piped <piped@example.com>\n");
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0].addr, "lkp@intel.com");
	assert_true(l.v[0].suggested);
	assert_string_equal(l.v[1].addr, "human@example.com");
	assert_false(l.v[1].suggested);
	assert_string_equal(l.v[2].addr, "piped@example.com");
	assert_true(l.v[2].suggested);
	pc_trailer_list_release(&l);

	/* syzbot's wording; the phrase reaches 4 non-empty lines back. */
	reply_str(&l, "IMPORTANT: if you fix the issue, please add the "
		      "following tag to the commit:\n\n"
		      "Reported-by: syzbot+abc@syzkaller.appspotmail.com\n"
		      "a\nb\nc\n"
		      "Tested-by: Late <late@example.com>\n");
	assert_int_equal(l.n, 2);
	assert_true(l.v[0].suggested);
	assert_false(l.v[1].suggested);
	pc_trailer_list_release(&l);
}

static void test_trailer__limits_and_usage(void **state)
{
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
	struct pc_buf b = PC_BUF_INIT;
	struct pc_err err = { 0 };
	int i;

	(void)state;
	pc_buf_addstr(&b, "x\n\n");
	for (i = 0; i < PC_TRAILER_MAX + 5; i++)
		pc_buf_addf(&b, "Acked-by: P%d <p%d@example.com>\n", i, i);
	assert_int_equal(pc_trailers_from_patch(&l, b.buf, b.len, &err),
			 PC_ELIMIT);
	assert_int_equal(err.code, PC_ELIMIT);
	assert_int_equal(l.n, PC_TRAILER_MAX);
	pc_trailer_list_release(&l);
	assert_int_equal(pc_trailers_from_reply(&l, b.buf, b.len, &err),
			 PC_ELIMIT);
	assert_int_equal(l.n, PC_TRAILER_MAX);
	pc_trailer_list_release(&l);
	pc_buf_release(&b);

	assert_int_equal(pc_trailers_from_patch(NULL, "", 0, &err), PC_EUSAGE);
	assert_int_equal(pc_trailers_from_reply(&l, NULL, 0, NULL), PC_EUSAGE);
	pc_trailer_list_release(NULL);
}

/* Every prefix of real bodies, each in a buffer of exactly its size. */
/* A quoted name of blanks: no name, and nothing leaked (found by
 * tests/fuzz; the leak checkers see it). */
static void test_trailer__blank_quoted_name(void **state)
{
	static const char body[] = "Reviewed-by: \" \" <r@example.com>\n";
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;

	(void)state;
	assert_int_equal(
		pc_trailers_from_reply(&l, body, sizeof(body) - 1, NULL), 0);
	pc_trailer_list_release(&l);
}

static void test_trailer__truncated_prefixes(void **state)
{
	static const char *const files[] = {
		"corpus/b4/trailers-followup-custody.mbox",
		"corpus/b4/trailers-test-simple.txt",
		"corpus/b4/trailers-followup-with-cover.mbox",
	};
	size_t i, j, n, cut;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(files); i++) {
		struct pc_buf f = PC_BUF_INIT;
		struct msg *m;

		t_read_file(&f, t_data(files[i]));
		n = split_mbox(&m, f.buf, f.len);
		for (j = 0; j < n; j++) {
			for (cut = 0; cut <= m[j].body_len; cut++) {
				struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
				char *p = xmalloc(cut ? cut : 1);

				memcpy(p, m[j].body, cut);
				assert_int_equal(pc_trailers_from_patch(
							 &l, p, cut, NULL),
						 0);
				assert_int_equal(pc_trailers_from_reply(
							 &l, p, cut, NULL),
						 0);
				pc_trailer_list_release(&l);
				free(p);
			}
		}
		free(m);
		pc_buf_release(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trailer__b4_simple_oracle),
		cmocka_unit_test(test_trailer__b4_custody_patch),
		cmocka_unit_test(test_trailer__b4_followups),
		cmocka_unit_test(test_trailer__robot_report),
		cmocka_unit_test(test_trailer__patch_block_rules),
		cmocka_unit_test(test_trailer__patch_block_with_sob),
		cmocka_unit_test(test_trailer__mailboxes),
		cmocka_unit_test(test_trailer__reply_rules),
		cmocka_unit_test(test_trailer__bot_suggestions),
		cmocka_unit_test(test_trailer__limits_and_usage),
		cmocka_unit_test(test_trailer__truncated_prefixes),
		cmocka_unit_test(test_trailer__blank_quoted_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
