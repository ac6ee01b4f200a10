// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series verdict: state, flags, turn, due and review status from the
 * facts of one series at an explicit now. The rules are in state.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sla/state.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char *const state_names[] = {
	[PC_SLA_NEW] = "new",
	[PC_SLA_ACKNOWLEDGED] = "acknowledged",
	[PC_SLA_CHANGES_REQUESTED] = "changes-requested",
	[PC_SLA_REVIEWED] = "reviewed",
	[PC_SLA_ACCEPTED] = "accepted",
	[PC_SLA_APPLIED] = "applied",
	[PC_SLA_TESTED] = "tested",
	[PC_SLA_SUPERSEDED] = "superseded",
};

const char *pc_sla_state_name(enum pc_sla_state s)
{
	return (size_t)s < sizeof(state_names) / sizeof(state_names[0]) ?
		       state_names[s] :
		       "unknown";
}

const char *pc_sla_hold_name(enum pc_sla_hold h)
{
	switch (h) {
	case PC_SLA_HOLD_NOT_KERNEL:
		return "not-kernel";
	case PC_SLA_HOLD_NOT_SUBMISSION:
		return "not-a-submission";
	case PC_SLA_HOLD_APPLIED:
		return "already-applied";
	case PC_SLA_HOLD_SUPERSEDED:
		return "superseded";
	case PC_SLA_HOLD_ANSWERED:
		return "already-answered";
	case PC_SLA_HOLD_PROFILE:
		return "profile-forbids";
	case PC_SLA_HOLD_STEERED:
		return "steered";
	case PC_SLA_HOLD_WITHDRAWN:
		return "withdrawn";
	case PC_SLA_HOLD_OWN:
		return "own";
	case PC_SLA_HOLD_NONE:
		break;
	}
	return NULL;
}

int pc_sla_foreign_topic(const char *topic, const char *const *foreign,
			 size_t n)
{
	static const char *const dflt[] = { PC_SLA_FOREIGN_DEFAULT };
	const char *p = topic;
	size_t i;

	if (!foreign) {
		foreign = dflt;
		n = sizeof(dflt) / sizeof(dflt[0]);
	}
	/* Each space-separated word of the topic, whole. */
	while (p && *p) {
		size_t len;

		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		for (i = 0; len && i < n; i++)
			if (strlen(foreign[i]) == len &&
			    !strncasecmp(p, foreign[i], len))
				return 1;
		p += len;
	}
	return 0;
}

const char *pc_sla_turn_name(enum pc_sla_turn t)
{
	switch (t) {
	case PC_SLA_TURN_MAINTAINERS:
		return "maintainers";
	case PC_SLA_TURN_AUTHOR:
		return "author";
	case PC_SLA_TURN_NONE:
		break;
	}
	return "";
}

void pc_sla_flags_format(char *buf, size_t len, unsigned flags)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ PC_SLA_OVERDUE, "overdue" },
		{ PC_SLA_TOO_SOON, "too-soon" },
		{ PC_SLA_LATE, "late-for-cycle" },
		{ PC_SLA_NEEDS_REVIEW, "needs-review" },
		{ PC_SLA_OFF_LIST, "off-list-review" },
		{ PC_SLA_INCOMPLETE, "incomplete" },
		{ PC_SLA_TEST_FAILED, "boot-test-failed" },
		{ PC_SLA_PARTLY_ACCEPTED, "partly-accepted" },
	};
	size_t i, n = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int w;

		if (!(flags & names[i].bit))
			continue;
		w = snprintf(buf + n, len - n, "%s%s", n ? " " : "",
			     names[i].name);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

int pc_sla_duration(unsigned *amount_out, enum pc_biz_unit *unit_out,
		    const struct pc_prof_duration *d)
{
	switch (d->unit) {
	case PC_PROF_UNIT_HOURS:
		*unit_out = PC_BIZ_HOURS;
		break;
	case PC_PROF_UNIT_DAYS:
		*unit_out = PC_BIZ_DAYS;
		break;
	case PC_PROF_UNIT_BUSINESS_DAYS:
		*unit_out = PC_BIZ_BUSINESS_DAYS;
		break;
	case PC_PROF_UNIT_WEEKS:
		*unit_out = PC_BIZ_WEEKS;
		break;
	case PC_PROF_UNIT_NONE:
	default:
		return 0;
	}
	*amount_out = d->count;
	return 1;
}

/* pc_cycle_evaluate() through the context's memo, when it has one. */
static int cycle_verdict(struct pc_cycle_verdict *out,
			 const struct pc_sla_ctx *ctx,
			 const struct pc_cycle_deadline *dl, int64_t posted,
			 struct pc_err *err)
{
	struct pc_sla_cycle_cache *cache = ctx->cache;
	struct pc_sla_cycle_slot *c = NULL;
	struct pc_cycle_schedule s;
	int rc, k;
	unsigned i;

