// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The outbox and the opt-out list in SQLite. See outbox.h.
 */
#include <stdlib.h>
#include <string.h>

#include "mail/kinds.h"
#include "sla/state.h"
#include "store/outbox.h"
#include "store/store_internal.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* The kind's row, the first time one of its mails is queued (schema 28:
 * outbox.action refers to mail_kinds; lib/mail/kinds.h is the table). */
static const char SQL_KIND[] =
	"INSERT OR IGNORE INTO mail_kinds (name, about) VALUES (?, ?)";
static const char SQL_ADD[] =
	"INSERT OR IGNORE INTO outbox (key, action, series_id, recipients, "
	"message_id, subject, created_at, send_after, status, reason, "
	"message, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
/* The one rule for what is due at ?1: waiting, and both times come. */
#define PC_OUTBOX_DUE_AT_1                              \
	"(status = 'pending' AND send_after <= ?1 AND " \
	"coalesce(next_attempt, 0) <= ?1)"
/* What is due at ?1, oldest first; and every item, newest first. */
static const char SQL_DUE[] = "SELECT id FROM outbox WHERE " PC_OUTBOX_DUE_AT_1
			      " ORDER BY send_after, id";
static const char SQL_ALL[] = "SELECT id FROM outbox ORDER BY id DESC";
/* Item ?2, when ?3 (any item) or it is still due at ?1. */
static const char SQL_ITEM[] =
	"SELECT id, key, action, coalesce(series_id, 0), recipients, "
	"message_id, subject, created_at, send_after, status, reason, "
	"attempts, coalesce(next_attempt, 0), coalesce(sent_at, 0), "
	"last_error, message, why, sending_at, server_reply "
	"FROM outbox WHERE id = ?2 AND (?3 OR " PC_OUTBOX_DUE_AT_1 ")";
static const char SQL_SENT[] =
	"UPDATE outbox SET status = 'sent', sent_at = ?2, "
	"attempts = attempts + 1, next_attempt = NULL, "
	"last_error = coalesce(?3, last_error), sending_at = NULL, "
	"claimed_by = NULL, claim_until = NULL WHERE id = ?1";
/* Sent to some: pending again for the recipients ?3 refused for now,
 * after ?4; sent_at keeps the first delivery. */
static const char SQL_SENT_PARTLY[] =
	"UPDATE outbox SET recipients = ?3, next_attempt = ?4, "
	"sent_at = coalesce(sent_at, ?2), attempts = attempts + 1, "
	"last_error = ?5, sending_at = NULL, claimed_by = NULL, "
	"claim_until = NULL WHERE id = ?1";
static const char SQL_RETRY[] =
	"UPDATE outbox SET attempts = attempts + 1, next_attempt = ?2, "
	"last_error = ?3, sending_at = NULL, claimed_by = NULL, "
	"claim_until = NULL WHERE id = ?1";
static const char SQL_FAILED[] =
	"UPDATE outbox SET status = 'failed', attempts = attempts + 1, "
	"reason = ?2, last_error = ?2, sending_at = NULL, claimed_by = NULL, "
	"claim_until = NULL WHERE id = ?1";
static const char SQL_CLAIM[] =
	"UPDATE outbox SET claimed_by = ?2, claim_until = ?3, sending_at = ?4 "
	"WHERE id = ?1 "
	"AND status = 'pending' AND (claim_until IS NULL OR claim_until <= ?4)";
static const char SQL_UNCLAIM[] =
	"UPDATE outbox SET claimed_by = NULL, claim_until = NULL, "
	"sending_at = NULL "
	"WHERE id = ?1 AND claimed_by = ?2 AND status = 'pending'";
static const char SQL_COUNT_TO[] =
	"SELECT count(*) FROM outbox WHERE created_at >= ?2 "
	"AND status IN ('pending', 'sent') "
	"AND (' ' || recipients || ' ') LIKE ('% ' || ?1 || ' %')";
static const char SQL_COUNT_PREFIX[] =
	"SELECT count(*), coalesce(max(created_at), 0) FROM outbox "
	"WHERE substr(key, 1, length(?1)) = ?1";
static const char SQL_OPTOUT_ADD[] =
	"INSERT OR IGNORE INTO opt_out (addr, source, since) VALUES (?, ?, ?)";
static const char SQL_OPTOUT_HAS[] =
	"SELECT 1 FROM opt_out WHERE addr = ?1 OR addr = ?2";

static const char SQL_PENDING[] =
	"SELECT key, send_after FROM outbox WHERE status = 'pending' AND "
	"sent_at IS NULL AND "
	"created_at < send_after AND substr(key, 1, length(?1)) = ?1 "
	"ORDER BY send_after, id LIMIT 1";
