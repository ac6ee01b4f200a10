// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/patch/subject: every tag form the parser claims to
 * know, hostile input fed from exactly-sized buffers (so ASan sees any
 * over-read), real subjects from the patchew and lore-nvdimm corpora, and
 * the normalised form and similarity of names.
 */
#include "testutil.h"
#include <stdlib.h>
#include <string.h>

#include "patch/subject.h"
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

#define R PC_SUBJ_REPLY
#define F PC_SUBJ_FWD
#define P PC_SUBJ_PATCH
#define RFC PC_SUBJ_RFC
#define RS PC_SUBJ_RESEND
#define PL PC_SUBJ_PULL
#define N PC_SUBJ_NUMBERED

struct subject_case {
	const char *in;
	unsigned flags;
	int version, index, total;
	const char *topic;
	const char *name;
};

static const struct subject_case cases[] = {
	/* Patch tags. */
	{ "[PATCH] foo", P, 1, 1, 1, "", "foo" },
	{ "[PATCH v3 2/5] foo", P | N, 3, 2, 5, "", "foo" },
	{ "[RFC PATCH net-next v2 0/4] foo", P | RFC | N, 2, 0, 4, "net-next",
	  "foo" },
	{ "[PATCH 2/5 v3] foo", P | N, 3, 2, 5, "", "foo" },
	{ "[PATCH V2 00/12] foo", P | N, 2, 0, 12, "", "foo" },
	{ "[PATCH RESEND] foo", P | RS, 1, 1, 1, "", "foo" },
	{ "[PATCH RESEND v2 1/3] foo", P | RS | N, 2, 1, 3, "", "foo" },
	{ "[PATCH1/8] foo", P | N, 1, 1, 8, "", "foo" },
	{ "[PATCHv2 1/3] foo", P | N, 2, 1, 3, "", "foo" },
	{ "[PATCH-v2] foo", P, 2, 1, 1, "", "foo" },
	{ "[PATCH v2.1 3/4] foo", P | N, 2, 3, 4, "", "foo" },
	{ "[ndctl PATCH 0/2] foo", P | N, 1, 0, 2, "ndctl", "foo" },
	{ "[PATCH v4 -ndctl] cxl/memdev: Introduce sanitize-memdev functionality",
	  P, 4, 1, 1, "ndctl",
	  "cxl/memdev: Introduce sanitize-memdev functionality" },
	{ "[RFC v2 00/11] dm-pcache \xe2\x80\x93 persistent-memory cache for "
	  "block devices",
	  RFC | N, 2, 0, 11, "",
	  "dm-pcache \xe2\x80\x93 persistent-memory cache for block devices" },
	{ "[RFC] block: Change the granularity of io ticks from ms to ns", RFC,
	  1, 1, 1, "",
	  "block: Change the granularity of io ticks from ms to ns" },
	{ "[RFC PATCH 01/11] dm-pcache: add pcache_internal.h", P | RFC | N, 1,
	  1, 11, "", "dm-pcache: add pcache_internal.h" },
	{ "[RFC/PATCH] foo", P | RFC, 1, 1, 1, "", "foo" },
	{ "[RESEND-PATCH v2] foo", P | RS, 2, 1, 1, "", "foo" },
	/* lore nvdimm 2021-10-18: "[REPOST PATCH v2] tests/nvdimm/ndtest: ..." */
	{ "[REPOST PATCH v2] foo", P | RS, 2, 1, 1, "", "foo" },
	{ "[PATCH-next] foo", P, 1, 1, 1, "next", "foo" },
	{ "[PATCHES] foo", P, 1, 1, 1, "", "foo" },
	{ "[Patchwork-discuss] foo", 0, 1, 1, 1, "", "foo" },
	{ "[RFCv3 2/2] foo", RFC | N, 3, 2, 2, "", "foo" },
	{ "[PATCH 0 of 2] foo", P | N, 1, 0, 2, "", "foo" },
	{ "[PATCH 3/n] foo", P | N, 1, 3, 0, "", "foo" },
	{ "[GIT PULL] DAX / LIBNVDIMM update for v5.17", PL, 1, 1, 1, "",
	  "DAX / LIBNVDIMM update for v5.17" },
	{ "[GIT PULL v2] foo", PL, 2, 1, 1, "", "foo" },
	{ "[GIT PULL REQUEST] foo", PL, 1, 1, 1, "", "foo" },
	{ "[PULL 0/3] foo", PL | N, 1, 0, 3, "", "foo" },
	{ "[GIT,PULL] foo", PL, 1, 1, 1, "", "foo" },
	{ "[PATCH,v2,1/3] foo", P | N, 2, 1, 3, "", "foo" },
	{ "[PATCH v2 net 1/3] foo", P | N, 2, 1, 3, "net", "foo" },
	{ "[PATCH 3/3 v2] Xyzzy", P | N, 2, 3, 3, "", "Xyzzy" },
	{ "[RESEND] [PATCH v2] foo", P | RS, 2, 1, 1, "", "foo" },
	{ "[PATCH]: foo", P, 1, 1, 1, "", "foo" },
	{ "[v3] foo", 0, 3, 1, 1, "", "foo" },
	/* Reply and forward prefixes, repeated and mixed with tags. */
	{ "Re: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "RE: [ndctl PATCH v11 6/7] cxl/list: add --media-errors option to",
	  R | P | N, 11, 6, 7, "ndctl",
	  "cxl/list: add --media-errors option to" },
	{ "re: [PATCH] another patch", R | P, 1, 1, 1, "", "another patch" },
	{ "Aw: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "AW: AW: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "Antw: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "SV: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "VS: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "Re[2]: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "Re: Re: [PATCH] foo", R | P, 1, 1, 1, "", "foo" },
	{ "Fwd: [PATCH] foo", F | P, 1, 1, 1, "", "foo" },
	{ "Fw: foo", F, 1, 1, 1, "", "foo" },
	{ "FW: RE: [PATCH 1/2] foo", F | R | P | N, 1, 1, 2, "", "foo" },
	{ "[PATCH] Re: foo", R | P, 1, 1, 1, "", "foo" },
	/* After a patch tag, rarer words are subsystem prefixes. */
	{ "[PATCH] sv: foo", P, 1, 1, 1, "", "sv: foo" },
	{ "Revert: foo", 0, 1, 1, 1, "", "Revert: foo" },
	{ "r8169: foo", 0, 1, 1, 1, "", "r8169: foo" },
	/* List tags are dropped, wherever they come in the leading part. */
	{ "[Ksummit-discuss] [PATCH] foo", P, 1, 1, 1, "", "foo" },
	{ "[Qemu-devel] [PATCH v4 0/2] Report format specific info for LUKS "
	  "block driver",
	  P | N, 4, 0, 2, "",
	  "Report format specific info for LUKS block driver" },
	{ "Re: [Qemu-devel] Re: [PATCH 1/2] foo", R | P | N, 1, 1, 2, "",
	  "foo" },
	{ "[Navy-patches] [PATCH]", P, 1, 1, 1, "", "" },
	{ "[PATCH] fix foo [bar]", P, 1, 1, 1, "", "fix foo [bar]" },
	/* Not a patch at all. */
	{ "foo is too old", 0, 1, 1, 1, "", "foo is too old" },
	{ "Bug in commit aa511ff8218b (\"badblocks: switch\")", 0, 1, 1, 1, "",
	  "Bug in commit aa511ff8218b (\"badblocks: switch\")" },
	/* Hostile and odd. */
	{ "", 0, 1, 1, 1, "", "" },
	{ "[", 0, 1, 1, 1, "", "[" },
	{ "[PATCH", 0, 1, 1, 1, "", "[PATCH" },
	{ "   ", 0, 1, 1, 1, "", "" },
	{ "Re:", R, 1, 1, 1, "", "" },
	{ "Re[2", 0, 1, 1, 1, "", "Re[2" },
	{ "[]]", 0, 1, 1, 1, "", "]" },
	{ "[PATCH 99999999999999999999/3] foo", P, 1, 1, 1,
	  "99999999999999999999/3", "foo" },
	{ "[PATCH v100001 1/100001] foo", P, 1, 1, 1, "v100001 1/100001",
	  "foo" },
	{ "[PATCH v100000 100000/100000] foo", P | N, 100000, 100000, 100000,
	  "", "foo" },
	{ "[PATCH v] foo", P, 1, 1, 1, "v", "foo" },
	{ "[PATCH v2.] foo", P, 1, 1, 1, "v2.", "foo" },
	{ "[PATCH /3 1/] foo", P, 1, 1, 1, "/3 1/", "foo" },
	{ "[PATCH ---] foo", P, 1, 1, 1, "", "foo" },
};