	if (!cache)
		return pc_cycle_evaluate(out, ctx->cycle, dl, posted, err);
	for (i = 0; i < PC_SLA_CYCLE_SLOTS && !c; i++) {
		struct pc_sla_cycle_slot *t = &cache->slot[i];

		if (t->valid && t->cycle == ctx->cycle && posted >= t->open &&
		    posted < t->close && !memcmp(&t->dl, dl, sizeof(*dl)))
			c = t;
	}
	if (!c) {
		if ((rc = pc_cycle_schedule_at(&s, ctx->cycle, posted, err)) <
		    0)
			return rc;
		if (posted < s.open.at || posted >= s.release.at)
			return pc_cycle_evaluate(out, ctx->cycle, dl, posted,
						 err);
		c = &cache->slot[cache->next++ % PC_SLA_CYCLE_SLOTS];
		memset(c, 0, sizeof(*c));
		c->valid = 1;
		c->cycle = ctx->cycle;
		c->dl = *dl;
		c->open = s.open.at;
		c->close = s.release.at;
	}
	/* Within a cycle, the verdict only differs by in time or late. */
	for (k = 0; k < 2; k++)
		if (c->has[k] && (posted < c->v[k].deadline) == k) {
			*out = c->v[k];
			out->in_time = k;
			return 0;
		}
	if ((rc = pc_cycle_evaluate(out, ctx->cycle, dl, posted, err)) < 0)
		return rc;
	k = out->in_time ? 1 : 0;
	c->v[k] = *out;
	c->has[k] = 1;
	return 0;
}

static void next_check(struct pc_sla_verdict *v, int64_t t, int64_t now)
{
	if (t > now && (!v->next_check || t < v->next_check))
		v->next_check = t;
}

static int in_list(const char *const *list, size_t n, const char *addr)
{
	size_t i;

	if (!addr)
		return 0;
	for (i = 0; i < n; i++)
		if (list[i] && !strcasecmp(list[i], addr))
			return 1;
	return 0;
}

static int is_trusted(const struct pc_policy *pol, const char *addr,
		      const char *person)
{
	size_t i;

	if (!pol)
		return 0;
	for (i = 0; i < pol->n_trusted; i++) {
		const struct pc_prof_person *p = &pol->trusted[i];

		if (p->addr && addr && !strcasecmp(p->addr, addr))
			return 1;
		if (!p->addr && p->name && person &&
		    !strcasecmp(p->name, person))
			return 1;
	}
	return 0;
}

static const char *domain_of(const char *addr)
{
	const char *at = addr ? strrchr(addr, '@') : NULL;

	return at ? at + 1 : NULL;
}

static int is_review_tag(const char *name)
{
	return name && (!strcasecmp(name, "Reviewed-by") ||
			!strcasecmp(name, "Acked-by"));
}

static enum pc_prof_review review_rule(const struct pc_policy *pol)
{
	if (!pol || pol->review == PC_PROF_REVIEW_UNSET)
		return PC_PROF_REVIEW_NON_AUTHOR;
	return pol->review;
}

/* Whether a human other than the author counts as a response. */
static int counts(const struct pc_sla_series *s, const struct pc_policy *pol,
		  const char *addr, const char *person)
{
	switch (review_rule(pol)) {
	case PC_PROF_REVIEW_TRUSTED:
		return in_list(s->maintainers, s->nmaintainers, addr) ||
		       is_trusted(pol, addr, person);
	case PC_PROF_REVIEW_REVIEWERS:
		return in_list(s->maintainers, s->nmaintainers, addr) ||
		       in_list(s->reviewers, s->nreviewers, addr) ||
		       is_trusted(pol, addr, person);
	default:
		return 1;
	}
}

/* Whether a review tag's giver satisfies the rule. */
static int reviewer_ok(const struct pc_sla_series *s,
		       const struct pc_policy *pol, const struct pc_sla_tag *t)
{
	return counts(s, pol, t->addr, t->person);
}

/* Whether addr gave a tag on the list, here or for an earlier version. */
static int seen_on_list(const struct pc_sla_series *s, const char *addr)
{
	size_t i, j;

	if (in_list(s->earlier_taggers, s->nearlier_taggers, addr))
		return 1;
	for (i = 0; i < s->npatches; i++)
		for (j = 0; j < s->patches[i].ntags; j++) {
			const struct pc_sla_tag *t = &s->patches[i].tags[j];

			if (t->from_reply && !t->mismatch && t->addr &&
			    !strcasecmp(t->addr, addr))
				return 1;
		}
	return 0;
}

/* Whether addr gave an attested tag by mail, here or for an earlier
 * version. */
static int attested_by(const struct pc_sla_series *s, const char *addr)
{
	size_t i, j;

	if (in_list(s->attested_taggers, s->nattested_taggers, addr))
		return 1;
	for (i = 0; i < s->npatches; i++)
		for (j = 0; j < s->patches[i].ntags; j++) {
			const struct pc_sla_tag *t = &s->patches[i].tags[j];

			if (t->attested && !t->mismatch && t->addr &&
			    !strcasecmp(t->addr, addr))
				return 1;
		}
	return 0;
}

static void review_patches(struct pc_sla_verdict *v,
			   const struct pc_sla_series *s,
			   const struct pc_policy *pol, int64_t now)
{
	enum pc_prof_review rule = review_rule(pol);
	int distrust = pol && pol->off_list == PC_PROF_OFFLIST_DISTRUSTED;
	int attest = pol && pol->attestation == PC_PROF_ATTEST_DKIM;
	size_t i, j;

	for (i = 0; i < s->npatches; i++) {
		const struct pc_sla_patch *p = &s->patches[i];
		struct pc_sla_patch_verdict *pv = &v->patches[i];
		const char *author = p->author_addr ? p->author_addr :
						      s->author_addr;
		const char *adom = domain_of(author);

		for (j = 0; j < p->ntags; j++) {
			const struct pc_sla_tag *t = &p->tags[j];
			const char *dom;
			int off;

			if (t->date > now && is_review_tag(t->name))
				next_check(v, t->date, now);
			if (t->date > now || !is_review_tag(t->name) ||
			    t->suggested || t->mismatch || !t->addr ||
			    (author && !strcasecmp(t->addr, author)))
				continue;
			off = !t->from_reply && !seen_on_list(s, t->addr);
			dom = domain_of(t->addr);
			if (off)
				pv->off_list = 1;
			if (dom && adom && !strcasecmp(dom, adom))
				pv->own_domain = 1;
			if (off && distrust)
				continue;
			if (attest && !t->attested &&
			    (t->from_reply || !attested_by(s, t->addr)))
				continue;
			if (!reviewer_ok(s, pol, t))
				continue;
			if (!pv->reviewed) {
				pv->reviewed = 1;
				pv->reviewed_by = t->person ? t->person :
							      t->addr;
				pv->reviewed_by_addr = t->addr;
			}
		}
		if (rule == PC_PROF_REVIEW_NONE)
			pv->reviewed = 1;
		if (pv->reviewed)
			v->reviewed++;
		if (distrust && (pv->off_list || pv->own_domain))
			v->flags |= PC_SLA_OFF_LIST;
	}
	if (rule != PC_PROF_REVIEW_NONE && v->reviewed < s->npatches)
		v->flags |= PC_SLA_NEEDS_REVIEW;
}