static const char SQL_REFRESH[] =
	"UPDATE outbox SET recipients = ?2, subject = ?3, message = ?4, "
	"created_at = ?5, status = ?6, reason = ?7, why = ?8 "
	"WHERE key = ?1 AND status = 'pending' AND created_at < send_after "
	"AND claimed_by IS NULL AND sent_at IS NULL";
static const char SQL_PENDING_OF[] =
	"SELECT id, key FROM outbox WHERE status = 'pending' AND action = ?1 "
	"AND created_at < send_after AND send_after > ?2";
static const char SQL_WITHDRAW[] =
	"UPDATE outbox SET status = 'suppressed', reason = ?2 WHERE id = ?1 "
	"AND claimed_by IS NULL";

int pc_outbox_pending(char **key_out, int64_t *send_after_out,
		      struct pc_store *st, const char *prefix,
		      struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PENDING, err);
	int rc;

	*key_out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, prefix, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*key_out = pc_store__col_dup(s, 0);
		*send_after_out = sqlite3_column_int64(s, 1);
		return 1;
	}
	return rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading the outbox");
}

int pc_outbox_refresh(struct pc_store *st, const struct pc_outbox_item *it,
		      struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_REFRESH, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, it->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, it->recipients, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, it->subject, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, it->message, (int)it->message_len,
			  SQLITE_STATIC);
	sqlite3_bind_int64(s, 5, it->created_at);
	sqlite3_bind_text(s, 6, it->status ? it->status : "pending", -1,
			  SQLITE_STATIC);
	pc_store__bind_text(s, 7, it->reason);
	pc_store__bind_text(s, 8, it->why);
	if (pc_store__exec(st, s, err, "refreshing an outbox row") < 0)
		return PC_EDB;
	return sqlite3_changes(st->db) > 0;
}

int pc_outbox_withdraw(struct pc_store *st, const char *action,
		       char *const *keep, size_t nkeep, const char *reason,
		       int64_t now, unsigned *n_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PENDING_OF, err);
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i, k;
	int rc;

	if (n_out)
		*n_out = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, action, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, now);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(s, 1);

		for (k = 0; k < nkeep; k++)
			if (key && !strcmp(keep[k], key))
				break;
		if (k < nkeep)
			continue;
		PC_ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = sqlite3_column_int64(s, 0);
	}
	if (rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "reading the outbox");
		goto out;
	}
	rc = 0;
	for (i = 0; i < n && rc == 0; i++) {
		if (!(s = pc_store__stmt(st, SQL_WITHDRAW, err))) {
			rc = PC_EDB;
			break;
		}
		sqlite3_bind_int64(s, 1, ids[i]);
		sqlite3_bind_text(s, 2, reason, -1, SQLITE_STATIC);
		rc = pc_store__exec(st, s, err, "withdrawing an outbox row");
	}
	if (rc == 0 && n_out)
		*n_out = (unsigned)n;
out:
	free(ids);
	return rc;
}

int pc_outbox_add(struct pc_store *st, const struct pc_outbox_item *it,
		  int *added_out, struct pc_err *err)
{
	int kind = pc_mail_kind_of(it->action);
	sqlite3_stmt *s;
	int rc;

	if (kind < 0)
		return pc_err_set(err, PC_EUSAGE,
				  "no kind of mail is named '%s' "
				  "(lib/mail/kinds.h)",
				  it->action ? it->action : "");
	if (!(s = pc_store__stmt(st, SQL_KIND, err)))
		return PC_EDB;
	sqlite3_bind_text(s, 1, pc_mail_kind_name(kind), -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, pc_mail_kind_about(kind), -1, SQLITE_STATIC);
	if ((rc = pc_store__exec(st, s, err, "storing a kind of mail")) < 0)
		return rc;
	if (!(s = pc_store__stmt(st, SQL_ADD, err)))
		return PC_EDB;
	sqlite3_bind_text(s, 1, it->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, it->action, -1, SQLITE_STATIC);
	if (it->series_id)
		sqlite3_bind_int64(s, 3, it->series_id);
	sqlite3_bind_text(s, 4, it->recipients, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, it->message_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 6, it->subject ? it->subject : "", -1,
			  SQLITE_STATIC);
	sqlite3_bind_int64(s, 7, it->created_at);
	sqlite3_bind_int64(s, 8, it->send_after);
	sqlite3_bind_text(s, 9, it->status ? it->status : "pending", -1,
			  SQLITE_STATIC);
	pc_store__bind_text(s, 10, it->reason);
	sqlite3_bind_blob64(s, 11, it->message, it->message_len, SQLITE_STATIC);
	pc_store__bind_text(s, 12, it->why);
	if ((rc = pc_store__exec(st, s, err, "queueing a mail")) < 0)
		return rc;
	if (added_out)
		*added_out = sqlite3_changes(st->db) > 0;
	return 0;
}

/* An item read into memory of its own: no statement stays open. */
struct loaded {
	struct pc_outbox_item it;
	char *text[10]; /* the item's strings */
	size_t ntext;
	void *message;
};

