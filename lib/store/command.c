// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Commands given by mail: read, judged, stored. See command.h.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/dkim.h"
#include "mail/message.h"
#include "patch/command.h"
#include "store/command.h"
#include "store/raw.h"
#include "store/store_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char SQL_UNREAD[] =
	"SELECT id, msgid, in_reply_to, date FROM messages WHERE commands = 1 "
	"ORDER BY id";
/* The series of the first message up the In-Reply-To chain that has
 * one, else of patchclock's mail that the chain answers. */
static const char SQL_SERIES_OF[] =
	"WITH RECURSIVE up(msgid, depth) AS (SELECT ?1, 0 UNION ALL "
	" SELECT m.in_reply_to, up.depth + 1 FROM messages m JOIN up "
	" ON m.msgid = up.msgid WHERE up.depth < 64 "
	" AND m.series_id IS NULL AND m.in_reply_to IS NOT NULL) "
	"SELECT coalesce((SELECT m.series_id FROM up JOIN messages m "
	" ON m.msgid = up.msgid WHERE m.series_id IS NOT NULL "
	" ORDER BY up.depth LIMIT 1), (SELECT o.series_id FROM up "
	" JOIN outbox o ON o.message_id = '<' || up.msgid || '>' "
	" WHERE o.series_id IS NOT NULL ORDER BY up.depth LIMIT 1))";
/* The governing entry: the judged one, else the first by covered
 * lines, with not-mine entries left out. */
static const char SQL_GOVERNING[] =
	"SELECT coalesce((SELECT entry FROM series_status WHERE series_id = ?1 "
	" AND entry IS NOT NULL AND entry NOT IN (SELECT entry FROM "
	" series_not_mine WHERE series_id = ?1)), (SELECT entry FROM "
	" series_entries WHERE series_id = ?1 AND k_only = 0 AND entry NOT IN "
	" (SELECT entry FROM series_not_mine WHERE series_id = ?1) "
	" ORDER BY lines DESC, pos LIMIT 1))";
static const char SQL_ROLE[] =
	"SELECT group_concat(DISTINCT role) FROM maint_people "
	"WHERE entry = ?1 AND addr = ?2 AND role IN ('M', 'R')";
static const char SQL_INSERT[] =
	"INSERT OR IGNORE INTO commands (message_id, lineno, series_id, verb, "
	"text, from_addr, given_at, decided_at, outcome, reason, first, last, "
	"tree, until_at, release) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
	"?10, ?11, ?12, ?13, ?14, ?15)";
static const char SQL_NOT_MINE[] =
	"INSERT OR IGNORE INTO series_not_mine (series_id, entry, command_id) "
	"VALUES (?1, ?2, ?3)";
static const char SQL_OPT_IN[] = "DELETE FROM opt_out WHERE addr = ?1";
static const char SQL_OPT_OUT[] =
	"INSERT OR IGNORE INTO opt_out (addr, source, since) VALUES (?1, ?2, ?3)";
static const char SQL_DIRTY[] =
	"UPDATE series SET status_dirty = 1 WHERE id = ?1";
static const char SQL_READ[] =
	"UPDATE messages SET commands = 2, dkim = ?2, dkim_why = ?3 "
	"WHERE id = ?1";
static const char SQL_LIST[] =
	"SELECT c.id, c.series_id, c.given_at, c.decided_at, m.msgid, c.verb, "
	"c.text, c.from_addr, c.outcome, c.reason, m.dkim, m.dkim_why "
	"FROM commands c JOIN messages m ON m.id = c.message_id "
	"WHERE ?1 = 0 OR c.series_id = ?1 ORDER BY c.given_at, c.id";

/* Replies with a review tag in their sender's own name, not checked;
 * those too old to check are marked checked first (dkim stays NULL). */
static const char SQL_TAGS_TOO_OLD[] =
	"UPDATE messages SET attest = 2 WHERE attest = 1 "
	"AND coalesce(date, 0) <= ?1";
static const char SQL_TAGS_UNCHECKED[] =
	"SELECT m.id, m.from_addr FROM messages m WHERE m.attest = 1 "
	"AND EXISTS (SELECT 1 FROM trailers t WHERE t.message_id = m.id "
	" AND t.origin = 'reply' AND t.mismatch = 0 "
	" AND t.name IN ('Reviewed-by', 'Acked-by') COLLATE NOCASE) "
	"ORDER BY m.id";
static const char SQL_SET_DKIM[] =
	"UPDATE messages SET attest = 2, dkim = ?2, dkim_why = ?3 "
	"WHERE id = ?1";
