/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML report: a static site of plain files (no script, no fetch from
 * the network) that a web server or a browser on file:// shows. Built
 * from a model that the caller fills from the database (what `patchclock
 * status --all` judges, with the series, mail, apply and boot rows); the
 * pages are written through a callback, so the caller decides where the
 * bytes go (a temporary directory renamed into place: cmd_report.c).
 *
 *   index.html               every entry with open series: counts, time
 *                            to first response against the cadence, the
 *                            oldest overdue series
 *   entries/SLUG.html        one entry: profile, people, whose-turn board,
 *   entries/SLUG.atom        age histogram, cycle dates; its feed
 *   people/ADDR.html         one person: their series, their queue
 *   people/ADDR.atom
 *   series/ID.html           one series: versions, patches, trailers,
 *                            verdict, mail, apply and boot results
 *   style.css
 *
 * Every string of the model is text (never markup): it is escaped when
 * written. Every element that a test reads carries a data- attribute
 * (data-entry, data-count, data-series...): the DOM is the report's
 * interface for tests, the look is the style sheet's.
 */
#ifndef PC_REPORT_REPORT_H
#define PC_REPORT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct pc_report_person {
	char *name; /* may be NULL */
	char *addr; /* lower case */
};

/* A tag on a patch, with where it was given. */
struct pc_report_trailer {
	char *name, *value;
	char *origin; /* "in the patch", "in a reply", "on the cover letter" */
	char *url; /* the archive link of the mail it was given in, or NULL */
	int suggested; /* a bot's suggestion, not a review */
};

struct pc_report_patch {
	int index; /* 0 for the cover letter */
	char *subject, *message_id, *url;
	int reviewed; /* meets the review rule */
	char *reviewed_by; /* or NULL */
	int64_t accepted_at; /* 0 when not */
	struct pc_report_trailer *trailers;
	size_t ntrailers;
};

/* A mail patchclock sent or will send about the series. */
struct pc_report_mail {
	char *action, *state, *subject, *recipients, *reason;
	int64_t due_at, sent_at; /* sent_at 0 when not sent */
};

/* An apply or boot test of the series. */
struct pc_report_run {
	int boot; /* 1 a boot test, 0 an apply */
	int ok; /* applied / passed */
	char *what; /* the branch or commit, or NULL */
	char *reason; /* why it failed, or NULL */
	char *summary; /* a boot test's checks, one a line, or NULL */
	int64_t at;
};

struct pc_report_series {
	int64_t id;
	char *subject, *url;
	/* its first posting's Message-ID, without brackets: what names it
	 * across rebuilds of the database (feed ids), or NULL */
	char *msgid;
	struct pc_report_person author;
	int revision, rfc;
	char *state, *flags; /* flags: words separated by blanks, or NULL */
	char *turn, *hold, *hold_reason; /* or NULL */
	char *entry; /* the governing entry, or NULL */
	int64_t posted_at, due_at, act_at, first_response_at, evaluated_at;
	/* the wait on the maintainers began (the posting, or the answer
	 * that gave them the ball); 0 when it is not their turn */
	int64_t wait_from;
	double overdue_days;
	int open; /* not superseded, accepted, applied or tested */
	int reviewed, npatches_judged;
	int64_t superseded_by; /* 0 when current */
	struct pc_report_patch *patches;
	size_t npatches;
	struct pc_report_mail *mails;
	size_t nmails;
	struct pc_report_run *runs;
	size_t nruns;
};

/* A field of an entry's profile: its value and where it came from. */
struct pc_report_field {
	char *label, *value; /* value NULL: not stated */
	char *source, *quote; /* "prose, FILE:LINE (Heading)"; or NULL */
};

/* A date of the cycle in progress. */
struct pc_report_date {
	char *label; /* "v5.14-rc1", "new features (before -rc4)" */
	int64_t at;
	int projected, deadline;
};

struct pc_report_entry {
	char *name;
	char *profile; /* its document, or NULL */
	char *cadence; /* the ping delay in words ("1 week"), or NULL */
	struct pc_report_field *fields;
	size_t nfields;
	struct pc_report_person *maintainers, *reviewers;
	size_t nmaintainers, nreviewers;
	struct pc_report_date *dates;
	size_t ndates;
};

struct pc_report {
	int64_t now; /* when it was judged */
	char *title; /* "patchclock: nvdimm@lists.linux.dev", or NULL */
	/* where the site is served ("https://example.org/patchclock/"), for
	 * the feeds' absolute links; NULL: links relative to the feed */
	char *base_url;
	struct pc_report_series *series; /* every judged series */
	size_t nseries;
	struct pc_report_entry *entries; /* every governing entry */
	size_t nentries;
};

/* Writes one file of the site: path is relative ("series/12.html"). */
typedef int (*pc_report_write_fn)(const char *path, const char *bytes,
				  size_t len, void *arg, struct pc_err *err);

/*
 * Writes the site for r through write (directories first: "entries",
 * "people", "series" are passed with bytes NULL). Returns 0 or write's
 * error. Linear in the series and their patches, mail and runs, plus a
 * sort of each entry's series.
 */
int pc_report_render(const struct pc_report *r, pc_report_write_fn write,
		     void *arg, struct pc_err *err);

/* Frees everything the model owns, and the model's arrays. */
void pc_report_release(struct pc_report *r);

#endif
