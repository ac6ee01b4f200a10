// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/mail/message: the git-am view of a mail as
 * `git mailinfo` computes it (t/t5100 cases): whitespace left in a From:
 * name after the address is taken out, in-body From:/Subject: count only
 * when a patch follows, and a "[PATCH] subject" line at the top of the
 * body is the subject. And hostile input: truncated and mutated real
 * mail parses or fails cleanly, with valid UTF-8 out.
 */
#include "testutil.h"
#include <stdlib.h>
#include <string.h>

#include "mail/charset.h"
#include "mail/message.h"
#include "mail/source.h"
#include "util/xalloc.h"
#include "util/err.h"

static struct pc_msg *parse(const char *raw)
{
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;

	assert_int_equal(pc_msg_parse(&m, raw, strlen(raw), &err), 0);
	return m;
}

/* t5100 sample.mbox message 1: "A (zzz)\n U\n Thor\n <addr> (Comment)". */
static void test_message__git_name_spaces_collapsed(void **state)
{
	struct pc_addr a = { 0 };
	static const char v[] = "A (zzz)      U      Thor      "
				"<a.u.thor@example.com> (Comment)";

	(void)state;
	pc_addr_parse_git(&a, v, sizeof(v) - 1);
	assert_string_equal(a.name, "A (zzz) U Thor (Comment)");
	assert_string_equal(a.addr, "a.u.thor@example.com");
	pc_addr_release(&a);
}

/* A display name is never an address (issue 36, item 4): the address is
 * what the angle brackets hold, or the addr-spec outside quotes and
 * comments; the five spoofs of the hostile-user campaign, in From:. */
static void test_message__display_name_is_no_address(void **state)
{
	static const char *const froms[] = {
		"\"may@example.org\" <attacker@evil.example>",
		"may@example.org <attacker@evil.example>",
		"(may@example.org) <attacker@evil.example>",
		"\"May <may@example.org>\" <attacker@evil.example>",
		"(may@example.org) attacker@evil.example",
		"\"may@example.org\" (may@example.org) <attacker@evil.example>",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(froms) / sizeof(froms[0]); i++) {
		char *raw = xasprintf("From: %s\nSubject: x\nMessage-ID: "
				      "<s%zu@x>\n\nbody\n",
				      froms[i], i);
		struct pc_msg *m = parse(raw);

		print_message("%s\n", froms[i]);
		assert_string_equal(m->from.addr, "attacker@evil.example");
		pc_msg_free(m);
		free(raw);
	}
	/* The ordinary forms read as before. */
	{
		struct pc_addr a = { 0 };
		static const char v[] =
			"\"Thor, A. U.\" <a.u.thor@example.com>";

		pc_addr_parse_git(&a, v, sizeof(v) - 1);
		assert_string_equal(a.addr, "a.u.thor@example.com");
		assert_string_equal(a.name, "Thor, A. U.");
		pc_addr_release(&a);
	}
}

/* An encoded display name that decodes to an address is no address: the
 * sender stays the header's own addr-spec, in From: and in-body From:.
 * "eCA8bWF5QGV4YW1wbGUub3JnPg==" is base64 for "x <may@example.org>". */
static void test_message__encoded_name_never_an_address(void **state)
{
	struct pc_msg *m;

	(void)state;
	m = parse("From: =?utf-8?b?eCA8bWF5QGV4YW1wbGUub3JnPg==?= "
		  "<evil@example.com>\n"
		  "Subject: Re: [PATCH] widget: one\n"
		  "Message-ID: <r@example.com>\n"
		  "\n"
		  "Applied, thanks.\n");
	assert_string_equal(m->from.addr, "evil@example.com");
	assert_string_equal(m->from.name, "evil@example.com");
	pc_msg_free(m);
	/* Q-encoding with a literal '@' inside the word, and an encoded
	 * word glued to the angle address. */
	m = parse("From: =?utf-8?q?May_<may@example.org>?=<evil@example.com>\n"
		  "Subject: Re: x\n"
		  "Message-ID: <r2@example.com>\n"
		  "\n"
		  "Applied.\n");
	assert_string_equal(m->from.addr, "evil@example.com");
	pc_msg_free(m);
	/* Nothing but an encoded word: no address at all. */
	m = parse("From: =?utf-8?b?eCA8bWF5QGV4YW1wbGUub3JnPg==?=\n"
		  "Subject: Re: x\n"
		  "Message-ID: <r3@example.com>\n"
		  "\n"
		  "Applied.\n");
	assert_string_equal(m->from.addr, "");
	pc_msg_free(m);
	/* An honest encoded name stays. */
	m = parse("From: =?iso-8859-1?q?J=F6rg_R=F6del?= <joro@8bytes.org>\n"
		  "Subject: [PATCH] iommu: one\n"
		  "Message-ID: <p@example.com>\n"
		  "\n"
		  "From: =?utf-8?b?eCA8bWF5QGV4YW1wbGUub3JnPg==?= "
		  "<evil@example.com>\n"
		  "\n"
		  "Body.\n"
		  "---\n"
		  "diff --git a/x b/x\n"
		  "--- a/x\n"
		  "+++ b/x\n"
		  "@@ -1 +1 @@\n"
		  "-a\n"
		  "+b\n");
	assert_string_equal(m->from.name, "J\xc3\xb6"
					  "rg R\xc3\xb6"
					  "del");
	assert_string_equal(m->from.addr, "joro@8bytes.org");
	assert_string_equal(m->author.addr, "evil@example.com");
	assert_string_equal(m->author.name, "evil@example.com");
	pc_msg_free(m);
}