static const char SQL_HELP_DUE[] =
	"SELECT m.msgid, m.subject, m.refs, c.from_addr, m.from_name, "
	"group_concat(c.text || char(9) || c.reason, char(10)) "
	"FROM commands c JOIN messages m ON m.id = c.message_id "
	"WHERE c.outcome = 'invalid' AND c.given_at > ?1 - 2 * 86400 "
	"AND c.given_at <= ?1 + 3600 AND m.is_bot = 0 "
	"AND (m.auto_submitted IS NULL OR lower(m.auto_submitted) = 'no') "
	"AND (m.dkim IS NULL OR m.dkim != 'fail') AND c.from_addr != '' "
	"AND NOT EXISTS (SELECT 1 FROM outbox o "
	" WHERE o.key = 'command-help:' || c.from_addr) "
	"GROUP BY m.id ORDER BY m.id";

/* One mail being read. */
struct mail {
	int64_t id, date, series;
	const char *msgid; /* borrowed */
	char *from; /* owned: the From addr-spec, lower-case */
	enum pc_dkim_result dkim;
	int dkim_checked;
	const char *dup_field; /* a field written twice ("from"), or NULL */
	char dkim_why[256];
	char *entry; /* owned: the governing entry, or NULL */
};

/* One decision. */
struct verdict {
	const char *outcome;
	char reason[320];
};

static int exec1(struct pc_store *st, const char *sql, int64_t a,
		 const char *what, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, a);
	return pc_store__exec(st, s, err, what);
}

static int text_of(struct pc_store *st, const char *sql, int64_t a, char **out,
		   struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);
	int rc;

	*out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, a);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		*out = pc_store__col_dup(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading a command's series");
}

/* The series the mail answers (0: none). */
static int find_series(struct pc_store *st, struct mail *m, const char *irt,
		       struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_SERIES_OF, err);
	int rc;

	m->series = 0;
	if (!s)
		return PC_EDB;
	if (!irt)
		return 0;
	sqlite3_bind_text(s, 1, irt, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		m->series = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pc_store__fail(st, err, "finding a command's series");
	if (m->series)
		return text_of(st, SQL_GOVERNING, m->series, &m->entry, err);
	return 0;
}

/* Whether the sender is who the mail says: a DKIM signature, when there
 * is one, must verify for the From domain. */
static int identity_ok(const struct pc_command_options *o, const struct mail *m,
		       struct verdict *v)
{
	if (m->dup_field) {
		snprintf(v->reason, sizeof(v->reason),
			 "the mail has more than one %s header field (RFC "
			 "5322 allows one): it carries no authority",
			 m->dup_field);
		return 0;
	}
	if (m->dkim == PC_DKIM_FAIL) {
		snprintf(v->reason, sizeof(v->reason), "DKIM: %s", m->dkim_why);
		return 0;
	}
	if (m->dkim == PC_DKIM_NONE && o->require_dkim) {
		snprintf(v->reason, sizeof(v->reason),
			 "not DKIM-signed, and this patchclock requires it");
		return 0;
	}
	return 1;
}

/* The sender's roles in the governing entry ("M", "R", "M,R"), or NULL. */
static int role_of(struct pc_store *st, const struct mail *m, char **out,
		   struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ROLE, err);
	int rc;

	*out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, m->entry, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, m->from, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		*out = pc_store__col_dup(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading roles");
}

/* Decides one command: its outcome and reason in *v. */
static int decide(struct pc_store *st, const struct pc_command_options *o,
		  const struct mail *m, const struct pc_cmd *c,
		  struct verdict *v, struct pc_err *err)
{
	char *role = NULL;
	int rc;

	v->outcome = "refused";
	v->reason[0] = '\0';
	if (c->error) {
		v->outcome = "invalid";
		snprintf(v->reason, sizeof(v->reason), "%s", c->error);
		return 0;
	}
	if (c->verb == PC_CMD_OPT_OUT) {
		/* Always: forging it can only stop mail. */
		v->outcome = "obeyed";
		snprintf(v->reason, sizeof(v->reason), "no more mail to %s",
			 m->from);
		return 0;
	}
	if (!m->from[0]) {
		snprintf(v->reason, sizeof(v->reason), "no From address");
		return 0;
	}
	if (!identity_ok(o, m, v))
		return 0;
	if (pc_cmd_is_personal(c->verb)) {
		v->outcome = "obeyed";
		snprintf(v->reason, sizeof(v->reason), "mail to %s again",
			 m->from);
		return 0;
	}
	if (!m->series) {
		snprintf(v->reason, sizeof(v->reason),
			 "it answers no series' thread and no mail of "
			 "patchclock's");
		return 0;
	}
	if (!m->entry) {
		snprintf(v->reason, sizeof(v->reason),
			 "the series maps to no MAINTAINERS entry");
		return 0;
	}
	if ((rc = role_of(st, m, &role, err)) < 0)
		return rc;
	if (!role) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s is not an M: or R: of %s", m->from, m->entry);
		return 0;
	}
	v->outcome = "obeyed";
	snprintf(v->reason, sizeof(v->reason), "%s of %s%s",
		 strchr(role, 'M') ? "M:" : "R:", m->entry,
		 m->dkim == PC_DKIM_PASS ? ", DKIM verified" :
					   ", not DKIM-signed");
	free(role);
	return 0;
}

