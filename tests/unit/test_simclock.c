// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for daemon/simclock.c: real and accelerated time. */
#include "testutil.h"
#include "simclock.h"

static void test_simclock__real(void **state)
{
	struct simclock c;

	(void)state;
	simclock_real(&c);
	assert_int_equal(simclock_now(&c, 1700000000.7), 1700000000);
	assert_true(simclock_delay(&c, 1700000010, 1700000000.5) == 9.5);
	assert_true(simclock_delay(&c, 1600000000, 1700000000.0) == 0);
}

static void test_simclock__a_week_in_a_minute(void **state)
{
	struct simclock c;

	(void)state;
	/* Start at Mon 2024-01-01 10:00 UTC, 10080x: a week per minute. */
	simclock_sim(&c, 1704103200, 10080, 5000.0);
	assert_int_equal(simclock_now(&c, 5000.0), 1704103200);
	assert_int_equal(simclock_now(&c, 5060.0), 1704103200 + 7 * 86400);
	/* A day from now is 60/7 real seconds away. */
	assert_true(simclock_delay(&c, 1704103200 + 86400, 5000.0) > 8.57 &&
		    simclock_delay(&c, 1704103200 + 86400, 5000.0) < 8.58);
	assert_true(simclock_delay(&c, 1704103200, 5001.0) == 0);
	/* A bad speed falls back to real speed. */
	simclock_sim(&c, 100, 0, 10.0);
	assert_int_equal(simclock_now(&c, 15.0), 105);
}

static void test_simclock__stepped(void **state)
{
	struct simclock c;

	(void)state;
	simclock_step(&c, 1704103200);
	/* Real time does not move it; it is advanced, never back. */
	assert_int_equal(simclock_now(&c, 5000.0), 1704103200);
	assert_int_equal(simclock_now(&c, 9000.0), 1704103200);
	assert_true(simclock_delay(&c, 1704103200 + 86400, 5000.0) == 0);
	simclock_advance(&c, 1704103200 + 86400);
	assert_int_equal(simclock_now(&c, 1.0), 1704103200 + 86400);
	simclock_advance(&c, 1704103200);
	assert_int_equal(simclock_now(&c, 1.0), 1704103200 + 86400);
	/* A running clock ignores advance(). */
	simclock_sim(&c, 100, 2, 10.0);
	simclock_advance(&c, 1000);
	assert_int_equal(simclock_now(&c, 15.0), 110);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simclock__real),
		cmocka_unit_test(test_simclock__a_week_in_a_minute),
		cmocka_unit_test(test_simclock__stepped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