/* Parses from a buffer of exactly len bytes, with no NUL after it. */
static void parse_exact(struct pc_subject *s, const char *in, size_t len)
{
	struct pc_err err = { 0 };
	char *copy = xmalloc(len ? len : 1);

	memcpy(copy, in, len);
	assert_int_equal(pc_subject_parse(s, copy, len, &err), 0);
	assert_true(s->name_off <= len);
	assert_true(s->name_off + s->name_len <= len);
	free(copy);
}

static void test_subject__table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(cases); i++) {
		const struct subject_case *c = &cases[i];
		struct pc_subject s;

		parse_exact(&s, c->in, strlen(c->in));
		print_message("%s\n", c->in);
		assert_int_equal(s.flags, c->flags);
		assert_int_equal(s.version, c->version);
		assert_int_equal(s.index, c->index);
		assert_int_equal(s.total, c->total);
		assert_string_equal(s.topic, c->topic);
		assert_int_equal(s.name_len, strlen(c->name));
		assert_memory_equal(c->in + s.name_off, c->name, s.name_len);
	}
}

static void test_subject__null_is_usage(void **state)
{
	struct pc_subject s;
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(pc_subject_parse(&s, NULL, 0, &err), PC_EUSAGE);
	assert_int_equal(err.code, PC_EUSAGE);
	assert_int_equal(pc_subject_parse(NULL, "x", 1, NULL), PC_EUSAGE);
}

