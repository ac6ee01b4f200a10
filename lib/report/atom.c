// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Atom feeds. See atom.h.
 */
#include <stdio.h>
#include <time.h>

#include "report/atom.h"
#include "report/html.h"
#include "util/banned.h"

void pc_atom_time(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

static void element(struct pc_buf *out, const char *name, const char *text)
{
	pc_buf_addf(out, "<%s>", name);
	pc_html_plain(out, text);
	pc_buf_addf(out, "</%s>\n", name);
}

static void link_to(struct pc_buf *out, const char *rel, const char *href)
{
	pc_buf_addf(out, "<link rel=\"%s\" href=\"", rel);
	pc_html_url(out, href);
	pc_buf_addstr(out, "\"/>\n");
}

void pc_atom_write(struct pc_buf *out, const struct pc_atom_feed *f,
		   const struct pc_atom_item *items, size_t n)
{
	char when[32];
	size_t i;

	pc_buf_addstr(out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
			   "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
	element(out, "id", f->id);
	element(out, "title", f->title);
	pc_atom_time(when, sizeof(when), f->updated);
	element(out, "updated", when);
	pc_buf_addstr(out, "<author><name>patchclock</name></author>\n");
	link_to(out, "self", f->self);
	link_to(out, "alternate", f->alternate);
	for (i = 0; i < n; i++) {
		const struct pc_atom_item *it = &items[i];

		pc_buf_addstr(out, "<entry>\n");
		element(out, "id", it->id);
		element(out, "title", it->title);
		pc_atom_time(when, sizeof(when), it->updated);
		element(out, "updated", when);
		if (it->author) {
			pc_buf_addstr(out, "<author>");
			element(out, "name", it->author);
			pc_buf_addstr(out, "</author>\n");
		}
		link_to(out, "alternate", it->link);
		if (it->summary)
			element(out, "summary", it->summary);
		pc_buf_addstr(out, "</entry>\n");
	}
	pc_buf_addstr(out, "</feed>\n");
}
