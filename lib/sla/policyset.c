// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Policies per governing entry, loaded on first use and kept: the
 * profile, its business clock, and the shared cycle. See policyset.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sla/policyset.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct loaded {
	char *entry; /* owned; "" for the default policy */
	struct pc_profile *prof; /* owned */
	struct pc_bizclock *clock; /* owned */
	struct pc_sla_ctx ctx;
	struct pc_sla_cycle_cache cache;
};

struct pc_policyset {
	struct pc_policyset_opts o;
	/* owned, each owned: entries never move, since their contexts
	 * point into them (the cycle cache) */
	struct loaded **v;
	size_t n, alloc;
	char id[200];
};

struct pc_policyset *pc_policyset_new(const struct pc_policyset_opts *opts)
{
	struct pc_policyset *ps = xcalloc(1, sizeof(*ps));

	ps->o = *opts;
	snprintf(ps->id, sizeof(ps->id), "maint=%s;config=%s;rules=1",
		 opts->maint ? pc_maint_id(opts->maint) : "none",
		 opts->config_id ? opts->config_id : "");
	return ps;
}

void pc_policyset_free(struct pc_policyset *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->n; i++) {
		free(ps->v[i]->entry);
		pc_profile_free(ps->v[i]->prof);
		pc_bizclock_free(ps->v[i]->clock);
		free(ps->v[i]);
	}
	free(ps->v);
	free(ps);
}

const char *pc_policyset_id(const struct pc_policyset *ps)
{
	return ps->id;
}

static struct loaded *find(struct pc_policyset *ps, const char *entry)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (!strcasecmp(ps->v[i]->entry, entry))
			return ps->v[i];
	return NULL;
}

/* Whether entry has a profile document: a P: line or an override. */
static struct loaded *load(struct pc_policyset *ps, const char *name,
			   const struct pc_maint_entry *e, struct pc_err *err)
{
	struct pc_profile_opts popts = PC_PROFILE_OPTS_INIT;
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_profile *prof = NULL;
	struct pc_bizclock *clock = NULL;
	const struct pc_prof_hours *oh;
	unsigned *lines = NULL;
	struct loaded *l;
	size_t i;

	popts.tree_dir = ps->o.tree_dir;
	if (e && e->n_profile_lines) {
		lines = xcalloc(e->n_profile_lines, sizeof(*lines));
		for (i = 0; i < e->n_profile_lines; i++)
			lines[i] = e->profile_lines[i].line;
	}
	if (pc_profile_for_entry(
		    &prof, e ? e->name : "", e ? e->profiles : NULL, lines,
		    e ? e->n_profiles : 0, ps->o.overrides, &popts, err) < 0) {
		free(lines);
		return NULL;
	}
	free(lines);
	oh = &prof->policy.office_hours;
	if (oh->days)
		h.days = oh->days;
	if (oh->start >= 0 && oh->end > oh->start) {
		h.start = oh->start;
		h.end = oh->end;
	}
	if (oh->zone[0])
		h.zone = oh->zone;
	h.holidays = ps->o.holidays;
	h.n_holidays = ps->o.nholidays;
	if (pc_bizclock_new(&clock, &h, err) < 0) {
		pc_profile_free(prof);
		pc_err_prefix(err, "office hours of '%s'", name);
		return NULL;
	}
	PC_ALLOC_GROW(ps->v, ps->n + 1, ps->alloc);
	l = xcalloc(1, sizeof(*l));
	ps->v[ps->n++] = l;
	l->entry = xstrdup(name);
	l->prof = prof;
	l->clock = clock;
	l->ctx.policy = &prof->policy;
	l->ctx.clock = clock;
	l->ctx.cycle = ps->o.cycle;
	l->ctx.bots = ps->o.bots;
	l->ctx.nbots = ps->o.nbots;
	l->ctx.projects = ps->o.projects;
	l->ctx.nprojects = ps->o.nprojects;
	l->ctx.cache = &l->cache;
	return l;
}

const struct pc_sla_ctx *
pc_policyset_pick(struct pc_policyset *ps, const char *const *entries,
		  const int *files, size_t n, const char **entry_out,
		  const char **profile_out, struct pc_err *err)
{
	const struct pc_maint_entry *chosen = NULL;
	struct loaded *l;
	size_t i;

	/* The caller orders the entries: the first one (THE REST aside)
	 * governs, whether or not it has a profile. Preferring an entry
	 * for having a profile sent mm's numa_memblks to tip (x86) and an
	 * mm series to SPARC. */
	(void)files;
	for (i = 0; ps->o.maint && i < n && !chosen; i++) {
		const struct pc_maint_entry *e =
			pc_maint_find(ps->o.maint, entries[i]);

		if (e && strcasecmp(e->name, "THE REST"))
			chosen = e;
	}
	l = find(ps, chosen ? chosen->name : "");
	if (!l && !(l = load(ps, chosen ? chosen->name : "", chosen, err)))
		return NULL;
	*entry_out = chosen ? l->entry : NULL;
	*profile_out = l->prof->doc;
	return &l->ctx;
}

const struct pc_profile *pc_policyset_profile(struct pc_policyset *ps,
					      const char *entry)
{
	struct loaded *l = find(ps, entry ? entry : "");

	return l ? l->prof : NULL;
}

const struct pc_sla_ctx *pc_policyset_ctx(struct pc_policyset *ps,
					  const char *entry)
{
	struct loaded *l = find(ps, entry ? entry : "");

	return l ? &l->ctx : NULL;
}