static int64_t duration_seconds(const struct pc_prof_duration *d)
{
	switch (d->unit) {
	case PC_PROF_UNIT_HOURS:
		return (int64_t)d->count * 3600;
	case PC_PROF_UNIT_DAYS:
	case PC_PROF_UNIT_BUSINESS_DAYS:
		return (int64_t)d->count * 86400;
	case PC_PROF_UNIT_WEEKS:
		return (int64_t)d->count * 7 * 86400;
	case PC_PROF_UNIT_NONE:
		break;
	}
	return 0;
}

int pc_sla_cycle_deadline(struct pc_cycle_deadline *out,
			  const struct pc_prof_deadline *d)
{
	memset(out, 0, sizeof(*out));
	switch (d->kind) {
	case PC_PROF_DL_RC:
		out->kind = d->inclusive ? PC_CYCLE_DL_BY_RC :
					   PC_CYCLE_DL_BEFORE_RC;
		out->rc = d->rc;
		return 1;
	case PC_PROF_DL_LAST_RC:
		out->kind = PC_CYCLE_DL_LAST_RC;
		return 1;
	case PC_PROF_DL_MERGE_WINDOW:
		out->kind = PC_CYCLE_DL_MERGE_WINDOW;
		out->lead = duration_seconds(&d->lead);
		return 1;
	case PC_PROF_DL_NONE:
		break;
	}
	return 0;
}

/* Whether a configured project other than the kernel claims s. */
static int other_project(const struct pc_sla_series *s,
			 const struct pc_sla_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nprojects; i++) {
		const struct pc_sla_project *p = &ctx->projects[i];

		if (p->list_id &&
		    (!s->list_id || strcasecmp(p->list_id, s->list_id)))
			continue;
		if (pc_sla_foreign_topic(s->topic, p->words, p->nwords))
			return 1;
	}
	return 0;
}

/* Whether "Last, First" (a corporate directory's order, one comma)
 * names the person "First Last". */
static int same_name_reversed(const char *comma, const char *plain)
{
	const char *c = strchr(comma, ','), *first;
	size_t nlast, nfirst, n = strlen(plain);

	if (!c || strchr(c + 1, ','))
		return 0;
	nlast = (size_t)(c - comma);
	first = c + 1;
	while (*first == ' ')
		first++;
	nfirst = strlen(first);
	return nlast && nfirst && n == nfirst + 1 + nlast &&
	       !strncasecmp(plain, first, nfirst) && plain[nfirst] == ' ' &&
	       !strncasecmp(plain + nfirst + 1, comma, nlast);
}

int pc_sla_same_person(const char *addr, const char *name,
		       const char *other_addr, const char *other_name)
{
	if (addr && other_addr && !strcasecmp(addr, other_addr))
		return 1;
	if (!name || !other_name || !strchr(name, ' '))
		return 0;
	return !strcasecmp(name, other_name) ||
	       same_name_reversed(other_name, name);
}

static int is_author(const struct pc_sla_series *s,
		     const struct pc_sla_reply *r)
{
	return pc_sla_same_person(s->author_addr, s->author_name, r->from_addr,
				  r->from_name);
}

/* The reply before i that reply i answers (In-Reply-To), or NULL. */
static const struct pc_sla_reply *replied_to(const struct pc_sla_series *s,
					     size_t i)
{
	const char *irt = s->replies[i].in_reply_to;
	size_t k;

	for (k = i; irt && k-- > 0;)
		if (s->replies[k].msgid && !strcmp(s->replies[k].msgid, irt))
			return &s->replies[k];
	return NULL;
}

/*
 * The patch (its n, 1..64) reply i sits under: the one it answers, or
 * the one the reply it answers sits under ("Re: [PATCH 11/30]", the
 * author's answer to a review of patch 11); 0 for the cover letter or
 * none. under[] holds the earlier replies' answers.
 */
static int under_patch(const struct pc_sla_series *s, size_t i,
		       const int *under)
{
	const struct pc_sla_reply *p;

	if (s->replies[i].answers)
		return s->replies[i].answers <= 64 ? s->replies[i].answers : 0;
	p = replied_to(s, i);
	return p ? under[p - s->replies] : 0;
}

/* The bit of patch n (1..64) in a set of patches; 0 for none (n 0). */
static uint64_t patch_bit(int n)
{
	return n >= 1 && n <= 64 ? (uint64_t)1 << (n - 1) : 0;
}

/*
 * Whether the author's reply i answers a question: the message it replies
 * to asked one (when that is a reply of the thread by someone else), else
 * whether the last word before it did (asked).
 */
