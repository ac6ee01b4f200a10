/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mapping series to MAINTAINERS entries in the state. A series maps to
 * what get_maintainer.pl would say for all of its patches at once: the
 * union of the entries of the files they touch, plus the entries whose
 * K: patterns match the patches' text. The result is stored in
 * series_entries with the id of the MAINTAINERS it came from; a series
 * is mapped again when its patches change or MAINTAINERS does.
 */
#ifndef PC_STORE_MAPPING_H
#define PC_STORE_MAPPING_H

#include <stdint.h>

#include "maint/maintainers.h"
#include "store/store.h"
#include "util/err.h"

struct pc_map_stats {
	/* MAINTAINERS differed from the one stored: entries were reloaded
	 * and every series remapped. */
	int maintainers_changed;
	uint64_t series; /* series (re)mapped */
	uint64_t patches; /* patches read for them */
	uint64_t unmapped; /* series whose patches match no entry */
};

/*
 * Brings the state up to date with m: when m's id differs from the one
 * stored, replaces maint_entries and maint_people (tree names the tree
 * it was read from, now is stored as the load time) and marks every
 * series for mapping; then maps every series not mapped with m. Run it
 * inside a transaction (pc_store_begin/commit). Errors: PC_EDB, and
 * PC_EIO when the tree cannot be read.
 */
int pc_map_series(struct pc_store *st, const struct pc_maint *m,
		  const char *tree, int64_t now, struct pc_map_stats *stats,
		  struct pc_err *err);

/* One entry of a series, as stored. */
struct pc_series_entry {
	const char *name; /* borrowed for the callback's duration */
	int depth;
	int files; /* the series' files it matches */
	int k_hit, k_only;
	const char *profile; /* its P:, or NULL; borrowed likewise */
};

typedef int (*pc_series_entry_fn)(const struct pc_series_entry *e, void *arg);

/*
 * Calls fn for each entry series_id maps to, in get_maintainer.pl order
 * (deepest first, MAINTAINERS order within a depth, K:-only last). A
 * non-zero return from fn stops and is returned. Errors: PC_EDB.
 */
int pc_series_entries(struct pc_store *st, int64_t series_id,
		      pc_series_entry_fn fn, void *arg, struct pc_err *err);

#endif
