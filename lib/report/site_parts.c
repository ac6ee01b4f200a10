// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parts every page of the report is made of: its start and end,
 * dates, links to series, people and entries, flags and the table of
 * series. See site_internal.h.
 */
#include <string.h>
#include <time.h>

#include "report/html.h"
#include "report/site_internal.h"
#include "util/banned.h"

void page_start(struct pc_buf *b, const struct site *s, const char *up,
		const char *title, const char *feed)
{
	pc_buf_addstr(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
			 "<meta charset=\"utf-8\">"
			 "<meta name=\"viewport\" content=\"width=device-width,"
			 "initial-scale=1\">"
			 "<meta name=\"color-scheme\" content=\"light dark\">"
			 "<title>");
	pc_html_plain(b, title);
	pc_buf_addf(b, "</title><link rel=\"stylesheet\" href=\"%sstyle.css\">",
		    up);
	if (feed) {
		pc_buf_addstr(b, "<link rel=\"alternate\" "
				 "type=\"application/atom+xml\" href=\"");
		pc_html_attr(b, feed);
		pc_buf_addstr(b, "\">");
	}
	pc_buf_addf(b,
		    "</head>\n<body>\n<nav><a href=\"%sindex.html\">"
		    "patchclock</a>",
		    up);
	if (s->r->title) {
		pc_buf_addstr(b, "<span class=\"dim\">");
		pc_html_text(b, s->r->title);
		pc_buf_addstr(b, "</span>");
	}
	pc_buf_addstr(b, "</nav>\n");
}

void page_end(struct pc_buf *b, const struct site *s)
{
	pc_buf_addstr(b, "<p class=\"dim\">Judged at <span data-now>");
	put_time(b, s->r->now);
	pc_buf_addstr(b, "</span> by patchclock.</p>\n</body></html>\n");
}

/* t's date, and with time_too its time, or "-" for 0. */
static void put_utc(struct pc_buf *b, int64_t t, int time_too)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm)) {
		pc_buf_addch(b, '-');
		return;
	}
	pc_buf_addf(b, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		    tm.tm_mday);
	if (time_too)
		pc_buf_addf(b, " %02d:%02d UTC", tm.tm_hour, tm.tm_min);
}

void put_date(struct pc_buf *b, int64_t t)
{
	put_utc(b, t, 0);
}

void put_time(struct pc_buf *b, int64_t t)
{
	put_utc(b, t, 1);
}

void put_series_link(struct pc_buf *b, const char *up,
		     const struct pc_report_series *x)
{
	pc_buf_addf(b, "<a data-series=\"%lld\" href=\"%sseries/%lld.html\">",
		    (long long)x->id, up, (long long)x->id);
	if (x->revision > 1 || x->rfc)
		pc_buf_addf(b, "[%sv%d] ", x->rfc ? "RFC " : "", x->revision);
	pc_html_text(b,
		     x->subject && *x->subject ? x->subject : "(no subject)");
	pc_buf_addstr(b, "</a>");
}

void put_person(struct pc_buf *b, const struct site *s, const char *up,
		const char *name, const char *addr)
{
	const struct site_person *p = site_person_of(s, addr);
	const char *shown = name && *name ? name : addr;

	if (!p) {
		pc_html_text(b, shown ? shown : "-");
		return;
	}
	pc_buf_addf(b, "<a data-person href=\"%speople/", up);
	pc_html_attr(b, p->slug);
	pc_buf_addstr(b, ".html\" title=\"");
	pc_html_attr(b, addr);
	pc_buf_addstr(b, "\">");
	pc_html_text(b, shown);
	pc_buf_addstr(b, "</a>");
}

void put_entry(struct pc_buf *b, const struct site *s, const char *up,
	       const char *name)
{
	const struct site_entry *e = site_entry_of(s, name);

	if (!e) {
		pc_html_text(b, name ? name : "-");
		return;
	}
	pc_buf_addf(b, "<a data-entry-link href=\"%sentries/", up);
	pc_html_attr(b, e->slug);
	pc_buf_addstr(b, ".html\">");
	pc_html_text(b, name);
	pc_buf_addstr(b, "</a>");
}

void put_flags(struct pc_buf *b, const char *flags)
{
	for (const char *p = flags; p && *p;) {
		size_t len = strcspn(p, " ");

		if (len) {
			struct pc_buf w = PC_BUF_INIT;

			pc_buf_add(&w, p, len);
			pc_buf_addstr(b, "<span class=\"flag ");
			pc_html_attr(b, w.buf);
			pc_buf_release(&w);
			pc_buf_addstr(b, "\">");
			pc_html_text_len(b, p, len);
			pc_buf_addstr(b, "</span>");
		}
		p += len + (p[len] == ' ');
	}
}

void put_series_table(struct pc_buf *b, const struct site *s, const char *up,
		      const size_t *idx, size_t n, const char *what)
{
	size_t i;

	if (!n) {
		pc_buf_addstr(b, "<p class=\"dim\">None.</p>\n");
		return;
	}
	pc_buf_addstr(b, "<div class=\"scroll\"><table data-table=\"");
	pc_html_attr(b, what);
	pc_buf_addstr(b, "\"><tr><th>ID</th><th>State</th><th>Series</th>"
			 "<th>Author</th><th>Posted</th><th>Due</th>"
			 "<th>Flags</th></tr>\n");
	for (i = 0; i < n; i++) {
		const struct pc_report_series *x = &s->r->series[idx[i]];

		pc_buf_addf(b,
			    "<tr data-row=\"%lld\"><td class=\"n\">%lld</td>"
			    "<td class=\"state ",
			    (long long)x->id, (long long)x->id);
		pc_html_attr(b, x->state);
		pc_buf_addstr(b, "\">");
		pc_html_text(b, x->state);
		pc_buf_addstr(b, "</td><td>");
		put_series_link(b, up, x);
		pc_buf_addstr(b, "</td><td>");
		put_person(b, s, up, x->author.name, x->author.addr);
		pc_buf_addstr(b, "</td><td class=\"when\">");
		put_date(b, x->posted_at);
		pc_buf_addstr(b, "</td><td class=\"when\">");
		put_date(b, x->due_at);
		pc_buf_addstr(b, "</td><td>");
		put_flags(b, x->flags);
		pc_buf_addstr(b, "</td></tr>\n");
	}
	pc_buf_addstr(b, "</table></div>\n");
}
