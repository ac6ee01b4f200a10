// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sla_bench: the cost of the business-time clock per series. Makes
 * 100,000 series with posted times spread over 2021-2025 (a fixed
 * pseudo-random sequence) and cadences of 1 to 10 business days, a third
 * each in America/Los_Angeles, Europe/Berlin and Asia/Kolkata office
 * hours, and times computing, per series, its due time and the next
 * opening of office hours at or after it. Also times the -rc deadline
 * verdict for the same postings against a cycle known up to v6.1.
 *
 * usage: sla_bench [N]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sla/bizclock.h"
#include "sla/cycle.h"
#include "util/xalloc.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

int main(int argc, char **argv)
{
	static const char *const zones[] = { "America/Los_Angeles",
					     "Europe/Berlin", "Asia/Kolkata" };
	static const char *const holidays[] = { "2021-12-24", "2021-12-25",
						"2022-12-26", "2023-05-01",
						"2024-12-25", "2025-01-01" };
	struct pc_bizclock *clocks[3];
	struct pc_cycle *cy;
	struct pc_cycle_deadline dl = { PC_CYCLE_DL_BEFORE_RC, 4, 0 };
	struct pc_cycle_version v61 = { 6, 1, 0 };
	struct pc_err err = { 0 };
	int64_t *posted, sum = 0;
	unsigned *amount;
	uint64_t seed = 42;
	size_t n = 100000, i;
	double t;

	if (argc > 1)
		n = strtoul(argv[1], NULL, 10);
	if (n == 0) {
		fprintf(stderr, "usage: sla_bench [N]\n");
		return 64;
	}
	t = now();
	for (i = 0; i < 3; i++) {
		struct pc_biz_hours h = PC_BIZ_HOURS_INIT;

		h.zone = zones[i];
		h.start = 9 * 60;
		h.end = 17 * 60 + 30;
		h.holidays = holidays;
		h.n_holidays = sizeof(holidays) / sizeof(holidays[0]);
		if (pc_bizclock_new(&clocks[i], &h, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
	}
	printf("%-36s %8.1f us per clock\n", "make a clock (load zone, cache)",
	       1e6 * (now() - t) / 3);

	posted = xcalloc(n, sizeof(*posted));
	amount = xcalloc(n, sizeof(*amount));
	for (i = 0; i < n; i++) {
		/* 2021-01-01 .. 2025-12-31, any second. */
		posted[i] =
			1609459200 + (int64_t)(next_rand(&seed) % 157766400);
		amount[i] = 1 + (unsigned)(next_rand(&seed) % 10);
	}

	t = now();
	for (i = 0; i < n; i++) {
		const struct pc_bizclock *c = clocks[i % 3];
		int64_t due;

		if (pc_bizclock_due(&due, c, posted[i], amount[i],
				    PC_BIZ_BUSINESS_DAYS, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		sum += pc_bizclock_next_open(c, due);
	}
	t = now() - t;
	printf("%-36s %8.3f us per series (%zu series, %.1f ms)\n",
	       "due + next opening", 1e6 * t / (double)n, n, 1e3 * t);

	if (pc_cycle_new(&cy, NULL, &err) < 0 ||
	    pc_cycle_add(cy, PC_CYCLE_SRC_TAG, &v61, 1670796000, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	t = now();
	for (i = 0; i < n; i++) {
		struct pc_cycle_verdict vd;

		/* Postings from v6.1 on (2022-12-11) over about three years:
		 * up to ~18 projected cycles ahead. */
		if (pc_cycle_evaluate(&vd, cy, &dl,
				      1670796000 + posted[i] % 94608000,
				      &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		sum += vd.deadline;
	}
	t = now() - t;
	printf("%-36s %8.3f us per series (%.1f ms)\n",
	       "-rc deadline verdict (projected)", 1e6 * t / (double)n,
	       1e3 * t);

	pc_cycle_free(cy);
	for (i = 0; i < 3; i++)
		pc_bizclock_free(clocks[i]);
	free(posted);
	free(amount);
	return sum == 42; /* keeps the work from being optimised away */
}
