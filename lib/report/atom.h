/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Atom feeds (RFC 4287) for the report: per entry and per person, the
 * series that newly became overdue or ready to apply. Text is escaped
 * (report/html.h); ids are stable tag: URIs, so a reader shows an item
 * once however often the feed is written again.
 */
#ifndef PC_REPORT_ATOM_H
#define PC_REPORT_ATOM_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

struct pc_atom_item {
	const char *id; /* a stable URI (tag:...) */
	const char *title; /* text */
	const char *link; /* the page it is about (relative or absolute) */
	const char *summary; /* text, or NULL */
	const char *author; /* a name, or NULL */
	int64_t updated; /* when it became what it says */
};

struct pc_atom_feed {
	const char *id, *title; /* the feed's stable id and its title */
	const char *self; /* the feed's own file name */
	const char *alternate; /* the HTML page it goes with */
	int64_t updated; /* the newest item's, or when it was made */
};

/* Writes the feed with its n items, in the given order. */
void pc_atom_write(struct pc_buf *out, const struct pc_atom_feed *f,
		   const struct pc_atom_item *items, size_t n);

/* t as RFC 3339 UTC, "2021-07-01T00:00:00Z", into buf (>= 21 bytes). */
void pc_atom_time(char *buf, size_t len, int64_t t);

#endif
