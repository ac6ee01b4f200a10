// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * status_bench: the cost of judging series.
 *
 *   status_bench                 judge 100,000 synthetic series in memory
 *                                (lib/sla/state.c alone), at three "now"s
 *   status_bench DB [SERIES]     judge every series of an ingested
 *                                database (full refresh, then an
 *                                incremental one with nothing new, then
 *                                one a day later), with a fixed policy
 *
 * Policy: 8 business days, 8:00-17:00 America/Los_Angeles, non-author
 * review, features before -rc4, 24 h between postings; the cycle has the
 * 2021 releases. Prints microseconds per series.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sla/state.h"
#include "store/status.h"
#include "store/store.h"
#include "util/xalloc.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct env {
	struct pc_policy pol;
	struct pc_bizclock *clock;
	struct pc_cycle *cycle;
	struct pc_sla_ctx ctx;
	struct pc_sla_cycle_cache cache;
};

static void env_init(struct env *e)
{
	static const char *const rel[][2] = {
		{ "v5.12", "1619384400" },     { "v5.13-rc1", "1620594000" },
		{ "v5.13-rc4", "1622408400" }, { "v5.13", "1624827600" },
		{ "v5.14-rc1", "1626037200" }, { "v5.14", "1630270800" },
		{ "v5.15-rc1", "1631480400" }, { "v5.15", "1635714000" },
		{ "v5.16-rc1", "1636927200" }, { "v5.16", "1641765600" },
	};
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_err err = { 0 };
	size_t i;

	memset(e, 0, sizeof(*e));
	h.start = 8 * 60;
	h.end = 17 * 60;
	h.zone = "America/Los_Angeles";
	if (pc_bizclock_new(&e->clock, &h, &err) < 0 ||
	    pc_cycle_new(&e->cycle, NULL, &err) < 0) {
		fprintf(stderr, "status_bench: %s\n", err.msg);
		exit(1);
	}
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
		pc_cycle_add_name(e->cycle, PC_CYCLE_SRC_CONFIG, rel[i][0],
				  strtoll(rel[i][1], NULL, 10), NULL);
	e->pol.ping_after.count = 8;
	e->pol.ping_after.unit = PC_PROF_UNIT_BUSINESS_DAYS;
	e->pol.repost_min.count = 24;
	e->pol.repost_min.unit = PC_PROF_UNIT_HOURS;
	e->pol.review = PC_PROF_REVIEW_NON_AUTHOR;
	e->pol.new_features.kind = PC_PROF_DL_RC;
	e->pol.new_features.rc = 4;
	e->ctx.policy = &e->pol;
	e->ctx.clock = e->clock;
	e->ctx.cycle = e->cycle;
	e->ctx.cache = &e->cache;
}

static void env_release(struct env *e)
{
	pc_bizclock_free(e->clock);
	pc_cycle_free(e->cycle);
}

#define NSERIES 100000

