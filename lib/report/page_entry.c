// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An entry's page: its profile field by field with the words each came
 * from, its maintainers and reviewers, its open series as a board of
 * whose turn it is, their ages, the cycle's dates; and its feed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/site_internal.h"
#include "report/svg.h"
#include "util/civil.h"
#include "util/xalloc.h"
#include "util/banned.h"

static void put_people(struct pc_buf *b, const struct site *s, const char *what,
		       const struct pc_report_person *p, size_t n)
{
	size_t i;

	pc_buf_addf(b, "<p><b>%s:</b> ", what);
	for (i = 0; i < n; i++) {
		if (i)
			pc_buf_addstr(b, ", ");
		put_person(b, s, "../", p[i].name, p[i].addr);
	}
	pc_buf_addstr(b, n ? "</p>\n" : "none</p>\n");
}

/* Who owes the next move, by name, and since when: the author, or the
 * entry's maintainers (issue 37: cards named nobody). */
static void put_next(struct pc_buf *b, const struct site *s,
		     const struct site_entry *e,
		     const struct pc_report_series *x)
{
	size_t i;

	if (!x->turn)
		return;
	pc_buf_addstr(b, "<br><span data-next>next: ");
	if (!strcmp(x->turn, "author")) {
		put_person(b, s, "../", x->author.name, x->author.addr);
		pc_buf_addstr(b, " (the author)");
	} else if (e->e && e->e->nmaintainers) {
		for (i = 0; i < e->e->nmaintainers; i++) {
			if (i)
				pc_buf_addstr(b, ", ");
			put_person(b, s, "../", e->e->maintainers[i].name,
				   e->e->maintainers[i].addr);
		}
	} else {
		pc_buf_addstr(b, "the maintainers");
	}
	if (x->wait_from) {
		pc_buf_addstr(b, ", since ");
		put_date(b, x->wait_from);
	}
	pc_buf_addstr(b, "</span>");
}

static void put_card(struct pc_buf *b, const struct site *s,
		     const struct site_entry *e,
		     const struct pc_report_series *x)
{
	pc_buf_addf(b, "<div class=\"card\" data-card=\"%lld\">",
		    (long long)x->id);
	put_series_link(b, "../", x);
	pc_buf_addstr(b, "<br><span class=\"dim\">");
	put_person(b, s, "../", x->author.name, x->author.addr);
	pc_buf_addstr(b, ", posted ");
	put_date(b, x->posted_at);
	if (x->due_at) {
		pc_buf_addstr(b, ", due ");
		put_date(b, x->due_at);
	}
	pc_buf_addstr(b, "</span>");
	put_next(b, s, e, x);
	pc_buf_addstr(b, "<br>");
	put_flags(b, x->flags);
	pc_buf_addstr(b, "</div>\n");
}

/* Which column of the board: whose turn `status` says it is (the same
 * word everywhere: a series waiting on its maintainers for a review is
 * theirs, with its needs-review badge), or no move owed (held). */
static int column_of(const struct pc_report_series *x)
{
	if (x->turn && !strcmp(x->turn, "author"))
		return 0;
	if (x->turn && !strcmp(x->turn, "maintainers"))
		return 1;
	return 2;
}

static void put_board(struct pc_buf *b, const struct site *s,
		      const struct site_entry *e)
{
	static const char *const names[] = { "author", "maintainers",
					     "nobody" };
	static const char *const heads[] = { "Waiting on the author",
					     "Waiting on the maintainers",
					     "No move owed (held)" };
	size_t i, c, n;

	pc_buf_addstr(b, "<h2>Whose turn</h2>\n<div class=\"board\">\n");
	for (c = 0; c < 3; c++) {
		for (i = n = 0; i < e->nseries; i++) {
			const struct pc_report_series *x =
				&s->r->series[e->series[i]];

			n += x->open && column_of(x) == (int)c;
		}
		pc_buf_addf(b,
			    "<div class=\"col\" data-column=\"%s\"><h3>%s "
			    "(<span data-count>%zu</span>)</h3>\n",
			    names[c], heads[c], n);
		for (i = 0; i < e->nseries; i++) {
			const struct pc_report_series *x =
				&s->r->series[e->series[i]];

			if (x->open && column_of(x) == (int)c)
				put_card(b, s, e, x);
		}
		pc_buf_addstr(b, "</div>\n");
	}
	pc_buf_addstr(b, "</div>\n");
}