static void fill(char *p, size_t len, const char *pattern)
{
	size_t i, n = strlen(pattern);

	for (i = 0; i < len; i++)
		p[i] = pattern[i % n];
}

static void test_subject__hostile(void **state)
{
	static const char *const patterns[] = {
		"[",   "]",	"[]", "[PATCH ", "Re:", "Re[", "[PATCH v1 1/1]",
		"[a,", "0 of ", "-",  "v9999",	 ":",
	};
	enum { BIG = 10000 };
	char *p = xmalloc(BIG);
	struct pc_subject s;
	size_t i, len;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(patterns); i++) {
		for (len = 0; len <= BIG; len += len < 64 ? 1 : 997) {
			fill(p, len, patterns[i]);
			parse_exact(&s, p, len);
		}
	}
	/* Only '[': no group ever closes, so all of it is the name. */
	fill(p, BIG, "[");
	parse_exact(&s, p, BIG);
	assert_int_equal(s.name_off, 0);
	assert_int_equal(s.name_len, BIG);
	/* Thousands of topic words: the topic keeps what fits, whole. */
	fill(p, BIG, "[PATCH ");
	p[BIG - 1] = ']';
	parse_exact(&s, p, BIG);
	assert_true(strlen(s.topic) < PC_SUBJ_TOPIC_MAX);
	free(p);
}

