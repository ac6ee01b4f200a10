/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's clock: the real one, or a simulated one for tests and
 * replays, which starts at a given time and runs `speed` times faster
 * than the wall clock, so a test can live through days of cadence in
 * seconds. Everything the daemon decides uses simclock_now(); timers are
 * armed with simclock_delay(), the real seconds until a simulated time.
 * Pure functions of the real time they are given (ev_now() in the loop).
 */
#ifndef PC_DAEMON_SIMCLOCK_H
#define PC_DAEMON_SIMCLOCK_H

#include <stdint.h>

struct simclock {
	int simulated; /* 0: the real clock */
	int stepped; /* shows start until simclock_advance() moves it */
	int64_t start; /* the simulated time at real time `base` */
	double base; /* real seconds since the epoch */
	double speed; /* simulated seconds per real second, > 0 */
};

/* The real clock. */
void simclock_real(struct simclock *c);
/* A simulated clock showing `start` at real time `real_now`. */
void simclock_sim(struct simclock *c, int64_t start, double speed,
		  double real_now);
/* A stepped clock showing `start` until it is advanced. */
void simclock_step(struct simclock *c, int64_t start);
/* Moves a stepped clock forward to `at` (never back). */
void simclock_advance(struct simclock *c, int64_t at);
/* The (simulated) time at real time real_now. */
int64_t simclock_now(const struct simclock *c, double real_now);
/* Real seconds from real_now until the clock shows `at` (0 if past;
 * always 0 for a stepped clock, which is advanced instead). */
double simclock_delay(const struct simclock *c, int64_t at, double real_now);

#endif
