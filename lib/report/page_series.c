// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A series' page: its verdict and why, its versions, its patches with
 * their tags and where each was given, the mail patchclock sent or will
 * send about it, and its apply and boot results, with archive links.
 */
#include <stdio.h>
#include <string.h>

#include "report/html.h"
#include "report/site_internal.h"
#include "util/banned.h"

static void put_link(struct pc_buf *b, const char *url, const char *text)
{
	if (!url) {
		pc_html_text(b, text);
		return;
	}
	pc_buf_addstr(b, "<a data-archive href=\"");
	pc_html_url(b, url);
	pc_buf_addstr(b, "\">");
	pc_html_text(b, text);
	pc_buf_addstr(b, "</a>");
}

static void put_fact(struct pc_buf *b, const char *label, const char *value)
{
	pc_buf_addf(b, "<tr><th>%s</th><td>", label);
	pc_html_text(b, value && *value ? value : "-");
	pc_buf_addstr(b, "</td></tr>\n");
}

static void put_when(struct pc_buf *b, const char *label, int64_t t)
{
	pc_buf_addf(b, "<tr><th>%s</th><td class=\"when\">", label);
	put_time(b, t);
	pc_buf_addstr(b, "</td></tr>\n");
}

static void put_verdict(struct pc_buf *b, const struct site *s,
			const struct pc_report_series *x)
{
	pc_buf_addstr(b, "<h2>Verdict</h2>\n<div class=\"scroll\"><table "
			 "data-table=\"verdict\">\n<tr><th>State</th><td "
			 "data-state class=\"state ");
	pc_html_attr(b, x->state);
	pc_buf_addstr(b, "\">");
	pc_html_text(b, x->state);
	pc_buf_addstr(b, "</td></tr>\n<tr><th>Flags</th><td>");
	put_flags(b, x->flags);
	pc_buf_addstr(b, "</td></tr>\n");
	put_fact(b, "Whose turn", x->turn);
	pc_buf_addstr(b, "<tr><th>No mail because</th><td data-hold>");
	pc_html_text(b, x->hold_reason ? x->hold_reason : "-");
	pc_buf_addstr(b, "</td></tr>\n<tr><th>Entry</th><td>");
	put_entry(b, s, "../", x->entry);
	pc_buf_addstr(b, "</td></tr>\n");
	put_when(b, "Posted", x->posted_at);
	put_when(b, "First response", x->first_response_at);
	put_when(b, "Due", x->due_at);
	put_when(b, "patchclock acts", x->act_at);
	if (site_overdue(x))
		pc_buf_addf(b,
			    "<tr><th>Overdue by</th><td>%.1f business "
			    "days</td></tr>\n",
			    x->overdue_days);
	pc_buf_addf(b, "<tr><th>Reviewed</th><td>%d of %d patches</td></tr>\n",
		    x->reviewed, x->npatches_judged);
	put_when(b, "Judged", x->evaluated_at);
	pc_buf_addstr(b, "</table></div>\n");
}

static void put_versions(struct pc_buf *b, const struct site *s,
			 const struct pc_report_series *x)
{
	const struct pc_report_series *next =
		x->superseded_by ? site_series_of(s, x->superseded_by) : NULL;
	size_t i, n, at = site_superseded(s, x->id, &n);

	pc_buf_addstr(b, "<h2>Versions</h2>\n<ul data-list=\"versions\">\n");
	for (i = 0; x->id && i < n; i++) {
		pc_buf_addstr(b, "<li>");
		put_series_link(b, "../",
				&s->r->series[s->by_next[at + i].idx]);
		pc_buf_addstr(b, " (the version before)</li>\n");
	}
	if (next) {
		pc_buf_addstr(b, "<li>");
		put_series_link(b, "../", next);
		pc_buf_addstr(b, " (the next version)</li>\n");
	}
	if (!next && (!x->id || !n))
		pc_buf_addstr(b, "<li class=\"dim\">No other version seen."
				 "</li>\n");
	pc_buf_addstr(b, "</ul>\n");
}

static void put_trailers(struct pc_buf *b, const struct pc_report_patch *p)
{
	size_t k;

	if (!p->ntrailers)
		return;
	pc_buf_addstr(b, "<ul class=\"trailers\">");
	for (k = 0; k < p->ntrailers; k++) {
		const struct pc_report_trailer *t = &p->trailers[k];

		pc_buf_addstr(b, "<li data-trailer>");
		pc_html_text(b, t->name);
		pc_buf_addstr(b, ": ");
		pc_html_text(b, t->value);
		pc_buf_addstr(b, " <span class=\"dim\">(");
		put_link(b, t->url, t->origin ? t->origin : "given");
		if (t->suggested)
			pc_buf_addstr(b, "; suggested by a bot, not a review");
		pc_buf_addstr(b, ")</span></li>");
	}
	pc_buf_addstr(b, "</ul>");
}

