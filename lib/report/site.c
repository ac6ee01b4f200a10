// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's driver: indexes entries and people once, computes each
 * entry's figures, and has every page written. See report.h.
 */
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/site_internal.h"
#include "report/style.h"
#include "util/xalloc.h"
#include "util/banned.h"

static int has_word(const char *words, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = words; p && *p;) {
		size_t len = strcspn(p, " ");

		if (len == n && !strncmp(p, w, n))
			return 1;
		p += len + (p[len] == ' ');
	}
	return 0;
}

int site_overdue(const struct pc_report_series *x)
{
	return x->open && has_word(x->flags, "overdue");
}

int site_ready(const struct pc_report_series *x)
{
	/* v_ready_to_apply's rule with the state judged at the report's
	 * now, which says "superseded" once a next version is out by then;
	 * the view's superseded_by test would also count versions posted
	 * after a past --now */
	return x->open && x->state && !strcmp(x->state, "reviewed") &&
	       !has_word(x->flags, "incomplete");
}

int site_needs_review(const struct pc_report_series *x)
{
	return x->open && has_word(x->flags, "needs-review");
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct site_entry *)a)->name,
		      ((const struct site_entry *)b)->name);
}

const struct site_entry *site_entry_of(const struct site *s, const char *name)
{
	struct site_entry key = { .name = name };

	if (!name)
		return NULL;
	return bsearch(&key, s->entries, s->nentries, sizeof(key), cmp_entry);
}

static int cmp_person(const void *a, const void *b)
{
	return strcasecmp(((const struct site_person *)a)->addr,
			  ((const struct site_person *)b)->addr);
}

const struct site_person *site_person_of(const struct site *s, const char *addr)
{
	struct site_person key = { .addr = addr };

	if (!addr || !*addr)
		return NULL;
	return bsearch(&key, s->people, s->npeople, sizeof(key), cmp_person);
}

static void add_idx(size_t **v, size_t *n, size_t i)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = i;
}

/* Every entry that governs a series or has data, once, sorted. */
static void index_entries(struct site *s)
{
	const struct pc_report *r = s->r;
	size_t i, n = 0;

	s->entries = xcalloc(r->nentries + r->nseries + 1, sizeof(*s->entries));
	for (i = 0; i < r->nentries; i++) {
		s->entries[n].e = &r->entries[i];
		s->entries[n++].name = r->entries[i].name;
	}
	for (i = 0; i < r->nseries; i++)
		if (r->series[i].entry)
			s->entries[n++].name = r->series[i].entry;
	qsort(s->entries, n, sizeof(*s->entries), cmp_entry);
	/* Keep one of each name, the one with data. */
	s->nentries = 0;
	for (i = 0; i < n; i++) {
		struct site_entry *last =
			s->nentries ? &s->entries[s->nentries - 1] : NULL;

		if (last && !strcmp(last->name, s->entries[i].name)) {
			if (!last->e)
				last->e = s->entries[i].e;
			continue;
		}
		s->entries[s->nentries++] = s->entries[i];
	}
	for (i = 0; i < s->nentries; i++) {
		struct pc_buf b = PC_BUF_INIT;

		pc_html_slug(&b, s->entries[i].name);
		s->entries[i].slug = pc_buf_detach(&b, NULL);
	}
	for (i = 0; i < r->nseries; i++) {
		struct site_entry *e = (struct site_entry *)site_entry_of(
			s, r->series[i].entry);

		if (e)
			add_idx(&e->series, &e->nseries, i);
	}
}

static void person_candidates(const struct pc_report *r,
			      struct site_person **out, size_t *n)
{
	size_t i, k, alloc = 0;

	*out = NULL;
	*n = 0;
#define PUSH(nm, ad)                                                 \
	do {                                                         \
		if ((ad) && *(ad)) {                                 \
			if (*n == alloc) {                           \
				alloc = alloc ? alloc * 2 : 64;      \
				*out = xreallocarray(*out, alloc,    \
						     sizeof(**out)); \
			}                                            \
			memset(&(*out)[*n], 0, sizeof(**out));       \
			(*out)[*n].addr = (ad);                      \
			(*out)[(*n)++].name = (nm);                  \
		}                                                    \
	} while (0)
	for (i = 0; i < r->nseries; i++)
		PUSH(r->series[i].author.name, r->series[i].author.addr);
	for (i = 0; i < r->nentries; i++) {
		const struct pc_report_entry *e = &r->entries[i];

		for (k = 0; k < e->nmaintainers; k++)
			PUSH(e->maintainers[k].name, e->maintainers[k].addr);
		for (k = 0; k < e->nreviewers; k++)
			PUSH(e->reviewers[k].name, e->reviewers[k].addr);
	}
#undef PUSH
}

