// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/mail/dkim.c: a key pair made here with openssl, mail
 * signed with it through libopendkim, verified against a key table:
 * a good signature, a changed body, a changed From, another domain's
 * signature, a parent domain's, no signature, an unknown key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mail/dkim.h"
#include "mail/message.h"
#include "util/buf.h"
#include "util/xalloc.h"

#define NOW 1767225600 /* 2026-01-01 */

struct fixture {
	char *dir, *keytable;
	struct pc_buf key;
	struct pc_dkim *d;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct pc_buf pub;
	struct pc_err err = { 0 };
	FILE *kt;
	char *path;

	f->dir = t_mkdtemp();
	pc_buf_init(&f->key, 0);
	pc_buf_init(&pub, 0);
	t_sh(f->dir, "openssl genrsa -out key.pem 2048 2>/dev/null && "
		     "openssl rsa -in key.pem -pubout -outform DER 2>/dev/null "
		     "| base64 -w0 > pub.b64");
	path = xasprintf("%s/key.pem", f->dir);
	t_read_file(&f->key, path);
	free(path);
	path = xasprintf("%s/pub.b64", f->dir);
	t_read_file(&pub, path);
	free(path);
	f->keytable = xasprintf("%s/keys", f->dir);
	kt = fopen(f->keytable, "w");
	assert_non_null(kt);
	fprintf(kt, "sel._domainkey.example.org v=DKIM1; k=rsa; p=%s\n",
		pub.buf);
	fclose(kt);
	pc_buf_release(&pub);
	assert_int_equal(pc_dkim_new(&f->d, f->keytable, &err), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pc_dkim_free(f->d);
	t_rmtree(f->dir);
	free(f->dir);
	free(f->keytable);
	pc_buf_release(&f->key);
	free(f);
	return 0;
}

static const char MAIL[] = "From: Dan Maintainer <dan@example.org>\n"
			   "To: patchclock@example.net\n"
			   "Subject: Re: [PATCH] nvdimm: fix\n"
			   "Message-ID: <c1@example.org>\n"
			   "Date: Thu, 01 Jan 2026 00:00:00 +0000\n"
			   "\n"
			   "patchclock: snooze 2w\n";

/* MAIL (with its From line replaced by from, when given) signed for
 * domain by the fixture's key. Caller frees. */
static char *signed_mail(struct fixture *f, const char *domain,
			 const char *from)
{
	struct pc_err err = { 0 };
	const char *body = MAIL;
	char *mail, *sig = NULL, *out;

	if (from)
		mail = xasprintf("From: %s\n%s", from, strchr(MAIL, '\n') + 1);
	else
		mail = xstrdup(body);
	assert_int_equal(pc_dkim_sign(&sig, f->d, mail, strlen(mail),
				      f->key.buf, "sel", domain, NOW, &err),
			 0);
	assert_non_null(strstr(sig, "d=example.org"));
	out = xasprintf("%s%s", sig, mail);
	free(sig);
	free(mail);
	return out;
}

static enum pc_dkim_result verify(struct fixture *f, const char *m,
				  const char *domain, char *why, size_t n)
{
	return pc_dkim_verify(f->d, m, strlen(m), domain, NOW + 60, why, n);
}

static void test_dkim__good_signature_passes(void **state)
{
	struct fixture *f = *state;
	char *m = signed_mail(f, "example.org", NULL), why[256];
	struct pc_buf crlf;
	size_t i;

	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_PASS);
	assert_non_null(strstr(why, "signed by example.org (s=sel)"));
	/* The same mail with CRLF line ends, as an MTA delivers it. */
	pc_buf_init(&crlf, 0);
	for (i = 0; m[i]; i++) {
		if (m[i] == '\n')
			pc_buf_addch(&crlf, '\r');
		pc_buf_addch(&crlf, m[i]);
	}
	assert_int_equal(verify(f, crlf.buf, "example.org", why, sizeof(why)),
			 PC_DKIM_PASS);
	pc_buf_release(&crlf);
	free(m);
}

static void test_dkim__changed_body_fails(void **state)
{
	struct fixture *f = *state;
	char *m = signed_mail(f, "example.org", NULL), why[256];
	char *p = strstr(m, "snooze 2w");

	p[7] = '9';
	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_FAIL);
	if (!strstr(why, "body"))
		fail_msg("why: %s", why);
	free(m);
}

static void test_dkim__forged_from_fails(void **state)
{
	struct fixture *f = *state;
	char *m = signed_mail(f, "example.org", NULL), why[256], *forged;

	/* A From rewritten after signing breaks the signature. */
	forged = xasprintf("%.*sFrom: Dan <dan@example.org.evil.test>%s",
			   (int)(strstr(m, "From: ") - m), m,
			   strchr(strstr(m, "From: "), '\n'));
	assert_int_equal(verify(f, forged, "example.org.evil.test", why,
				sizeof(why)),
			 PC_DKIM_FAIL);
	free(forged);
	free(m);
}

static void test_dkim__alignment(void **state)
{
	struct fixture *f = *state;
	char why[256];
	char *other = signed_mail(f, "example.org", "Eve <eve@other.test>");
	char *sub =
		signed_mail(f, "example.org", "Dan <dan@lists.example.org>");

	/* A good signature by another domain does not vouch for From. */
	assert_int_equal(verify(f, other, "other.test", why, sizeof(why)),
			 PC_DKIM_FAIL);
	assert_non_null(strstr(why, "another domain"));
	/* A parent domain's does; a look-alike suffix's does not. */
	assert_int_equal(verify(f, sub, "lists.example.org", why, sizeof(why)),
			 PC_DKIM_PASS);
	assert_int_equal(verify(f, sub, "badexample.org", why, sizeof(why)),
			 PC_DKIM_FAIL);
	free(other);
	free(sub);
}