static int answers_question(const struct pc_sla_series *s, size_t i, int asked)
{
	const struct pc_sla_reply *p = replied_to(s, i);

	return p ? p->question && !is_author(s, p) : asked;
}

/* Whether reply i answers a question the author asked in the reply it
 * answers ("Would a separate patch be better?" - "No, keep it."). An
 * approval in answer to the author's ping ("any concerns?" - "No
 * concerns on this one.") answers nothing the author has to act on. */
static int answers_author(const struct pc_sla_series *s, size_t i)
{
	const struct pc_sla_reply *p = replied_to(s, i), *r = &s->replies[i];

	/* "I would expect either the NVDIMM or PPC maintainers to take
	 * this. Dan, Michael ?" (Peter Zijlstra, asked by the author who
	 * would take it): passed on to the maintainers, not answered. */
	return p && p->question && is_author(s, p) && !r->ping &&
	       !r->needs_ack && !(p->ping && r->approve && !r->comment);
}

/*
 * Whether reply i is a word in a side conversation: an answer, by
 * someone else, to a third person's remark that asked the author
 * nothing and gave no tag ("I might be sending a patch to change the
 * name of the driver after this gets merged." - Guenter Roeck: "No,
 * please don't do that.", linux-hwmon 2022-12-15). It is put to that
 * person: it asks the author nothing, and it is not the appliers' move
 * on the patch. asked_author[] holds, for the earlier replies, whether
 * each asked the author something or came from a bot.
 */
static int aside(const struct pc_sla_series *s, size_t i,
		 const int *asked_author)
{
	const struct pc_sla_reply *p = replied_to(s, i), *r = &s->replies[i];

	return p && !asked_author[p - s->replies] && !is_author(s, p) &&
	       !p->tagged && !p->approve && !p->ping && !p->applied &&
	       !r->changes && !r->applied &&
	       !pc_sla_same_person(p->from_addr, p->from_name, r->from_addr,
				   r->from_name);
}

/* Whether every patch of the series is among the dropped ones. */
static int all_dropped(const struct pc_sla_series *s, uint64_t dropped)
{
	size_t i;

	for (i = 0; i < s->npatches; i++)
		if (!(dropped & patch_bit(s->patches[i].idx)))
			return 0;
	return 1;
}

/* Whether applied reply r accepts the patch at position i (state.h,
 * "Acceptance"). */
static int accepts(const struct pc_sla_series *s, const struct pc_sla_reply *r,
		   size_t i)
{
	int idx = s->patches[i].idx;

	if (!r->whole) {
		if (r->first && (idx < r->first || idx > r->last))
			return 0;
		if (!r->first && r->answers && idx != r->answers)
			return 0;
	}
	return !r->covers || r->covers[i];
}

/* *at becomes t when t is earlier or *at is unset. */
static void earliest(int64_t *at, int64_t t)
{
	if (!*at || t < *at)
		*at = t;
}

static void accept_patches(struct pc_sla_verdict *out,
			   const struct pc_sla_series *s,
			   const struct pc_sla_reply *r)
{
	size_t i;

	for (i = 0; i < s->npatches; i++)
		if (!out->patches[i].accepted_at && accepts(s, r, i))
			out->patches[i].accepted_at = r->date;
}

static void accept_all(struct pc_sla_verdict *out, int64_t at)
{
	size_t i;

	for (i = 0; i < out->npatches; i++)
		earliest(&out->patches[i].accepted_at, at);
}

/* When the last patch was accepted, or 0 when some are not; *partly
 * when some are and others are not. A series whose patches are unknown
 * (none reached the store) is never accepted this way. */
static int64_t all_accepted(const struct pc_sla_verdict *out, int *partly)
{
	int64_t last = 0;
	size_t i, n = 0;

	for (i = 0; i < out->npatches; i++)
		if (out->patches[i].accepted_at) {
			n++;
			if (out->patches[i].accepted_at > last)
				last = out->patches[i].accepted_at;
		}
	*partly = n && n < out->npatches;
	return n && n == out->npatches ? last : 0;
}

/* The first hold of the judgement that applies (state.h, "Holds"). */
/* Whether the cycle at now has not yet reached release ("v6.14-rc1"):
 * the last release or -rc out is before it. Without a cycle, or a name
 * it cannot read, held. */
static int before_release(const struct pc_sla_ctx *ctx, const char *release,
			  int64_t now, int64_t *phase_end)
{
	struct pc_cycle_version want;
	struct pc_cycle_state cs;
	const struct pc_cycle_version *at;

	if (!ctx->cycle || pc_cycle_parse_name(&want, release, NULL) != 1 ||
	    pc_cycle_state_at(&cs, ctx->cycle, now, NULL) < 0)
		return 1;
	at = &cs.since.v;
	*phase_end = cs.until.at;
	if (!at->major)
		return 1;
	if (at->major != want.major)
		return at->major < want.major;
	if (at->minor != want.minor)
		return at->minor < want.minor;
	/* the release itself (rc 0) comes after its every -rc */
	if (!at->rc || !want.rc)
		return at->rc && !want.rc;
	return at->rc < want.rc;
}

/* Whether a maintainer's command by mail holds the series at now; a
 * deferral to a release is judged again when the cycle's phase ends. */
static int steered(struct pc_sla_verdict *v, const struct pc_sla_series *s,
		   const struct pc_sla_ctx *ctx, int64_t now)
{
	int64_t phase_end = 0;

	if (s->steer_rejected || s->steer_until > now)
		return 1;
	if (s->steer_release &&
	    before_release(ctx, s->steer_release, now, &phase_end)) {
		next_check(v, phase_end, now);
		return 1;
	}
	return 0;
}

