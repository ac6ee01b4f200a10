/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parts of a series that other MAINTAINERS entries hold: a device
 * tree patch for the SoC's tree in a PWM driver series, a regulator
 * binding in a hwmon series, security/security.c in an EVM series.
 * Their maintainers take those patches, or ack them for the tree that
 * takes the rest; a reminder that names only the governing entry's
 * people leaves them out (the third code-blind reading of the
 * reminders, linux-pwm and linux-hwmon 2022).
 */
#ifndef PC_STORE_PARTS_H
#define PC_STORE_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/* One other part: the patches whose files map to no entry of the
 * governing one's (its own, or one that shares an M: with it). */
struct pc_store_part {
	const char *entry; /* the patches' entry: valid during the call */
	const char *path; /* the first patch's first file: likewise */
	const int *patches; /* their numbers (n of n/N), ascending */
	size_t npatches;
};

/*
 * Calls fn for each other part of series sid, where entry governs it,
 * in the order of their first patches. A patch's entry is the
 * narrowest of those its files map to that has an M: person (THE REST
 * aside): the one that matches the fewest of the series' files; then
 * one with a tree (T:) matched at most a level above the deepest match;
 * then the deepest; then get_maintainer.pl's order. Patches that map to
 * no such entry are in no part. A non-zero return of fn stops and is returned. Errors:
 * PC_EDB.
 */
int pc_store_other_parts(struct pc_store *st, int64_t sid, const char *entry,
			 int (*fn)(const struct pc_store_part *part, void *arg),
			 void *arg, struct pc_err *err);

#endif