static void in_memory(struct env *e)
{
	static const char *const maint[] = { "dan.j.williams@intel.com" };
	struct pc_sla_series *s = xcalloc(NSERIES, sizeof(*s));
	struct pc_sla_patch *p = xcalloc(NSERIES * 3, sizeof(*p));
	struct pc_sla_reply *r = xcalloc(NSERIES * 4, sizeof(*r));
	struct pc_sla_tag *t = xcalloc(NSERIES * 3, sizeof(*t));
	const int64_t base = 1620000000; /* May 2021 */
	uint32_t rng = 12345;
	double t0, best = 1e9;
	size_t i, k;
	int round;

	for (i = 0; i < NSERIES; i++) {
		size_t np = 1 + i % 3, nr = i % 5;

		rng = rng * 1103515245u + 12345u;
		s[i].id = (int64_t)i + 1;
		s[i].author_addr = "author@example.com";
		s[i].posted = base + (int64_t)(rng % (200u * 86400u));
		s[i].prev_posted = i % 4 == 0 ? s[i].posted - 40000 : 0;
		s[i].is_fix = i % 3 == 0;
		s[i].total = (int)np;
		s[i].received = (int)np;
		s[i].patches = &p[i * 3];
		s[i].npatches = np;
		s[i].replies = &r[i * 4];
		s[i].nreplies = nr;
		s[i].maintainers = maint;
		s[i].nmaintainers = 1;
		for (k = 0; k < np; k++) {
			p[i * 3 + k].idx = (int)k + 1;
			p[i * 3 + k].author_addr = "author@example.com";
			if (k == 0 && i % 2) {
				t[i * 3].name = "Reviewed-by";
				t[i * 3].addr = "rita@example.com";
				t[i * 3].date = s[i].posted + 86400;
				t[i * 3].from_reply = 1;
				p[i * 3].tags = &t[i * 3];
				p[i * 3].ntags = 1;
			}
		}
		for (k = 0; k < nr; k++) {
			r[i * 4 + k].date =
				s[i].posted + (int64_t)(k + 1) * 90000;
			r[i * 4 + k].from_addr = k % 2 ? "author@example.com" :
							 "rita@example.com";
			r[i * 4 + k].applied = k == 3;
		}
	}
	for (round = 0; round < 3; round++) {
		int64_t now = base + (int64_t)(60 + 60 * round) * 86400;
		struct pc_sla_verdict v;
		size_t overdue = 0;

		t0 = now_s();
		for (i = 0; i < NSERIES; i++) {
			if (pc_sla_evaluate(&v, &s[i], &e->ctx, now, NULL) < 0)
				exit(1);
			overdue += !!(v.flags & PC_SLA_OVERDUE);
			pc_sla_verdict_release(&v);
		}
		t0 = now_s() - t0;
		if (t0 < best)
			best = t0;
		printf("in memory: %d series judged in %.1f ms (%.2f us each; "
		       "%zu overdue)\n",
		       NSERIES, t0 * 1e3, t0 * 1e6 / NSERIES, overdue);
	}
	printf("in memory, best: %.1f ms for %d series\n", best * 1e3, NSERIES);
	free(s);
	free(p);
	free(r);
	free(t);
}

static int pick(struct pc_status_policy *out, const char *const *entries,
		const int *files, size_t n, void *arg, struct pc_err *err)
{
	(void)files;
	struct env *e = arg;

	(void)err;
	out->ctx = &e->ctx;
	out->entry = n ? entries[0] : NULL;
	out->profile = NULL;
	return 0;
}

static void one_refresh(struct pc_store *st, struct env *e, int64_t now,
			int full, const char *what)
{
	struct pc_status_options so = { .policy = pick,
					.policy_arg = e,
					.policy_id = "bench",
					.full = full };
	struct pc_status_stats stats;
	struct pc_err err = { 0 };
	double t0 = now_s();

	if (pc_store_begin(st, &err) < 0 ||
	    pc_status_refresh(st, &so, now, &stats, &err) < 0 ||
	    pc_store_commit(st, &err) < 0) {
		fprintf(stderr, "status_bench: %s\n", err.msg);
		exit(1);
	}
	t0 = now_s() - t0;
	printf("database, %s: %llu series judged in %.1f ms (%.1f us each)\n",
	       what, (unsigned long long)stats.judged, t0 * 1e3,
	       stats.judged ? t0 * 1e6 / (double)stats.judged : 0.0);
}

int main(int argc, char **argv)
{
	struct env e;

	env_init(&e);
	if (argc < 2) {
		in_memory(&e);
	} else {
		struct pc_store *st = NULL;
		struct pc_err err = { 0 };
		int64_t now = 1641000000; /* 2022-01-01 */

		if (pc_store_open(&st, argv[1], &err) < 0) {
			fprintf(stderr, "status_bench: %s\n", err.msg);
			return 1;
		}
		one_refresh(st, &e, now, 1, "full");
		one_refresh(st, &e, now, 0, "incremental, nothing new");
		one_refresh(st, &e, now + 86400, 0, "incremental, a day later");
		pc_store_close(st);
	}
	env_release(&e);
	return 0;
}