static const char *keep(struct loaded *l, sqlite3_stmt *s, int i)
{
	return l->text[l->ntext++] = pc_store__col_dup(s, i);
}

static void loaded_release(struct loaded *l)
{
	while (l->ntext)
		free(l->text[--l->ntext]);
	free(l->message);
}

/* Item id into *l: 1, or 0 when it is gone (or, unless all, no longer
 * due at now: another sender took it since the listing), or a negative
 * code. */
static int load_item(struct pc_store *st, int64_t id, int64_t now, int all,
		     struct loaded *l, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ITEM, err);
	struct pc_outbox_item *it = &l->it;
	int rc;

	memset(l, 0, sizeof(*l));
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, id);
	sqlite3_bind_int(s, 3, all);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW) {
		sqlite3_reset(s);
		return rc == SQLITE_DONE ?
			       0 :
			       pc_store__fail(st, err, "reading the outbox");
	}
	it->id = sqlite3_column_int64(s, 0);
	it->key = keep(l, s, 1);
	it->action = keep(l, s, 2);
	it->series_id = sqlite3_column_int64(s, 3);
	it->recipients = keep(l, s, 4);
	it->message_id = keep(l, s, 5);
	it->subject = keep(l, s, 6);
	it->created_at = sqlite3_column_int64(s, 7);
	it->send_after = sqlite3_column_int64(s, 8);
	it->status = keep(l, s, 9);
	it->reason = keep(l, s, 10);
	it->attempts = sqlite3_column_int(s, 11);
	it->next_attempt = sqlite3_column_int64(s, 12);
	it->sent_at = sqlite3_column_int64(s, 13);
	it->last_error = keep(l, s, 14);
	it->message_len = (size_t)sqlite3_column_bytes(s, 15);
	l->message = xmemdupz(sqlite3_column_blob(s, 15), it->message_len);
	it->message = l->message;
	it->why = keep(l, s, 16);
	it->sending_at = sqlite3_column_int64(s, 17);
	it->server_reply = keep(l, s, 18);
	sqlite3_reset(s);
	return 1;
}

int pc_outbox_list(struct pc_store *st, int64_t now, int all, pc_outbox_fn fn,
		   void *arg, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, all ? SQL_ALL : SQL_DUE, err);
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i;
	int rc;

	/*
	 * The ids first, then each item on its own: fn (the sender) sends
	 * over SMTP and marks the item in a write transaction, and no read
	 * of ours may stay open meanwhile. An open read keeps an old
	 * snapshot, and once another connection has written, SQLite refuses
	 * the write transaction at once ("database is locked").
	 */
	if (!s)
		return PC_EDB;
	if (!all)
		sqlite3_bind_int64(s, 1, now);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		free(ids);
		return pc_store__fail(st, err, "reading the outbox");
	}
	for (rc = 0, i = 0; i < n && !rc; i++) {
		struct loaded l;

		if ((rc = load_item(st, ids[i], now, all, &l, err)) <= 0)
			continue;
		rc = fn(&l.it, arg);
		loaded_release(&l);
	}
	free(ids);
	return rc;
}

static int mark(struct pc_store *st, const char *sql, int64_t id, int64_t t,
		const char *text, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, id);
	if (sql == SQL_FAILED) {
		pc_store__bind_text(s, 2, text);
	} else {
		sqlite3_bind_int64(s, 2, t);
		pc_store__bind_text(s, 3, text);
	}
	return pc_store__exec(st, s, err, "marking an outbox mail");
}

int pc_outbox_claim(struct pc_store *st, int64_t id, const char *who,
		    int64_t real_now, int64_t lease, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_CLAIM, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, who, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, real_now + lease);
	sqlite3_bind_int64(s, 4, real_now);
	if ((rc = pc_store__exec(st, s, err, "claiming an outbox mail")) < 0)
		return rc;
	return sqlite3_changes(st->db) > 0;
}

int pc_outbox_unclaim(struct pc_store *st, int64_t id, const char *who,
		      struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_UNCLAIM, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_text(s, 2, who, -1, SQLITE_STATIC);
	return pc_store__exec(st, s, err, "releasing an outbox mail");
}

int pc_outbox_sent(struct pc_store *st, int64_t id, int64_t now,
		   const char *undelivered, struct pc_err *err)
{
	return mark(st, SQL_SENT, id, now, undelivered, err);
}

int pc_outbox_sent_partly(struct pc_store *st, int64_t id, int64_t now,
			  int64_t next_attempt, const char *retry,
			  const char *undelivered, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_SENT_PARTLY, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, now);
	sqlite3_bind_text(s, 3, retry, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, next_attempt);
	pc_store__bind_text(s, 5, undelivered);
	return pc_store__exec(st, s, err, "recording a partial delivery");
}

static const char SQL_SERVER_REPLY[] =
	"UPDATE outbox SET server_reply = ?2 WHERE id = ?1";
