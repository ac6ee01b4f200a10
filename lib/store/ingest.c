// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ingest of one message (see ingest.h): parse, classify, store, and hand
 * patches and covers to series.c. All writes for a message happen in the
 * caller's transaction, so a message is stored whole or not at all.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/message.h"
#include "patch/analysis.h"
#include "patch/classify.h"
#include "patch/trailer.h"
#include "store/ingest.h"
#include "store/ingest_internal.h"
#include "store/series.h"
#include "store/raw.h"
#include "store/store_internal.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char SQL_INSERT_MSG[] =
	"INSERT INTO messages (msgid, msgid_generated, raw_id, source, "
	"list_id, kind, subject, name, from_name, from_addr, author_name, "
	"author_addr, date, date_tz, in_reply_to, version, idx, total, "
	"numbered, is_rfc, is_resend, topic, has_diff, patch_id, "
	"base_commit, files_changed, insertions, deletions, pull_url, "
	"pull_ref, change_id, supersedes, auto_submitted, precedence, "
	"user_agent, charset_fallback, is_bot, parse_error, refs, intent, "
	"pw_hint, commands, to_bot, attest, subject_key, patch_key) "
	"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
	"?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, "
	"?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, "
	"?41, ?42, ?43, ?44, pc_text_key(?7), pc_text_key(?24))";
static const char SQL_INSERT_FILE[] =
	"INSERT INTO patch_files (message_id, pos, status, old_path, new_path, "
	"added, removed, binary, old_mode, new_mode, similarity) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char SQL_INSERT_TRAILER[] =
	"INSERT INTO trailers (message_id, pos, origin, name, value, person, "
	"addr, suggested, target_id, mismatch) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char SQL_INSERT_PULL_TITLE[] =
	"INSERT OR IGNORE INTO pull_titles (message_id, title) VALUES (?, ?)";
static const char SQL_INSERT_ERROR[] =
	"INSERT INTO ingest_errors (raw_id, msgid, source, reason) "
	"VALUES (?, ?, ?, ?)";
static const char SQL_HAS_ERROR[] =
	"SELECT 1 FROM ingest_errors WHERE raw_id IS NULL AND source = ? "
	"AND reason = ?";
static const char SQL_UNRESOLVED[] =
	"SELECT DISTINCT message_id FROM trailers WHERE target_id IS NULL";
static const char SQL_SET_TARGET[] =
	"UPDATE trailers SET target_id = ? WHERE message_id = ? "
	"AND target_id IS NULL";

static char *lower_dup(const char *s)
{
	char *d = xstrdup(s ? s : "");
	size_t i;

	for (i = 0; d[i]; i++)
		d[i] = (char)pc_tolower((unsigned char)d[i]);
	return d;
}

static void bind_int_or_null(sqlite3_stmt *s, int i, int present, int64_t v)
{
	if (present)
		sqlite3_bind_int64(s, i, v);
	else
		sqlite3_bind_null(s, i);
}