/* Stores the command and does what an obeyed one does at once. */
static int record(struct pc_store *st, const struct mail *m,
		  const struct pc_cmd *c, const struct verdict *v, int64_t now,
		  struct pc_command_stats *stats, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT, err);
	int obeyed = !strcmp(v->outcome, "obeyed");
	int64_t cmd_id;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, m->id);
	sqlite3_bind_int(s, 2, c->lineno);
	if (m->series && !pc_cmd_is_personal(c->verb))
		sqlite3_bind_int64(s, 3, m->series);
	sqlite3_bind_text(s, 4, pc_cmd_verb_name(c->verb), -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, c->text, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 6, m->from, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 7, m->date ? m->date : now);
	sqlite3_bind_int64(s, 8, now);
	sqlite3_bind_text(s, 9, v->outcome, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 10, v->reason, -1, SQLITE_STATIC);
	if (c->first) {
		sqlite3_bind_int(s, 11, c->first);
		sqlite3_bind_int(s, 12, c->last);
	}
	pc_store__bind_text(s, 13, c->tree);
	if (c->verb == PC_CMD_SNOOZE)
		sqlite3_bind_int64(s, 14,
				   (m->date ? m->date : now) + c->seconds);
	else if (c->verb == PC_CMD_DEFERRED && !c->release)
		sqlite3_bind_int64(s, 14, c->until_day * 86400);
	pc_store__bind_text(s, 15, c->release);
	if ((rc = pc_store__exec(st, s, err, "storing a command")) < 0)
		return rc;
	cmd_id = sqlite3_last_insert_rowid(st->db);
	if (!obeyed || !sqlite3_changes(st->db))
		return 0;
	switch (c->verb) {
	case PC_CMD_OPT_OUT: {
		sqlite3_stmt *o = pc_store__stmt(st, SQL_OPT_OUT, err);

		if (!o)
			return PC_EDB;
		sqlite3_bind_text(o, 1, m->from, -1, SQLITE_STATIC);
		sqlite3_bind_text(o, 2, m->msgid, -1, SQLITE_STATIC);
		sqlite3_bind_int64(o, 3, now);
		if ((rc = pc_store__exec(st, o, err, "recording an opt-out")) <
		    0)
			return rc;
		stats->opt_outs += (unsigned)sqlite3_changes(st->db);
		return 0;
	}
	case PC_CMD_OPT_IN: {
		sqlite3_stmt *o = pc_store__stmt(st, SQL_OPT_IN, err);

		if (!o)
			return PC_EDB;
		sqlite3_bind_text(o, 1, m->from, -1, SQLITE_STATIC);
		return pc_store__exec(st, o, err, "recording an opt-in");
	}
	case PC_CMD_NOT_MINE: {
		sqlite3_stmt *o = pc_store__stmt(st, SQL_NOT_MINE, err);

		if (!o)
			return PC_EDB;
		sqlite3_bind_int64(o, 1, m->series);
		sqlite3_bind_text(o, 2, m->entry, -1, SQLITE_STATIC);
		sqlite3_bind_int64(o, 3, cmd_id);
		if ((rc = pc_store__exec(st, o, err, "recording not-mine")) < 0)
			return rc;
		break;
	}
	default:
		break;
	}
	return exec1(st, SQL_DIRTY, m->series, "marking a series", err);
}

/* The From domain of an addr-spec ("" when none). */
static const char *domain_of(const char *addr)
{
	const char *at = strrchr(addr, '@');

	return at ? at + 1 : "";
}

/* Whether the raw mail's header carries a DKIM-Signature. */
static int signed_mail(const char *raw, size_t len)
{
	const char *end = memmem(raw, len, "\n\n", 2);
	size_t hl = end ? (size_t)(end - raw) + 1 : len;

	return pc_mem_starts(raw, hl, "DKIM-Signature:") ||
	       pc_memimem(raw, hl, "\nDKIM-Signature:") != NULL;
}