/* A Message-ID with a NUL byte is no Message-ID: one is made up, not
 * cut short at the NUL (found by tests/fuzz). */
static void test_message__msgid_with_nul_is_replaced(void **state)
{
	static const char raw[] = "From: A <a@example.com>\n"
				  "Message-ID: <a\0b@example.com>\n"
				  "In-Reply-To: <c\0d@example.com>\n"
				  "Subject: x\n"
				  "\n"
				  "Body.\n";
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;

	(void)state;
	assert_int_equal(pc_msg_parse(&m, raw, sizeof(raw) - 1, &err), 0);
	assert_int_equal(m->msgid_generated, 1);
	assert_null(strstr(m->msgid, "example.com"));
	assert_null(m->in_reply_to);
	pc_msg_free(m);
}

/* t5100 message 8: a reply quoting a patch's header lines, no patch. */
static void test_message__inbody_headers_need_a_patch(void **state)
{
	struct pc_msg *m;

	(void)state;
	m = parse("From: Junio C Hamano <junio@kernel.org>\n"
		  "Subject: re: [PATCH] another patch\n"
		  "Message-ID: <x@example.com>\n"
		  "\n"
		  "From: A U Thor <a.u.thor@example.com>\n"
		  "Subject: [PATCH] another patch\n"
		  ">Here is an empty patch from A U Thor.\n"
		  "\n"
		  "Hey you forgot the patch!\n");
	assert_string_equal(m->author.name, "Junio C Hamano");
	assert_string_equal(m->author.addr, "junio@kernel.org");
	assert_string_equal(m->patch_subject, "re: [PATCH] another patch");
	pc_msg_free(m);

	/* The same lines before a patch do count. */
	m = parse("From: Junio C Hamano <junio@kernel.org>\n"
		  "Subject: [PATCH] x\n"
		  "Message-ID: <y@example.com>\n"
		  "\n"
		  "From: A U Thor <a.u.thor@example.com>\n"
		  "Subject: [PATCH] another patch\n"
		  "\n"
		  "Body.\n"
		  "---\n"
		  " foo | 1 +\n");
	assert_string_equal(m->author.name, "A U Thor");
	assert_string_equal(m->patch_subject, "[PATCH] another patch");
	pc_msg_free(m);
}

/* t5100 message 10: "[PATCH] subject" as the first body line. */
static void test_message__inbody_patch_subject_line(void **state)
{
	struct pc_msg *m;

	(void)state;
	m = parse(
		"From: Lukas <lukass@etek.chalmers.se>\n"
		"Subject: Re: discussion that lead to this patch\n"
		"Message-ID: <z@example.com>\n"
		"\n"
		"[PATCH] git-mailinfo: Fix getting the subject from the body\n"
		"\n"
		"Text.\n"
		"---\n"
		"diff --git a/a b/a\n");
	assert_string_equal(m->subject,
			    "Re: discussion that lead to this patch");
	assert_string_equal(
		m->patch_subject,
		"[PATCH] git-mailinfo: Fix getting the subject from the body");
	pc_msg_free(m);
}

/* Every message of a real file, as (p, len) pieces of a buffer. */
static void for_each_message(const char *rel,
			     void (*fn)(const char *p, size_t len))
{
	struct pc_source *src;
	struct pc_source_msg msg;
	struct pc_err err = { 0 };
	int rc;

	assert_int_equal(pc_source_open(&src, t_data(rel), NULL, &err), 0);
	while ((rc = pc_source_next(src, &msg, &err)) != 0)
		if (rc > 0)
			fn(msg.data, msg.len);
	pc_source_free(src);
}

