/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a command's database time goes: per SQL statement, how often it
 * ran, its time as SQLite measures it, the pages it missed in the page
 * cache and wrote, and the rows it scanned whole tables for. For finding
 * what grows with the database (doc/speed.md); off unless asked for
 * (the CLI's PATCHCLOCK_SQL_PROFILE), it costs nothing then.
 */
#ifndef PC_STORE_SQLPROFILE_H
#define PC_STORE_SQLPROFILE_H

#include <stdint.h>

struct pc_store;

struct pc_store_stmt_cost {
	const char *sql; /* borrowed: the statement's text */
	uint64_t runs; /* times it ran to its end or its reset */
	uint64_t ns; /* SQLite's own time for those runs */
	uint64_t cache_misses; /* pages read because not in the cache */
	uint64_t cache_writes; /* pages written (WAL frames, spills) */
	uint64_t fullscan_steps; /* rows stepped in a full table scan */
	uint64_t sorts; /* sorts it made (no index gave the order) */
	uint64_t vm_steps; /* virtual machine steps: its CPU work */
};

typedef void (*pc_store_cost_fn)(const struct pc_store_stmt_cost *c, void *arg);

/*
 * Counts from now on, per statement text. At pc_store_close(), fn is
 * called once per statement that ran, costliest first (by ns), before
 * the connection closes. The page counts are the connection's, given to
 * the statement whose run just ended: a statement run while another is
 * stepped (a nested query) takes its own pages, the outer one what was
 * read around it.
 */
void pc_store_profile(struct pc_store *st, pc_store_cost_fn fn, void *arg);

#endif