/* The DKIM verdict of the stored mail raw for the From address from. */
static enum pc_dkim_result check_dkim(const struct pc_command_options *o,
				      const char *raw, size_t len,
				      const char *from, int64_t now, char *why,
				      size_t whylen)
{
	if (!signed_mail(raw, len)) {
		snprintf(why, whylen, "not signed");
		return PC_DKIM_NONE;
	}
	if (!o->dkim) {
		snprintf(why, whylen,
			 "signed, and no DKIM verifier is configured");
		return PC_DKIM_FAIL;
	}
	return pc_dkim_verify(o->dkim, raw, len, domain_of(from),
			      o->dkim_now ? o->dkim_now : now, why, whylen);
}

static int read_mail(struct pc_store *st, const struct pc_command_options *o,
		     struct mail *m, const char *irt, int64_t now,
		     struct pc_command_stats *stats, struct pc_err *err)
{
	struct pc_msg *msg = NULL;
	struct pc_cmds cmds = { 0 };
	char *raw = NULL;
	size_t len = 0, i;
	int rc;

	if ((rc = pc_message_raw(&raw, &len, st, m->id, err)) < 0)
		return rc;
	if (pc_msg_parse(&msg, raw, len, NULL) < 0)
		goto mark; /* kept raw; nothing to read */
	m->from = xstrdup(msg->from.addr);
	for (i = 0; m->from[i]; i++)
		m->from[i] = (char)pc_tolower((unsigned char)m->from[i]);
	pc_cmds_scan(&cmds, msg->body.buf, msg->body.len);
	m->dup_field = msg->dup_field; /* a static string */
	m->dkim = check_dkim(o, raw, len, m->from, now, m->dkim_why,
			     sizeof(m->dkim_why));
	m->dkim_checked = 1;
	if ((rc = find_series(st, m, irt, err)) < 0)
		goto out;
	for (i = 0; i < cmds.n; i++) {
		struct verdict v;

		if ((rc = decide(st, o, m, &cmds.v[i], &v, err)) < 0 ||
		    (rc = record(st, m, &cmds.v[i], &v, now, stats, err)) < 0)
			goto out;
		if (v.outcome[0] == 'o')
			stats->obeyed++;
		else if (v.outcome[0] == 'r')
			stats->refused++;
		else
			stats->invalid++;
		if (o->decided)
			o->decided(m->msgid, m->from, cmds.v[i].text, v.outcome,
				   v.reason, o->arg);
	}
mark : {
	sqlite3_stmt *s = pc_store__stmt(st, SQL_READ, err);

	if (!s) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, m->id);
	if (m->dkim_checked) {
		sqlite3_bind_text(s, 2, pc_dkim_result_name(m->dkim), -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(s, 3, m->dkim_why, -1, SQLITE_STATIC);
	}
	rc = pc_store__exec(st, s, err, "marking a mail's commands read");
}
out:
	pc_cmds_release(&cmds);
	pc_msg_free(msg);
	free(raw);
	return rc;
}

int pc_commands_process(struct pc_store *st,
			const struct pc_command_options *opt, int64_t now,
			struct pc_command_stats *stats, struct pc_err *err)
{
	struct pc_command_options none = { 0 };
	sqlite3_stmt *s = pc_store__stmt(st, SQL_UNREAD, err);
	struct row {
		int64_t id, date;
		char *msgid, *irt;
	} *rows = NULL;
	size_t n = 0, alloc = 0, i;
	int rc;

	memset(stats, 0, sizeof(*stats));
	if (!opt)
		opt = &none;
	if (!s)
		return PC_EDB;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(rows, n + 1, alloc);
		rows[n].id = sqlite3_column_int64(s, 0);
		rows[n].msgid = pc_store__col_dup(s, 1);
		rows[n].irt = pc_store__col_dup(s, 2);
		rows[n++].date = sqlite3_column_int64(s, 3);
	}
	sqlite3_reset(s);
	rc = rc == SQLITE_DONE ? 0 :
				 pc_store__fail(st, err, "listing commands");
	for (i = 0; i < n && rc == 0; i++) {
		struct mail m = { 0 };

		m.id = rows[i].id;
		m.date = rows[i].date;
		m.msgid = rows[i].msgid;
		rc = read_mail(st, opt, &m, rows[i].irt, now, stats, err);
		stats->mails++;
		free(m.from);
		free(m.entry);
	}
	for (i = 0; i < n; i++) {
		free(rows[i].msgid);
		free(rows[i].irt);
	}
	free(rows);
	return rc;
}