/* Whether a subject tag names a stable tree's queue: "[PATCH 6.1
 * 012/200]", "[PATCH 5.15.y]", "[PATCH stable 6.1]". */
static int stable_queue(const char *topic)
{
	const char *p = topic;

	while (p && *p) {
		size_t len, i, dots = 0;

		while (*p == ' ')
			p++;
		len = strcspn(p, " ");
		if (len == 6 && !strncasecmp(p, "stable", 6))
			return 1;
		for (i = 0; i < len; i++) {
			if (p[i] == '.')
				dots++;
			else if (!pc_isdigit((unsigned char)p[i]) &&
				 !(i + 1 == len && p[i] == 'y'))
				break;
		}
		if (len && i == len && dots >= 1 &&
		    pc_isdigit((unsigned char)*p))
			return 1;
		p += len;
	}
	return 0;
}

/* Whether a later patch's Fixes: tag is what accepted every patch
 * (nothing said so before it). */
static int committed_first(const struct pc_sla_verdict *v,
			   const struct pc_sla_series *s, int64_t now)
{
	size_t i;

	if (!s->committed_at || s->committed_at > now)
		return 0;
	for (i = 0; i < v->npatches; i++)
		if (v->patches[i].accepted_at < s->committed_at)
			return 0;
	return 1;
}

static void hold(struct pc_sla_verdict *v, const struct pc_sla_series *s,
		 const struct pc_sla_ctx *ctx, const struct pc_policy *pol,
		 int64_t now, int withdrawn)
{
	static const char *const rft[] = { "RFT" };
	enum pc_sla_hold h = PC_SLA_HOLD_NONE;
	const char *why = NULL;

	if (s->not_in_tree) {
		h = PC_SLA_HOLD_NOT_KERNEL;
		why = "its files are not in the kernel tree";
	} else if (pc_sla_foreign_topic(s->topic, NULL, 0) ||
		   other_project(s, ctx)) {
		h = PC_SLA_HOLD_NOT_KERNEL;
		why = "its subject tag names another project";
	} else if (s->ignored) {
		h = PC_SLA_HOLD_NOT_SUBMISSION;
		why = "X-Patchwork-Hint: ignore, or an AUTOSEL selection";
	} else if (stable_queue(s->topic)) {
		h = PC_SLA_HOLD_NOT_SUBMISSION;
		why = "a stable tree's queue, not a submission";
	} else if (s->bug_report) {
		h = PC_SLA_HOLD_NOT_SUBMISSION;
		why = "a diff in a bug report: no [PATCH] tag, no Signed-off-by";
	} else if (s->is_rfc) {
		h = PC_SLA_HOLD_NOT_SUBMISSION;
		why = "an RFC";
	} else if (pc_sla_foreign_topic(s->topic, rft, 1)) {
		h = PC_SLA_HOLD_NOT_SUBMISSION;
		why = "a request for testing (RFT)";
	} else if ((v->flags & PC_SLA_INCOMPLETE) &&
		   !(s->split_by_tree && s->npatches >= 2) &&
		   (!s->has_cover || 3 * s->received < s->total)) {
		/* A patch or a few cross-posted from a series sent
		 * elsewhere (5 of a VFS series' 30). With its cover letter
		 * and a third of it at least, the part of a series that is
		 * this list's is a submission to it (a PWM driver's 2 of
		 * 5 patches here, its DT and defconfig ones elsewhere); so
		 * is a part of two patches or more of one whose cover
		 * letter asks each subsystem to apply its own (the TPM
		 * patches, 5 of 606, of a tree-wide i2c conversion), but
		 * not a lone patch of it (its PWM patch, 537 of 606). */
		h = PC_SLA_HOLD_NOT_SUBMISSION;
		why = "only part of a larger series reached the list";
	} else if (s->inside_other) {
		h = PC_SLA_HOLD_NOT_SUBMISSION;
		why = "sent inside another of the author's series' threads";
	} else if (v->state == PC_SLA_SUPERSEDED) {
		h = PC_SLA_HOLD_SUPERSEDED;
		why = "a newer version was posted";
	} else if (v->state >= PC_SLA_ACCEPTED) {
		h = PC_SLA_HOLD_APPLIED;
		why = committed_first(v, s, now) ?
			      "a later patch's Fixes: tag names it: it was "
			      "committed" :
			      "applied or queued";
	} else if ((v->flags & PC_SLA_PARTLY_ACCEPTED) && !s->rest_of_other) {
		h = PC_SLA_HOLD_APPLIED;
		why = "some of its patches were applied or queued";
	} else if (v->named_applied) {
		/* Not acceptance: anyone can write a name. But a bot that
		 * reminds after a maintainer said "Applied" from his other
		 * address is wrong, and silence is the safe side. */
		h = PC_SLA_HOLD_APPLIED;
		why = "a maintainer's name, from an address MAINTAINERS does "
		      "not list, said it was applied (no mail; not taken as "
		      "acceptance)";
	} else if (steered(v, s, ctx, now)) {
		h = PC_SLA_HOLD_STEERED;
		why = s->steer_why ? s->steer_why : "a maintainer said so";
	} else if (s->draft_isa && pol &&
		   pol->extensions == PC_PROF_EXT_RATIFIED) {
		h = PC_SLA_HOLD_PROFILE;
		why = "the profile takes frozen or ratified ISA extensions "
		      "only, and the series says its specification is a draft";
	} else if (s->author_governs) {
		h = PC_SLA_HOLD_OWN;
		why = "the author maintains the tree that takes it";
	} else if (withdrawn) {
		h = PC_SLA_HOLD_WITHDRAWN;
		why = "the author withdrew it on the list";
	} else if (!v->wait_from) {
		h = PC_SLA_HOLD_ANSWERED;
		why = "answered on the list: the next step is the author's";
	} else if (pol && pol->reminder == PC_PROF_REMIND_NONE) {
		h = PC_SLA_HOLD_PROFILE;
		why = "the profile asks not to be pinged";
	}
	v->hold = h;
	v->hold_why = why;
	/* Another project's series (ndctl, a file not in the tree) is in
	 * no kernel queue: it waits on nobody here, so it is never overdue
	 * and it is nobody's turn (issue 37). */
	if (h == PC_SLA_HOLD_NOT_KERNEL) {
		v->flags &= ~(unsigned)PC_SLA_OVERDUE;
		v->overdue_days = 0;
		v->turn = PC_SLA_TURN_NONE;
		v->wait_from = 0;
		v->wait_msgid = NULL;
	}
}