static const char SQL_IN_DOUBT[] =
	"UPDATE outbox SET last_error = ?2 WHERE id = ?1";

/* Sets one text column of row id (sql: ?1 the id, ?2 the text). */
static int set_text(struct pc_store *st, const char *sql, int64_t id,
		    const char *text, const char *what, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, id);
	pc_store__bind_text(s, 2, text);
	return pc_store__exec(st, s, err, what);
}

int pc_outbox_server_reply(struct pc_store *st, int64_t id, const char *reply,
			   struct pc_err *err)
{
	return set_text(st, SQL_SERVER_REPLY, id, reply,
			"recording the server's reply", err);
}

int pc_outbox_in_doubt(struct pc_store *st, int64_t id, const char *note,
		       struct pc_err *err)
{
	return set_text(st, SQL_IN_DOUBT, id, note, "recording a mail in doubt",
			err);
}

int pc_outbox_retry(struct pc_store *st, int64_t id, int64_t next_attempt,
		    const char *error, struct pc_err *err)
{
	return mark(st, SQL_RETRY, id, next_attempt, error, err);
}

int pc_outbox_failed(struct pc_store *st, int64_t id, const char *error,
		     struct pc_err *err)
{
	return mark(st, SQL_FAILED, id, 0, error, err);
}

int64_t pc_outbox_count_to(struct pc_store *st, const char *addr, int64_t since,
			   struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_COUNT_TO, err);
	int64_t n = 0;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, addr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, since);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return pc_store__fail(st, err, "counting mail to a recipient");
	return n;
}

static char *lower(const char *s)
{
	char *d = xstrdup(s);

	for (char *p = d; *p; p++)
		*p = (char)pc_tolower((unsigned char)*p);
	return d;
}

int pc_optout_add(struct pc_store *st, const char *addr, const char *source,
		  int64_t now, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_OPTOUT_ADD, err);
	char *a;
	int rc;

	if (!s)
		return PC_EDB;
	a = lower(addr);
	sqlite3_bind_text(s, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, source, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, now);
	rc = pc_store__exec(st, s, err, "recording an opt-out");
	free(a);
	return rc;
}

int pc_optout_has(struct pc_store *st, const char *addr, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_OPTOUT_HAS, err);
	const char *at;
	char *a;
	int rc;

	if (!s)
		return PC_EDB;
	a = lower(addr);
	at = strrchr(a, '@');
	sqlite3_bind_text(s, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, at ? at : a, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	free(a);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 :
				   pc_store__fail(st, err, "reading opt-outs");
}

static const char SQL_CANDIDATES[] =
	"SELECT s.id, s.version, a.subject, a.msgid, a.refs, s.author_name, "
	"s.author_addr, a.is_bot, a.auto_submitted, a.precedence, st.state, "
	"st.flags, st.entry, st.lands, st.posted, coalesce(st.due, 0), "
	"coalesce(st.act_at, 0), coalesce(st.overdue_days, 0), st.patches, "
	"st.reviewed, coalesce(p.version, 0), coalesce(p.first_posted, 0), "
	"a.list_id, CASE tv.verdict WHEN 'pass' THEN 1 WHEN 'fail' THEN -1 "
	"ELSE 0 END, tv.reason, coalesce(tv.at, 0), tv.summary, st.hold, "
	"coalesce(st.wait_from, 0), st.flag_bits, coalesce(st.pinged_at, 0), "
	"st.wait_msgid, st.ping_msgid, "
	/* who began the wait (pc_sla_same_person() tells the author) */
	"w.from_addr, trim(w.from_name), "
	/* the patches already applied (a part another subsystem took) */
	"CASE WHEN st.flag_bits & ?2 THEN (SELECT group_concat(idx, ',') "
	" FROM (SELECT DISTINCT ps.idx FROM patch_status ps "
	" WHERE ps.series_id = s.id AND ps.accepted_at IS NOT NULL "
	" ORDER BY ps.idx)) END "
	"FROM series_status st JOIN series s ON s.id = st.series_id "
	"LEFT JOIN messages w ON w.msgid = st.wait_msgid "
	"JOIN messages a ON a.id = s.anchor_id "
	"LEFT JOIN series p ON p.id = (SELECT q.id FROM series q "
	" WHERE q.superseded_by = s.id ORDER BY q.first_posted DESC LIMIT 1) "
	"LEFT JOIN v_test_verdicts tv ON tv.series_id = s.id "
	"WHERE st.series_id IN (SELECT series_id FROM series_status "
	" WHERE posted >= ?1 UNION SELECT series_id FROM boot_tests "
	" UNION SELECT series_id FROM applies) "
	"AND st.state != 'superseded' AND (st.overdue OR st.too_soon "
	"OR st.late OR st.state = 'reviewed' OR tv.series_id IS NOT NULL) "
	"ORDER BY st.posted, s.id";
