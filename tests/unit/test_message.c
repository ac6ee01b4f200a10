// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/mail/message: the git-am view of a mail as
 * `git mailinfo` computes it (t/t5100 cases): whitespace left in a From:
 * name after the address is taken out, in-body From:/Subject: count only
 * when a patch follows, and a "[PATCH] subject" line at the top of the
 * body is the subject.
 */
#include "testutil.h"
#include <string.h>

#include "mail/message.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_message__git_name_spaces_collapsed),
		cmocka_unit_test(test_message__inbody_headers_need_a_patch),
		cmocka_unit_test(test_message__inbody_patch_subject_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
