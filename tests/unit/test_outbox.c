// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/store/outbox.c: exactly-once queueing by key, what
 * is due when, the sent / retry / failed marks, the per-recipient count
 * and opt-outs by address and by domain. The sender's way of working,
 * each due item marked in its own write transaction while another
 * connection keeps writing, as the daemon's main loop does.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mail/kinds.h"
#include "store/outbox.h"
#include "store/store.h"
#include "util/xalloc.h"

struct seen {
	int64_t ids[8];
	int n;
};

static int collect(const struct pc_outbox_item *it, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8)
		s->ids[s->n++] = it->id;
	return 0;
}

static void add(struct t_store *ts, const char *key, const char *rcpts,
		int64_t send_after, int expect_added)
{
	struct pc_outbox_item it = { 0 };
	struct pc_err err = { 0 };
	char mid[64];
	int added = -1;

	snprintf(mid, sizeof(mid), "<%s@patchclock>", key);
	it.key = key;
	it.action = "resend";
	it.recipients = rcpts;
	it.message_id = mid;
	it.subject = "Re: [PATCH] x";
	it.created_at = 1000;
	it.send_after = send_after;
	it.message = "Subject: Re: [PATCH] x\n\nHello.\n";
	it.message_len = strlen(it.message);
	assert_int_equal(pc_outbox_add(ts->st, &it, &added, &err), 0);
	assert_int_equal(added, expect_added);
}