/* The unfolded Subject header of one message (its head up to "\n\n"). */
static void subject_of(struct pc_buf *out, const char *msg, size_t len)
{
	const char *end = find(msg, len, "\n\n", 2);
	const char *p = msg;

	pc_buf_reset(out);
	if (end)
		len = (size_t)(end - msg);
	while (p < msg + len) {
		const char *nl = memchr(p, '\n', (size_t)(msg + len - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(msg + len - p);

		if (out->len && (p[0] == ' ' || p[0] == '\t'))
			pc_buf_add(out, p, l);
		else if (out->len)
			break;
		else if (l > 9 && memcmp(p, "Subject: ", 9) == 0)
			pc_buf_add(out, p + 9, l - 9);
		p += l + 1;
	}
}

static void test_subject__patchew_oracle(void **state)
{
	struct pc_buf mbox = PC_BUF_INIT, subj = PC_BUF_INIT;
	struct pc_subject s;
	struct pc_err err = { 0 };

	(void)state;
	t_read_file(&mbox, t_data("corpus/patchew/0001-simple-patch.mbox.gz"));
	subject_of(&subj, mbox.buf, mbox.len);
	assert_int_equal(pc_subject_parse(&s, subj.buf, subj.len, &err), 0);
	assert_int_equal(s.flags, PC_SUBJ_PATCH);
	assert_int_equal(s.total, 1);
	assert_int_equal(s.version, 1);
	assert_int_equal(s.name_len,
			 strlen("quorum: Only compile when supported"));
	assert_memory_equal(subj.buf + s.name_off,
			    "quorum: Only compile when supported", s.name_len);

	pc_buf_reset(&mbox);
	t_read_file(
		&mbox,
		t_data("corpus/patchew/0004-multiple-patch-reviewed.mbox.gz"));
	subject_of(&subj, mbox.buf, mbox.len);
	assert_int_equal(pc_subject_parse(&s, subj.buf, subj.len, &err), 0);
	assert_int_equal(s.flags, PC_SUBJ_PATCH | PC_SUBJ_NUMBERED);
	assert_int_equal(s.version, 4);
	assert_int_equal(s.index, 0);
	assert_int_equal(s.total, 2);
	/* Folded header: "LUKS\n block driver" unfolds to "LUKS block driver". */
	assert_int_equal(
		s.name_len,
		strlen("Report format specific info for LUKS block driver"));
	assert_memory_equal(subj.buf + s.name_off,
			    "Report format specific info for LUKS block driver",
			    s.name_len);
	pc_buf_release(&subj);
	pc_buf_release(&mbox);
}

/*
 * Every Subject header of the poison-list thread: [ndctl PATCH v11 n/7]
 * and v12 n/8 series, replies with "Re:" and Outlook's "RE:".
 */
static void test_subject__lore_poison_list(void **state)
{
	struct pc_buf mbox = PC_BUF_INIT, subj = PC_BUF_INIT;
	const char *p, *end;
	size_t seen = 0, v12 = 0;

	(void)state;
	t_read_file(&mbox, t_data("corpus/lore-nvdimm/threads/"
				  "poison-list-retrieval-v11-v12.mbox"));
	end = mbox.buf + mbox.len;
	for (p = mbox.buf; p < end;) {
		const char *msg = p, *next = find(p, (size_t)(end - p),
						  "\nFrom mboxrd@z ", 15);
		struct pc_subject s;
		struct pc_err err = { 0 };

		next = next ? next + 1 : end;
		p = next;
		subject_of(&subj, msg, (size_t)(next - msg));
		if (!find(subj.buf, subj.len, "ndctl PATCH v1", 14))
			continue;
		assert_int_equal(pc_subject_parse(&s, subj.buf, subj.len, &err),
				 0);
		seen++;
		assert_string_equal(s.topic, "ndctl");
		assert_true(s.flags & PC_SUBJ_PATCH);
		assert_true(s.flags & PC_SUBJ_NUMBERED);
		assert_int_equal(!!(s.flags & PC_SUBJ_REPLY),
				 subj.buf[0] == 'R');
		if (s.version == 12) {
			v12++;
			assert_int_equal(s.total, 8);
		} else {
			assert_int_equal(s.version, 11);
			assert_int_equal(s.total, 7);
		}
		assert_true(s.index <= s.total);
		assert_true(s.name_len > 0);
	}
	assert_true(seen >= 36);
	assert_int_equal(v12, 9);
	pc_buf_release(&subj);
	pc_buf_release(&mbox);
}

static void test_subject__normalize(void **state)
{
	static const char name[] = "  Support \t Poison  list retrieval.!  ";
	static const char dash[] = "dm-pcache \xe2\x80\x93 cache";
	char out[64];

	(void)state;
	pc_subject_normalize(out, sizeof(out), name, strlen(name));
	assert_string_equal(out, "support poison list retrieval");
	/* "dm-pcache " is 10 bytes: room for 11 would cut the en dash. */
	pc_subject_normalize(out, 12, dash, strlen(dash));
	assert_string_equal(out, "dm-pcache");
	pc_subject_normalize(out, 14, dash, strlen(dash));
	assert_string_equal(out, "dm-pcache \xe2\x80\x93");
	pc_subject_normalize(out, 1, dash, strlen(dash));
	assert_string_equal(out, "");
	pc_subject_normalize(out, sizeof(out), "...", 3);
	assert_string_equal(out, "");
	pc_subject_normalize(out, sizeof(out), "a\0b", 3);
	assert_string_equal(out, "a b");
	pc_subject_normalize(NULL, 0, "x", 1);
}

static void test_subject__similarity(void **state)
{
	double d;

	(void)state;
	d = pc_subject_similarity("Support poison list retrieval",
				  "support poison list retrieval");
	assert_true(d == 1.0);
	assert_true(pc_subject_similarity("", "") == 1.0);
	assert_true(pc_subject_similarity("a b", "") == 0.0);
	assert_true(pc_subject_similarity("fix the foo", "fix the foo.") ==
		    1.0);
	/* Duplicates count once. */
	assert_true(pc_subject_similarity("a a b", "a b") == 1.0);
	/* The v11 -> v12 rename of a poison-list patch: 8 of 10 words. */
	d = pc_subject_similarity(
		"cxl/event_trace: add helpers to retrieve tep fields by type",
		"util/trace: add helpers to retrieve tep fields by type");
	assert_true(d > 0.79 && d < 0.81);
	d = pc_subject_similarity("libcxl: add interfaces for GET_POISON_LIST "
				  "mailbox commands",
				  "cxl/test: add cxl-poison.sh unit test");
	assert_true(d < 0.2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject__table),
		cmocka_unit_test(test_subject__null_is_usage),
		cmocka_unit_test(test_subject__hostile),
		cmocka_unit_test(test_subject__patchew_oracle),
		cmocka_unit_test(test_subject__lore_poison_list),
		cmocka_unit_test(test_subject__normalize),
		cmocka_unit_test(test_subject__similarity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
