// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON output: the same fields the text listings show, by the rules of
 * doc/json.md; the generic helpers are in json_base.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cliconf.h"
#include "cli/json_out.h"
#include "conf.h"
#include "mail/archive.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

char *cli_url(const char *msgid)
{
	const struct conf *c = cli_conf();
	struct pc_buf b = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char *url = NULL;

	if (msgid && *msgid &&
	    pc_archive_url(&b, c ? c->archive : NULL, msgid, &err) == 0)
		url = xstrdup(b.buf);
	pc_buf_release(&b);
	return url;
}

json_object *json_url(const char *msgid)
{
	char *url = cli_url(msgid);
	json_object *o = url ? json_object_new_string(url) : NULL;

	free(url);
	return o;
}

json_object *json_series_entry(const char *name, int depth, int files,
			       int k_hit, int k_only, const char *profile)
{
	json_object *eo = json_object_new_object();

	json_object_object_add(eo, "name", json_str(name));
	json_object_object_add(eo, "depth", json_object_new_int(depth));
	json_object_object_add(eo, "files", json_object_new_int(files));
	json_object_object_add(eo, "keyword", json_object_new_boolean(k_hit));
	json_object_object_add(eo, "keyword_only",
			       json_object_new_boolean(k_only));
	json_object_object_add(eo, "profile", json_str(profile));
	return eo;
}

static json_object *json_trailers(const struct pc_trailer_info *t, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_str(t[i].name));
		json_object_object_add(o, "value", json_str(t[i].value));
		json_object_object_add(o, "person",
				       json_person(t[i].person, t[i].addr));
		json_object_object_add(o, "given_in_message_id",
				       json_str(t[i].given_in));
		json_object_object_add(
			o, "from_reply",
			json_object_new_boolean(t[i].from_reply));
		json_object_object_add(o, "via_cover",
				       json_object_new_boolean(t[i].via_cover));
		json_object_object_add(o, "suggested",
				       json_object_new_boolean(t[i].suggested));
		json_object_object_add(o, "mismatch",
				       json_object_new_boolean(t[i].mismatch));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *json_files(const struct pc_file_info *f, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		char status[2] = { f[i].status, 0 };

		json_object_object_add(o, "path", json_str(f[i].path));
		json_object_object_add(o, "old_path", json_str(f[i].old_path));
		json_object_object_add(o, "status",
				       json_object_new_string(status));
		json_object_object_add(o, "added",
				       json_object_new_int((int)f[i].added));
		json_object_object_add(o, "removed",
				       json_object_new_int((int)f[i].removed));
		json_object_object_add(o, "binary",
				       json_object_new_boolean(f[i].binary));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *json_series(const struct pc_series_info *s)
{
	json_object *o = json_object_new_object(), *patches;
	size_t i;

	json_object_object_add(o, "id", json_object_new_int64(s->id));
	json_object_object_add(o, "subject", json_str(s->name));
	json_object_object_add(o, "author",
			       json_person(s->author_name, s->author_addr));
	json_object_object_add(o, "revision", json_object_new_int(s->version));
	json_object_object_add(o, "rfc", json_object_new_boolean(s->is_rfc));
	json_object_object_add(o, "received", json_object_new_int(s->received));
	json_object_object_add(o, "total", json_object_new_int(s->total));
	json_object_object_add(o, "complete",
			       json_object_new_boolean(s->total > 0 &&
						       s->received >=
							       s->total));
	json_object_object_add(o, "superseded_by_id",
			       json_id_or_0(s->superseded_by));
	json_object_object_add(o, "posted_at",
			       json_time(s->first_posted, s->has_date));
	json_object_object_add(o, "anchor_message_id",
			       json_str(s->anchor_msgid));
	json_object_object_add(o, "cover_message_id", json_str(s->cover_msgid));
	json_object_object_add(o, "url", json_url(s->anchor_msgid));
	json_object_object_add(o, "topic", json_str(s->topic));
	json_object_object_add(o, "list_id", json_str(s->list_id));
	json_object_object_add(o, "change_id", json_str(s->change_id));
	patches = json_object_new_array();
	for (i = 0; s->patches && i < s->npatches; i++) {
		const struct pc_patch_info *p = &s->patches[i];
		json_object *po = json_object_new_object();

		json_object_object_add(po, "message_id", json_str(p->msgid));
		json_object_object_add(po, "url", json_url(p->msgid));
		json_object_object_add(po, "kind", json_str(p->kind));
		json_object_object_add(po, "index",
				       json_object_new_int(p->idx));
		json_object_object_add(po, "subject", json_str(p->subject));
		json_object_object_add(po, "author",
				       json_person(p->author_name,
						   p->author_addr));
		json_object_object_add(po, "posted_at",
				       json_time(p->date, p->has_date));
		json_object_object_add(po, "patch_id", json_str(p->patch_id));
		json_object_object_add(po, "files",
				       json_files(p->files, p->nfiles));
		json_object_object_add(po, "trailers",
				       json_trailers(p->trailers,
						     p->ntrailers));
		json_object_array_add(patches, po);
	}
	json_object_object_add(o, "patches", patches);
	patches = json_object_new_array();
	for (i = 0; s->entries && i < s->nentries; i++) {
		const struct pc_entry_info *e = &s->entries[i];

		json_object_array_add(patches,
				      json_series_entry(e->name, e->depth,
							e->files, e->k_hit,
							e->k_only, e->profile));
	}
	json_object_object_add(o, "entries", patches);
	return o;
}

json_object *json_message(const struct pc_message_info *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "message_id", json_str(m->msgid));
	json_object_object_add(o, "url", json_url(m->msgid));
	json_object_object_add(o, "kind", json_str(m->kind));
	json_object_object_add(o, "subject", json_str(m->subject));
	json_object_object_add(o, "from",
			       json_person(m->from_name, m->from_addr));
	json_object_object_add(o, "author",
			       json_person(m->author_name, m->author_addr));
	json_object_object_add(o, "posted_at", json_time(m->date, m->has_date));
	json_object_object_add(o, "in_reply_to_message_id",
			       json_str(m->in_reply_to));
	json_object_object_add(o, "list_id", json_str(m->list_id));
	json_object_object_add(o, "source", json_str(m->source));
	json_object_object_add(o, "parse_error", json_str(m->parse_error));
	json_object_object_add(o, "series_id", json_id_or_0(m->series_id));
	json_object_object_add(o, "revision", json_object_new_int(m->version));
	json_object_object_add(o, "index", json_object_new_int(m->idx));
	json_object_object_add(o, "total", json_object_new_int(m->total));
	json_object_object_add(o, "raw_bytes",
			       json_object_new_int64((int64_t)m->raw_size));
	json_object_object_add(o, "files", json_files(m->files, m->nfiles));
	json_object_object_add(o, "trailers",
			       json_trailers(m->trailers, m->ntrailers));
	return o;
}
