// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The feeds of entries and people: each of their open series that is
 * overdue (since its due time) or ready to apply (since it was judged
 * so), newest first. An item's id names the series, its version and
 * what happened, so a reader shows it once.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report/atom.h"
#include "report/site_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

static int newest_first(const void *a, const void *b)
{
	const struct pc_atom_item *x = a, *y = b;

	return (x->updated < y->updated) - (x->updated > y->updated);
}

/* Where an item's strings start in the text buffer (which may move
 * while it grows: the pointers are set once it is whole). */
struct offsets {
	size_t id, title, link, summary;
};

static void add_item(struct pc_atom_item *it, struct offsets *o,
		     struct pc_buf *text, const struct pc_report_series *x,
		     const char *what, int64_t when)
{
	size_t id = text->len, title, link, summary;

	pc_buf_addf(text, "urn:patchclock:series:%lld:v%d:%s", (long long)x->id,
		    x->revision, what);
	pc_buf_addch(text, 0);
	title = text->len;
	pc_buf_addf(text, "%s: %s", what, x->subject ? x->subject : "");
	pc_buf_addch(text, 0);
	link = text->len;
	pc_buf_addf(text, "../series/%lld.html", (long long)x->id);
	pc_buf_addch(text, 0);
	summary = text->len;
	pc_buf_addf(text, "%s, posted by %s", x->entry ? x->entry : "",
		    x->author.name && *x->author.name ? x->author.name :
							x->author.addr);
	pc_buf_addch(text, 0);
	o->id = id;
	o->title = title;
	o->link = link;
	o->summary = summary;
	it->author = x->author.name && *x->author.name ? x->author.name :
							 x->author.addr;
	it->updated = when;
}

int page_feed(struct site *s, const char *path, const char *id,
	      const char *title, const char *alternate, const size_t *idx,
	      size_t n)
{
	struct pc_atom_item *items = xcalloc(2 * n + 1, sizeof(*items));
	struct offsets *o = xcalloc(2 * n + 1, sizeof(*o));
	struct pc_buf text = PC_BUF_INIT, out = PC_BUF_INIT, self = PC_BUF_INIT,
		      alt = PC_BUF_INIT, t = PC_BUF_INIT;
	struct pc_atom_feed f = { 0 };
	size_t i, k = 0;
	int rc;

	for (i = 0; i < n; i++) {
		const struct pc_report_series *x = &s->r->series[idx[i]];

		if (site_overdue(x)) {
			add_item(&items[k], &o[k], &text, x, "overdue",
				 x->due_at);
			k++;
		}
		if (site_ready(x)) {
			add_item(&items[k], &o[k], &text, x, "ready to apply",
				 x->evaluated_at ? x->evaluated_at : s->r->now);
			k++;
		}
	}
	for (i = 0; i < k; i++) {
		items[i].id = text.buf + o[i].id;
		items[i].title = text.buf + o[i].title;
		items[i].link = text.buf + o[i].link;
		items[i].summary = text.buf + o[i].summary;
	}
	qsort(items, k, sizeof(*items), newest_first);
	pc_buf_addf(&self, "%s.atom", alternate);
	pc_buf_addf(&alt, "%s.html", alternate);
	pc_buf_addf(&t, "patchclock: %s", title);
	f.id = id;
	f.title = t.buf;
	f.self = self.buf;
	f.alternate = alt.buf;
	f.updated = k ? items[0].updated : s->r->now;
	pc_atom_write(&out, &f, items, k);
	rc = site_emit(s, path, &out);
	pc_buf_release(&text);
	pc_buf_release(&out);
	pc_buf_release(&self);
	pc_buf_release(&alt);
	pc_buf_release(&t);
	free(items);
	free(o);
	return rc;
}
