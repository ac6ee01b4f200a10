// SPDX-License-Identifier: GPL-2.0-or-later
/* A replayed spool, in Date order. See replay.h. */
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "mail/source.h"
#include "replay.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define REPLAY_BATCH 2000

static struct replay_msg *replay_add(struct replay *r, const char *where)
{
	struct replay_msg *m;

	PC_ALLOC_GROW(r->v, r->n + 1, r->alloc);
	m = &r->v[r->n];
	memset(m, 0, sizeof(*m));
	m->order = r->n++;
	m->date = INT64_MIN;
	m->where = xstrdup(where ? where : "");
	return m;
}

static int replay_cmp(const void *a, const void *b)
{
	const struct replay_msg *x = a, *y = b;

	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int replay_read_path(struct replay *r, const struct conf_source *src,
			    const char *path, struct pc_err *err)
{
	struct pc_source_options so = PC_SOURCE_OPTIONS_INIT;
	struct pc_source_msg msg;
	struct pc_source *s = NULL;
	int rc;

	so.kind = src->type == CONF_SOURCE_MAILDIR ? PC_SOURCE_MAILDIR :
		  src->type == CONF_SOURCE_MBOX	   ? PC_SOURCE_MBOX :
						     PC_SOURCE_AUTO;
	if ((rc = pc_source_open(&s, path, &so, err)) < 0)
		return rc;
	while ((rc = pc_source_next(s, &msg, err)) != 0) {
		struct replay_msg *m;
		struct pc_msg *pm = NULL;

		if (rc == PC_ELIMIT) {
			m = replay_add(r, msg.where);
			m->reason = xstrdup(err->msg);
			continue;
		}
		if (rc < 0)
			break;
		m = replay_add(r, msg.where);
		m->raw = xmemdupz(msg.data, msg.len);
		m->len = msg.len;
		/* Unparsable or undated mail arrives at once. */
		if (pc_msg_parse(&pm, msg.data, msg.len, NULL) == 0 &&
		    pm->date_valid)
			m->date = pm->date;
		pc_msg_free(pm);
	}
	pc_source_free(s);
	return rc;
}

int replay_load(struct replay *r, const struct conf_source *src,
		struct pc_err *err)
{
	struct pc_err one = { 0 };
	size_t i;
	int rc = 0;

	if (r->loaded)
		return 0;
	r->loaded = 1;
	for (i = 0; i < src->n_paths; i++) {
		int prc = replay_read_path(r, src, src->paths[i], &one);

		if (prc < 0 && rc == 0) {
			rc = prc;
			if (err)
				*err = one;
		}
	}
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), replay_cmp);
	return rc;
}

/* Drops the bytes of [from, to): they are committed. */
static void replay_done(struct replay *r, size_t from, size_t to)
{
	for (; from < to; from++) {
		free(r->v[from].raw);
		r->v[from].raw = NULL;
	}
}

int replay_feed(struct replay *r, struct pc_store *st,
		const struct conf_source *src, int64_t now,
		struct pc_ingest_stats *stats, struct pc_err *err)
{
	struct pc_ingest_options io = PC_INGEST_OPTIONS_INIT;
	size_t batch = r->next;
	int rc;

	if (r->stopped || r->next >= r->n || r->v[r->next].date > now)
		return 0;
	io.list_id = src->list_id;
	if ((rc = pc_store_begin(st, err)) < 0)
		return rc;
	for (; r->next < r->n && r->v[r->next].date <= now; r->next++) {
		struct replay_msg *m = &r->v[r->next];

		if (!m->raw)
			rc = pc_ingest_unreadable(st, m->where, m->reason,
						  stats, err);
		else
			rc = pc_ingest_message(st, m->raw, m->len, m->where,
					       &io, stats, err);
		if (rc < 0) {
			pc_err_prefix(err, "replay stopped at %s", m->where);
			goto fail;
		}
		if (r->next + 1 - batch >= REPLAY_BATCH) {
			if ((rc = pc_store_commit(st, err)) < 0)
				goto fail;
			replay_done(r, batch, r->next + 1);
			batch = r->next + 1;
			if ((rc = pc_store_begin(st, err)) < 0)
				return rc;
		}
	}
	if ((rc = pc_ingest_finish(st, err)) < 0 ||
	    (rc = pc_store_commit(st, err)) < 0)
		goto fail;
	replay_done(r, batch, r->next);
	return 0;
fail:
	/* Nothing of the batch is stored; it stays in memory. */
	pc_store_rollback(st);
	r->next = batch;
	r->stopped = 1;
	return rc;
}

int64_t replay_next_date(const struct replay *r)
{
	if (r->stopped || r->next >= r->n)
		return 0;
	return r->v[r->next].date == INT64_MIN ? 1 : r->v[r->next].date;
}

void replay_release(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].raw);
		free(r->v[i].where);
		free(r->v[i].reason);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}