static void queue_of(struct site *s, const struct site_entry *e,
		     const struct pc_report_person *pp, size_t np)
{
	size_t k, j;

	for (k = 0; k < np; k++) {
		struct site_person *p =
			(struct site_person *)site_person_of(s, pp[k].addr);

		for (j = 0; p && j < e->nseries; j++)
			if (s->r->series[e->series[j]].open)
				add_idx(&p->queue, &p->nqueue, e->series[j]);
	}
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static void uniq_idx(size_t *v, size_t *n)
{
	size_t i, k = 0;

	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_size);
	for (i = 0; i < *n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*n = k;
}

/* Everyone who authored a series or maintains or reviews an entry. */
static void index_people(struct site *s)
{
	const struct pc_report *r = s->r;
	struct site_person *c;
	size_t n, i;

	person_candidates(r, &c, &n);
	if (n)
		qsort(c, n, sizeof(*c), cmp_person);
	s->people = xcalloc(n + 1, sizeof(*s->people));
	for (i = 0; i < n; i++) {
		struct site_person *last =
			s->npeople ? &s->people[s->npeople - 1] : NULL;

		if (last && !strcasecmp(last->addr, c[i].addr)) {
			if (!last->name || !*last->name)
				last->name = c[i].name;
			continue;
		}
		s->people[s->npeople++] = c[i];
	}
	free(c);
	for (i = 0; i < s->npeople; i++) {
		struct pc_buf b = PC_BUF_INIT;

		pc_html_slug(&b, s->people[i].addr);
		s->people[i].slug = pc_buf_detach(&b, NULL);
	}
	for (i = 0; i < r->nseries; i++) {
		struct site_person *p = (struct site_person *)site_person_of(
			s, r->series[i].author.addr);

		if (p)
			add_idx(&p->authored, &p->nauthored, i);
	}
	for (i = 0; i < s->nentries; i++)
		if (s->entries[i].e) {
			queue_of(s, &s->entries[i],
				 s->entries[i].e->maintainers,
				 s->entries[i].e->nmaintainers);
			queue_of(s, &s->entries[i], s->entries[i].e->reviewers,
				 s->entries[i].e->nreviewers);
		}
	/* Once each (an M: who is also R:), oldest posting first. */
	for (i = 0; i < s->npeople; i++)
		uniq_idx(s->people[i].queue, &s->people[i].nqueue);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile (nearest rank) of n sorted values. */
static double quantile(const double *v, size_t n, double q)
{
	size_t k = (size_t)(q * (double)n + 0.999999);

	return v[k ? k - 1 : 0];
}

static void entry_figures(const struct site *s, struct site_entry *e)
{
	double *days = xcalloc(e->nseries + 1, sizeof(*days));
	size_t i, ok = 0;

	e->compliance = -1;
	for (i = 0; i < e->nseries; i++) {
		const struct pc_report_series *x = &s->r->series[e->series[i]];
		int answered = x->first_response_at && x->posted_at;

		e->open += x->open != 0;
		e->overdue += site_overdue(x) != 0;
		e->ready += site_ready(x) != 0;
		e->needs_review += site_needs_review(x) != 0;
		if (site_overdue(x) &&
		    (!e->oldest_overdue ||
		     x->posted_at < e->oldest_overdue->posted_at))
			e->oldest_overdue = x;
		if (answered)
			days[e->answered++] =
				(double)(x->first_response_at - x->posted_at) /
				PC_DAY;
		if (answered || (x->due_at && x->due_at <= s->r->now)) {
			e->compliance_n++;
			ok += answered && x->due_at &&
			      x->first_response_at <= x->due_at;
		}
	}
	if (e->answered) {
		qsort(days, e->answered, sizeof(*days), cmp_double);
		e->median_days = quantile(days, e->answered, 0.5);
		e->p90_days = quantile(days, e->answered, 0.9);
	}
	if (e->compliance_n)
		e->compliance = (double)ok / (double)e->compliance_n;
	free(days);
}

int site_emit(struct site *s, const char *path, const struct pc_buf *b)
{
	return s->write(path, b ? b->buf : NULL, b ? b->len : 0, s->arg,
			s->err);
}

static int cmp_key(const void *a, const void *b)
{
	const struct site_key *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static void index_series(struct site *s)
{
	size_t i, n = s->r->nseries;

	s->by_id = xcalloc(n + 1, sizeof(*s->by_id));
	s->by_next = xcalloc(n + 1, sizeof(*s->by_next));
	for (i = 0; i < n; i++) {
		s->by_id[i] = (struct site_key){ s->r->series[i].id, i };
		s->by_next[i] =
			(struct site_key){ s->r->series[i].superseded_by, i };
	}
	if (n) {
		qsort(s->by_id, n, sizeof(*s->by_id), cmp_key);
		qsort(s->by_next, n, sizeof(*s->by_next), cmp_key);
	}
}

/* The first position in the sorted v[0..n) whose key is >= want. */
static size_t lower_bound(const struct site_key *v, size_t n, int64_t want)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].key < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pc_report_series *site_series_of(const struct site *s, int64_t id)
{
	size_t i = lower_bound(s->by_id, s->r->nseries, id);

	return i < s->r->nseries && s->by_id[i].key == id ?
		       &s->r->series[s->by_id[i].idx] :
		       NULL;
}

size_t site_superseded(const struct site *s, int64_t id, size_t *n_out)
{
	size_t i = lower_bound(s->by_next, s->r->nseries, id), k;

	for (k = i; k < s->r->nseries && s->by_next[k].key == id; k++)
		;
	*n_out = k - i;
	return i;
}

static void release(struct site *s)
{
	size_t i;

	for (i = 0; i < s->nentries; i++) {
		free(s->entries[i].slug);
		free(s->entries[i].series);
	}
	for (i = 0; i < s->npeople; i++) {
		free(s->people[i].slug);
		free(s->people[i].authored);
		free(s->people[i].queue);
	}
	free(s->entries);
	free(s->people);
	free(s->by_id);
	free(s->by_next);
}

static int write_all(struct site *s)
{
	struct pc_buf css = PC_BUF_INIT;
	size_t i;
	int rc;

	if ((rc = site_emit(s, "entries", NULL)) < 0 ||
	    (rc = site_emit(s, "people", NULL)) < 0 ||
	    (rc = site_emit(s, "series", NULL)) < 0 ||
	    (rc = site_emit(s, "views", NULL)) < 0)
		return rc;
	pc_buf_addstr(&css, pc_report_css);
	rc = site_emit(s, "style.css", &css);
	pc_buf_release(&css);
	if (rc < 0 || (rc = page_front(s)) < 0 || (rc = page_views(s)) < 0)
		return rc;
	for (i = 0; i < s->nentries; i++)
		if ((rc = page_entry(s, &s->entries[i])) < 0)
			return rc;
	for (i = 0; i < s->npeople; i++)
		if ((rc = page_person(s, &s->people[i])) < 0)
			return rc;
	for (i = 0; i < s->r->nseries; i++)
		if ((rc = page_series(s, &s->r->series[i])) < 0)
			return rc;
	return 0;
}

int pc_report_render(const struct pc_report *r, pc_report_write_fn write,
		     void *arg, struct pc_err *err)
{
	struct site s = { .r = r, .write = write, .arg = arg, .err = err };
	size_t i;
	int rc;

	index_series(&s);
	index_entries(&s);
	index_people(&s);
	for (i = 0; i < s.nentries; i++)
		entry_figures(&s, &s.entries[i]);
	rc = write_all(&s);
	release(&s);
	return rc;
}

static void release_series(struct pc_report_series *x)
{
	size_t i, k;

	free(x->subject);
	free(x->url);
	free(x->msgid);
	free(x->author.name);
	free(x->author.addr);
	free(x->state);
	free(x->flags);
	free(x->turn);
	free(x->hold);
	free(x->hold_reason);
	free(x->entry);
	for (i = 0; i < x->npatches; i++) {
		struct pc_report_patch *p = &x->patches[i];

		free(p->subject);
		free(p->message_id);
		free(p->url);
		free(p->reviewed_by);
		for (k = 0; k < p->ntrailers; k++) {
			free(p->trailers[k].name);
			free(p->trailers[k].value);
			free(p->trailers[k].origin);
			free(p->trailers[k].url);
		}
		free(p->trailers);
	}
	free(x->patches);
	for (i = 0; i < x->nmails; i++) {
		free(x->mails[i].action);
		free(x->mails[i].state);
		free(x->mails[i].subject);
		free(x->mails[i].recipients);
		free(x->mails[i].reason);
	}
	free(x->mails);
	for (i = 0; i < x->nruns; i++) {
		free(x->runs[i].what);
		free(x->runs[i].reason);
		free(x->runs[i].summary);
	}
	free(x->runs);
}

static void release_entry(struct pc_report_entry *e)
{
	size_t i;

	free(e->name);
	free(e->profile);
	free(e->cadence);
	for (i = 0; i < e->nfields; i++) {
		free(e->fields[i].label);
		free(e->fields[i].value);
		free(e->fields[i].source);
		free(e->fields[i].quote);
	}
	free(e->fields);
	for (i = 0; i < e->nmaintainers; i++) {
		free(e->maintainers[i].name);
		free(e->maintainers[i].addr);
	}
	free(e->maintainers);
	for (i = 0; i < e->nreviewers; i++) {
		free(e->reviewers[i].name);
		free(e->reviewers[i].addr);
	}
	free(e->reviewers);
	for (i = 0; i < e->ndates; i++)
		free(e->dates[i].label);
	free(e->dates);
}

void pc_report_release(struct pc_report *r)
{
	size_t i;

	for (i = 0; i < r->nseries; i++)
		release_series(&r->series[i]);
	for (i = 0; i < r->nentries; i++)
		release_entry(&r->entries[i]);
	free(r->series);
	free(r->entries);
	free(r->title);
	free(r->base_url);
	memset(r, 0, sizeof(*r));
}