static int insert_message(struct pc_store *st, const struct pc_msg *m,
			  const struct pc_analysis *d, int64_t raw_id,
			  const char *where,
			  const struct pc_ingest_options *opt, int64_t *id_out,
			  struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_MSG, err);
	char *from_addr = lower_dup(m->from.addr);
	char *author_addr = lower_dup(m->author.addr);
	struct pc_buf refs = PC_BUF_INIT;
	int tagged = (d->subj.flags &
		      (PC_SUBJ_PATCH | PC_SUBJ_RFC | PC_SUBJ_PULL)) != 0 ||
		     d->kind == PC_KIND_PATCH;
	int rc;

	if (!s) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_text(s, 1, m->msgid, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 2, m->msgid_generated);
	sqlite3_bind_int64(s, 3, raw_id);
	pc_store__bind_text(s, 4, where);
	pc_store__bind_text(s, 5, m->list_id ? m->list_id : opt->list_id);
	pc_store__bind_text(s, 6, pc_kind_name(d->kind));
	pc_store__bind_text(s, 7, m->subject);
	pc_store__bind_text(s, 8, d->name);
	pc_store__bind_text(s, 9, m->from.name);
	pc_store__bind_text(s, 10, from_addr);
	pc_store__bind_text(s, 11, m->author.name);
	pc_store__bind_text(s, 12, author_addr);
	bind_int_or_null(s, 13, m->date_valid, m->date);
	bind_int_or_null(s, 14, m->date_valid, m->date_tz);
	pc_store__bind_text(s, 15, m->in_reply_to);
	bind_int_or_null(s, 16, tagged, d->subj.version);
	bind_int_or_null(s, 17, tagged, d->subj.index);
	bind_int_or_null(s, 18, tagged, d->subj.total);
	sqlite3_bind_int(s, 19, (d->subj.flags & PC_SUBJ_NUMBERED) != 0);
	sqlite3_bind_int(s, 20, (d->subj.flags & PC_SUBJ_RFC) != 0);
	sqlite3_bind_int(s, 21, (d->subj.flags & PC_SUBJ_RESEND) != 0);
	pc_store__bind_text(s, 22, d->subj.topic[0] ? d->subj.topic : NULL);
	sqlite3_bind_int(s, 23, d->diff.nfiles > 0);
	pc_store__bind_text(s, 24,
			    d->diff.patch_id[0] ? d->diff.patch_id : NULL);
	pc_store__bind_text(
		s, 25, d->diff.base_commit[0] ? d->diff.base_commit : NULL);
	bind_int_or_null(s, 26, d->diff.nfiles > 0, (int64_t)d->diff.nfiles);
	bind_int_or_null(s, 27, d->diff.nfiles > 0, d->diff.insertions);
	bind_int_or_null(s, 28, d->diff.nfiles > 0, d->diff.deletions);
	pc_store__bind_text(s, 29, d->pull.url);
	pc_store__bind_text(s, 30, d->pull.ref);
	pc_store__bind_text(s, 31, d->change_id);
	pc_store__bind_text(s, 32,
			    m->supersedes ? m->supersedes : d->supersedes);
	pc_store__bind_text(s, 33, m->auto_submitted);
	pc_store__bind_text(s, 34, m->precedence);
	pc_store__bind_text(s, 35, m->user_agent);
	pc_store__bind_text(s, 41, m->pw_hint);
	sqlite3_bind_int(s, 36, m->charset_fallback);
	sqlite3_bind_int(s, 37, d->is_bot);
	sqlite3_bind_null(s, 38);
	if (m->nrefs) {
		size_t i;

		for (i = 0; i < m->nrefs; i++) {
			if (i)
				pc_buf_addch(&refs, ' ');
			pc_buf_addstr(&refs, m->refs[i]);
		}
		sqlite3_bind_text(s, 39, refs.buf, (int)refs.len,
				  SQLITE_STATIC);
	}
	/* A reply's words, a posting's bits (PC_INTENT_DRAFT_ISA). */
	sqlite3_bind_int(s, 40, (int)d->intent);
	sqlite3_bind_int(s, 42, d->has_commands ? 1 : 0);
	sqlite3_bind_int(s, 43, d->to_bot ? 1 : 0);
	sqlite3_bind_int(s, 44, d->review_tag ? 1 : 0);
	rc = pc_store__exec(st, s, err, "storing a message");
	sqlite3_reset(s);
	if (rc == 0)
		*id_out = sqlite3_last_insert_rowid(st->db);
out:
	pc_buf_release(&refs);
	free(from_addr);
	free(author_addr);
	return rc;
}

static int insert_files(struct pc_store *st, int64_t mid,
			const struct pc_diff *d, struct pc_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < d->nfiles; i++) {
		const struct pc_diff_file *f = &d->files[i];
		sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_FILE, err);
		char status[2] = { (char)f->status, 0 };

		if (!s)
			return PC_EDB;
		sqlite3_bind_int64(s, 1, mid);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		sqlite3_bind_text(s, 3, status, -1, SQLITE_TRANSIENT);
		pc_store__bind_text(s, 4, f->old_path);
		pc_store__bind_text(s, 5, f->new_path);
		sqlite3_bind_int(s, 6, (int)f->added);
		sqlite3_bind_int(s, 7, (int)f->removed);
		sqlite3_bind_int(s, 8, f->binary);
		bind_int_or_null(s, 9, f->old_mode != 0, f->old_mode);
		bind_int_or_null(s, 10, f->new_mode != 0, f->new_mode);
		bind_int_or_null(s, 11, f->similarity >= 0, f->similarity);
		if ((rc = pc_store__exec(st, s, err, "storing patch files")) <
		    0)
			return rc;
	}
	return 0;
}

