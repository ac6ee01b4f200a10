// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus test against public-inbox's small MIME samples
 * (corpus/public-inbox): RFC 2047 words inside From and Subject, a
 * quoted-printable body ending in a soft line break, a patch sent as an
 * inline attachment (found as the patch's diff, with a malformed hunk
 * header), the leaf order of nested multiparts, and inline attachments
 * with QP, a misspelt binary type and plain text.
 */
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"

static const char *pi(const char *file)
{
	static char rel[128];

	snprintf(rel, sizeof(rel), "corpus/public-inbox/%s", file);
	return t_data(rel);
}

/* Reads the file as a source (one message, no From_ line) and parses it. */
static struct pc_msg *load(const char *file)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	struct pc_msg *m = NULL;

	assert_int_equal(pc_source_open(&src, pi(file), &opt, &err), 0);
	assert_int_equal(pc_source_kind(src), PC_SOURCE_MESSAGE);
	assert_int_equal(pc_source_next(src, &msg, &err), 1);
	assert_int_equal(pc_msg_parse(&m, msg.data, msg.len, &err), 0);
	assert_int_equal(pc_source_next(src, &msg, &err), 0);
	pc_source_free(src);
	assert_false(m->mime_fallback);
	return m;
}

static void test_public_inbox__utf8_words(void **state)
{
	struct pc_msg *m = load("utf8.eml");

	(void)state;
	assert_string_equal(m->from.name, "Eléanor");
	assert_string_equal(m->subject, "Testing for Eléanor");
	assert_string_equal(m->body.buf,
			    "This is a test message for Eléanor\n");
	assert_false(m->charset_fallback);
	pc_msg_free(m);
}

static void test_public_inbox__qp_soft_break(void **state)
{
	struct pc_msg *m = load("plack-qp.eml");

	(void)state;
	assert_int_equal(m->body.len, 8);
	assert_string_equal(m->body.buf, "hi = bye");
	pc_msg_free(m);
}

static void test_public_inbox__attached_patch(void **state)
{
	struct pc_msg *m = load("plack-attached-patch.eml");
	struct t_store ts;
	char *row;

	(void)state;
	assert_string_equal(m->body.buf, "hi, see attached");
	assert_int_equal(m->natt, 1);
	assert_string_equal(m->att[0].filename, "foo&.patch");
	assert_true(
		pc_mem_starts(m->att[0].text.buf, m->att[0].text.len,
			      "--- a/file\n+++ b/file\n@@ -49, 7 +49,34 @@"));
	pc_msg_free(m);

	t_store_open(&ts);
	assert_int_equal(t_ingest(&ts, pi("plack-attached-patch.eml"),
				  PC_SOURCE_AUTO),
			 1);
	row = t_query(&ts, "SELECT m.kind, m.has_diff, f.new_path "
			   "FROM messages m JOIN patch_files f "
			   "ON f.message_id = m.id");
	assert_string_equal(row, "patch|1|file");
	free(row);
	t_store_close(&ts);
}

static void test_public_inbox__nested_leaf_order(void **state)
{
	struct pc_msg *m = load("msg_iter-nested.eml");

	(void)state;
	/* Leaves a, b (inner multipart), then the outer sig. */
	assert_string_equal(m->body.buf, "a\nb\nsig");
	assert_int_equal(m->natt, 0);
	pc_msg_free(m);
}

static void test_public_inbox__inline_attachments(void **state)
{
	struct pc_msg *m = load("psgi_attach.eml");

	(void)state;
	/* Named text parts are attachments, QP decoded; the binary is not
	 * text and is left out. */
	assert_int_equal(m->natt, 3);
	assert_string_equal(m->att[0].filename, "queue-pee");
	assert_string_equal(m->att[0].text.buf, "abcdef=g\n==blah\n");
	assert_string_equal(m->att[1].filename, "noop.txt");
	assert_string_equal(m->att[1].text.buf, "plain\ntext\npass\nthrough\n");
	assert_string_equal(m->att[2].filename, ".dotfile");
	pc_msg_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_public_inbox__utf8_words),
		cmocka_unit_test(test_public_inbox__qp_soft_break),
		cmocka_unit_test(test_public_inbox__attached_patch),
		cmocka_unit_test(test_public_inbox__nested_leaf_order),
		cmocka_unit_test(test_public_inbox__inline_attachments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