/*
 * Whether an applied reply may say anything of this series: always,
 * except on the cover letter of a series split by tree (split.h), where
 * a note from anyone but this series' appliers ("Applied patch 123 to
 * chrome-platform", a power-supply maintainer's "Thanks, queued") is
 * about the part another list's tree took.
 */
static int applies_here(const struct pc_sla_series *s,
			const struct pc_sla_reply *r)
{
	return r->applied && (!s->split_by_tree || r->answers || r->applier);
}

/* Whether patch n (1..64) is in the set. */
static int patch_in(uint64_t set, int n)
{
	return (set & patch_bit(n)) != 0;
}

int pc_sla_evaluate(struct pc_sla_verdict *out, const struct pc_sla_series *s,
		    const struct pc_sla_ctx *ctx, int64_t now,
		    struct pc_err *err)
{
	static const struct pc_prof_duration week = { 1, PC_PROF_UNIT_WEEKS };
	const struct pc_policy *pol = ctx->policy;
	const struct pc_prof_duration *ping =
		pol && pol->ping_after.unit ? &pol->ping_after : &week;
	int64_t accepted = 0, any = 0, last_human = s->posted;
	int partly = 0, withdrawn = 0;
	int changes = 0, waiting = 1, asked = 0, rc;
	/* someone other than the author asked for changes or a new version */
	int revise = 0;
	/* the patches (1..64) the author has already remarked on */
	uint64_t remarked = 0;
	/* the patches (1..64) with feedback below them that the author has
	 * not answered there yet: while one has, an answer elsewhere does
	 * not give the ball back (a changelog asked for on patch 7, the
	 * author answering a question on patch 11) */
	uint64_t owed = 0;
	/* the patches (1..64) the author withdrew, each below it */
	uint64_t dropped = 0;
	int *under = xcalloc(s->nreplies ? s->nreplies : 1, sizeof(*under));
	/* the replies that asked the author something, or a bot's: an
	 * answer to one is no side conversation */
	int *asked_author =
		xcalloc(s->nreplies ? s->nreplies : 1, sizeof(*asked_author));
	/* who gave the last feedback, and since it: the author's first
	 * answer, whether the author promised a new version */
	const char *fed_by = NULL, *answered_msgid = NULL;
	int64_t answered = 0;
	int promised = 0;
	/* the questions of routing an applier asked the other maintainers
	 * and nobody has answered yet: the applier's wait counts from each
	 * answer */
	int routed = 0;
	enum pc_biz_unit unit;
	unsigned amount;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->npatches = s->npatches;
	out->patches =
		xcalloc(s->npatches ? s->npatches : 1, sizeof(*out->patches));
	out->wait_from = s->posted;
	/* A RESEND is the author's ping of the same version, which has
	 * waited since it was first posted. */
	if (s->resend) {
		out->pinged_at = s->posted;
		if (s->prev_posted && s->prev_posted < s->posted)
			out->wait_from = s->prev_posted;
	}
	/* the message each began at: the posting unless a reply below */
	out->wait_msgid = NULL;