/* Parses an exact-size heap copy, so ASan sees any over-read. */
static void parse_copy(const char *p, size_t len)
{
	char *copy = xmalloc(len ? len : 1);
	struct pc_msg *m = NULL;
	struct pc_err err = { 0 };

	memcpy(copy, p, len);
	if (pc_msg_parse(&m, copy, len, &err) == 0) {
		pc_msg_parse_recipients(m);
		assert_non_null(m->msgid);
		assert_true(pc_utf8_valid(m->subject, strlen(m->subject)));
		assert_true(pc_utf8_valid(m->body.buf, m->body.len));
		pc_msg_free(m);
	} else {
		assert_int_equal(err.code, PC_EPARSE);
	}
	free(copy);
}

static void truncations(const char *p, size_t len)
{
	size_t cut, step = len > 4000 ? 7 : 1;

	for (cut = 0; cut <= len; cut += step)
		parse_copy(p, cut);
}

/*
 * Hostile input: every truncation of real multipart, QP, base64 and
 * iso-2022-jp mail parses or fails cleanly, with valid UTF-8 out.
 */
static void test_message__truncated_real_mail(void **state)
{
	(void)state;
	for_each_message("corpus/patchew/0016-nested-multipart.mbox.gz",
			 truncations);
	for_each_message("corpus/public-inbox/psgi_attach.eml", truncations);
	for_each_message("corpus/public-inbox/msg_iter-nested.eml",
			 truncations);
	for_each_message("corpus/patchwork/mail/0019-multipart-patch.mbox",
			 truncations);
	for_each_message("corpus/lore-nvdimm/messages/"
			 "html-multipart-related-reply.dbe54780e389.eml",
			 truncations);
}

static void mutations(const char *p, size_t len)
{
	unsigned seed = 12345u + (unsigned)len;
	char *copy = xmalloc(len ? len : 1);
	int round;

	for (round = 0; round < 200 && len; round++) {
		int flips = 1 + (int)(seed % 16), i;

		memcpy(copy, p, len);
		for (i = 0; i < flips; i++) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 8) % len] = (char)(seed >> 16);
		}
		parse_copy(copy, len);
	}
	free(copy);
}

/* Random byte changes in real headers and MIME structure never crash. */
static void test_message__mutated_real_mail(void **state)
{
	(void)state;
	for_each_message("corpus/patchew/0004-multiple-patch-reviewed.mbox.gz",
			 mutations);
	for_each_message("corpus/patchwork/fuzz/charset.mbox", mutations);
	for_each_message("corpus/lore-nvdimm/threads/"
			 "outlook-iso-2022-jp-sanitize-memdev.mbox",
			 mutations);
}

/*
 * A mail starts with its header fields (after a From_ line, as git
 * format-patch writes one): bytes with a ':' somewhere, or a text file,
 * are no mail (ingest kept 100 KB of random bytes as "other 1, errors 0").
 */
static void test_message__starts_with_a_field(void **state)
{
	static const char junk[] =
		"\x93\x01zq\xff hello\nab:cd\nSubject: x\n\nbody\n";
	static const char text[] = "hello world\nnot: mail\n";
	static const char patch[] =
		"From 1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e Mon Sep 17 00:00:00 2001\n"
		"From: A U Thor <author@example.com>\n"
		"Subject: [PATCH] x: y\n\nbody\n";
	static const char binary_name[] = "Fr\xc3\xb6m: a@b\nSubject: x\n\nb\n";
	struct pc_msg *m = NULL;
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(pc_msg_parse(&m, junk, sizeof(junk) - 1, &err),
			 PC_EPARSE);
	assert_int_equal(pc_msg_parse(&m, text, sizeof(text) - 1, &err),
			 PC_EPARSE);
	assert_int_equal(pc_msg_parse(&m, binary_name, sizeof(binary_name) - 1,
				      &err),
			 PC_EPARSE);
	assert_int_equal(pc_msg_parse(&m, patch, sizeof(patch) - 1, &err), 0);
	assert_string_equal(m->subject, "[PATCH] x: y");
	assert_string_equal(m->author.addr, "author@example.com");
	pc_msg_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_message__git_name_spaces_collapsed),
		cmocka_unit_test(test_message__display_name_is_no_address),
		cmocka_unit_test(test_message__starts_with_a_field),
		cmocka_unit_test(test_message__inbody_headers_need_a_patch),
		cmocka_unit_test(test_message__encoded_name_never_an_address),
		cmocka_unit_test(test_message__msgid_with_nul_is_replaced),
		cmocka_unit_test(test_message__inbody_patch_subject_line),
		cmocka_unit_test(test_message__truncated_real_mail),
		cmocka_unit_test(test_message__mutated_real_mail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