static int insert_trailers(struct pc_store *st, int64_t mid,
			   const struct pc_msg *m, const struct pc_analysis *d,
			   int64_t target, struct pc_err *err)
{
	int is_reply = d->kind == PC_KIND_REPLY;
	size_t i;
	int rc;

	for (i = 0; i < d->trailers.n; i++) {
		const struct pc_trailer *t = &d->trailers.v[i];
		sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_TRAILER, err);

		if (!s)
			return PC_EDB;
		sqlite3_bind_int64(s, 1, mid);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		sqlite3_bind_text(s, 3, d->origin, -1, SQLITE_STATIC);
		pc_store__bind_text(s, 4, t->name);
		pc_store__bind_text(s, 5, t->value);
		pc_store__bind_text(s, 6, t->person);
		pc_store__bind_text(s, 7, t->addr);
		sqlite3_bind_int(s, 8, t->suggested);
		bind_int_or_null(s, 9, target != 0, target);
		/* A reply's tag counts only when its sender gave it, in a
		 * mail that says once who sent it (a second From: is a
		 * forgery: the parser reads one, DKIM verifies the other). */
		sqlite3_bind_int(s, 10,
				 is_reply &&
					 (m->dup_field ||
					  pc_trailer_sender_mismatch(t, m)));
		if ((rc = pc_store__exec(st, s, err, "storing trailers")) < 0)
			return rc;
	}
	return 0;
}

static int insert_error(struct pc_store *st, int64_t raw_id, const char *msgid,
			const char *where, const char *reason,
			struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_ERROR, err);

	if (!s)
		return PC_EDB;
	bind_int_or_null(s, 1, raw_id != 0, raw_id);
	pc_store__bind_text(s, 2, msgid);
	pc_store__bind_text(s, 3, where ? where : "");
	pc_store__bind_text(s, 4, reason);
	return pc_store__exec(st, s, err, "recording an ingest error");
}

/* A message that could not be parsed: kept raw, with kind 'error'. */
static int ingest_broken(struct pc_store *st, const char *raw, size_t len,
			 const char *where, const struct pc_ingest_options *opt,
			 const char *reason, struct pc_ingest_stats *stats,
			 struct pc_err *err)
{
	static const char sql[] =
		"INSERT INTO messages (msgid, msgid_generated, raw_id, source, "
		"list_id, kind, parse_error) VALUES (?, 1, ?, ?, ?, 'error', ?)";
	char *msgid = pc_msg_hash_id(raw, len);
	sqlite3_stmt *s;
	int64_t raw_id = 0, found;
	int rc;