	for (i = 0; i < s->nreplies; i++) {
		const struct pc_sla_reply *r = &s->replies[i];
		int by_author, bot, feedback, side;

		under[i] = under_patch(s, i, under);
		if (r->date > now) {
			/* Mail from after now (a replay): the verdict
			 * changes when it arrives. */
			next_check(out, r->date, now);
			continue;
		}
		bot = r->bot || in_list(ctx->bots, ctx->nbots, r->from_addr);
		/* A bot's word that it was applied (patchwork-bot: "This
		 * series was applied to netdev/net-next.git") is a fact; a
		 * build failure it reports (the kernel test robot: "error:
		 * ... If you fix the issue, kindly add") is the author's to
		 * fix, unless it is about a patch the author had already
		 * spoken of ("This patch is wrong. The rest in the series is
		 * okay."); anything else a bot says is no response. */
		if (bot) {
			asked_author[i] = 1;
			if (applies_here(s, r)) {
				accept_patches(out, s, r);
				earliest(&any, r->date);
			} else if ((r->comment || r->changes) &&
				   !patch_in(remarked, r->answers)) {
				waiting = 0;
			}
			continue;
		}
		by_author = is_author(s, r);
		if (by_author && (r->comment || r->withdraw) &&
		    r->answers >= 1 && r->answers <= 64)
			remarked |= (uint64_t)1 << (r->answers - 1);
		if (r->date >= last_human)
			last_human = r->date;
		/* The author's own words: a withdrawal; a promise of a new
		 * version ("Got it!", "will fix in v3"); a ping, which is
		 * the reminder a bot would send; an answer to a question,
		 * which gives the ball back, unless a new version is the
		 * next step or the author maintains the governing entry
		 * (their own tree); a question of their own ("What do you
		 * think?", "Would a separate patch be better?"), which
		 * waits on the reviewer's answer even when the author had
		 * promised a new version, unless a reviewer asked for one
		 * (then it is how to write it). */
		if (by_author && r->repost) {
			/* A new version of the patch the review was about,
			 * in its thread: the rest waits on the maintainers
			 * from it, unless feedback elsewhere is still owed
			 * or changes were asked for the whole. */
			owed &= ~patch_bit(under[i]);
			if (!waiting && !owed && !changes && !withdrawn &&
			    !s->author_governs) {
				waiting = 1;
				out->wait_from = r->date;
				out->wait_msgid = r->msgid;
			}
			continue;
		}
		if (by_author) {
			/* An answer below a patch settles that patch's
			 * feedback; one to the cover letter, all of it. */
			owed = under[i] ? owed & ~patch_bit(under[i]) : 0;
			if (fed_by && !answered) {
				answered = r->date;
				answered_msgid = r->msgid;
			}
			/* A withdrawal below one patch of several ("This
			 * patch is wrong ... The rest in the series is
			 * okay.") takes that one back: the rest waits on,
			 * until none is left. */
			if (r->withdraw && under[i] && s->npatches > 1) {
				dropped |= patch_bit(under[i]);
				if (all_dropped(s, dropped))
					withdrawn = promised = 1;
			} else if (r->withdraw) {
				withdrawn = 1;
			}
			if (r->respin)
				promised = 1;
			if (r->ping) {
				out->pinged_at = r->date;
				out->ping_msgid = r->msgid;
			}
			if (!waiting && !r->withdraw && !s->author_governs &&
			    !owed &&
			    ((r->question && !revise) ||
			     (!changes && !r->respin &&
			      (r->ping || answers_question(s, i, asked))))) {
				waiting = 1;
				out->wait_from = r->date;
				out->wait_msgid = r->msgid;
			} else if (waiting && r->respin &&
				   !(r->question && !revise)) {
				/* "Will fix in v4": the next step is theirs. */
				waiting = 0;
			}
			if (r->respin)
				changes = 1;
			continue;
		}
		/* Anyone else: a question, a request for changes or a review
		 * comment is feedback: the next step is the author's. What
		 * asks for nothing (a tag, "looks good", a remark, "I'd let
		 * Thierry decide") from someone who does not apply it leaves
		 * the ball with whoever applies it; an answer to the
		 * author's question gives it back. A reviewer's own tag with
		 * prose that explains and asks nothing ("the register exists
		 * there, so true is right. Reviewed-by: ...") is a verdict,
		 * not feedback; a remark on a hunk or a "please" with it is
		 * feedback. */
		side = aside(s, i, asked_author);
		feedback = !side &&
			   (r->changes || r->question ||
			    (r->comment && (r->request || !r->tagged)) ||
			    answers_author(s, i));
		/* An applier's word is their move ("I'll queue it for 6.2",
		 * a review), but their own tag is not the apply: from it,
		 * the series waits on them again; so it does from their
		 * question of routing to the other maintainers ("Darrick,
		 * any concerns with me taking this through the dax tree?"),
		 * which asks nothing of the author. */
		if (r->applier && !side && !feedback && !r->approve &&
		    !r->tagged && !r->ping)
			feedback = 1;
		asked_author[i] = feedback;
		if (!out->first_response &&
		    counts(s, pol, r->from_addr, r->from_name))
			out->first_response = r->date;
		if (r->changes)
			changes = 1;
		if (r->changes || r->respin)
			revise = 1;
		if (applies_here(s, r) &&
		    (r->maintainer ||
		     in_list(s->maintainers, s->nmaintainers, r->from_addr))) {
			accept_patches(out, s, r);
			earliest(&any, r->date);
		} else if (applies_here(s, r) && r->named_maintainer) {
			out->named_applied = r->date;
		}
		if (feedback) {
			owed |= patch_bit(under[i]);
			routed = 0;
			waiting = 0;
			asked = r->question;
			fed_by = r->from_addr;
			answered = 0;
			promised = 0;
		} else if ((r->applier || routed ||
			    (r->needs_ack && r->maintainer)) &&
			   waiting && !side) {
			/* The appliers' own word, an answer to their
			 * question of routing, or a maintainer of another
			 * entry who would take it given their ack ("I can
			 * take it but would need Acks from nvdimm folks"):
			 * the series waits on its maintainers from it. (The
			 * appliers' own "once Rob acks it I'll queue it" is
			 * their word, as before: it waits on Rob, not on
			 * them.) */
			out->wait_from = r->date;
			out->wait_msgid = r->msgid;
			if (r->applier && r->ping)
				routed++;
			else if (!r->applier && routed > 0)
				routed--;
		} else if (!waiting && r->approve && fed_by && answered &&
			   !promised && !owed &&
			   !strcmp(fed_by, r->from_addr)) {
			/* The reviewer whose remark it was agrees with the
			 * author's answer ("OK for me, I just pointed it
			 * out"): the ball is back with whoever applies it,
			 * since that answer. */
			waiting = 1;
			out->wait_from = answered;
			out->wait_msgid = answered_msgid;
			fed_by = NULL;
		}
	}
	free(under);
	free(asked_author);
	out->last_human = last_human;
	if (s->accepted_at > now)
		next_check(out, s->accepted_at, now);
	if (s->applied_at > now)
		next_check(out, s->applied_at, now);
	if (s->accepted_at && s->accepted_at <= now) {
		accept_all(out, s->accepted_at);
		earliest(&any, s->accepted_at);
	}
	if (s->pulled_at > now)
		next_check(out, s->pulled_at, now);
	if (s->pulled_at && s->pulled_at <= now) {
		accept_all(out, s->pulled_at);
		earliest(&any, s->pulled_at);
	}
	if (s->committed_at > now)
		next_check(out, s->committed_at, now);
	if (s->committed_at && s->committed_at <= now) {
		accept_all(out, s->committed_at);
		earliest(&any, s->committed_at);
	}
	for (i = 0; i < s->npatches; i++) {
		int64_t at = s->patches[i].in_tree_at;

		if (at && at < s->posted)
			at = s->posted;
		if (at > now) {
			next_check(out, at, now);
		} else if (at) {
			earliest(&out->patches[i].accepted_at, at);
			earliest(&any, at);
		}
	}
	/* Without its patches (none reached the store), any acceptance is
	 * the series'. */
	accepted = s->npatches ? all_accepted(out, &partly) : any;
	if (partly)
		out->flags |= PC_SLA_PARTLY_ACCEPTED;

