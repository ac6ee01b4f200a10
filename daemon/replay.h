/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A replayed spool (`replay = yes`): its messages are read once, held in
 * memory in Date order (file order among equal dates), and handed to
 * ingest as the simulated clock reaches each Date. Undated mail arrives
 * first. Reading the spool once keeps a long replay linear in its size;
 * the memory is the spool's bytes, which is what a replay of an archive
 * slice can afford (a live spool is never replayed).
 */
#ifndef PC_DAEMON_REPLAY_H
#define PC_DAEMON_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "store/ingest.h"
#include "store/store.h"
#include "util/err.h"

struct replay_msg {
	int64_t date; /* INT64_MIN when undated */
	uint64_t order; /* position across the source's paths */
	char *raw; /* owned; NULL for a message that could not be read */
	size_t len;
	char *where; /* owned: "FILE:LINE" and the like */
	char *reason; /* owned when raw is NULL: why it was unreadable */
};

struct replay {
	struct replay_msg *v; /* owned, sorted by (date, order) */
	size_t n, alloc;
	size_t next; /* the first message not yet handed out */
	int loaded;
	int stopped; /* a batch could not be stored: the replay stops */
};

/* Reads every path of src into r (once; later calls do nothing). Paths
 * that cannot be opened are reported through err and skipped: returns
 * the first error, having read what it could. */
int replay_load(struct replay *r, const struct conf_source *src,
		struct pc_err *err);

/* Ingests, in one transaction each BATCH messages, every message whose
 * Date is at or before now. When a batch cannot be stored it is rolled
 * back and the replay stops there (a stepped clock would otherwise try
 * the same batch for ever): the error says which message. */
int replay_feed(struct replay *r, struct pc_store *st,
		const struct conf_source *src, int64_t now,
		struct pc_ingest_stats *stats, struct pc_err *err);

/* The Date of the next message still to come, or 0 when none is (or
 * the replay stopped). */
int64_t replay_next_date(const struct replay *r);

void replay_release(struct replay *r);

#endif