static const char SQL_FIRST_RUN_SET[] =
	"INSERT OR IGNORE INTO plan_state (id, first_run) VALUES (1, ?)";
static const char SQL_FIRST_RUN[] =
	"SELECT first_run FROM plan_state WHERE id = ?1";
static const char SQL_LISTED[] =
	"SELECT 1 FROM digest_items WHERE addr = lower(?1) AND series_id = ?2 "
	"AND version = ?3 AND listed_at >= ?4";
/* listed_at: the last digest that listed it (a new wait after it is
 * news again). */
static const char SQL_LIST_ITEM[] =
	"INSERT INTO digest_items (addr, series_id, version, listed_at) "
	"VALUES (lower(?1), ?2, ?3, ?4) ON CONFLICT (addr, series_id, version) "
	"DO UPDATE SET listed_at = max(listed_at, excluded.listed_at)";
static const char SQL_LAST_DIGEST[] =
	"SELECT coalesce(max(created_at), 0) FROM outbox WHERE action = "
	"'digest' AND status = 'sent' AND recipients = lower(?)";
static const char SQL_PEOPLE_OF[] =
	"SELECT addr, name FROM maint_people WHERE entry = ? AND role = ? "
	"ORDER BY pos";
/* clang-format off */
/* An address without its "+detail" (robh+dt@kernel.org writes from
 * robh@kernel.org): MAINTAINERS often names the sorting form. */
#define PC_SQL_BASE_ADDR(a)                                                \
	"(CASE WHEN instr(" a ", '+') BETWEEN 2 AND instr(" a ", '@') "    \
	"THEN substr(" a ", 1, instr(" a ", '+') - 1) || substr(" a ", "   \
	"instr(" a ", '@')) ELSE " a " END)"

/* The M: people of an entry with, for each, whether they were seen
 * applying a series of that entry in the year before ?2 (an "Applied"
 * or "queued" reply to one of its patches or covers: messages_applied)
 * and whether they wrote to the list in the 180 days before it. */
static const char SQL_APPLIERS[] =
	"SELECT p.addr, p.name, "
	"EXISTS (SELECT 1 FROM messages m JOIN messages a "
	" ON a.msgid = m.in_reply_to JOIN series_entries se "
	" ON se.series_id = a.series_id AND se.entry = ?1 "
	" WHERE (m.intent & 1) = 1 AND m.date <= ?2 "
	" AND m.date >= ?2 - 365 * 86400 AND m.from_addr = p.addr), "
	"EXISTS (SELECT 1 FROM senders s WHERE s.addr = " PC_SQL_BASE_ADDR("p.addr")
	" AND s.first_at <= ?2 AND s.last_at >= ?2 - 180 * 86400) "
	"FROM maint_people p WHERE p.entry = ?1 AND p.role = 'M' "
	"ORDER BY p.pos";
/* How long the list has been read before ?1 (the first Date seen), and
 * whether entry ?2's L: lines name the list ?3 (an address). */
static const char SQL_HISTORY[] =
	"SELECT coalesce(min(first_at), ?1), EXISTS (SELECT 1 FROM "
	"maint_people WHERE entry = ?2 AND role = 'L' AND addr = ?3) "
	"FROM senders";
/* The people other than bots who wrote in series ?1's thread (its
 * patches and cover, and the replies below them that belong to no other
 * series) after ?2 and at or before ?3, each once, in the order they
 * first wrote: name, address, which review tags they gave in those
 * replies (1 Reviewed-by, 2 Acked-by or Acked-for-MFD-by, 4 Tested-by;
 * 8: an "Applied"/"queued" of theirs), and when they last wrote. */
