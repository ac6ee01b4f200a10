// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The feeds of entries and people: each of their open series that is
 * overdue (since its due time) or ready to apply (since it was judged
 * so), newest first; and the site's own, of every overdue series. An
 * item's id names what happened, the version and the series by its
 * posting's Message-ID (which a rebuilt database keeps), so a reader
 * shows it once; links are absolute under the site's base_url.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A URN's text for a Message-ID: what RFC 8141 allows kept, the rest
 * percent-encoded. */
static void add_urn_text(struct pc_buf *b, const char *s)
{
	static const char ok[] = "-._~!$&'()*+,;=:@";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || (c && strchr(ok, c)))
			pc_buf_addch(b, (char)c);
		else
			pc_buf_addf(b, "%%%02X", c);
	}
}

/* Where a page of the site is, seen from a feed in the directory up
 * leads out of: under base_url when the site has one (absolute, as
 * feed readers want), else relative. */
static void add_site_link(struct pc_buf *b, const struct site *s,
			  const char *up, const char *path)
{
	const char *base = s->r->base_url;

	if (base && *base)
		pc_buf_addf(b, "%s%s%s", base,
			    base[strlen(base) - 1] == '/' ? "" : "/", path);
	else
		pc_buf_addf(b, "%s%s", up, path);
}

static void add_item(struct pc_atom_item *it, struct offsets *o,
		     struct pc_buf *text, const struct site *s, const char *up,
		     const struct pc_report_series *x, const char *what,
		     const char *kind, int64_t when)
{
	size_t id = text->len, title, link, summary;
	char page[64];

	/* Named by the posting's Message-ID, which a rebuilt database
	 * keeps (its row number changes). */
	if (x->msgid) {
		pc_buf_addf(text, "urn:patchclock:%s:v%d:", kind, x->revision);
		add_urn_text(text, x->msgid);
	} else {
		pc_buf_addf(text, "urn:patchclock:%s:v%d:series-%lld", kind,
			    x->revision, (long long)x->id);
	}
	pc_buf_addch(text, 0);
	title = text->len;
	pc_buf_addf(text, "%s: %s", what, x->subject ? x->subject : "");
	pc_buf_addch(text, 0);
	link = text->len;
	snprintf(page, sizeof(page), "series/%lld.html", (long long)x->id);
	add_site_link(text, s, up, page);
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
	      size_t n, int overdue_only)
{
	/* entries/x.atom and people/x.atom are one level down */
	const char *up = strchr(path, '/') ? "../" : "";
	const char *dir_end = strrchr(path, '/');
	char *dir = dir_end ? xmemdupz(path, (size_t)(dir_end - path + 1)) :
			      xstrdup("");
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
			add_item(&items[k], &o[k], &text, s, up, x, "overdue",
				 "overdue", x->due_at);
			k++;
		}
		if (!overdue_only && site_ready(x)) {
			add_item(&items[k], &o[k], &text, s, up, x,
				 "ready to apply", "ready",
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
	if (s->r->base_url && *s->r->base_url) {
		char *p2 = xasprintf("%s%s.html", dir, alternate);

		add_site_link(&self, s, "", path);
		add_site_link(&alt, s, "", p2);
		free(p2);
	} else {
		pc_buf_addstr(&self, dir_end ? dir_end + 1 : path);
		pc_buf_addf(&alt, "%s.html", alternate);
	}
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
	free(dir);
	return rc;
}
