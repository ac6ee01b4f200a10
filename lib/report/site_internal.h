/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the report's page writers (page_*.c) and its driver (site.c):
 * the indexes built once over the model, the per-entry figures (site.c),
 * and the parts every page has (site_parts.c).
 */
#ifndef PC_REPORT_SITE_INTERNAL_H
#define PC_REPORT_SITE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"
#include "util/buf.h"

#define PC_DAY 86400

/* One person the site has a page for. */
struct site_person {
	const char *addr, *name; /* borrowed from the model */
	char *slug; /* owned: people/<slug>.html */
	size_t *authored, nauthored; /* series indexes, owned */
	size_t *queue, nqueue; /* open series they maintain or review */
};

/* A series' index under a key, for lookups by binary search. */
struct site_key {
	int64_t key;
	size_t idx;
};

/* An entry's figures, from its series. */
struct site_entry {
	const struct pc_report_entry *e; /* NULL: a name with no entry data */
	const char *name;
	char *slug; /* owned: entries/<slug>.html */
	size_t *series, nseries; /* all its series, indexes, owned */
	size_t open, overdue, ready, needs_review;
	/* days from posting to the first response, of the series answered */
	double median_days, p90_days;
	size_t answered;
	/* answered by the due time, of those due by now or answered: the
	 * share, or -1 when none */
	double compliance;
	size_t compliance_n;
	const struct pc_report_series *oldest_overdue; /* or NULL */
};

struct site {
	const struct pc_report *r;
	struct site_entry *entries; /* sorted by name */
	size_t nentries;
	struct site_person *people; /* sorted by address */
	size_t npeople;
	/* the series by id, and by the id that supersedes them */
	struct site_key *by_id, *by_next;
	pc_report_write_fn write;
	void *arg;
	struct pc_err *err;
};

/* The entry of that name, or NULL. */
const struct site_entry *site_entry_of(const struct site *s, const char *name);
/* The person of that address (any case), or NULL. */
const struct site_person *site_person_of(const struct site *s,
					 const char *addr);
/* The series of that id, or NULL. */
const struct pc_report_series *site_series_of(const struct site *s, int64_t id);
/* The series that id superseded: *n_out of them from the returned
 * position of s->by_next (their .idx). */
size_t site_superseded(const struct site *s, int64_t id, size_t *n_out);
/* Whether the series is open and overdue / ready to apply / needs a
 * review tag. */
int site_overdue(const struct pc_report_series *x);
int site_ready(const struct pc_report_series *x);
int site_needs_review(const struct pc_report_series *x);

/* Writes path from b through the site's callback. */
int site_emit(struct site *s, const char *path, const struct pc_buf *b);

/* ---- site_parts.c ---- */

/* The page's head and navigation; up is "" or "../". */
void page_start(struct pc_buf *b, const struct site *s, const char *up,
		const char *title, const char *feed);
void page_end(struct pc_buf *b, const struct site *s);
/* "2021-06-04" (date) or "2021-06-04 07:08 UTC"; "-" for 0. */
void put_date(struct pc_buf *b, int64_t t);
void put_time(struct pc_buf *b, int64_t t);
/* A link to the series' page with its subject (and [vN]). */
void put_series_link(struct pc_buf *b, const char *up,
		     const struct pc_report_series *x);
/* A link to a person's page, by name (else address). */
void put_person(struct pc_buf *b, const struct site *s, const char *up,
		const char *name, const char *addr);
/* A link to an entry's page. */
void put_entry(struct pc_buf *b, const struct site *s, const char *up,
	       const char *name);
/* The flags as badges. */
void put_flags(struct pc_buf *b, const char *flags);
/* A table of series (ID, state, subject, author, posted, due, flags). */
void put_series_table(struct pc_buf *b, const struct site *s, const char *up,
		      const size_t *idx, size_t n, const char *what);

int page_front(struct site *s);
/* The filters: views/STATE.html and views/people.html (page_views.c). */
int page_views(struct site *s);
/* "Views: overdue · ready · ..." links, from the directory up leads
 * out of. */
void put_view_links(struct pc_buf *b, const char *up);
int page_entry(struct site *s, const struct site_entry *e);
int page_person(struct site *s, const struct site_person *p);
int page_series(struct site *s, const struct pc_report_series *x);
/* The Atom feed at path of these series (their overdue and, unless
 * overdue_only, ready items); alternate: the page it goes with, beside
 * it, without ".html". */
int page_feed(struct site *s, const char *path, const char *id,
	      const char *title, const char *alternate, const size_t *idx,
	      size_t n, int overdue_only);

#endif