int pc_attest_tags(struct pc_store *st, const struct pc_command_options *opt,
		   int64_t now, int64_t max_age, unsigned *checked,
		   struct pc_err *err)
{
	struct pc_command_options none = { 0 };
	sqlite3_stmt *s = pc_store__stmt(st, SQL_TAGS_UNCHECKED, err);
	struct row {
		int64_t id;
		char *from;
	} *rows = NULL;
	int64_t cut = now - max_age;
	size_t n = 0, alloc = 0, i;
	int rc;

	if (checked)
		*checked = 0;
	if (!opt)
		opt = &none;
	if (!s || (rc = exec1(st, SQL_TAGS_TOO_OLD, cut, "marking old tags",
			      err)) < 0)
		return PC_EDB;
	if (!(s = pc_store__stmt(st, SQL_TAGS_UNCHECKED, err)))
		return PC_EDB;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(rows, n + 1, alloc);
		rows[n].id = sqlite3_column_int64(s, 0);
		rows[n++].from = pc_store__col_dup(s, 1);
	}
	sqlite3_reset(s);
	rc = rc == SQLITE_DONE ?
		     0 :
		     pc_store__fail(st, err, "listing tags to attest");
	for (i = 0; i < n && rc == 0; i++) {
		char *raw = NULL, why[256];
		size_t len = 0;
		enum pc_dkim_result r;

		if ((rc = pc_message_raw(&raw, &len, st, rows[i].id, err)) < 0)
			break;
		r = check_dkim(opt, raw, len, rows[i].from ? rows[i].from : "",
			       now, why, sizeof(why));
		free(raw);
		if (!(s = pc_store__stmt(st, SQL_SET_DKIM, err))) {
			rc = PC_EDB;
			break;
		}
		sqlite3_bind_int64(s, 1, rows[i].id);
		sqlite3_bind_text(s, 2, pc_dkim_result_name(r), -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(s, 3, why, -1, SQLITE_STATIC);
		rc = pc_store__exec(st, s, err, "storing a tag's attestation");
		if (checked)
			(*checked)++;
	}
	for (i = 0; i < n; i++)
		free(rows[i].from);
	free(rows);
	return rc;
}

int pc_commands_help_due(struct pc_store *st, int64_t now,
			 pc_command_help_fn fn, void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc, stop = 0;

	if (sqlite3_prepare_v2(st->db, SQL_HELP_DUE, -1, &s, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "reading commands");
	sqlite3_bind_int64(s, 1, now);
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_command_help h;

		h.msgid = (const char *)sqlite3_column_text(s, 0);
		h.subject = (const char *)sqlite3_column_text(s, 1);
		h.refs = (const char *)sqlite3_column_text(s, 2);
		h.from_addr = (const char *)sqlite3_column_text(s, 3);
		h.from_name = (const char *)sqlite3_column_text(s, 4);
		h.lines = (const char *)sqlite3_column_text(s, 5);
		stop = fn(&h, arg);
	}
	if (!stop && rc != SQLITE_DONE)
		rc = pc_store__fail(st, err, "reading commands");
	else
		rc = stop;
	sqlite3_finalize(s);
	return rc;
}

int pc_commands_list(struct pc_store *st, int64_t series_id, pc_command_fn fn,
		     void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc, stop = 0;

	if (sqlite3_prepare_v2(st->db, SQL_LIST, -1, &s, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "reading commands");
	sqlite3_bind_int64(s, 1, series_id);
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_command_row r;

		r.id = sqlite3_column_int64(s, 0);
		r.series_id = sqlite3_column_int64(s, 1);
		r.given_at = sqlite3_column_int64(s, 2);
		r.decided_at = sqlite3_column_int64(s, 3);
		r.message_id = (const char *)sqlite3_column_text(s, 4);
		r.verb = (const char *)sqlite3_column_text(s, 5);
		r.text = (const char *)sqlite3_column_text(s, 6);
		r.from_addr = (const char *)sqlite3_column_text(s, 7);
		r.outcome = (const char *)sqlite3_column_text(s, 8);
		r.reason = (const char *)sqlite3_column_text(s, 9);
		r.dkim = (const char *)sqlite3_column_text(s, 10);
		r.dkim_why = (const char *)sqlite3_column_text(s, 11);
		stop = fn(&r, arg);
	}
	if (!stop && rc != SQLITE_DONE)
		rc = pc_store__fail(st, err, "reading commands");
	else
		rc = stop;
	sqlite3_finalize(s);
	return rc;
}
