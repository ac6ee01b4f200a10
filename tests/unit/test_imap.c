// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the parts of lib/mail/imap.c that need no server: URLs
 * and the loopback rule that guards clear-text passwords. The protocol
 * itself is tested against a real Dovecot (tests/integration/
 * daemon-imap.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mail/imap.h"

static void url_ok(const char *url, const char *host, unsigned port,
		   enum pc_imap_security sec)
{
	struct pc_imap_options o = PC_IMAP_OPTIONS_INIT;
	struct pc_err err = { 0 };
	char *h = NULL;

	if (pc_imap_parse_url(&h, &o, url, &err) != 0)
		fail_msg("'%s': %s", url, err.msg);
	assert_string_equal(h, host);
	assert_string_equal(o.host, host);
	assert_int_equal(o.port, port);
	assert_int_equal(o.security, sec);
	free(h);
}

static void url_bad(const char *url)
{
	struct pc_imap_options o = PC_IMAP_OPTIONS_INIT;
	struct pc_err err = { 0 };
	char *h = NULL;

	if (pc_imap_parse_url(&h, &o, url, &err) != PC_EUSAGE)
		fail_msg("'%s' was accepted", url);
	assert_null(h);
	assert_non_null(strstr(err.msg, "imap"));
}

static void test_imap__urls(void **state)
{
	(void)state;
	url_ok("imaps://imap.example.org", "imap.example.org", 0, PC_IMAP_TLS);
	url_ok("imaps://imap.example.org:993/", "imap.example.org", 993,
	       PC_IMAP_TLS);
	url_ok("IMAP://127.0.0.1:10143", "127.0.0.1", 10143, PC_IMAP_STARTTLS);
	url_ok("imap://[::1]:143", "::1", 143, PC_IMAP_STARTTLS);
	url_bad("smtp://h");
	url_bad("imaps://");
	url_bad("imaps://h:0");
	url_bad("imaps://h:65536");
	url_bad("imaps://h:99x");
	url_bad("imaps://h/INBOX");
	url_bad("imap://[::1");
	url_bad("imap://[::1]x");
}

static void test_imap__loopback(void **state)
{
	(void)state;
	assert_true(pc_imap_is_loopback("localhost"));
	assert_true(pc_imap_is_loopback("127.0.0.1"));
	assert_true(pc_imap_is_loopback("127.1.2.3"));
	assert_true(pc_imap_is_loopback("::1"));
	assert_false(pc_imap_is_loopback("128.0.0.1"));
	assert_false(pc_imap_is_loopback("10.0.0.1"));
	assert_false(pc_imap_is_loopback("::2"));
	assert_false(pc_imap_is_loopback("localhost.example.org"));
	assert_false(pc_imap_is_loopback("imap.example.org"));
}

/* Plain text off loopback is refused before anything is sent. */
static void test_imap__no_clear_text_off_loopback(void **state)
{
	struct pc_imap_options o = PC_IMAP_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_imap *im = NULL;

	(void)state;
	o.host = "192.0.2.1"; /* TEST-NET-1: never contacted */
	o.security = PC_IMAP_PLAIN;
	o.user = "u";
	o.password = "secret";
	assert_int_equal(pc_imap_connect(&im, &o, &err), PC_EAUTH);
	assert_null(im);
	assert_non_null(strstr(err.msg, "clear text"));
	assert_null(strstr(err.msg, "secret"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imap__urls),
		cmocka_unit_test(test_imap__loopback),
		cmocka_unit_test(test_imap__no_clear_text_off_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