static const char SQL_THREAD_OTHERS[] =
	/* each message with the patch it is below (0: the cover), and
	 * as leaves, not descended into, the author's patches of another
	 * series posted below them: a newer version of that patch */
	"WITH RECURSIVE " PC_STORE__TWINS ", th(msgid, idx, leaf) AS ("
	" SELECT msgid, CASE WHEN kind = 'patch' THEN idx ELSE 0 END, 0"
	" FROM messages WHERE series_id IN twins"
	" UNION SELECT m.msgid, th.idx, m.series_id IS NOT NULL"
	" FROM messages m JOIN th ON m.in_reply_to = th.msgid AND th.leaf = 0"
	" WHERE +m.series_id IS NULL OR (+m.kind = 'patch'"
	" AND +m.series_id NOT IN twins AND +m.from_addr ="
	" (SELECT author_addr FROM series WHERE id = ?1))), "
	/* each of them in the window, with the review tags of its
	 * sender's own it gives (PC_OUTBOX_*), read once */
	"w(name, addr, date, intent, idx, leaf, tags) AS ("
	" SELECT m.from_name, m.from_addr, m.date, m.intent, th.idx, th.leaf,"
	" (SELECT coalesce(max(t.name = 'Reviewed-by' COLLATE NOCASE)"
	"  | 2 * max(t.name LIKE 'Acked-%by')"
	"  | 4 * max(t.name = 'Tested-by' COLLATE NOCASE), 0)"
	"  FROM trailers t WHERE t.message_id = m.id AND t.origin = 'reply'"
	"  AND t.mismatch = 0 AND t.suggested = 0)"
	" FROM th JOIN messages m ON m.msgid = th.msgid"
	" WHERE (m.kind = 'reply' OR th.leaf) AND m.date > ?2"
	" AND m.date <= ?3 AND m.is_bot = 0 AND m.auto_submitted IS NULL"
	" AND m.from_addr != '') "
	"SELECT name, addr, max(tags & 1) | max(tags & 2) | max(tags & 4)"
	" | 8 * max((intent & 1) = 1), max(date), "
	/* the patches they withdrew below them ("This patch is wrong ...
	 * The rest in the series is okay."), those they posted a newer
	 * version of below them, and those their review tags were given
	 * below, as bits of n - 1; and whether a tag of theirs was given
	 * below the cover letter (for all of it) */
	"sum(DISTINCT CASE WHEN (intent & 33554432) != 0 AND leaf = 0"
	" AND idx BETWEEN 1 AND 63 THEN 1 << (idx - 1) ELSE 0 END), "
	"sum(DISTINCT CASE WHEN leaf AND idx BETWEEN 1 AND 63"
	" THEN 1 << (idx - 1) ELSE 0 END), "
	"sum(DISTINCT CASE WHEN tags != 0 AND idx BETWEEN 1 AND 63"
	" THEN 1 << (idx - 1) ELSE 0 END), "
	"max(idx = 0 AND tags != 0) "
	"FROM w GROUP BY lower(addr) ORDER BY min(date)";
/* Below this much history, nobody seen says nothing: all M: people. */
#define KNOWN_HISTORY ((int64_t)30 * 86400)
/* The R: people of an entry who wrote to the list in the 180 days
 * before ?2. */
static const char SQL_ACTIVE_REVIEWERS[] =
	"SELECT p.addr, p.name FROM maint_people p "
	"JOIN senders s ON s.addr = " PC_SQL_BASE_ADDR("p.addr")
	" AND s.first_at <= ?2 AND s.last_at >= ?2 - 180 * 86400 "
	"WHERE p.entry = ?1 AND p.role = 'R' ORDER BY p.pos";
/* clang-format on */
static const char SQL_IS_LIST[] =
	"SELECT 1 FROM maint_people WHERE addr = lower(?) AND role = 'L' "
	"LIMIT 1";
static const char SQL_OPTOUT_REPLIES[] =
	"INSERT OR IGNORE INTO opt_out (addr, source, since) "
	"SELECT lower(from_addr), msgid, ?1 FROM messages "
	"WHERE kind = 'reply' AND intent & 4 AND from_addr != '' "
	"GROUP BY lower(from_addr)";

int pc_outbox_candidates(struct pc_store *st, int64_t min_posted,
			 pc_outbox_candidate_fn fn, void *arg,
			 struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc, stop = 0;

	if (sqlite3_prepare_v2(st->db, SQL_CANDIDATES, -1, &s, NULL) !=
	    SQLITE_OK)
		return pc_store__fail(st, err, "reading verdicts");
	sqlite3_bind_int64(s, 1, min_posted);
	sqlite3_bind_int64(s, 2, PC_SLA_PARTLY_ACCEPTED);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_outbox_candidate c = { 0 };
		const char *by_addr, *by_name;

		c.series_id = sqlite3_column_int64(s, 0);
		c.version = sqlite3_column_int(s, 1);
		c.subject = pc_store__col(s, 2);
		c.anchor_msgid = pc_store__col(s, 3);
		c.anchor_refs = pc_store__col(s, 4);
		c.author_name = pc_store__col(s, 5);
		c.author_addr = pc_store__col(s, 6);
		c.author_is_bot = sqlite3_column_int(s, 7);
		c.auto_submitted = pc_store__col(s, 8);
		c.precedence = pc_store__col(s, 9);
		c.state = pc_store__col(s, 10);
		c.flags = pc_store__col(s, 11);
		c.entry = pc_store__col(s, 12);
		c.lands = pc_store__col(s, 13);
		c.posted = sqlite3_column_int64(s, 14);
		c.due = sqlite3_column_int64(s, 15);
		c.act_at = sqlite3_column_int64(s, 16);
		c.overdue_days = sqlite3_column_double(s, 17);
		c.patches = sqlite3_column_int(s, 18);
		c.reviewed = sqlite3_column_int(s, 19);
		c.prev_version = sqlite3_column_int(s, 20);
		c.prev_posted = sqlite3_column_int64(s, 21);
		c.list_id = pc_store__col(s, 22);
		c.test_verdict = sqlite3_column_int(s, 23);
		c.test_reason = pc_store__col(s, 24);
		c.test_at = sqlite3_column_int64(s, 25);
		c.test_summary = pc_store__col(s, 26);
		c.hold = pc_store__col(s, 27);
		c.wait_from = sqlite3_column_int64(s, 28);
		c.flag_bits = (unsigned)sqlite3_column_int64(s, 29);
		c.pinged_at = sqlite3_column_int64(s, 30);
		c.wait_msgid = pc_store__col(s, 31);
		c.ping_msgid = pc_store__col(s, 32);
		c.wait_by = NULL;
		by_addr = pc_store__col(s, 33);
		by_name = pc_store__col(s, 34);
		if (c.wait_msgid && (by_addr || by_name) &&
		    !pc_sla_same_person(c.author_addr, c.author_name, by_addr,
					by_name))
			c.wait_by = by_name && *by_name ? by_name : by_addr;
		c.applied_patches = pc_store__col(s, 35);
		if ((stop = fn(&c, arg)) != 0)
			break;
	}
	if (!stop && rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "reading verdicts");
		sqlite3_finalize(s);
		return rc;
	}
	sqlite3_finalize(s);
	return stop;
}

