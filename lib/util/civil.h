/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Calendar dates and day numbers (days since 1970-01-01) in the
 * proleptic Gregorian calendar, after Howard Hinnant's days_from_civil
 * and civil_from_days: exact for every year an int64_t day count holds.
 */
#ifndef PC_UTIL_CIVIL_H
#define PC_UTIL_CIVIL_H

#include <stdint.h>

/* The day number of y-m-d (m 1..12; d may run past the month). */
int64_t pc_days_from_civil(int64_t y, int m, int64_t d);
/* The date of day number z. */
void pc_civil_from_days(int64_t z, int64_t *y, int *m, int *d);

#endif