	found = pc_store__message_id(st, msgid, err);
	if (found < 0) {
		rc = (int)found;
		goto out;
	}
	if (found > 0) {
		stats->duplicates++;
		rc = 1;
		goto out;
	}
	if ((rc = pc_raw_put(st, raw, len, (enum pc_raw_codec)opt->compress,
			     &raw_id, err)) < 0)
		goto out;
	if (!(s = pc_store__stmt(st, sql, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_text(s, 1, msgid, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, raw_id);
	pc_store__bind_text(s, 3, where);
	pc_store__bind_text(s, 4, opt->list_id);
	pc_store__bind_text(s, 5, reason);
	if ((rc = pc_store__exec(st, s, err, "storing a message")) < 0 ||
	    (rc = insert_error(st, raw_id, msgid, where, reason, err)) < 0)
		goto out;
	stats->added++;
	stats->errors++;
	if (opt->warn)
		opt->warn(where, msgid, reason, opt->warn_arg);
out:
	free(msgid);
	return rc;
}

struct pull_titles {
	struct pc_store *st;
	int64_t id;
	struct pc_err *err;
};

static int store_pull_title(const char *t, size_t len, void *arg)
{
	struct pull_titles *pt = arg;
	sqlite3_stmt *s =
		pc_store__stmt(pt->st, SQL_INSERT_PULL_TITLE, pt->err);
	char *low = xmemdupz(t, len);
	size_t i;
	int rc;

	if (!s) {
		free(low);
		return PC_EDB;
	}
	for (i = 0; i < len; i++)
		low[i] = (char)pc_tolower((unsigned char)low[i]);
	sqlite3_bind_int64(s, 1, pt->id);
	sqlite3_bind_text(s, 2, low, (int)len, SQLITE_STATIC);
	rc = pc_store__exec(pt->st, s, pt->err, "storing a pull request title");
	free(low);
	return rc < 0 ? rc : 0;
}

void pc_ingest__prepare(struct pc_ingest_prepared *p, const char *raw,
			size_t len, int analyse, struct pc_raw_encoder *enc)
{
	struct pc_err perr = { 0 };

	/* Zero is PC_DIFF_INIT and PC_TRAILER_LIST_INIT. */
	memset(p, 0, sizeof(*p));
	if (pc_msg_parse(&p->m, raw, len, &perr) < 0) {
		p->m = NULL;
		p->broken = xstrdup(perr.msg);
		return;
	}
	if (analyse)
		pc_ingest__analyse(p);
	if (enc) {
		pc_raw_encode(enc, raw, len, &p->enc);
		p->enc_dict = pc_raw_dict_id(pc_raw_encoder_dict(enc));
		p->encoded = 1;
	}
}

void pc_ingest__analyse(struct pc_ingest_prepared *p)
{
	struct pc_err perr = { 0 };

	if (p->analysed || !p->m)
		return;
	/* The parsers only fail on limits: the mail is then kept raw. */
	if (pc_analyse(&p->d, p->m, &perr) < 0)
		p->broken = xstrdup(perr.msg);
	p->analysed = 1;
}

void pc_ingest__prepared_release(struct pc_ingest_prepared *p)
{
	pc_analysis_release(&p->d);
	pc_msg_free(p->m);
	free(p->broken);
	pc_raw_encoded_release(&p->enc);
	memset(p, 0, sizeof(*p));
}

/* The raw row: as a worker compressed it, unless the dictionary has
 * changed since (then again, as one thread would have). */
static int put_raw(struct pc_store *st, const struct pc_ingest_prepared *p,
		   const char *raw, size_t len,
		   const struct pc_ingest_options *opt, int64_t *raw_id,
		   struct pc_err *err)
{
	const struct pc_raw_dict *dict = NULL;
	int rc;

	if (p->encoded && opt->compress == PC_RAW_ZSTD &&
	    (rc = pc_raw_dict_current(st, &dict, err)) < 0)
		return rc;
	if (p->encoded && (opt->compress != PC_RAW_ZSTD ||
			   p->enc_dict == pc_raw_dict_id(dict)))
		return pc_raw_put_encoded(st, len, &p->enc, raw_id, err);
	return pc_raw_put(st, raw, len, (enum pc_raw_codec)opt->compress,
			  raw_id, err);
}

int pc_ingest__store(struct pc_store *st, struct pc_ingest_prepared *p,
		     const char *raw, size_t len, const char *where,
		     const struct pc_ingest_options *opt,
		     struct pc_ingest_stats *stats, struct pc_err *err)
{
	struct pc_ingest_options defaults = PC_INGEST_OPTIONS_INIT;
	const struct pc_analysis *d = &p->d;
	const struct pc_msg *m = p->m;
	int64_t found, raw_id, mid = 0, target = 0;
	int rc, created = 0;

	if (!opt)
		opt = &defaults;
	stats->read++;
	if (!m)
		return ingest_broken(st, raw, len, where, opt, p->broken, stats,
				     err);
	found = pc_store__message_id(st, m->msgid, err);
	if (found != 0) {
		if (found > 0)
			stats->duplicates++;
		return found < 0 ? (int)found : 1;
	}
	pc_ingest__analyse(p);
	if (p->broken)
		return ingest_broken(st, raw, len, where, opt, p->broken, stats,
				     err);
	if (opt->commands_only && !d->has_commands) {
		stats->not_commands++;
		return 1;
	}
	if ((rc = put_raw(st, p, raw, len, opt, &raw_id, err)) < 0 ||
	    (rc = insert_message(st, m, d, raw_id, where, opt, &mid, err)) <
		    0 ||
	    (rc = insert_files(st, mid, &d->diff, err)) < 0)
		return rc;
	if (d->kind == PC_KIND_PATCH || d->kind == PC_KIND_COVER) {
		if ((rc = pc_series__place(st, mid, &created, err)) < 0)
			return rc;
		target = mid;
	} else if (d->kind == PC_KIND_REPLY && d->trailers.n) {
		if ((rc = pc_series__thread_target(st, mid, &target, err)) < 0)
			return rc;
	}
	if ((rc = insert_trailers(st, mid, m, d, target, err)) < 0)
		return rc;
	if (d->kind == PC_KIND_PULL) {
		struct pull_titles pt = { st, mid, err };

		if ((rc = pc_pull_titles(m->body.buf, m->body.len,
					 store_pull_title, &pt)) < 0)
			return rc;
	} else if (pc_is_bot_addr(m->from.addr) && !m->dup_field &&
		   d->kind != PC_KIND_PATCH && d->kind != PC_KIND_COVER) {
		/* A build robot's report of a maintainer's branch names the
		 * commit at its head: like a pull request's shortlog, it
		 * says the patch of that title was applied. A known robot's
		 * address in a mail with one From:, not a name or an
		 * Auto-Submitted header anyone can write. */
		struct pull_titles pt = { st, mid, err };

		if ((rc = pc_pull_branch_head(m->body.buf, m->body.len,
					      store_pull_title, &pt)) < 0)
			return rc;
	}
	stats->added++;
	stats->series += created;
	switch (d->kind) {
	case PC_KIND_PATCH:
		stats->patches++;
		break;
	case PC_KIND_COVER:
		stats->covers++;
		break;
	case PC_KIND_REPLY:
		stats->replies++;
		break;
	case PC_KIND_PULL:
		stats->pulls++;
		break;
	default:
		stats->other++;
		break;
	}
	return 0;
}

int pc_ingest_message(struct pc_store *st, const char *raw, size_t len,
		      const char *where, const struct pc_ingest_options *opt,
		      struct pc_ingest_stats *stats, struct pc_err *err)
{
	struct pc_ingest_prepared p;
	int rc;

	/* One thread: analysis waits until the Message-ID is known new. */
	pc_ingest__prepare(&p, raw, len, 0, NULL);
	rc = pc_ingest__store(st, &p, raw, len, where, opt, stats, err);
	pc_ingest__prepared_release(&p);
	return rc;
}

int pc_ingest_unreadable(struct pc_store *st, const char *where,
			 const char *reason, struct pc_ingest_stats *stats,
			 struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_HAS_ERROR, err);
	int rc;

	if (!s)
		return PC_EDB;
	stats->read++;
	pc_store__bind_text(s, 1, where ? where : "");
	pc_store__bind_text(s, 2, reason);
	rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_ROW) {
		stats->duplicates++;
		return 1;
	}
	if (rc != SQLITE_DONE)
		return pc_store__fail(st, err, "looking up an ingest error");
	stats->errors++;
	return insert_error(st, 0, NULL, where, reason, err);
}

int pc_ingest_oversized(struct pc_store *st, const char *head, size_t len,
			const char *where, const char *reason,
			const struct pc_ingest_options *opt,
			struct pc_ingest_stats *stats, struct pc_err *err)
{
	struct pc_ingest_options defaults = PC_INGEST_OPTIONS_INIT;