int pc_outbox_first_run(int64_t *at_out, struct pc_store *st, int64_t now,
			struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_FIRST_RUN_SET, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, now);
	if ((rc = pc_store__exec(st, s, err, "storing the first run")) < 0)
		return rc;
	return pc_store_int(st, SQL_FIRST_RUN, 1, at_out, err);
}

int pc_outbox_digest_listed(struct pc_store *st, const char *addr,
			    int64_t series_id, int version, int64_t since,
			    struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LISTED, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, addr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, series_id);
	sqlite3_bind_int(s, 3, version);
	sqlite3_bind_int64(s, 4, since);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading digest items");
}

int pc_outbox_digest_list(struct pc_store *st, const char *addr,
			  int64_t series_id, int version, int64_t at,
			  struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LIST_ITEM, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, addr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, series_id);
	sqlite3_bind_int(s, 3, version);
	sqlite3_bind_int64(s, 4, at);
	return pc_store__exec(st, s, err, "storing a digest item");
}

int pc_outbox_last_digest(int64_t *at_out, struct pc_store *st,
			  const char *addr, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LAST_DIGEST, err);
	int rc;

	*at_out = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, addr, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*at_out = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? 0 :
				  pc_store__fail(st, err, "reading the outbox");
}

int pc_outbox_entry_people(struct pc_store *st, const char *entry, char role,
			   int (*fn)(const char *addr, const char *name,
				     void *arg),
			   void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	char r[2] = { role, '\0' };
	int rc, stop = 0;

	if (sqlite3_prepare_v2(st->db, SQL_PEOPLE_OF, -1, &s, NULL) !=
	    SQLITE_OK)
		return pc_store__fail(st, err, "reading maintainers");
	sqlite3_bind_text(s, 1, entry, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, r, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if ((stop = fn(pc_store__col(s, 0), pc_store__col(s, 1),
			       arg)) != 0)
			break;
	sqlite3_finalize(s);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ?
		       0 :
		       pc_err_set(err, PC_EDB, "cannot read maintainers");
}

int pc_outbox_appliers(struct pc_store *st, const char *entry,
		       const char *list_id, int64_t now,
		       int (*fn)(const char *addr, const char *name, void *arg),
		       void *arg, struct pc_err *err)
{
	struct who {
		char *addr, *name;
		int applied, active;
	} *w = NULL;
	size_t n = 0, alloc = 0, i;
	int rc, best = 0, stop = 0;
	sqlite3_stmt *s = pc_store__stmt(st, SQL_APPLIERS, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, entry, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, now);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(w, n + 1, alloc);
		w[n].addr = xstrdup(pc_store__col(s, 0));
		w[n].name =
			xstrdup(pc_store__col(s, 1) ? pc_store__col(s, 1) : "");
		w[n].applied = sqlite3_column_int(s, 2);
		w[n].active = sqlite3_column_int(s, 3);
		/* 2: seen applying; 1: seen on the list; 0: neither. */
		if ((w[n].applied ? 2 : w[n].active) > best)
			best = w[n].applied ? 2 : w[n].active;
		n++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "reading an entry's appliers");
		goto out;
	}
	rc = 0;
	/* Nobody seen: nobody to write to (an entry whose M: people are
	 * long gone, or another list's, who do not read this one). Only on
	 * a list read for less than a month, and for an entry of that
	 * list, does that say nothing yet: then all its M: people. */
	if (!best) {
		char *list = pc_outbox_list_addr(list_id);
		int64_t first = now;
		int ours = 0;

		if ((s = pc_store__stmt(st, SQL_HISTORY, err)) == NULL) {
			free(list);
			rc = PC_EDB;
			goto out;
		}
		sqlite3_bind_int64(s, 1, now);
		sqlite3_bind_text(s, 2, entry, -1, SQLITE_STATIC);
		pc_store__bind_text(s, 3, list);
		if (sqlite3_step(s) == SQLITE_ROW) {
			first = sqlite3_column_int64(s, 0);
			/* Mail that names no list: whose it is is unknown */
			ours = !list || sqlite3_column_int(s, 1);
		}
		sqlite3_reset(s);
		free(list);
		if (!ours || now - first >= KNOWN_HISTORY)
			goto out;
	}
	/* Those who applied; else those seen; else, knowing nothing, all
	 * of them. */
	for (i = 0; i < n && !stop; i++) {
		int level = w[i].applied ? 2 : w[i].active;

		if (level < best)
			continue;
		stop = fn(w[i].addr, w[i].name, arg);
	}
	if (stop)
		rc = stop;
