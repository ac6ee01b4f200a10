// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statement costs (profile.h) through sqlite3_trace_v2's PROFILE event,
 * which SQLite raises as each statement's run ends, with its time.
 */
#include <stdlib.h>
#include <string.h>

#include "store/sqlprofile.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct pc_store__prof {
	pc_store_cost_fn fn;
	void *arg;
	struct pc_store_stmt_cost *cost; /* owned, each sql owned */
	size_t n, cap; /* open addressing: cap a power of 2 */
};

/* FNV-1a of the text. */
static uint64_t text_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct pc_store_stmt_cost *slot(struct pc_store__prof *p,
				       const char *sql)
{
	size_t i, mask;

	if (2 * (p->n + 1) > p->cap) {
		struct pc_store_stmt_cost *old = p->cost;
		size_t oldcap = p->cap;

		p->cap = p->cap ? 2 * p->cap : 64;
		p->cost = xcalloc(p->cap, sizeof(*p->cost));
		p->n = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i].sql) {
				struct pc_store_stmt_cost *c =
					slot(p, old[i].sql);

				*c = old[i];
			}
		free(old);
	}
	mask = p->cap - 1;
	for (i = text_hash(sql) & mask; p->cost[i].sql; i = (i + 1) & mask)
		if (!strcmp(p->cost[i].sql, sql))
			return &p->cost[i];
	p->n++;
	p->cost[i].sql = sql;
	return &p->cost[i];
}

static uint64_t db_counter(sqlite3 *db, int op)
{
	int cur = 0, high = 0;

	sqlite3_db_status(db, op, &cur, &high, 1);
	return cur > 0 ? (uint64_t)cur : 0;
}

static uint64_t stmt_counter(sqlite3_stmt *s, int op)
{
	int v = sqlite3_stmt_status(s, op, 1);

	return v > 0 ? (uint64_t)v : 0;
}

static int on_trace(unsigned type, void *ctx, void *p, void *x)
{
	struct pc_store *st = ctx;
	sqlite3_stmt *s = p;
	const char *sql = sqlite3_sql(s);
	struct pc_store_stmt_cost *c;

	if (type != SQLITE_TRACE_PROFILE || !sql)
		return 0;
	c = slot(st->prof, sql);
	if (c->sql == sql) /* new: keep a copy, the statement may go */
		c->sql = xstrdup(sql);
	c->runs++;
	c->ns += (uint64_t) * (const sqlite3_int64 *)x;
	c->cache_misses += db_counter(st->db, SQLITE_DBSTATUS_CACHE_MISS);
	c->cache_writes += db_counter(st->db, SQLITE_DBSTATUS_CACHE_WRITE);
	c->fullscan_steps += stmt_counter(s, SQLITE_STMTSTATUS_FULLSCAN_STEP);
	c->sorts += stmt_counter(s, SQLITE_STMTSTATUS_SORT);
	c->vm_steps += stmt_counter(s, SQLITE_STMTSTATUS_VM_STEP);
	return 0;
}

void pc_store_profile(struct pc_store *st, pc_store_cost_fn fn, void *arg)
{
	if (!st->prof)
		st->prof = xcalloc(1, sizeof(*st->prof));
	st->prof->fn = fn;
	st->prof->arg = arg;
	/* Counts start now, not at the connection's opening. */
	db_counter(st->db, SQLITE_DBSTATUS_CACHE_MISS);
	db_counter(st->db, SQLITE_DBSTATUS_CACHE_WRITE);
	sqlite3_trace_v2(st->db, SQLITE_TRACE_PROFILE, on_trace, st);
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct pc_store_stmt_cost *x = a, *y = b;

	if (!x->sql || !y->sql)
		return !x->sql - !y->sql;
	return (x->ns < y->ns) - (x->ns > y->ns);
}

void pc_store__profile_end(struct pc_store *st)
{
	struct pc_store__prof *p = st->prof;
	size_t i;

	if (!p)
		return;
	if (st->db)
		sqlite3_trace_v2(st->db, 0, NULL, NULL);
	if (p->cap)
		qsort(p->cost, p->cap, sizeof(*p->cost), by_ns_desc);
	for (i = 0; i < p->cap && p->cost[i].sql; i++)
		p->fn(&p->cost[i], p->arg);
	for (i = 0; i < p->cap; i++)
		free((char *)p->cost[i].sql);
	free(p->cost);
	free(p);
	st->prof = NULL;
}