static void put_patches(struct pc_buf *b, const struct pc_report_series *x)
{
	size_t i;

	pc_buf_addstr(b, "<h2>Patches</h2>\n<div class=\"scroll\"><table "
			 "data-table=\"patches\"><tr><th>#</th><th>Patch and "
			 "its tags</th><th>Review</th><th>Accepted</th>"
			 "</tr>\n");
	for (i = 0; i < x->npatches; i++) {
		const struct pc_report_patch *p = &x->patches[i];

		pc_buf_addf(b,
			    "<tr data-patch=\"%d\"><td class=\"n\">%d</td>"
			    "<td>",
			    p->index, p->index);
		put_link(b, p->url, p->subject ? p->subject : "(no subject)");
		put_trailers(b, p);
		pc_buf_addstr(b, "</td><td>");
		if (p->reviewed && p->reviewed_by) {
			pc_buf_addstr(b, "by ");
			pc_html_text(b, p->reviewed_by);
		} else {
			pc_buf_addstr(b,
				      p->reviewed ? "not needed" : "missing");
		}
		pc_buf_addstr(b, "</td><td class=\"when\">");
		put_date(b, p->accepted_at);
		pc_buf_addstr(b, "</td></tr>\n");
	}
	pc_buf_addstr(b, "</table></div>\n");
}

static void put_mails(struct pc_buf *b, const struct pc_report_series *x)
{
	size_t i;

	pc_buf_addstr(b, "<h2>Mail from patchclock</h2>\n");
	if (!x->nmails) {
		pc_buf_addstr(b, "<p class=\"dim\">None sent or queued.</p>\n");
		return;
	}
	pc_buf_addstr(b, "<div class=\"scroll\"><table data-table=\"mail\">"
			 "<tr><th>What</th><th>State</th><th>To</th>"
			 "<th>Subject</th><th>When</th></tr>\n");
	for (i = 0; i < x->nmails; i++) {
		const struct pc_report_mail *m = &x->mails[i];

		pc_buf_addstr(b, "<tr><td>");
		pc_html_text(b, m->action);
		pc_buf_addstr(b, "</td><td>");
		pc_html_text(b, m->state);
		if (m->reason) {
			pc_buf_addstr(b, "<br><span class=\"dim\">");
			pc_html_text(b, m->reason);
			pc_buf_addstr(b, "</span>");
		}
		pc_buf_addstr(b, "</td><td>");
		pc_html_text(b, m->recipients);
		pc_buf_addstr(b, "</td><td>");
		pc_html_text(b, m->subject);
		pc_buf_addstr(b, "</td><td class=\"when\">");
		put_time(b, m->sent_at ? m->sent_at : m->due_at);
		pc_buf_addstr(b, "</td></tr>\n");
	}
	pc_buf_addstr(b, "</table></div>\n");
}

static void put_runs(struct pc_buf *b, const struct pc_report_series *x)
{
	size_t i;

	pc_buf_addstr(b, "<h2>Applied and booted</h2>\n");
	if (!x->nruns) {
		pc_buf_addstr(b, "<p class=\"dim\">Not applied or tested "
				 "yet.</p>\n");
		return;
	}
	pc_buf_addstr(b, "<div class=\"scroll\"><table data-table=\"runs\">"
			 "<tr><th>When</th><th>What</th><th>Outcome</th>"
			 "<th>Where, or why not</th></tr>\n");
	for (i = 0; i < x->nruns; i++) {
		const struct pc_report_run *r = &x->runs[i];

		pc_buf_addstr(b, "<tr><td class=\"when\">");
		put_time(b, r->at);
		pc_buf_addf(b, "</td><td>%s</td><td data-outcome>%s</td><td>",
			    r->boot ? "boot test" : "apply",
			    r->boot ? (r->ok ? "pass" : "fail") :
				      (r->ok ? "applied" : "failed"));
		pc_html_text(b, r->ok ? r->what : r->reason);
		if (r->summary) {
			pc_buf_addstr(b, "<pre>");
			pc_html_text(b, r->summary);
			pc_buf_addstr(b, "</pre>");
		}
		pc_buf_addstr(b, "</td></tr>\n");
	}
	pc_buf_addstr(b, "</table></div>\n");
}

int page_series(struct site *s, const struct pc_report_series *x)
{
	struct pc_buf b = PC_BUF_INIT, path = PC_BUF_INIT;
	int rc;

	page_start(&b, s, "../", x->subject ? x->subject : "series", NULL);
	pc_buf_addf(&b, "<h1 data-series-id=\"%lld\">", (long long)x->id);
	if (x->revision > 1 || x->rfc)
		pc_buf_addf(&b, "[%sv%d] ", x->rfc ? "RFC " : "", x->revision);
	pc_html_text(&b,
		     x->subject && *x->subject ? x->subject : "(no subject)");
	pc_buf_addstr(&b, "</h1>\n<p>by ");
	put_person(&b, s, "../", x->author.name, x->author.addr);
	pc_buf_addstr(&b, " &middot; ");
	put_link(&b, x->url, "in the archive");
	pc_buf_addstr(&b, "</p>\n");
	put_verdict(&b, s, x);
	put_versions(&b, s, x);
	put_patches(&b, x);
	put_mails(&b, x);
	put_runs(&b, x);
	page_end(&b, s);
	pc_buf_addf(&path, "series/%lld.html", (long long)x->id);
	rc = site_emit(s, path.buf, &b);
	pc_buf_release(&b);
	pc_buf_release(&path);
	return rc;
}