	review_patches(out, s, pol, now);

	if (s->total > 0 && s->received < s->total)
		out->flags |= PC_SLA_INCOMPLETE;
	if (s->boot < 0)
		out->flags |= PC_SLA_TEST_FAILED;

	if (s->superseded_at && s->superseded_at <= now)
		out->state = PC_SLA_SUPERSEDED;
	else if (s->boot > 0)
		out->state = PC_SLA_TESTED;
	else if (s->applied_at && s->applied_at <= now)
		out->state = PC_SLA_APPLIED;
	else if (accepted)
		out->state = PC_SLA_ACCEPTED;
	else if (review_rule(pol) != PC_PROF_REVIEW_NONE && s->npatches &&
		 out->reviewed == s->npatches)
		out->state = PC_SLA_REVIEWED;
	else if (changes)
		out->state = PC_SLA_CHANGES_REQUESTED;
	else if (out->first_response)
		out->state = PC_SLA_ACKNOWLEDGED;
	else
		out->state = PC_SLA_NEW;
	if (s->superseded_at && s->superseded_at > now)
		next_check(out, s->superseded_at, now);

	/* Whose turn: the same rule as the wait, so that every listing
	 * and every mail names the same people. */
	if (out->state >= PC_SLA_ACCEPTED ||
	    (s->superseded_at && s->superseded_at <= now))
		out->turn = PC_SLA_TURN_NONE;
	else
		out->turn = waiting && !withdrawn ? PC_SLA_TURN_MAINTAINERS :
						    PC_SLA_TURN_AUTHOR;
	if (!waiting || out->state >= PC_SLA_ACCEPTED) {
		out->wait_from = 0;
		out->wait_msgid = NULL;
	}

	/* The clock: due, and overdue while the series waits on its
	 * maintainers (since its posting, or the author's answer). */
	if (pc_sla_duration(&amount, &unit, ping)) {
		int64_t from = out->wait_from ? out->wait_from : s->posted;

		if ((rc = pc_bizclock_due(&out->due, ctx->clock, from, amount,
					  unit, err)) < 0)
			goto fail;
		out->act_at = pc_bizclock_next_open(ctx->clock, out->due);
		if (out->wait_from) {
			if (now >= out->due) {
				out->flags |= PC_SLA_OVERDUE;
				out->overdue_days = pc_bizclock_business_days(
					ctx->clock, out->due, now);
				/* "Overdue by" grows: judge again within the
				 * hour, or at the next opening. */
				next_check(out,
					   pc_bizclock_next_open(ctx->clock,
								 now + 3600),
					   now);
			}
			next_check(out, out->due, now);
			next_check(out, out->act_at, now);
		}
	}

	hold(out, s, ctx, pol, now, withdrawn);
	if (s->steer_until > now)
		next_check(out, s->steer_until, now);

	/* Too soon after the previous version. */
	if (s->prev_posted && pol &&
	    pc_sla_duration(&amount, &unit, &pol->repost_min)) {
		if ((rc = pc_bizclock_due(&out->repost_allowed, ctx->clock,
					  s->prev_posted, amount, unit, err)) <
		    0)
			goto fail;
		if (s->posted < out->repost_allowed)
			out->flags |= PC_SLA_TOO_SOON;
	}

	/* Late for the cycle: a feature after the last -rc for features. */
	if (ctx->cycle && pol && !s->is_fix && !s->is_rfc) {
		struct pc_cycle_deadline dl;

		if (pc_sla_cycle_deadline(&dl, &pol->new_features)) {
			rc = cycle_verdict(&out->cycle, ctx, &dl, s->posted,
					   err);
			/* A posting dated decades past the last known
			 * release (a forged or broken Date:), or before the
			 * first one the calendar knows, has no place in the
			 * cycle: no cycle verdict on it, rather than no
			 * judging at all (the cadence clock does not need
			 * the cycle). */
			if (rc == PC_ELIMIT || rc == PC_ENOTFOUND) {
				out->cycle_unknown = rc == PC_ENOTFOUND;
				if (err)
					memset(err, 0, sizeof(*err));
			} else if (rc < 0) {
				goto fail;
			} else {
				out->has_cycle = 1;
				if (!out->cycle.in_time)
					out->flags |= PC_SLA_LATE;
			}
		}
	}
	return 0;
fail:
	pc_sla_verdict_release(out);
	return rc;
}

void pc_sla_verdict_release(struct pc_sla_verdict *v)
{
	if (!v)
		return;
	free(v->patches);
	v->patches = NULL;
	v->npatches = 0;
}
