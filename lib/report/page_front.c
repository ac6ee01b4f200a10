// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The front page: every entry with open series, the most overdue first,
 * with its counts, its time to first response against its cadence, and
 * its oldest overdue series.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/site_internal.h"
#include "report/svg.h"
#include "util/xalloc.h"
#include "util/banned.h"

static int by_urgency(const void *a, const void *b)
{
	const struct site_entry *x = *(const struct site_entry *const *)a;
	const struct site_entry *y = *(const struct site_entry *const *)b;

	if (x->overdue != y->overdue)
		return x->overdue < y->overdue ? 1 : -1;
	if (x->open != y->open)
		return x->open < y->open ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* "3.2 d / 9.0 d" and the share answered by the due time, as a meter. */
static void put_response(struct pc_buf *b, const struct site_entry *e)
{
	const char *cls;

	if (e->answered)
		pc_buf_addf(b,
			    "<td class=\"n\">%.1f d</td><td class=\"n\">"
			    "%.1f d</td>",
			    e->median_days, e->p90_days);
	else
		pc_buf_addstr(b,
			      "<td class=\"n\">-</td><td class=\"n\">-</td>");
	pc_buf_addstr(b, "<td>");
	if (e->compliance < 0) {
		pc_svg_meter(b, "answered by the due time", -1, "no series due",
			     NULL);
	} else {
		char text[64];

		cls = e->compliance >= 0.9 ? "good" :
		      e->compliance >= 0.6 ? "warn" :
					     "bad";
		snprintf(text, sizeof(text), "%.0f%% of %zu",
			 e->compliance * 100, e->compliance_n);
		pc_svg_meter(b, "answered by the due time", e->compliance, text,
			     cls);
		pc_buf_addf(b,
			    " <span class=\"dim\" data-compliance=\"%.3f\">"
			    "%s</span>",
			    e->compliance, text);
	}
	pc_buf_addstr(b, "</td>");
}

static void put_row(struct pc_buf *b, const struct site *s,
		    const struct site_entry *e)
{
	pc_buf_addstr(b, "<tr data-entry=\"");
	pc_html_attr(b, e->name);
	pc_buf_addstr(b, "\"><td>");
	put_entry(b, s, "", e->name);
	pc_buf_addstr(b, "<br><span class=\"dim\">cadence ");
	pc_html_text(b, e->e && e->e->cadence ? e->e->cadence : "-");
	pc_buf_addf(b,
		    "</span></td><td class=\"n\" data-count=\"open\">%zu</td>"
		    "<td class=\"n\" data-count=\"overdue\">%zu</td>"
		    "<td class=\"n\" data-count=\"ready\">%zu</td>"
		    "<td class=\"n\" data-count=\"needs-review\">%zu</td>",
		    e->open, e->overdue, e->ready, e->needs_review);
	put_response(b, e);
	pc_buf_addstr(b, "<td>");
	if (e->oldest_overdue) {
		put_series_link(b, "", e->oldest_overdue);
		pc_buf_addf(b,
			    " <span class=\"when\">%.1f business days "
			    "late</span>",
			    e->oldest_overdue->overdue_days);
	} else {
		pc_buf_addstr(b, "<span class=\"dim\">-</span>");
	}
	pc_buf_addstr(b, "</td></tr>\n");
}

/* Most overdue first. */
static const struct site *sort_site;
static int by_lateness(const void *a, const void *b)
{
	const struct pc_report_series
		*x = &sort_site->r->series[*(const size_t *)a],
		*y = &sort_site->r->series[*(const size_t *)b];

	if (x->overdue_days != y->overdue_days)
		return x->overdue_days < y->overdue_days ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * What to do today, in five seconds (issue 37): the counts, then every
 * overdue series across the entries, the latest first, with its entry,
 * how late, its archive link and the b4 line that applies it.
 */
static void put_today(struct pc_buf *b, const struct site *s)
{
	size_t *v = xcalloc(s->r->nseries + 1, sizeof(*v));
	size_t i, n = 0, ready = 0;

	for (i = 0; i < s->r->nseries; i++) {
		const struct pc_report_series *x = &s->r->series[i];

		if (!x->entry)
			continue;
		if (site_overdue(x))
			v[n++] = i;
		ready += site_ready(x) != 0;
	}
	pc_buf_addf(b,
		    "<p class=\"headline\"><b><span data-headline=\"overdue\">"
		    "%zu</span> overdue</b>, <b><span data-headline=\"ready\">"
		    "%zu</span> ready to apply</b>; what waits on you: your "
		    "name under <a href=\"views/people.html\">people</a>."
		    "</p>\n",
		    n, ready);
	if (!n) {
		free(v);
		return;
	}
	sort_site = s;
	qsort(v, n, sizeof(*v), by_lateness);
	pc_buf_addstr(b, "<h2>Overdue, the latest first</h2>\n"
			 "<div class=\"scroll\"><table data-table=\"overdue\">"
			 "<tr><th>Series</th><th>Entry</th><th>Late</th>"
			 "<th>Apply it</th></tr>\n");
	for (i = 0; i < n; i++) {
		const struct pc_report_series *x = &s->r->series[v[i]];

		pc_buf_addf(b, "<tr data-overdue=\"%lld\"><td>",
			    (long long)x->id);
		put_series_link(b, "", x);
		if (x->url) {
			pc_buf_addstr(b, " <span class=\"dim\">[<a href=\"");
			pc_html_url(b, x->url);
			pc_buf_addstr(b, "\">archive</a>]</span>");
		}
		pc_buf_addstr(b, "</td><td>");
		put_entry(b, s, "", x->entry);
		pc_buf_addf(b,
			    "</td><td class=\"n\">%.1f business days</td>"
			    "<td>",
			    x->overdue_days);
		if (x->msgid) {
			pc_buf_addstr(b, "<code>b4 shazam ");
			pc_html_text(b, x->msgid);
			pc_buf_addstr(b, "</code>");
		}
		pc_buf_addstr(b, "</td></tr>\n");
	}
	pc_buf_addstr(b, "</table></div>\n");
	free(v);
}

int page_front(struct site *s)
{
	struct pc_buf b = PC_BUF_INIT;
	const struct site_entry **v = xcalloc(s->nentries + 1, sizeof(*v));
	size_t i, n = 0, open = 0, unmapped = 0;
	int rc;

	for (i = 0; i < s->nentries; i++)
		if (s->entries[i].open)
			v[n++] = &s->entries[i];
	qsort(v, n, sizeof(*v), by_urgency);
	for (i = 0; i < s->r->nseries; i++) {
		open += s->r->series[i].open != 0;
		unmapped += s->r->series[i].open && !s->r->series[i].entry;
	}
	page_start(&b, s, "", "patchclock: who waits on whom", "overdue.atom");
	pc_buf_addstr(&b, "<h1>Who waits on whom</h1>\n");
	put_view_links(&b, "");
	put_today(&b, s);
	pc_buf_addstr(&b, "<h2>By entry</h2>\n<p>");
	pc_buf_addf(&b,
		    "<span data-total=\"open\">%zu</span> open series in "
		    "<span data-total=\"entries\">%zu</span> entries",
		    open, n);
	if (unmapped)
		pc_buf_addf(&b,
			    "; %zu with no governing entry (not kernel "
			    "files, another project's patches)",
			    unmapped);
	pc_buf_addstr(&b,
		      ".</p>\n<div class=\"scroll\"><table "
		      "data-table=\"entries\"><tr><th>Entry</th><th>Open</th>"
		      "<th>Overdue</th><th>Ready to apply</th>"
		      "<th>Needs review</th><th>First response: median"
		      "</th><th>90th pct.</th><th>Answered by the due "
		      "time</th><th>Oldest overdue</th></tr>\n");
	for (i = 0; i < n; i++)
		put_row(&b, s, v[i]);
	pc_buf_addstr(&b, "</table></div>\n");
	pc_buf_addstr(&b, "<p><a href=\"overdue.atom\">Feed</a> of every "
			  "series that became overdue.</p>\n");
	page_end(&b, s);
	rc = site_emit(s, "index.html", &b);
	pc_buf_release(&b);
	free(v);
	if (rc == 0) {
		/* The site-wide feed: every open series that became
		 * overdue, whatever its entry (issue 37). */
		size_t *all = xcalloc(s->r->nseries + 1, sizeof(*all));

		for (i = n = 0; i < s->r->nseries; i++)
			if (s->r->series[i].open && s->r->series[i].entry)
				all[n++] = i;
		rc = page_feed(s, "overdue.atom", "urn:patchclock:overdue",
			       "overdue", "index", all, n, 1);
		free(all);
	}
	return rc;
}