static void put_ages(struct pc_buf *b, const struct site *s,
		     const struct site_entry *e)
{
	static const struct {
		const char *label;
		int64_t upto; /* days */
	} buckets[] = { { "< 1 week", 7 },
			{ "1-2 weeks", 14 },
			{ "2-4 weeks", 28 },
			{ "1-3 months", 91 },
			{ "> 3 months", -1 } };
	struct pc_svg_bar bars[5];
	size_t i, k;

	for (k = 0; k < 5; k++) {
		bars[k].label = buckets[k].label;
		bars[k].value = 0;
		bars[k].cls = k >= 3 ? "old" : NULL;
	}
	for (i = 0; i < e->nseries; i++) {
		const struct pc_report_series *x = &s->r->series[e->series[i]];
		int64_t age = (s->r->now - x->posted_at) / PC_DAY;

		if (!x->open || !x->posted_at)
			continue;
		for (k = 0; k < 4 && age >= buckets[k].upto; k++)
			;
		bars[k].value++;
	}
	pc_buf_addstr(b, "<h2>Age of the open series</h2>\n<div "
			 "data-chart=\"ages\">");
	pc_svg_bars(b, "open series by age", bars, 5);
	pc_buf_addstr(b, "</div>\n");
}

/* The month (months since year 0) a time falls in, UTC. */
static int64_t month_of(int64_t t)
{
	int64_t y;
	int m, d;

	pc_civil_from_days(t >= 0 ? t / PC_DAY : (t - PC_DAY + 1) / PC_DAY, &y,
			   &m, &d);
	return y * 12 + (m - 1);
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define TREND_MONTHS 12

/*
 * Trends (issue 37: v_sla_by_entry had no chart): by month of posting,
 * the last TREND_MONTHS months with series, the median days to a first
 * response and to the apply (the last patch accepted), as SVG bars.
 */
static void put_trends(struct pc_buf *b, const struct site *s,
		       const struct site_entry *e)
{
	int64_t last = -1, earliest = INT64_MAX, first;
	double *resp = xcalloc(e->nseries + 1, sizeof(*resp));
	double *appl = xcalloc(e->nseries + 1, sizeof(*appl));
	struct pc_svg_bar rb[TREND_MONTHS], ab[TREND_MONTHS];
	char labels[TREND_MONTHS][32];
	size_t i, k, n = 0;

	for (i = 0; i < e->nseries; i++) {
		const struct pc_report_series *x = &s->r->series[e->series[i]];

		if (!x->posted_at)
			continue;
		if (month_of(x->posted_at) > last)
			last = month_of(x->posted_at);
		if (month_of(x->posted_at) < earliest)
			earliest = month_of(x->posted_at);
	}
	if (last < 0)
		goto out;
	/* From the first month with a series: no bars for the months
	 * before the archive began. */
	first = last - TREND_MONTHS + 1;
	if (first < earliest)
		first = earliest;
	for (k = 0; k < TREND_MONTHS && first + (int64_t)k <= last; k++) {
		int64_t mo = first + (int64_t)k;
		size_t nr = 0, na = 0;

		for (i = 0; i < e->nseries; i++) {
			const struct pc_report_series *x =
				&s->r->series[e->series[i]];
			int64_t applied = 0;
			size_t p;

			if (!x->posted_at || month_of(x->posted_at) != mo)
				continue;
			if (x->first_response_at >= x->posted_at &&
			    x->first_response_at)
				resp[nr++] = (double)(x->first_response_at -
						      x->posted_at) /
					     PC_DAY;
			for (p = 0; p < x->npatches; p++)
				if (x->patches[p].accepted_at > applied)
					applied = x->patches[p].accepted_at;
			if (applied >= x->posted_at && applied)
				appl[na++] = (double)(applied - x->posted_at) /
					     PC_DAY;
		}
		snprintf(labels[k], sizeof(labels[k]), "%04lld-%02d",
			 (long long)(mo / 12), (int)(mo % 12) + 1);
		rb[n].label = ab[n].label = labels[k];
		rb[n].cls = ab[n].cls = NULL;
		rb[n].value =
			nr ? (double)(int)(median(resp, nr) * 10 + 0.5) / 10 :
			     0;
		ab[n].value =
			na ? (double)(int)(median(appl, na) * 10 + 0.5) / 10 :
			     0;
		n++;
	}
	pc_buf_addstr(b, "<h2>Trends by month of posting</h2>\n"
			 "<p class=\"dim\">Median days to a first response, "
			 "and to the apply, of the series posted each month."
			 "</p>\n<h3>First response</h3><div "
			 "data-chart=\"response\">");
	pc_svg_bars(b, "median days to a first response", rb, n);
	pc_buf_addstr(b, "</div>\n<h3>Applied</h3><div data-chart=\"apply\">");
	pc_svg_bars(b, "median days to the apply", ab, n);
	pc_buf_addstr(b, "</div>\n");
out:
	free(resp);
	free(appl);
}

static void put_dates(struct pc_buf *b, const struct pc_report_entry *e)
{
	size_t i;

	if (!e || !e->ndates)
		return;
	pc_buf_addstr(b, "<h2>This cycle</h2>\n<div class=\"scroll\"><table "
			 "data-table=\"dates\">\n");
	for (i = 0; i < e->ndates; i++) {
		pc_buf_addf(b, "<tr%s><td>",
			    e->dates[i].deadline ? " class=\"deadline\"" : "");
		if (e->dates[i].deadline)
			pc_buf_addstr(b, "<b>");
		pc_html_text(b, e->dates[i].label);
		if (e->dates[i].deadline)
			pc_buf_addstr(b, "</b>");
		pc_buf_addstr(b, "</td><td class=\"when\">");
		put_date(b, e->dates[i].at);
		pc_buf_addf(b, "</td><td class=\"dim\">%s</td></tr>\n",
			    e->dates[i].projected ? "projected" : "");
	}
	pc_buf_addstr(b, "</table></div>\n");
}

static void put_profile(struct pc_buf *b, const struct pc_report_entry *e)
{
	size_t i;

	pc_buf_addstr(b, "<h2>Profile</h2>\n");
	if (!e) {
		pc_buf_addstr(b, "<p class=\"dim\">Not read.</p>\n");
		return;
	}
	pc_buf_addstr(b, "<p>");
	pc_html_text(b, e->profile ? e->profile :
				     "No profile: the handbook's defaults.");
	pc_buf_addstr(b, "</p>\n<div class=\"scroll\"><table "
			 "data-table=\"profile\"><tr><th>Field</th><th>Value"
			 "</th><th>From</th></tr>\n");
	for (i = 0; i < e->nfields; i++) {
		const struct pc_report_field *f = &e->fields[i];

		pc_buf_addstr(b, "<tr><td>");
		pc_html_text(b, f->label);
		pc_buf_addstr(b, "</td><td>");
		pc_html_text(b, f->value ? f->value : "(not stated)");
		pc_buf_addstr(b, "</td><td>");
		pc_html_text(b, f->source);
		if (f->quote) {
			pc_buf_addstr(b, "<blockquote>");
			pc_html_text(b, f->quote);
			pc_buf_addstr(b, "</blockquote>");
		}
		pc_buf_addstr(b, "</td></tr>\n");
	}
	pc_buf_addstr(b, "</table></div>\n");
}

int page_entry(struct site *s, const struct site_entry *e)
{
	struct pc_buf b = PC_BUF_INIT, path = PC_BUF_INIT, feed = PC_BUF_INIT;
	size_t *open = xcalloc(e->nseries + 1, sizeof(*open)), i, n = 0;
	int rc;

	for (i = 0; i < e->nseries; i++)
		if (s->r->series[e->series[i]].open)
			open[n++] = e->series[i];
	pc_buf_addf(&feed, "%s.atom", e->slug);
	page_start(&b, s, "../", e->name, feed.buf);
	pc_buf_addstr(&b, "<h1 data-entry-name>");
	pc_html_text(&b, e->name);
	pc_buf_addf(&b,
		    "</h1>\n<p><span data-count=\"open\">%zu</span> open, "
		    "<span data-count=\"overdue\">%zu</span> overdue, "
		    "<span data-count=\"ready\">%zu</span> ready to apply; "
		    "<a href=\"",
		    e->open, e->overdue, e->ready);
	pc_html_attr(&b, feed.buf);
	pc_buf_addstr(&b, "\">feed</a></p>\n");
	if (e->e) {
		put_people(&b, s, "Maintainers", e->e->maintainers,
			   e->e->nmaintainers);
		put_people(&b, s, "Reviewers", e->e->reviewers,
			   e->e->nreviewers);
	}
	put_board(&b, s, e);
	put_ages(&b, s, e);
	put_trends(&b, s, e);
	put_dates(&b, e->e);
	put_profile(&b, e->e);
	pc_buf_addstr(&b, "<h2>Every series</h2>\n");
	put_series_table(&b, s, "../", e->series, e->nseries, "series");
	page_end(&b, s);
	pc_buf_addf(&path, "entries/%s.html", e->slug);
	rc = site_emit(s, path.buf, &b);
	if (rc == 0) {
		pc_buf_reset(&path);
		pc_buf_addf(&path, "entries/%s.atom", e->slug);
		pc_buf_reset(&b);
		pc_buf_addf(&b, "urn:patchclock:entry:%s", e->slug);
		rc = page_feed(s, path.buf, b.buf, e->name, e->slug, open, n,
			       0);
	}
	pc_buf_release(&b);
	pc_buf_release(&path);
	pc_buf_release(&feed);
	free(open);
	return rc;
}
