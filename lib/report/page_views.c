// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filters without a server (issue 37): the views Patchwork offers by
 * state, submitter and maintainer, written out as pages. By state:
 * views/STATE.html for each of overdue, ready to apply, needs review,
 * waiting on the author, waiting on the maintainers, held, and every
 * open series; by person: views/people.html lists everyone with their
 * series (people/ADDR.html is a submitter's series and a maintainer's
 * queue); by maintainer entry: the front page and entries/. No script:
 * every filter is a link.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/site_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

typedef int (*view_fn)(const struct pc_report_series *x);

static int v_open(const struct pc_report_series *x)
{
	return x->open && x->entry;
}

static int v_overdue(const struct pc_report_series *x)
{
	return x->entry && site_overdue(x);
}

static int v_ready(const struct pc_report_series *x)
{
	return x->entry && site_ready(x);
}

static int v_review(const struct pc_report_series *x)
{
	return v_open(x) && site_needs_review(x);
}

static int v_author(const struct pc_report_series *x)
{
	return v_open(x) && x->turn && !strcmp(x->turn, "author");
}

static int v_maintainers(const struct pc_report_series *x)
{
	return v_open(x) && x->turn && !strcmp(x->turn, "maintainers");
}

static int v_held(const struct pc_report_series *x)
{
	return v_open(x) && x->hold && *x->hold;
}

static const struct view {
	const char *slug, *title;
	view_fn keep;
} views[] = {
	{ "overdue", "Overdue", v_overdue },
	{ "ready", "Ready to apply", v_ready },
	{ "needs-review", "Needs review", v_review },
	{ "waiting-author", "Waiting on the author", v_author },
	{ "waiting-maintainers", "Waiting on the maintainers", v_maintainers },
	{ "held", "Held back by a rule (no mail)", v_held },
	{ "open", "Every open series", v_open },
};

void put_view_links(struct pc_buf *b, const char *up)
{
	size_t i;

	pc_buf_addstr(b, "<p data-views>Views: ");
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++)
		pc_buf_addf(b, "<a href=\"%sviews/%s.html\">%s</a> &middot; ",
			    up, views[i].slug, views[i].title);
	pc_buf_addf(b, "<a href=\"%sviews/people.html\">by person</a></p>\n",
		    up);
}

static int page_view(struct site *s, const struct view *v)
{
	struct pc_buf b = PC_BUF_INIT, path = PC_BUF_INIT;
	size_t *idx = xcalloc(s->r->nseries + 1, sizeof(*idx));
	size_t i, n = 0;
	int rc;

	for (i = 0; i < s->r->nseries; i++)
		if (v->keep(&s->r->series[i]))
			idx[n++] = i;
	page_start(&b, s, "../", v->title, NULL);
	pc_buf_addf(&b, "<h1>%s</h1>\n", v->title);
	put_view_links(&b, "../");
	pc_buf_addf(&b, "<p><span data-total=\"view\">%zu</span> series.</p>\n",
		    n);
	put_series_table(&b, s, "../", idx, n, v->slug);
	page_end(&b, s);
	pc_buf_addf(&path, "views/%s.html", v->slug);
	rc = site_emit(s, path.buf, &b);
	pc_buf_release(&b);
	pc_buf_release(&path);
	free(idx);
	return rc;
}

/* Everyone: their open series as submitter and in their queue. */
static int page_people(struct site *s)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i, k;
	int rc;

	page_start(&b, s, "../", "People", NULL);
	pc_buf_addstr(&b, "<h1>People</h1>\n");
	put_view_links(&b, "../");
	pc_buf_addstr(&b, "<div class=\"scroll\"><table data-table=\"people\">"
			  "<tr><th>Person</th><th>Open series posted</th>"
			  "<th>Open in their queue</th></tr>\n");
	for (i = 0; i < s->npeople; i++) {
		const struct site_person *p = &s->people[i];
		size_t mine = 0;

		for (k = 0; k < p->nauthored; k++)
			mine += s->r->series[p->authored[k]].open != 0;
		if (!mine && !p->nqueue)
			continue;
		pc_buf_addstr(&b, "<tr><td>");
		put_person(&b, s, "../", p->name, p->addr);
		pc_buf_addf(
			&b,
			"</td><td class=\"n\" data-count=\"posted\">%zu</td>"
			"<td class=\"n\" data-count=\"queue\">%zu</td></tr>\n",
			mine, p->nqueue);
	}
	pc_buf_addstr(&b, "</table></div>\n");
	page_end(&b, s);
	rc = site_emit(s, "views/people.html", &b);
	pc_buf_release(&b);
	return rc;
}

int page_views(struct site *s)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(views) / sizeof(views[0]) && rc == 0; i++)
		rc = page_view(s, &views[i]);
	return rc ? rc : page_people(s);
}