static void test_dkim__unsigned_and_unknown_key(void **state)
{
	struct fixture *f = *state;
	char why[256], *m = signed_mail(f, "example.org", NULL), *p;

	assert_int_equal(verify(f, MAIL, "example.org", why, sizeof(why)),
			 PC_DKIM_NONE);
	assert_string_equal(why, "not signed");
	/* A selector the key table does not hold. */
	p = strstr(m, "s=sel;");
	assert_non_null(p);
	p[4] = 'x';
	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_FAIL);
	free(m);
	assert_string_equal(pc_dkim_result_name(PC_DKIM_PASS), "pass");
}

/* A reply to a series, signed by o's shape (the fixture's key). */
static const char REPLY[] = "From: Dan Maintainer <dan@example.org>\n"
			    "To: patchclock@example.net\n"
			    "Subject: Re: [PATCH] nvdimm: fix\n"
			    "Message-ID: <c2@example.org>\n"
			    "In-Reply-To: <p1@example.com>\n"
			    "References: <p1@example.com>\n"
			    "Date: Thu, 01 Jan 2026 00:00:00 +0000\n"
			    "\n"
			    "Looks fine to me.\n";

static char *signed_with(struct fixture *f, const char *mail,
			 const char **headers, ssize_t body_length)
{
	struct pc_dkim_sign_opts o = { 0 };
	struct pc_err err = { 0 };
	char *sig = NULL, *out;

	o.key_pem = f->key.buf;
	o.selector = "sel";
	o.domain = "example.org";
	o.now = NOW;
	o.headers = headers;
	o.body_length = body_length;
	assert_int_equal(
		pc_dkim_sign_with(&sig, f->d, mail, strlen(mail), &o, &err), 0);
	out = xasprintf("%s%s", sig, mail);
	free(sig);
	return out;
}

/* Issue 36, item 1: a signature with l= covers the first lines only; a
 * command appended after them rode on it. Such a signature is refused,
 * with or without anything appended. */
static void test_dkim__body_length_refused(void **state)
{
	struct fixture *f = *state;
	char why[256], *m = signed_with(f, REPLY, NULL, 18), *more;

	assert_non_null(strstr(m, "l=18"));
	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_FAIL);
	if (!strstr(why, "l="))
		fail_msg("why: %s", why);
	more = xasprintf("%spatchclock: rejected\n", m);
	assert_int_equal(verify(f, more, "example.org", why, sizeof(why)),
			 PC_DKIM_FAIL);
	free(more);
	free(m);
	/* The same mail signed whole passes. */
	m = signed_with(f, REPLY, NULL, -1);
	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_PASS);
	free(m);
}

/* Issue 36, item 2: a second Message-ID, In-Reply-To or From written
 * above a properly signed mail: the parser would read the added copy,
 * DKIM verifies the signed one. No authority. */
static void test_dkim__duplicated_fields_refused(void **state)
{
	struct fixture *f = *state;
	static const char *const added[] = {
		"Message-ID: <forged@example.org>\n",
		"In-Reply-To: <other-series@example.com>\n",
		"References: <other-series@example.com>\n",
		"From: Dan Maintainer <dan@example.org>\n",
		"Subject: Re: [PATCH] another\n",
		"Date: Fri, 02 Jan 2026 00:00:00 +0000\n",
		"Sender: dan@example.org\nSender: eve@example.org\n",
	};
	char why[256], *m = signed_with(f, REPLY, NULL, -1);
	size_t i;

	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_PASS);
	assert_null(pc_msg_duplicated_field(m, strlen(m)));
	for (i = 0; i < sizeof(added) / sizeof(added[0]); i++) {
		char *forged = xasprintf("%s%s", added[i], m);

		assert_non_null(
			pc_msg_duplicated_field(forged, strlen(forged)));
		assert_int_equal(verify(f, forged, "example.org", why,
					sizeof(why)),
				 PC_DKIM_FAIL);
		if (!strstr(why, "more than one"))
			fail_msg("why: %s", why);
		free(forged);
	}
	free(m);
}

/* Issue 36, item 3: signed h=from:to:subject:date, the mail could be
 * replayed with a new In-Reply-To onto another series: a signature that
 * leaves out the threading headers the mail has gives no authority. */
static void test_dkim__threading_must_be_signed(void **state)
{
	struct fixture *f = *state;
	const char *thin[] = { "from", "to", "subject", "date", NULL };
	const char *full[] = { "from",	     "to",	   "subject",
			       "date",	     "message-id", "in-reply-to",
			       "references", NULL };
	char why[256], *m = signed_with(f, REPLY, thin, -1);

	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_FAIL);
	if (!strstr(why, "In-Reply-To"))
		fail_msg("why: %s", why);
	free(m);
	m = signed_with(f, REPLY, full, -1);
	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_PASS);
	free(m);
	/* A mail with no threading headers needs none signed. */
	m = signed_with(f, MAIL, thin, -1);
	assert_int_equal(verify(f, m, "example.org", why, sizeof(why)),
			 PC_DKIM_PASS);
	free(m);
}

static void test_dkim__missing_key_table(void **state)
{
	struct pc_dkim *d = NULL;
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(pc_dkim_new(&d, "/nonexistent/keys", &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "/nonexistent/keys"));
	assert_null(d);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_dkim__good_signature_passes),
		T(test_dkim__changed_body_fails),
		T(test_dkim__forged_from_fails),
		T(test_dkim__alignment),
		T(test_dkim__unsigned_and_unknown_key),
		T(test_dkim__body_length_refused),
		T(test_dkim__duplicated_fields_refused),
		T(test_dkim__threading_must_be_signed),
		cmocka_unit_test(test_dkim__missing_key_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
