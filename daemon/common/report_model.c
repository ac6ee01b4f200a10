// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report's model, read from the database and the policy: every
 * judged series (as `status --all` lists it) with its patches and tags,
 * its mail and its applies and boot tests; every governing entry with its
 * profile, people and cycle dates. See report_model.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"
#include "mail/archive.h"
#include "mail/message.h"
#include "notify/compose.h"
#include "sla/state.h"
#include "store/outbox.h"
#include "store/query.h"
#include "store/testrun.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct builder {
	struct pc_report *r;
	size_t alloc;
	const char *archive;
	struct pc_err *err;
};

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

static char *url_of(const struct builder *b, const char *msgid)
{
	struct pc_buf u = PC_BUF_INIT;

	if (!msgid || !*msgid ||
	    pc_archive_url(&u, b->archive, msgid, NULL) < 0) {
		pc_buf_release(&u);
		return NULL;
	}
	return pc_buf_detach(&u, NULL);
}

static int open_state(const char *state)
{
	static const char *const closed[] = { "superseded", "accepted",
					      "applied", "tested" };
	size_t i;

	for (i = 0; state && i < 4; i++)
		if (!strcmp(state, closed[i]))
			return 0;
	return 1;
}

static int add_row(const struct pc_status_row *row, void *arg)
{
	struct builder *b = arg;
	struct pc_report_series *x;
	size_t i;

	if (b->r->nseries == b->alloc) {
		b->alloc = b->alloc ? 2 * b->alloc : 64;
		b->r->series = xreallocarray(b->r->series, b->alloc,
					     sizeof(*b->r->series));
	}
	x = &b->r->series[b->r->nseries++];
	memset(x, 0, sizeof(*x));
	x->id = row->id;
	x->subject = dup_or_null(row->name);
	x->url = url_of(b, row->anchor_msgid);
	x->msgid = dup_or_null(row->anchor_msgid);
	x->author.name = dup_or_null(row->author_name);
	x->author.addr = dup_or_null(row->author_addr);
	x->revision = row->version;
	x->rfc = row->is_rfc;
	x->state = dup_or_null(row->state);
	x->flags = dup_or_null(row->flags);
	x->turn = dup_or_null(row->turn);
	x->hold = dup_or_null(row->hold);
	x->hold_reason = dup_or_null(row->hold_why);
	x->entry = dup_or_null(row->entry);
	x->posted_at = row->posted;
	x->due_at = row->due;
	x->wait_from = row->wait_from;
	x->act_at = row->act_at;
	x->first_response_at = row->first_response;
	x->evaluated_at = row->evaluated_at;
	x->overdue_days = row->overdue_days;
	x->open = open_state(row->state);
	x->reviewed = row->reviewed;
	x->npatches_judged = row->patches;
	x->superseded_by = row->superseded_by;
	x->patches = xcalloc(row->npatch + 1, sizeof(*x->patches));
	x->npatches = row->npatch;
	for (i = 0; i < row->npatch; i++) {
		const struct pc_status_patch *p = &row->patch[i];

		x->patches[i].index = p->idx;
		x->patches[i].subject = dup_or_null(p->subject);
		x->patches[i].message_id = dup_or_null(p->msgid);
		x->patches[i].url = url_of(b, p->msgid);
		x->patches[i].reviewed = p->reviewed;
		x->patches[i].reviewed_by = dup_or_null(p->reviewed_by);
		x->patches[i].accepted_at = p->accepted_at;
	}
	return 0;
}

static struct pc_report_series *series_of(struct pc_report *r, int64_t id)
{
	size_t lo = 0, hi = r->nseries;

