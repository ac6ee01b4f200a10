// SPDX-License-Identifier: GPL-2.0-or-later
/* The daemon's clock, real or simulated. See simclock.h. */
#include <math.h>

#include "simclock.h"
#include "util/banned.h"

void simclock_real(struct simclock *c)
{
	c->simulated = 0;
	c->stepped = 0;
	c->start = 0;
	c->base = 0;
	c->speed = 1;
}

void simclock_sim(struct simclock *c, int64_t start, double speed,
		  double real_now)
{
	c->simulated = 1;
	c->stepped = 0;
	c->start = start;
	c->base = real_now;
	c->speed = speed > 0 ? speed : 1;
}

void simclock_step(struct simclock *c, int64_t start)
{
	c->simulated = 1;
	c->stepped = 1;
	c->start = start;
	c->base = 0;
	c->speed = 1;
}

void simclock_advance(struct simclock *c, int64_t at)
{
	if (c->stepped && at > c->start)
		c->start = at;
}

int64_t simclock_now(const struct simclock *c, double real_now)
{
	if (!c->simulated)
		return (int64_t)floor(real_now);
	if (c->stepped)
		return c->start;
	return c->start + (int64_t)floor((real_now - c->base) * c->speed);
}

double simclock_delay(const struct simclock *c, int64_t at, double real_now)
{
	double d;

	if (c->stepped)
		return 0;
	if (!c->simulated)
		d = (double)at - real_now;
	else
		d = ((double)(at - c->start)) / c->speed - (real_now - c->base);
	return d > 0 ? d : 0;
}