out:
	for (i = 0; i < n; i++) {
		free(w[i].addr);
		free(w[i].name);
	}
	free(w);
	return rc;
}

int pc_outbox_thread_others(struct pc_store *st, int64_t series_id,
			    int64_t after, int64_t until,
			    int (*fn)(const struct pc_outbox_writer *w,
				      void *arg),
			    void *arg, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_THREAD_OTHERS, err);
	int rc, stop = 0;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	sqlite3_bind_int64(s, 2, after);
	sqlite3_bind_int64(s, 3, until);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_outbox_writer w;

		w.addr = pc_store__col(s, 1);
		w.name = pc_store__col(s, 0) ? pc_store__col(s, 0) : "";
		w.tags = (unsigned)sqlite3_column_int(s, 2);
		w.last = sqlite3_column_int64(s, 3);
		w.withdrew = (uint64_t)sqlite3_column_int64(s, 4);
		w.replaced = (uint64_t)sqlite3_column_int64(s, 5);
		w.tagged = (uint64_t)sqlite3_column_int64(s, 6);
		w.tagged_all = sqlite3_column_int(s, 7);
		if ((stop = fn(&w, arg)) != 0)
			break;
	}
	sqlite3_reset(s);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading a series' thread");
}

char *pc_outbox_list_addr(const char *list_id)
{
	const char *dot = list_id ? strchr(list_id, '.') : NULL;
	char *a, *p;

	if (!dot || dot == list_id)
		return NULL;
	a = xasprintf("%.*s@%s", (int)(dot - list_id), list_id, dot + 1);
	for (p = a; *p; p++)
		*p = (char)pc_tolower((unsigned char)*p);
	return a;
}

int pc_outbox_active_reviewers(struct pc_store *st, const char *entry,
			       int64_t now,
			       int (*fn)(const char *addr, const char *name,
					 void *arg),
			       void *arg, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ACTIVE_REVIEWERS, err);
	int rc, stop = 0;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, entry, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, now);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if ((stop = fn(pc_store__col(s, 0), pc_store__col(s, 1),
			       arg)) != 0)
			break;
	sqlite3_reset(s);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading an entry's reviewers");
}

int pc_outbox_is_list(struct pc_store *st, const char *addr, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_IS_LIST, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, addr, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : pc_store__fail(st, err, "reading lists");
}

int pc_optout_from_replies(struct pc_store *st, int64_t now, int *added_out,
			   struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_OPTOUT_REPLIES, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, now);
	if ((rc = pc_store__exec(st, s, err, "recording opt-outs")) < 0)
		return rc;
	if (added_out)
		*added_out = sqlite3_changes(st->db);
	return 0;
}

int64_t pc_outbox_count_prefix(struct pc_store *st, const char *prefix,
			       int64_t *last_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_COUNT_PREFIX, err);
	int64_t n = 0;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, prefix, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		n = sqlite3_column_int64(s, 0);
		if (last_out)
			*last_out = sqlite3_column_int64(s, 1);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return pc_store__fail(st, err, "counting outbox mail");
	return n;
}

static const char SQL_DUE_COUNT[] =
	"SELECT count(*) FROM outbox WHERE " PC_OUTBOX_DUE_AT_1;
static const char SQL_NEXT_DUE[] =
	"SELECT min(max(send_after, coalesce(next_attempt, 0))) FROM outbox "
	"WHERE status = 'pending' AND "
	"max(send_after, coalesce(next_attempt, 0)) > ?1";

int pc_outbox_due_count(struct pc_store *st, int64_t now, int64_t *n_out,
			struct pc_err *err)
{
	*n_out = 0;
	return pc_store_int(st, SQL_DUE_COUNT, now, n_out, err);
}

int pc_outbox_next_due(struct pc_store *st, int64_t now, int64_t *next_out,
		       struct pc_err *err)
{
	*next_out = 0;
	return pc_store_int(st, SQL_NEXT_DUE, now, next_out, err);
}