	/* r->series is sorted by id (sort_by_id) before the details come */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->series[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nseries && r->series[lo].id == id ? &r->series[lo] :
							   NULL;
}

static const char *origin_of(const struct pc_trailer_info *t)
{
	if (t->via_cover)
		return "on the cover letter";
	return t->from_reply ? "in a reply" : "in the patch";
}

static void take_trailers(const struct builder *b, struct pc_report_patch *rp,
			  const struct pc_patch_info *p)
{
	size_t k;

	rp->trailers = xcalloc(p->ntrailers + 1, sizeof(*rp->trailers));
	rp->ntrailers = p->ntrailers;
	for (k = 0; k < p->ntrailers; k++) {
		const struct pc_trailer_info *t = &p->trailers[k];
		struct pc_report_trailer *o = &rp->trailers[k];

		o->name = dup_or_null(t->name);
		o->value = dup_or_null(t->value);
		o->origin = xstrdup(origin_of(t));
		o->url = url_of(b, t->given_in);
		o->suggested = t->suggested;
	}
}

/* The patches' tags and archive links, from the series listing. */
static int add_details(const struct pc_series_info *s, void *arg)
{
	struct builder *b = arg;
	struct pc_report_series *x = series_of(b->r, s->id);
	size_t i, j;

	for (i = 0; x && i < x->npatches; i++) {
		struct pc_report_patch *rp = &x->patches[i];

		for (j = 0; rp->message_id && j < s->npatches; j++)
			if (!strcmp(s->patches[j].msgid, rp->message_id)) {
				take_trailers(b, rp, &s->patches[j]);
				break;
			}
	}
	return 0;
}

static int add_mail(const struct pc_outbox_item *it, void *arg)
{
	struct builder *b = arg;
	struct pc_report_series *x = series_of(b->r, it->series_id);
	struct pc_report_mail *m;
	struct pc_buf subj = PC_BUF_INIT;

	if (!x)
		return 0;
	x->mails = xreallocarray(x->mails, x->nmails + 1, sizeof(*x->mails));
	m = &x->mails[x->nmails++];
	memset(m, 0, sizeof(*m));
	m->action = dup_or_null(it->action);
	m->state = dup_or_null(it->status);
	if (it->message &&
	    pc_compose_subject_of(&subj, it->message, it->message_len))
		m->subject = pc_buf_detach(&subj, NULL);
	else
		m->subject = dup_or_null(it->subject);
	pc_buf_release(&subj);
	m->recipients = dup_or_null(it->recipients);
	m->reason = dup_or_null(it->reason ? it->reason : it->last_error);
	m->due_at = it->send_after;
	m->sent_at = it->sent_at;
	return 0;
}

static int add_run(const struct pc_testrun_info *t, void *arg)
{
	struct builder *b = arg;
	struct pc_report_series *x = series_of(b->r, t->series_id);
	struct pc_report_run *o;

	if (!x)
		return 0;
	x->runs = xreallocarray(x->runs, x->nruns + 1, sizeof(*x->runs));
	o = &x->runs[x->nruns++];
	o->boot = t->boot;
	o->ok = t->ok;
	o->what = dup_or_null(t->what);
	o->reason = dup_or_null(t->reason);
	o->summary = dup_or_null(t->summary);
	o->at = t->at;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct pc_report_series *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int cmp_posted(const void *a, const void *b)
{
	const struct pc_report_series *x = a, *y = b;

	if (x->posted_at != y->posted_at)
		return (x->posted_at > y->posted_at) -
		       (x->posted_at < y->posted_at);
	return cmp_id(a, b);
}

int cli_report_series(struct pc_report *r, struct pc_store *st,
		      const char *archive, struct pc_err *err)
{
	struct builder b = { .r = r, .archive = archive, .err = err };
	struct pc_status_filter f = { .all = 1 };
	struct pc_series_filter sf = { .with_patches = 1 };
	int rc;

	if ((rc = pc_status_list(st, &f, add_row, &b, err)) < 0)
		return rc;
	if (r->nseries)
		qsort(r->series, r->nseries, sizeof(*r->series), cmp_id);
	if ((rc = pc_series_list(st, &sf, add_details, &b, err)) < 0 ||
	    (rc = pc_outbox_list(st, 0, 1, add_mail, &b, err)) < 0 ||
	    (rc = pc_testrun_list(st, add_run, &b, err)) < 0)
		return rc;
	/* The pages list series the oldest posting first, as status. */
	if (r->nseries)
		qsort(r->series, r->nseries, sizeof(*r->series), cmp_posted);
	return 0;
}

/* Entries. */

static void take_people(struct pc_report_person **out, size_t *n,
			const struct pc_maint_value *v, size_t nv)
{
	size_t i;

	*out = xcalloc(nv + 1, sizeof(**out));
	*n = 0;
	for (i = 0; i < nv; i++) {
		struct pc_addr a = { 0 };

		pc_addr_parse_git(&a, v[i].value, strlen(v[i].value));
		if (a.addr && *a.addr) {
			for (char *c = a.addr; *c; c++)
				if (*c >= 'A' && *c <= 'Z')
					*c = (char)(*c - 'A' + 'a');
			(*out)[*n].name = dup_or_null(a.name);
			(*out)[(*n)++].addr = xstrdup(a.addr);
		}
		pc_addr_release(&a);
	}
}

static void take_fields(struct pc_report_entry *e, const struct pc_profile *p)
{
	size_t f;

	e->fields = xcalloc(PC_PROF_NFIELDS, sizeof(*e->fields));
	e->nfields = PC_PROF_NFIELDS;
	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		const struct pc_prof_origin *o = &p->policy.from[f];
		struct pc_report_field *rf = &e->fields[f];
		struct pc_buf v = PC_BUF_INIT;

		rf->label =
			xstrdup(pc_profile_field_label((enum pc_prof_field)f));
		if (o->kind == PC_PROF_SRC_NONE)
			continue;
		pc_profile_format(&v, &p->policy, (enum pc_prof_field)f);
		rf->value = pc_buf_detach(&v, NULL);
		pc_buf_addstr(&v, pc_profile_source_name(o->kind));
		if (o->file)
			pc_buf_addf(&v, ", %s", o->file);
		if (o->line)
			pc_buf_addf(&v, ":%u", o->line);
		if (o->heading)
			pc_buf_addf(&v, " (%s)", o->heading);
		rf->source = pc_buf_detach(&v, NULL);
		rf->quote = dup_or_null(o->quote);
	}
	if (p->policy.from[PC_PROF_PING_AFTER].kind != PC_PROF_SRC_NONE) {
		struct pc_buf v = PC_BUF_INIT;

		pc_profile_format_duration(&v, &p->policy.ping_after);
		e->cadence = pc_buf_detach(&v, NULL);
	}
}

static void add_date(struct pc_report_entry *e, const char *label, int64_t at,
		     int projected, int deadline)
{
	struct pc_report_date *d;

	e->dates = xreallocarray(e->dates, e->ndates + 1, sizeof(*e->dates));
	d = &e->dates[e->ndates++];
	d->label = xstrdup(label);
	d->at = at;
	d->projected = projected;
	d->deadline = deadline;
}

static void version_name(char *buf, size_t len, const char *what,
			 const struct pc_cycle_version *v)
{
	char name[32];

	pc_cycle_version_format(name, sizeof(name), v);
	snprintf(buf, len, "%sv%s", what, name);
}

/* A profile deadline as a date of the cycle (or the next, once past). */
static void add_deadline(struct pc_report_entry *e, const struct pc_cycle *cy,
			 const char *what, const struct pc_prof_deadline *d,
			 int64_t now)
{
	struct pc_cycle_deadline dl;
	struct pc_cycle_verdict v;
	struct pc_buf label = PC_BUF_INIT;
	char lands[48];

	if (!pc_sla_cycle_deadline(&dl, d) ||
	    pc_cycle_evaluate(&v, cy, &dl, now, NULL) < 0)
		return;
	version_name(lands, sizeof(lands), "", &v.lands);
	pc_buf_addf(&label, "%s (", what);
	pc_profile_format_deadline(&label, d);
	pc_buf_addf(&label, "), for %s", lands);
	add_date(e, label.buf, v.in_time ? v.deadline : v.next_deadline,
		 v.deadline_projected, 1);
	pc_buf_release(&label);
}

static int cmp_date(const void *a, const void *b)
{
	const struct pc_report_date *x = a, *y = b;

	if (x->at != y->at)
		return (x->at > y->at) - (x->at < y->at);
	return x->deadline - y->deadline;
}

static void take_dates(struct pc_report_entry *e, const struct pc_cycle *cy,
		       const struct pc_profile *p, int64_t now)
{
	struct pc_cycle_schedule sc;
	char name[48];
	size_t i;

	if (!cy || pc_cycle_schedule_at(&sc, cy, now, NULL) < 0)
		return;
	if (sc.open.v.major) {
		version_name(name, sizeof(name), "", &sc.open.v);
		add_date(e, name, sc.open.at, sc.open.src == PC_CYCLE_PROJECTED,
			 0);
	}
	for (i = 0; i < sc.n_rc; i++) {
		struct pc_cycle_version v = { sc.major, sc.minor, (int)i + 1 };

		version_name(name, sizeof(name), "", &v);
		add_date(e, name, sc.rc[i].at,
			 sc.rc[i].src == PC_CYCLE_PROJECTED, 0);
	}
	version_name(name, sizeof(name), "", &sc.release.v);
	add_date(e, name, sc.release.at, sc.release.src == PC_CYCLE_PROJECTED,
		 0);
	if (p) {
		add_deadline(e, cy, "new features", &p->policy.new_features,
			     now);
		add_deadline(e, cy, "merged", &p->policy.merge_features, now);
	}
	/* In time order, a deadline after the event of the same day. */
	if (e->ndates > 1)
		qsort(e->dates, e->ndates, sizeof(*e->dates), cmp_date);
}

/* The entry's profile: as judging picked it, or picked now (an
 * incremental pass picks only the entries of the series it judged). */
static const struct pc_profile *entry_profile(struct cli_policy *cp,
					      const char *name)
{
	const struct pc_profile *p;
	const char *entry = NULL, *doc = NULL;
	struct pc_err err = { 0 };

	if (!cp->set)
		return NULL;
	if ((p = pc_policyset_profile(cp->set, name)))
		return p;
	if (!pc_policyset_pick(cp->set, &name, NULL, 1, &entry, &doc, &err))
		return NULL;
	return entry ? pc_policyset_profile(cp->set, entry) : NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void cli_report_entries(struct pc_report *r, struct cli_policy *cp, int64_t now)
{
	const char **names = xcalloc(r->nseries + 1, sizeof(*names));
	size_t i, n = 0;

	for (i = 0; i < r->nseries; i++)
		if (r->series[i].entry)
			names[n++] = r->series[i].entry;
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	r->entries = xcalloc(n + 1, sizeof(*r->entries));
	for (i = 0; i < n; i++) {
		struct pc_report_entry *e;
		const struct pc_maint_entry *me;
		const struct pc_profile *p;

		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		e = &r->entries[r->nentries++];
		e->name = xstrdup(names[i]);
		me = cp->maint ? pc_maint_find(cp->maint, names[i]) : NULL;
		if (me) {
			take_people(&e->maintainers, &e->nmaintainers,
				    me->maintainers, me->n_maintainers);
			take_people(&e->reviewers, &e->nreviewers,
				    me->reviewers, me->n_reviewers);
		}
		p = entry_profile(cp, names[i]);
		if (p) {
			e->profile = dup_or_null(p->doc);
			take_fields(e, p);
		}
		take_dates(e, cp->cycle, p, now);
	}
	free(names);
}