	if (!len)
		return pc_ingest_unreadable(st, where, reason, stats, err);
	if (len > PC_INGEST_OVERSIZED_KEEP)
		len = PC_INGEST_OVERSIZED_KEEP;
	stats->read++;
	return ingest_broken(st, head, len, where, opt ? opt : &defaults,
			     reason, stats, err);
}

int pc_ingest_finish(struct pc_store *st, struct pc_err *err)
{
	int64_t *ids = NULL, target;
	size_t n = 0, alloc = 0, i;
	sqlite3_stmt *s = pc_store__stmt(st, SQL_UNRESOLVED, err);
	int rc = 0;

	if (!s)
		return PC_EDB;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = sqlite3_column_int64(s, 0);
	}
	if (rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "finding unattributed trailers");
		goto out;
	}
	rc = 0;
	for (i = 0; i < n; i++) {
		if ((rc = pc_series__thread_target(st, ids[i], &target, err)) <
		    0)
			goto out;
		if (!target)
			continue;
		if (!(s = pc_store__stmt(st, SQL_SET_TARGET, err))) {
			rc = PC_EDB;
			goto out;
		}
		sqlite3_bind_int64(s, 1, target);
		sqlite3_bind_int64(s, 2, ids[i]);
		if ((rc = pc_store__exec(st, s, err, "attributing trailers")) <
		    0)
			goto out;
	}
out:
	free(ids);
	return rc;
}
