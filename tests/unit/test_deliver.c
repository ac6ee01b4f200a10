// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/notify/deliver: the retry backoff, the recipients'
 * split, and what each SMTP outcome records on a real outbox row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "notify/deliver.h"
#include "testutil.h"

static void test_deliver__backoff(void **state)
{
	static const int64_t want[] = { 300,  600,   1200,  2400, 4800,
					9600, 19200, 21600, 21600 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(pc_deliver_backoff((int)i), want[i]);
	assert_int_equal(pc_deliver_backoff(1000), 21600);
}

static void test_deliver__recipients(void **state)
{
	char s[] = "  a@x.org b@y.org   c@z.org ";
	const char **v = NULL;
	char none[] = "   ";

	(void)state;
	assert_int_equal(pc_deliver_recipients(s, &v), 3);
	assert_string_equal(v[0], "a@x.org");
	assert_string_equal(v[1], "b@y.org");
	assert_string_equal(v[2], "c@z.org");
	free(v);
	assert_int_equal(pc_deliver_recipients(none, &v), 0);
	assert_null(v);
}

/* One pending row; what recording res at 1000 leaves in it. */
static char *after(const struct pc_smtp_result *res, int attempts)
{
	struct t_store ts = { 0 };
	struct pc_outbox_item it = { 0 };
	struct pc_err err = { 0 };
	int added = 0;
	char *row;

	t_store_open(&ts);
	it.key = "series:1:v1:resend:n1";
	it.action = "resend";
	it.recipients = "a@example.com";
	it.message_id = "<m@patchclock>";
	it.subject = "Re: x";
	it.created_at = 100;
	it.send_after = 100;
	it.message = "Subject: Re: x\n\nHi.\n";
	it.message_len = strlen(it.message);
	assert_int_equal(pc_outbox_add(ts.st, &it, &added, &err), 0);
	it.id = t_query_int(&ts, "SELECT id FROM outbox");
	it.attempts = attempts;
	assert_int_equal(pc_deliver_record(ts.st, &it, res, 1000, &err), 0);
	row = t_query(&ts, "SELECT status, attempts, coalesce(sent_at, '-'), "
			   "coalesce(next_attempt, '-'), "
			   "coalesce(last_error, '-') FROM outbox");
	t_store_close(&ts);
	return row;
}

static void test_deliver__record(void **state)
{
	struct pc_smtp_result res = { 0 };
	char *row;

	(void)state;
	res.outcome = PC_SMTP_SENT;
	row = after(&res, 0);
	assert_string_equal(row, "sent|1|1000|-|-");
	free(row);
	res.nrejected = 1;
	strcpy(res.rejected, "b@x.org (550 no such user)");
	row = after(&res, 0);
	assert_string_equal(row, "sent|1|1000|-|not delivered to 1: b@x.org "
				 "(550 no such user)");
	free(row);
	memset(&res, 0, sizeof(res));
	res.outcome = PC_SMTP_TEMPORARY;
	strcpy(res.detail, "421 try later");
	/* the third try waits 300 << 2 seconds */
	row = after(&res, 2);
	assert_string_equal(row, "pending|1|-|2200|421 try later");
	free(row);
	res.outcome = PC_SMTP_PERMANENT;
	strcpy(res.detail, "554 rejected");
	row = after(&res, 0);
	assert_string_equal(row, "failed|1|-|-|554 rejected");
	free(row);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deliver__backoff),
		cmocka_unit_test(test_deliver__recipients),
		cmocka_unit_test(test_deliver__record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