static void test_outbox__exactly_once_and_due(void **state)
{
	struct t_store ts = { 0 };
	struct pc_err err = { 0 };
	struct seen s = { { 0 }, 0 };

	(void)state;
	t_store_open(&ts);
	add(&ts, "resend:1:v1:1", "a@example.com", 2000, 1);
	/* The same key again (a second status run): nothing new. */
	add(&ts, "resend:1:v1:1", "a@example.com", 2000, 0);
	add(&ts, "resend:2:v1:1", "b@example.com c@example.org", 5000, 1);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM outbox"), 2);
	/* At 3000 only the first is due. */
	assert_int_equal(pc_outbox_list(ts.st, 3000, 0, collect, &s, &err), 0);
	assert_int_equal(s.n, 1);
	/* A temporary failure: not due again before its retry time. */
	assert_int_equal(
		pc_outbox_retry(ts.st, s.ids[0], 4000, "421 busy", &err), 0);
	s.n = 0;
	assert_int_equal(pc_outbox_list(ts.st, 3500, 0, collect, &s, &err), 0);
	assert_int_equal(s.n, 0);
	s.n = 0;
	assert_int_equal(pc_outbox_list(ts.st, 6000, 0, collect, &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(pc_outbox_sent(ts.st, s.ids[0], 6000, NULL, &err), 0);
	assert_int_equal(
		pc_outbox_failed(ts.st, s.ids[1], "550 no such user", &err), 0);
	s.n = 0;
	assert_int_equal(pc_outbox_list(ts.st, 9000, 0, collect, &s, &err), 0);
	assert_int_equal(s.n, 0);
	{
		char *st = t_query(&ts, "SELECT key, status, attempts, "
					"coalesce(last_error, '') FROM outbox "
					"ORDER BY id");

		assert_string_equal(st, "resend:1:v1:1|sent|2|421 busy\n"
					"resend:2:v1:1|failed|1|550 no such "
					"user");
		free(st);
	}
	/* The daily limit counts what was sent or waits, not failures. */
	assert_int_equal(pc_outbox_count_to(ts.st, "a@example.com", 0, &err),
			 1);
	assert_int_equal(pc_outbox_count_to(ts.st, "a@example.com", 1001, &err),
			 0);
	assert_int_equal(pc_outbox_count_to(ts.st, "c@example.org", 0, &err),
			 0);
	add(&ts, "resend:3:v1:1", "b@example.com c@example.org", 5000, 1);
	assert_int_equal(pc_outbox_count_to(ts.st, "c@example.org", 0, &err),
			 1);
	assert_int_equal(pc_outbox_count_to(ts.st, "example.org", 0, &err), 0);
	t_store_close(&ts);
}

static void test_outbox__opt_out_by_address_and_domain(void **state)
{
	struct t_store ts = { 0 };
	struct pc_err err = { 0 };

	(void)state;
	t_store_open(&ts);
	assert_int_equal(pc_optout_has(ts.st, "Rita@Example.com", &err), 0);
	assert_int_equal(pc_optout_add(ts.st, "RITA@example.com", "<r1@x>",
				       1000, &err),
			 0);
	assert_int_equal(pc_optout_has(ts.st, "rita@EXAMPLE.com", &err), 1);
	assert_int_equal(pc_optout_has(ts.st, "bob@example.com", &err), 0);
	assert_int_equal(
		pc_optout_add(ts.st, "@corp.example", "config", 1000, &err), 0);
	assert_int_equal(pc_optout_has(ts.st, "anyone@corp.example", &err), 1);
	assert_int_equal(pc_optout_has(ts.st, "anyone@sub.corp.example", &err),
			 0);
	t_store_close(&ts);
}

/* The daemon's sender: each item sent (slowly), then marked in its own
 * transaction; meanwhile another connection commits. */
struct sender {
	struct t_store *ts;
	char *path; /* the store's file */
	int n, marked;
	struct pc_err err;
};

static int send_and_mark(const struct pc_outbox_item *it, void *arg)
{
	struct sender *sd = arg;
	sqlite3 *other;

	sd->n++;
	/* While this one went out over SMTP, the daemon's loop wrote; the
	 * first time, another sender also sent the last item. */
	assert_int_equal(sqlite3_open(sd->path, &other), SQLITE_OK);
	sqlite3_busy_timeout(other, 5000);
	assert_int_equal(sqlite3_exec(other,
				      sd->n == 1 ?
					      "UPDATE outbox SET status = "
					      "'sent' WHERE key = "
					      "'resend:3:v1:1'" :
					      "UPDATE outbox SET reason = "
					      "'seen' WHERE status = 'pending'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(other);
	if (pc_store_begin(sd->ts->st, &sd->err) < 0)
		return -1;
	if (pc_outbox_sent(sd->ts->st, it->id, 3000, NULL, &sd->err) < 0 ||
	    pc_store_commit(sd->ts->st, &sd->err) < 0) {
		pc_store_rollback(sd->ts->st);
		return -1;
	}
	sd->marked++;
	return 0;
}

static void test_outbox__marks_while_others_write(void **state)
{
	struct t_store ts = { 0 };
	struct pc_err err = { 0 };
	struct sender sd = { 0 };
	int rc;

	(void)state;
	t_store_open(&ts);
	add(&ts, "resend:1:v1:1", "a@example.com", 2000, 1);
	add(&ts, "resend:2:v1:1", "b@example.com", 2000, 1);
	add(&ts, "resend:3:v1:1", "c@example.com", 2500, 1);
	sd.ts = &ts;
	sd.path = xasprintf("%s/test.db", ts.dir);
	rc = pc_outbox_list(ts.st, 3000, 0, send_and_mark, &sd, &err);
	if (sd.marked != 2)
		fail_msg("marked %d of 2: %s", sd.marked, sd.err.msg);
	assert_int_equal(rc, 0);
	/* The one the other sender took was not handed over again. */
	assert_int_equal(sd.n, 2);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM outbox "
					  "WHERE status = 'sent'"),
			 3);
	free(sd.path);
	t_store_close(&ts);
}

static int no_rows(int ncols, const char *const *cols, void *arg)
{
	(void)ncols;
	(void)cols;
	(void)arg;
	return 0;
}

/* The kinds of mail are one table (lib/mail/kinds.h): the migration's
 * rows are the table's, the outbox refuses a kind it does not name and
 * a row outside the table, and a kind with no row yet (a kind added
 * after the migration) gets its row when its first mail is queued. */
static void test_outbox__kinds_are_rows(void **state)
{
	struct t_store ts = { 0 };
	struct pc_outbox_item it = { 0 };
	struct pc_err err = { 0 };
	int added = -1, k, j;

	(void)state;
	for (k = 0; k < PC_MAIL_NKINDS; k++) {
		assert_int_equal(pc_mail_kind_of(pc_mail_kind_name(k)), k);
		for (j = 0; j < k; j++)
			assert_string_not_equal(pc_mail_kind_name(j),
						pc_mail_kind_name(k));
	}
	assert_int_equal(pc_mail_kind_of("bogus"), -1);
	assert_null(pc_mail_kind_name(PC_MAIL_NKINDS));
	t_store_open(&ts);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM mail_kinds"),
			 PC_MAIL_NKINDS);
	for (k = 0; k < PC_MAIL_NKINDS; k++) {
		char *q = t_query(
			&ts, "SELECT about FROM mail_kinds WHERE name = '%s'",
			pc_mail_kind_name(k));

		assert_string_equal(q, pc_mail_kind_about(k));
		free(q);
	}
	/* A row outside the table: the foreign key refuses it. */
	assert_int_equal(
		pc_store_query(ts.st,
			       "INSERT INTO outbox (key, action, recipients, "
			       "message_id, subject, created_at, send_after, "
			       "status, message) VALUES ('k', 'bogus', 'a@b', "
			       "'<m@b>', 's', 1, 1, 'pending', 'x')",
			       no_rows, NULL, &err),
		PC_EDB);
	it.key = "k:1";
	it.action = "bogus";
	it.recipients = "a@example.com";
	it.message_id = "<k1@patchclock>";
	it.subject = "s";
	it.message = "Subject: s\n\nx\n";
	it.message_len = strlen(it.message);
	assert_int_equal(pc_outbox_add(ts.st, &it, &added, &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "bogus"));
	/* No row for too-soon yet: queueing one writes it. */
	assert_int_equal(pc_store_query(ts.st,
					"DELETE FROM mail_kinds WHERE name = "
					"'too-soon'",
					no_rows, NULL, &err),
			 0);
	it.action = pc_mail_kind_name(PC_MAIL_TOO_SOON);
	assert_int_equal(pc_outbox_add(ts.st, &it, &added, &err), 0);
	assert_int_equal(added, 1);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM mail_kinds "
					  "WHERE name = 'too-soon'"),
			 1);
	t_store_close(&ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outbox__exactly_once_and_due),
		cmocka_unit_test(test_outbox__opt_out_by_address_and_domain),
		cmocka_unit_test(test_outbox__marks_while_others_write),
		cmocka_unit_test(test_outbox__kinds_are_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
