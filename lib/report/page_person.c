// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A person's page: the series they posted ("my series") and the open
 * series of the entries they maintain or review ("my queue"); and their
 * feed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report/html.h"
#include "report/site_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Whether series i is in p's queue (sorted). */
static int in_queue(const struct site_person *p, size_t i)
{
	size_t lo = 0, hi = p->nqueue;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->queue[mid] == i)
			return 1;
		if (p->queue[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int page_person(struct site *s, const struct site_person *p)
{
	struct pc_buf b = PC_BUF_INIT, path = PC_BUF_INIT, feed = PC_BUF_INIT;
	size_t *mine = xcalloc(p->nauthored + p->nqueue + 1, sizeof(*mine));
	size_t i, n = 0;
	int rc;

	pc_buf_addf(&feed, "%s.atom", p->slug);
	page_start(&b, s, "../", p->name && *p->name ? p->name : p->addr,
		   feed.buf);
	pc_buf_addstr(&b, "<h1 data-person-name>");
	pc_html_text(&b, p->name && *p->name ? p->name : p->addr);
	pc_buf_addstr(&b, "</h1>\n<p class=\"dim\" data-addr>");
	pc_html_text(&b, p->addr);
	pc_buf_addstr(&b, " &middot; <a href=\"");
	pc_html_attr(&b, feed.buf);
	pc_buf_addstr(&b, "\">feed</a></p>\n");
	pc_buf_addf(&b, "<h2>Their queue (%zu open)</h2>\n", p->nqueue);
	pc_buf_addstr(&b, "<p class=\"dim\">The open series of the entries "
			  "they maintain or review.</p>\n");
	put_series_table(&b, s, "../", p->queue, p->nqueue, "queue");
	pc_buf_addf(&b, "<h2>Their series (%zu)</h2>\n", p->nauthored);
	put_series_table(&b, s, "../", p->authored, p->nauthored, "authored");
	page_end(&b, s);
	pc_buf_addf(&path, "people/%s.html", p->slug);
	rc = site_emit(s, path.buf, &b);
	for (i = 0; i < p->nqueue; i++)
		mine[n++] = p->queue[i];
	for (i = 0; i < p->nauthored; i++)
		if (s->r->series[p->authored[i]].open &&
		    !in_queue(p, p->authored[i]))
			mine[n++] = p->authored[i];
	if (rc == 0) {
		pc_buf_reset(&path);
		pc_buf_addf(&path, "people/%s.atom", p->slug);
		pc_buf_reset(&b);
		pc_buf_addf(&b, "urn:patchclock:person:%s", p->slug);
		rc = page_feed(s, path.buf, b.buf,
			       p->name && *p->name ? p->name : p->addr, p->slug,
			       mine, n, 0);
	}
	pc_buf_release(&b);
	pc_buf_release(&path);
	pc_buf_release(&feed);
	free(mine);
	return rc;
}
