// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planner: verdicts to outbox rows, with the safety rules. See
 * plan.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/kinds.h"
#include "notify/compose.h"
#include "maint/maintainers.h"
#include "notify/plan.h"
#include "store/command.h"
#include "patch/classify.h"
#include "store/outbox.h"
#include "store/parts.h"
#include "util/buf.h"
#include "util/civil.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_PEOPLE 32

/* One maintainer's digest being gathered. */
struct digest {
	char *addr, *name; /* owned */
	const struct pc_sla_ctx *ctx; /* borrowed from the policy set */
	struct pc_notify_item *items; /* owned */
	const char **whys; /* per item, kept by the planner; owned array */
	size_t n, alloc, awhys;
	int64_t last_sent; /* when the last digest sent here was composed */
	int news; /* a series never listed here, or a boot verdict */
};

struct people {
	char *addr[MAX_PEOPLE], *name[MAX_PEOPLE]; /* owned */
	size_t n;
};

/* The appliers of one entry, read once per planning pass: most overdue
 * series of a list share a handful of entries. */
struct applier_cache {
	char *entry, *list; /* owned; list: the List-Id, or "" */
	struct people pe; /* owned */
};

struct planner {
	struct pc_store *st;
	struct pc_policyset *ps;
	const struct pc_plan_options *o;
	int64_t now;
	struct pc_plan_stats *stats;
	struct pc_err *err;
	struct digest *dg; /* owned */
	size_t ndg, adg;
	char **strs; /* owned: strings the digest items borrow */
	size_t nstrs, astrs;
	int64_t first_run; /* mail was first planned then */
	char **wanted; /* owned: keys of the reminders still justified */
	size_t nwanted, awanted;
	struct applier_cache *ac; /* owned */
	size_t nac, aac;
};

static const char *keep(struct planner *p, const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = xstrdup(s);
	PC_ALLOC_GROW(p->strs, p->nstrs + 1, p->astrs);
	p->strs[p->nstrs++] = d;
	return d;
}

/* Whether an M:/R: person of MAINTAINERS is a person to write to: not a
 * group alias (a line without a name: x86@kernel.org, dm-devel@...), not
 * a list (an L: of any entry), not a bot, not the chief maintainer. */
static int is_person(struct pc_store *st, const char *addr, const char *name)
{
	if (!addr || !strchr(addr, '@') || !name || !*name)
		return 0;
	if (!strcasecmp(addr, PC_MAINT_CHIEF_ADDR))
		return 0;
	if (pc_is_bot(name, addr, NULL))
		return 0;
	return pc_outbox_is_list(st, addr, NULL) == 0;
}

struct people_ctx {
	struct people *pe;
	struct pc_store *st;
};

static int add_person(const char *addr, const char *name, void *arg)
{
	struct people_ctx *pc = arg;
	struct people *pe = pc->pe;

	if (pe->n < MAX_PEOPLE && is_person(pc->st, addr, name)) {
		pe->addr[pe->n] = xstrdup(addr);
		pe->name[pe->n] = xstrdup(name ? name : "");
		pe->n++;
	}
	return 0;
}

static void people_release(struct people *pe)
{
	size_t i;

	for (i = 0; i < pe->n; i++) {
		free(pe->addr[i]);
		free(pe->name[i]);
	}
	pe->n = 0;
}

/* The policy context and profile of a governing entry, loading them when
 * this process has not judged a series of that entry yet. */
static const struct pc_sla_ctx *policy_of(struct planner *p, const char *entry,
					  const struct pc_profile **prof)
{
	const struct pc_sla_ctx *ctx = pc_policyset_ctx(p->ps, entry);
	const char *e = entry, *ename, *doc;

	if (!ctx)
		ctx = pc_policyset_pick(p->ps, &e, NULL, entry ? 1 : 0, &ename,
					&doc, p->err);
	if (!ctx)
		return NULL;
	*prof = pc_policyset_profile(p->ps, entry);
	if (!*prof)
		*prof = pc_policyset_profile(p->ps, NULL);
	return ctx;
}

/* Why mail to this author in answer to this series must not go, or NULL. */
static const char *author_rule(struct planner *p,
			       const struct pc_outbox_candidate *c)
{
	int rc;

	if (!c->author_addr || !strchr(c->author_addr, '@'))
		return "the author has no address";
	if (c->author_is_bot)
		return "the author is a bot";
	if (c->auto_submitted && strcasecmp(c->auto_submitted, "no"))
		return "the posting is Auto-Submitted mail";
	/* Lists add "Precedence: list" or "bulk" to every mail they carry:
	 * on mail that came through a list (a List-Id) that says nothing
	 * about the sender. Junk always counts, bulk and list otherwise. */
	if (c->precedence &&
	    (!strcasecmp(c->precedence, "junk") ||
	     (!c->list_id && (!strcasecmp(c->precedence, "bulk") ||
			      !strcasecmp(c->precedence, "list")))))
		return "the posting has Precedence: bulk, junk or list";
	if ((rc = pc_outbox_is_list(p->st, c->author_addr, p->err)) != 0)
		return rc > 0 ? "the author is a mailing list" : "error";
	if ((rc = pc_optout_has(p->st, c->author_addr, p->err)) != 0)
		return rc > 0 ? "the author opted out" : "error";
	return NULL;
}

/* Whether addr reached the daily limit; <0 on error. */
static int over_limit(struct planner *p, const char *addr)
{
	unsigned limit = p->o->daily_limit ? p->o->daily_limit : 3;
	int64_t n = pc_outbox_count_to(p->st, addr, p->now - 86400, p->err);

	if (n < 0)
		return (int)n;
	return n >= (int64_t)limit;
}

/* Splits the anchor's spaced References into borrowed strings. */
static size_t split_refs(struct planner *p, const char *refs, const char **out,
			 size_t max)
{
	size_t n = 0;
	const char *q = refs;

	while (q && *q && n < max) {
		size_t len;
		char *one;

		while (*q == ' ')
			q++;
		len = strcspn(q, " ");
		if (!len)
			break;
		one = xmemdupz(q, len);
		out[n++] = keep(p, one);
		free(one);
		q += len;
	}
	return n;
}

/* The Subject msg goes out with (decoded), else fallback: the outbox
 * lists the subject its readers will see. */
static const char *mail_subject(struct pc_buf *subj, const struct pc_buf *msg,
				const char *fallback)
{
	return pc_compose_subject_of(subj, msg->buf, msg->len) ? subj->buf :
								 fallback;
}

static int queue(struct planner *p, const char *key, enum pc_mail_kind kind,
		 int64_t series_id, const char *rcpts, const char *subject,
		 int64_t send_after, const char *reason, const char *why,
		 struct pc_buf *msg)
{
	struct pc_outbox_item it = { 0 };
	char mid[PC_COMPOSE_MSGID_SIZE + 2], raw[PC_COMPOSE_MSGID_SIZE];
	struct pc_buf subj = PC_BUF_INIT;
	int added = 0, rc;

	if ((rc = pc_compose_message_id(raw, sizeof(raw),
					pc_mail_kind_name(kind), key,
					p->o->domain, p->err)) < 0)
		return rc;
	snprintf(mid, sizeof(mid), "<%s>", raw);
	it.key = key;
	it.action = pc_mail_kind_name(kind);
	it.series_id = series_id;
	it.recipients = rcpts;
	it.message_id = mid;
	it.subject = mail_subject(&subj, msg, subject);
	it.created_at = p->now;
	it.send_after = send_after;
	it.status = reason ? "suppressed" : "pending";
	it.reason = reason;
	it.why = why;
	it.message = msg->buf;
	it.message_len = msg->len;
	rc = pc_outbox_add(p->st, &it, &added, p->err);
	pc_buf_release(&subj);
	if (rc < 0)
		return rc;
	if (!added)
		p->stats->already++;
	else if (reason)
		p->stats->suppressed++;
	else
		p->stats->queued++;
	return 0;
}

/* After a composition error in p->err: the reason a mail is kept
 * suppressed (in why), a body saying so (in msg), and p->err cleared. */
static void unwritable(struct planner *p, char *why, size_t len,
		       struct pc_buf *msg)
{
	snprintf(why, len, "cannot be composed: %s", p->err->msg);
	p->err->code = 0;
	p->err->msg[0] = '\0';
	pc_buf_reset(msg);
	pc_buf_addf(msg, "(not composed: %s)\n", why);
	p->stats->unwritable++;
}

static void head_init(struct planner *p, struct pc_notify_head *h,
		      const char *key, const struct pc_sla_ctx *ctx)
{
	memset(h, 0, sizeof(*h));
	h->from.name = p->o->from_name;
	h->from.addr = p->o->from_addr;
	h->date = p->now;
	h->domain = p->o->domain;
	h->key = key;
	h->archive_url = p->o->archive_url;
	if (ctx && ctx->clock) {
		h->local_fn = pc_compose_zone_time;
		h->local_arg = (void *)ctx->clock;
	}
}

/* Whether a and b are one mailbox: equal, or equal without a "+detail"
 * (krzysztof.kozlowski+dt@linaro.org is krzysztof.kozlowski@linaro.org). */
static int same_person(const char *a, const char *b)
{
	const char *pa, *pb, *at_a, *at_b;
	size_t la, lb;

	if (!a || !b)
		return 0;
	if (!strcasecmp(a, b))
		return 1;
	at_a = strchr(a, '@');
	at_b = strchr(b, '@');
	if (!at_a || !at_b || strcasecmp(at_a, at_b))
		return 0;
	pa = memchr(a, '+', (size_t)(at_a - a));
	pb = memchr(b, '+', (size_t)(at_b - b));
	la = (size_t)((pa ? pa : at_a) - a);
	lb = (size_t)((pb ? pb : at_b) - b);
	return la == lb && !strncasecmp(a, b, la);
}

/* Whether pe already holds addr. */
static int has_person(const struct people *pe, const char *addr)
{
	size_t i;

	for (i = 0; i < pe->n; i++)
		if (!strcasecmp(pe->addr[i], addr))
			return 1;
	return 0;
}

static int add_new_person(const char *addr, const char *name, void *arg)
{
	struct people_ctx *pc = arg;

	if (addr && has_person(pc->pe, addr))
		return 0;
	return add_person(addr, name, arg);
}

/* The people who apply the governing entry's patches (pc_outbox_
 * appliers(): those seen applying or active on the list), people only
 * (is_person), added to pe. */
static int appliers(struct planner *p, const char *entry, const char *list_id,
		    struct people *pe)
{
	struct applier_cache *c = NULL;
	size_t i;
	int rc;

	if (!entry)
		return 0;
	for (i = 0; i < p->nac && !c; i++)
		if (!strcmp(p->ac[i].entry, entry) &&
		    !strcmp(p->ac[i].list, list_id ? list_id : ""))
			c = &p->ac[i];
	if (!c) {
		struct people_ctx pc;

		PC_ALLOC_GROW(p->ac, p->nac + 1, p->aac);
		c = &p->ac[p->nac];
		memset(c, 0, sizeof(*c));
		pc.pe = &c->pe;
		pc.st = p->st;
		rc = pc_outbox_appliers(p->st, entry, list_id, p->now,
					add_new_person, &pc, p->err);
		if (rc < 0) {
			people_release(&c->pe);
			return rc;
		}
		c->entry = xstrdup(entry);
		c->list = xstrdup(list_id ? list_id : "");
		p->nac++;
	}
	for (i = 0; i < c->pe.n && pe->n < MAX_PEOPLE; i++) {
		if (has_person(pe, c->pe.addr[i]))
			continue;
		pe->addr[pe->n] = xstrdup(c->pe.addr[i]);
		pe->name[pe->n] = xstrdup(c->pe.name[i]);
		pe->n++;
	}
	return 0;
}

/* Then the reviewers worth naming: the governing entry's R: people who
 * are active on the list (a driver's own entry, the device tree's
 * maintainers and other neighbours review, but the author need not
 * write to them about the wait). */
static int active_reviewers(struct planner *p, const char *entry,
			    struct people *pe)
{
	struct people_ctx pc = { pe, p->st };

	if (!entry)
		return 0;
	return pc_outbox_active_reviewers(p->st, entry, p->now, add_new_person,
					  &pc, p->err);
}

/* The parts of a series other entries hold (lib/store/parts.h), as a
 * reminder names them: at most PC_COMPOSE_MAX_PARTS, the patches
 * applied or withdrawn already left out. */
struct parts {
	const char *applied; /* borrowed: "3,4", or NULL */
	uint64_t withdrawn; /* bit n - 1 for patch n */
	struct pc_notify_part part[PC_COMPOSE_MAX_PARTS];
	size_t n, more;
};

/* Whether the number n is in the comma-separated list csv. */
static int in_csv(const char *csv, int n)
{
	const char *q = csv;

	while (q && *q) {
		char *end;
		long v = strtol(q, &end, 10);

		if (end != q && v == n)
			return 1;
		q = strchr(end, ',');
		q = q ? q + 1 : NULL;
	}
	return 0;
}

static int add_part(const struct pc_store_part *sp, void *arg)
{
	struct parts *ps = arg;
	struct pc_notify_part *pt;
	int *nums = xmalloc(sp->npatches * sizeof(*nums));
	size_t i, k = 0;

	for (i = 0; i < sp->npatches; i++) {
		int n = sp->patches[i];

		if ((n >= 1 && n <= 64 &&
		     (ps->withdrawn & ((uint64_t)1 << (n - 1)))) ||
		    in_csv(ps->applied, n))
			continue;
		nums[k++] = n;
	}
	if (!k || ps->n == PC_COMPOSE_MAX_PARTS) {
		ps->more += k > 0;
		free(nums);
		return 0;
	}
	pt = &ps->part[ps->n++];
	pt->entry = xstrdup(sp->entry);
	pt->path = sp->path ? xstrdup(sp->path) : NULL;
	pt->patches = nums;
	pt->npatches = k;
	return 0;
}

static void parts_release(struct parts *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		free((char *)ps->part[i].entry);
		free((char *)ps->part[i].path);
		free((int *)ps->part[i].patches);
	}
	ps->n = ps->more = 0;
}

/* A digest item about a series this soon after its author's own ping
 * would repeat it. */
#define PING_QUIET ((int64_t)2 * 86400)

static void want_key(struct planner *p, const char *key)
{
	PC_ALLOC_GROW(p->wanted, p->nwanted + 1, p->awanted);
	p->wanted[p->nwanted++] = xstrdup(key);
}

/* "2022-11-04 14:07 UTC" */
static void fmt_utc(char *buf, size_t len, int64_t t)
{
	int64_t y, days = t >= 0 ? t / 86400 : (t - 86399) / 86400;
	int64_t sec = t - days * 86400;
	int m, d;

	pc_civil_from_days(days, &y, &m, &d);
	snprintf(buf, len, "%04lld-%02d-%02d %02d:%02d UTC", (long long)y, m, d,
		 (int)(sec / 3600), (int)(sec / 60 % 60));
}

/*
 * Why a mail about c goes (or would go), with the message that decided
 * it, into buf: "waiting on the maintainers since <msgid> (2022-11-04
 * 14:07 UTC), due 2022-11-11 14:07 UTC", from the verdict (no query).
 * Returns buf.
 */
static const char *why_of(const struct pc_outbox_candidate *c,
			  enum pc_notify_kind kind, char *buf, size_t len)
{
	int64_t from = c->wait_from ? c->wait_from : c->posted;
	char since[32], due[32];
	const char *mid;
	const char *what = kind == PC_NOTIFY_READY ?
				   "reviewed, waiting on whoever applies it" :
				   "waiting on the maintainers";

	if (kind == PC_NOTIFY_TOO_SOON) {
		fmt_utc(since, sizeof(since), c->posted);
		fmt_utc(due, sizeof(due), c->prev_posted);
		snprintf(buf, len,
			 "v%d <%s> posted %s, too soon after v%d of %s",
			 c->version, c->anchor_msgid ? c->anchor_msgid : "",
			 since, c->prev_version, due);
		return buf;
	}
	if (kind == PC_NOTIFY_BOOT) {
		fmt_utc(since, sizeof(since), c->test_at);
		snprintf(buf, len, "boot-test verdict of %s on v%d <%s>", since,
			 c->version, c->anchor_msgid ? c->anchor_msgid : "");
		return buf;
	}
	mid = c->wait_msgid			   ? c->wait_msgid :
	      from == c->posted && c->anchor_msgid ? c->anchor_msgid :
						     NULL;
	fmt_utc(since, sizeof(since), from);
	fmt_utc(due, sizeof(due), c->due);
	if (mid)
		snprintf(buf, len, "%s since <%s> (%s), due %s", what, mid,
			 since, due);
	else /* a RESEND: since the first posting of this version */
		snprintf(buf, len, "%s since the first posting (%s), due %s",
			 what, since, due);
	return buf;
}

/* The others who wrote in a series' thread (pc_outbox_thread_others()),
 * for its reminder. */
struct repliers {
	struct pc_notify_replier w[PC_COMPOSE_MAX_REPLIERS];
	size_t n, more;
	const struct pc_outbox_candidate *c;
	const struct people *appliers; /* the first napply of it */
	size_t napply;
	const char *self; /* patchclock's own address */
	struct planner *p;
	int64_t since; /* when the wait began: who wrote after it is named */
	unsigned tags; /* PC_NOTIFY_* given by any of them */
	int64_t author_last; /* the author's last reply in the thread */
	/* the patches the author withdrew there, and those the author
	 * posted a newer version of below them */
	uint64_t withdrawn, replaced;
};

/* Whether a replier is the series' author (by address, or by the full
 * name from another address, in either order: judging's rule). */
static int is_author(const struct repliers *r, const char *addr,
		     const char *name)
{
	return same_person(addr, r->c->author_addr) ||
	       pc_sla_same_person(NULL, r->c->author_name, NULL, name);
}

static unsigned notify_tags(unsigned outbox_tags)
{
	return (outbox_tags & PC_OUTBOX_REVIEWED ? PC_NOTIFY_REVIEWED : 0) |
	       (outbox_tags & PC_OUTBOX_ACKED ? PC_NOTIFY_ACKED : 0) |
	       (outbox_tags & PC_OUTBOX_TESTED ? PC_NOTIFY_TESTED : 0) |
	       (outbox_tags & PC_OUTBOX_QUEUED ? PC_NOTIFY_QUEUED : 0);
}

/* Everyone's tags count (a resend keeps them); those who wrote since
 * the wait began are named; the author's last word is noted. */
static int add_replier(const struct pc_outbox_writer *wr, void *arg)
{
	struct repliers *r = arg;
	struct pc_notify_replier *w;
	size_t i;

	if (same_person(wr->addr, r->self))
		return 0;
	if (is_author(r, wr->addr, wr->name)) {
		if (wr->last > r->author_last)
			r->author_last = wr->last;
		r->withdrawn |= wr->withdrew;
		r->replaced |= wr->replaced;
		return 0;
	}
	r->tags |= notify_tags(wr->tags);
	if (wr->last <= r->since)
		return 0;
	if (r->n == PC_COMPOSE_MAX_REPLIERS) {
		r->more++;
		return 0;
	}
	w = &r->w[r->n++];
	w->who.addr = keep(r->p, wr->addr);
	w->who.name = keep(r->p, wr->name);
	w->tags = notify_tags(wr->tags);
	w->tagged_patches = 0;
	/* Tags on some patches of several, none on the cover letter. */
	if (!wr->tagged_all && r->c->patches > 1 && r->c->patches <= 63) {
		uint64_t all = (UINT64_C(1) << r->c->patches) - 1;

		if (wr->tagged && (wr->tagged & all) != all)
			w->tagged_patches = wr->tagged;
	}
	w->applies = 0;
	for (i = 0; i < r->napply; i++)
		if (same_person(wr->addr, r->appliers->addr[i]))
			w->applies = 1;
	return 0;
}

/* Who wrote in c's thread since it was posted, into rp; the first
 * napply of maint apply it. */
static int gather_repliers(struct planner *p,
			   const struct pc_outbox_candidate *c,
			   const struct people *maint, size_t napply,
			   struct repliers *rp)
{
	memset(rp, 0, sizeof(*rp));
	rp->c = c;
	rp->appliers = maint;
	rp->napply = napply;
	rp->self = p->o->from_addr;
	rp->p = p;
	rp->since = c->wait_from > c->posted ? c->wait_from : c->posted;
	return pc_outbox_thread_others(p->st, c->series_id, c->posted, p->now,
				       add_replier, rp, p->err);
}

/* The "resend now" reply or the too-soon note for one series. */

static int plan_reply(struct planner *p, const struct pc_outbox_candidate *c,
		      const struct pc_sla_ctx *ctx,
		      const struct pc_profile *prof, enum pc_mail_kind kind)
{
	int too_soon = kind == PC_MAIL_TOO_SOON;
	const struct pc_policy *pol = &prof->policy;
	int private = pol->reminder == PC_PROF_REMIND_PRIVATE &&
		      kind == PC_MAIL_RESEND;
	/* A reminder goes to the author alone, naming the maintainers,
	 * unless they are to be Cc'd. */
	int alone = kind == PC_MAIL_RESEND &&
		    (private || !p->o->cc_maintainers);
	struct people maint = { { 0 }, { 0 }, 0 };
	struct parts parts;
	struct pc_notify_addr ma[MAX_PEOPLE], tr[PC_COMPOSE_MAX_TRUSTED];
	struct pc_notify_series ser = { 0 };
	struct pc_notify_reply_opts ro = { 0 };
	struct pc_buf msg = PC_BUF_INIT, rcpts = PC_BUF_INIT;
	const char *refs[PC_COMPOSE_MAX_REFS], *reason;
	char key[PC_COMPOSE_KEY_MAX], period[32], why[320], because[640];
	size_t i, nm = 0, napply = 0, nm_apply = 0;
	int64_t send_after = p->now;
	int rc;

	memset(&parts, 0, sizeof(parts));
	if (too_soon)
		snprintf(period, sizeof(period), "posted");
	else if (kind == PC_MAIL_BOOT_REPORT)
		/* One report per verdict. */
		snprintf(period, sizeof(period), "t%lld",
			 (long long)c->test_at);
	else
		/* One reminder per series version, ever. */
		snprintf(period, sizeof(period), "n1");
	if ((rc = pc_compose_action_key(key, sizeof(key), c->series_id,
					c->version, pc_mail_kind_name(kind),
					period, p->err)) < 0)
		return rc;
	if (kind == PC_MAIL_RESEND)
		want_key(p, key);
	reason = author_rule(p, c);
	if (reason && !strcmp(reason, "error"))
		return p->err->code ? p->err->code : PC_EDB;
	if (!reason && (rc = over_limit(p, c->author_addr)) != 0) {
		if (rc < 0)
			return rc;
		reason = "the author's daily limit is reached";
	}
	/* The author's own ping was the reminder (one went out two hours
	 * after an author's "any comments?"). */
	if (!reason && kind == PC_MAIL_RESEND && c->pinged_at) {
		const char *mid = c->ping_msgid;
		int64_t y;
		int m, d;

		pc_civil_from_days(c->pinged_at / 86400, &y, &m, &d);
		snprintf(
			why, sizeof(why),
			"the author pinged the thread on %04lld-%02d-%02d%s%s%s: "
			"that was the reminder",
			(long long)y, m, d, mid ? " (<" : "", mid ? mid : "",
			mid ? ">)" : "");
		reason = why;
	}
	/* The people who would act: those who apply it, then the active
	 * reviewers of its code. */
	if ((rc = appliers(p, c->entry, c->list_id, &maint)) < 0)
		goto out;
	napply = maint.n;
	/* Nobody who applies it was seen on the list: a reminder would
	 * name stale addresses, or nobody (the patch belongs to another
	 * list's maintainers, who do not read this one). */
	if (!reason && kind == PC_MAIL_RESEND && !maint.n)
		reason = "nobody who applies it was seen on the list in the "
			 "last 180 days";
	if ((rc = active_reviewers(p, c->entry, &maint)) < 0)
		goto out;
	pc_buf_addstr(&rcpts, c->author_addr ? c->author_addr : "");
	for (i = 0; i < maint.n; i++) {
		/* Cc the maintainers who did not opt out and are under the
		 * daily limit (their digest tells them anyway). */
		if (same_person(maint.addr[i], c->author_addr) ||
		    pc_optout_has(p->st, maint.addr[i], NULL) == 1 ||
		    over_limit(p, maint.addr[i]) != 0)
			continue;
		ma[nm].name = maint.name[i];
		ma[nm++].addr = maint.addr[i];
		nm_apply += i < napply;
		if (!alone)
			pc_buf_addf(&rcpts, " %s", maint.addr[i]);
	}
	ro.reminder = pol->reminder;
	ro.maintainers = alone ? NULL : ma;
	ro.nmaintainers = alone ? 0 : nm;
	ser.id = c->series_id;
	ser.version = c->version;
	ser.subject = c->subject;
	ser.msgid = c->anchor_msgid;
	ser.refs = refs;
	ser.nrefs = split_refs(p, c->anchor_refs, refs, PC_COMPOSE_MAX_REFS);
	ser.author.name = c->author_name;
	ser.author.addr = c->author_addr;
	ser.posted = c->posted;
	if (kind == PC_MAIL_BOOT_REPORT) {
		struct pc_notify_boot_report b;

		memset(&b, 0, sizeof(b));
		head_init(p, &b.head, key, ctx);
		b.reply = ro;
		b.series = ser;
		b.passed = c->test_verdict > 0;
		b.reason = c->test_reason;
		b.summary = c->test_summary;
		rc = pc_compose_boot_report(&msg, &b, p->err);
		send_after = p->now;
	} else if (too_soon) {
		struct pc_notify_too_soon t;

		memset(&t, 0, sizeof(t));
		head_init(p, &t.head, key, ctx);
		t.reply = ro;
		t.series = ser;
		t.prev_version = c->prev_version;
		t.prev_posted = c->prev_posted;
		t.repost_min = pol->repost_min;
		pc_compose_origin(&t.repost_from,
				  &pol->from[PC_PROF_REPOST_MIN]);
		rc = pc_compose_too_soon(&msg, &t, p->err);
		send_after = p->now;
	} else {
		struct pc_notify_resend r;
		struct repliers rp;
		size_t k;

		/* At its action time even when planned later (a coarse
		 * wake): the same replay queues the same mail at the same
		 * time. mail_ok() saw that time was not before the first
		 * run. */
		send_after = c->act_at ?
				     c->act_at :
				     pc_bizclock_next_open(ctx->clock, p->now);
		memset(&r, 0, sizeof(r));
		head_init(p, &r.head, key, ctx);
		/* Dated when it is to go (office hours can hold a reminder
		 * planned on a Sunday until Monday). */
		if (send_after > r.head.date)
			r.head.date = send_after;
		if ((rc = gather_repliers(p, c, &maint, napply, &rp)) < 0)
			goto out;
		/* The author has just written in the thread (answered a
		 * question on where it goes, thanked a reviewer): they are
		 * at it, and a mail telling them to ping would be noise. */
		if (!reason && rp.author_last &&
		    send_after - rp.author_last < PING_QUIET) {
			int64_t y;
			int m, d;

			pc_civil_from_days(rp.author_last / 86400, &y, &m, &d);
			snprintf(why, sizeof(why),
				 "the author wrote in its thread on "
				 "%04lld-%02d-%02d, less than two days before "
				 "it would go",
				 (long long)y, m, d);
			reason = why;
		}
		parts.applied = c->applied_patches;
		parts.withdrawn = rp.withdrawn;
		if ((rc = pc_store_other_parts(p->st, c->series_id, c->entry,
					       add_part, &parts, p->err)) < 0)
			goto out;
		if (c->flag_bits & PC_SLA_INCOMPLETE)
			r.patches_here = c->patches;
		r.entry = c->entry;
		r.parts = parts.part;
		r.nparts = parts.n;
		r.nmore_parts = parts.more;
		r.repliers = rp.w;
		r.nrepliers = rp.n;
		r.nmore_repliers = rp.more;
		r.thread_tags = rp.tags;
		r.withdrawn_patches = rp.withdrawn;
		r.author_last = rp.author_last;
		r.replaced_patches = rp.replaced & ~rp.withdrawn;
		r.reply = ro;
		r.series = ser;
		r.cadence = pol->ping_after;
		pc_compose_origin(&r.cadence_from,
				  &pol->from[PC_PROF_PING_AFTER]);
		r.hours = &pol->office_hours;
		pc_compose_origin(&r.hours_from,
				  &pol->from[PC_PROF_OFFICE_HOURS]);
		r.due = c->due;
		r.wait_from = c->wait_from;
		r.wait_by = c->wait_by;
		r.applied_patches = c->applied_patches;
		r.nth = 1;
		r.private_reminder = private;
		r.write_to = ma;
		r.nwrite_to = alone ? nm : 0;
		r.nwrite_to_apply = alone ? nm_apply : 0;
		for (k = 0; k < pol->n_trusted && k < PC_COMPOSE_MAX_TRUSTED;
		     k++) {
			tr[k].name = pol->trusted[k].name;
			tr[k].addr = pol->trusted[k].addr;
		}
		r.trusted = tr;
		r.ntrusted = k;
		pc_compose_origin(&r.trusted_from, &pol->from[PC_PROF_TRUSTED]);
		if ((c->flag_bits & PC_SLA_LATE) && c->lands) {
			r.late = 1;
			r.deadline = pol->new_features;
			pc_compose_origin(&r.deadline_from,
					  &pol->from[PC_PROF_NEW_FEATURES]);
			r.late_window = c->lands;
		}
		rc = pc_compose_resend(&msg, &r, p->err);
	}
	if (rc < 0 && !pc_err_is_db(rc)) {
		/* A mail that cannot be written (an author without an
		 * address, a Message-ID with a space) is kept suppressed
		 * with its reason; everything else still goes out. */
		unwritable(p, why, sizeof(why), &msg);
		reason = why;
		rc = 0;
	}
	if (rc < 0)
		goto out;
	why_of(c,
	       too_soon			   ? PC_NOTIFY_TOO_SOON :
	       kind == PC_MAIL_BOOT_REPORT ? PC_NOTIFY_BOOT :
					     PC_NOTIFY_OVERDUE,
	       because, sizeof(because));
	rc = queue(p, key, kind, c->series_id, rcpts.buf ? rcpts.buf : "",
		   c->subject ? c->subject : "", send_after, reason, because,
		   &msg);
out:
	people_release(&maint);
	parts_release(&parts);
	pc_buf_release(&msg);
	pc_buf_release(&rcpts);
	return rc;
}

static struct digest *digest_for(struct planner *p, const char *addr,
				 const char *name, const struct pc_sla_ctx *ctx)
{
	size_t i;
	struct digest *d;

	for (i = 0; i < p->ndg; i++)
		if (!strcasecmp(p->dg[i].addr, addr))
			return &p->dg[i];
	PC_ALLOC_GROW(p->dg, p->ndg + 1, p->adg);
	d = &p->dg[p->ndg++];
	memset(d, 0, sizeof(*d));
	d->addr = xstrdup(addr);
	d->name = xstrdup(name ? name : "");
	d->ctx = ctx;
	/* On a failure to read it, every verdict counts as news. */
	pc_outbox_last_digest(&d->last_sent, p->st, addr, NULL);
	return d;
}

static void digest_add(struct digest *d, enum pc_notify_kind kind,
		       const struct pc_notify_series *ser,
		       const struct pc_outbox_candidate *c,
		       const struct pc_profile *prof, const char *why)
{
	struct pc_notify_item *it;

	PC_ALLOC_GROW(d->whys, d->n + 1, d->awhys);
	d->whys[d->n] = why;
	PC_ALLOC_GROW(d->items, d->n + 1, d->alloc);
	it = &d->items[d->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->series = *ser;
	it->series.refs = NULL;
	it->series.nrefs = 0;
	it->overdue_days = c->overdue_days;
	it->reviewed = (unsigned)c->reviewed;
	it->npatches = (unsigned)c->patches;
	it->deadline = prof->policy.new_features;
	it->prev_version = c->prev_version;
	it->prev_posted = c->prev_posted;
	it->repost_min = prof->policy.repost_min;
}

/* One more overdue series held for hold (the verdict's word). */
static void count_hold(struct pc_plan_stats *st, const char *hold)
{
	size_t i;

	for (i = 0; i < st->nheld; i++)
		if (!strcmp(st->held[i].hold, hold)) {
			st->held[i].n++;
			return;
		}
	if (st->nheld < PC_PLAN_HOLD_KINDS) {
		snprintf(st->held[i].hold, sizeof(st->held[i].hold), "%s",
			 hold);
		st->held[st->nheld++].n = 1;
	}
}

/* Whether mail about this candidate's wait may go at all: it waits on
 * its maintainers past the cadence, no hold of the verdict stops it, it
 * is not older than max_age, and it was not already due before mail was
 * first planned here. */
static int mail_ok(struct planner *p, const struct pc_outbox_candidate *c)
{
	int64_t age = p->o->max_age ? p->o->max_age : PC_PLAN_MAX_AGE;

	if (!(c->flag_bits & PC_SLA_OVERDUE))
		return 0;
	/* Overdue, yet no mail: counted by why, for the summary. */
	if (c->hold) {
		count_hold(p->stats, c->hold);
		return 0;
	}
	if (c->posted < p->now - age)
		return 0;
	if (c->act_at && c->act_at < p->first_run) {
		p->stats->held_first_run++;
		return 0;
	}
	return 1;
}

static int on_candidate(const struct pc_outbox_candidate *c, void *arg)
{
	struct planner *p = arg;
	const struct pc_profile *prof = NULL;
	const struct pc_sla_ctx *ctx = policy_of(p, c->entry, &prof);
	int overdue, too_soon, tested, rc;

	if (!ctx || !prof)
		return p->err->code ? p->err->code : PC_EIO;
	overdue = mail_ok(p, c);
	/* A too-soon note is about the author's own repost: only a kernel
	 * submission that is not held for what it is. */
	too_soon = p->o->too_soon && (c->flag_bits & PC_SLA_TOO_SOON) &&
		   c->prev_version &&
		   (!c->hold || !strcmp(c->hold, "already-answered"));
	tested = c->test_verdict != 0;
	if (p->o->replies && overdue &&
	    (rc = plan_reply(p, c, ctx, prof, PC_MAIL_RESEND)) < 0)
		return rc;
	if (p->o->replies && too_soon &&
	    (rc = plan_reply(p, c, ctx, prof, PC_MAIL_TOO_SOON)) < 0)
		return rc;
	if (p->o->boot_reports && tested &&
	    (rc = plan_reply(p, c, ctx, prof, PC_MAIL_BOOT_REPORT)) < 0)
		return rc;
	/* Right after the author's own ping, a digest would repeat it. */
	if (overdue && c->pinged_at && p->now - c->pinged_at < PING_QUIET)
		overdue = 0;
	if (p->o->digests && c->entry && (overdue || tested)) {
		struct people maint = { { 0 }, { 0 }, 0 };
		struct pc_notify_series ser = { 0 };
		/* Reviewed and waiting: ready to apply. */
		enum pc_notify_kind kind =
			c->state && !strcmp(c->state, "reviewed") ?
				PC_NOTIFY_READY :
				PC_NOTIFY_OVERDUE;
		const char *why = NULL, *boot_why = NULL, *applied;
		char buf[640];
		size_t i;

		/* Digests go to the people who apply it. */
		if ((rc = appliers(p, c->entry, c->list_id, &maint)) < 0)
			return rc;
		if (overdue && maint.n)
			why = keep(p, why_of(c, kind, buf, sizeof(buf)));
		if (tested && maint.n)
			boot_why = keep(p, why_of(c, PC_NOTIFY_BOOT, buf,
						  sizeof(buf)));
		ser.id = c->series_id;
		ser.version = c->version;
		ser.subject = keep(p, c->subject);
		ser.msgid = keep(p, c->anchor_msgid);
		ser.author.name = keep(p, c->author_name);
		ser.author.addr = keep(p, c->author_addr);
		applied = keep(p, c->applied_patches);
		ser.posted = c->posted;
		for (i = 0; i < maint.n; i++) {
			struct digest *d;

			/* Nobody hears of their own series in a digest. */
			if (same_person(maint.addr[i], c->author_addr))
				continue;
			d = digest_for(p, maint.addr[i], maint.name[i], ctx);
			if (overdue) {
				digest_add(d, kind, &ser, c, prof, why);
				d->items[d->n - 1].applied_patches = applied;
				d->items[d->n - 1].pinged_at = c->pinged_at;
				/* a RESEND is the ping with no message of
				 * its own (lib/sla/state.c) */
				d->items[d->n - 1].resent = c->pinged_at &&
							    !c->ping_msgid;
				if ((rc = pc_outbox_digest_listed(
					     p->st, d->addr, c->series_id,
					     c->version, c->wait_from,
					     p->err)) < 0) {
					people_release(&maint);
					return rc;
				}
				if (!rc)
					d->news = 1;
			}
			/* A verdict is news once: in the first digest
			 * composed after it. */
			if (tested && c->test_at > d->last_sent) {
				digest_add(d, PC_NOTIFY_BOOT, &ser, c, prof,
					   boot_why);
				d->items[d->n - 1].boot_passed =
					c->test_verdict > 0;
				d->items[d->n - 1].boot_reason =
					keep(p, c->test_reason);
				d->news = 1;
			}
		}
		people_release(&maint);
	}
	return 0;
}

/* Queues a digest, or gathers again the pending one under key. */
static int queue_digest(struct planner *p, const char *key, int pending,
			const char *addr, int64_t send_after,
			const char *reason, const char *why, struct pc_buf *msg)
{
	struct pc_outbox_item it = { 0 };
	struct pc_buf subj = PC_BUF_INIT;
	int rc;

	if (!pending)
		return queue(p, key, PC_MAIL_DIGEST, 0, addr,
			     "patchclock digest", send_after, reason, why, msg);
	it.key = key;
	it.recipients = addr;
	it.subject = mail_subject(&subj, msg, "patchclock digest");
	it.created_at = p->now;
	it.status = reason ? "suppressed" : "pending";
	it.reason = reason;
	it.why = why;
	it.message = msg->buf;
	it.message_len = msg->len;
	rc = pc_outbox_refresh(p->st, &it, p->err);
	pc_buf_release(&subj);
	if (rc < 0)
		return rc;
	/* The same mail under the same key: still exactly once. */
	p->stats->already++;
	p->stats->refreshed += (unsigned)rc;
	return 0;
}

/*
 * A digest that could not be composed: drops the items that cannot be
 * written on their own (a Message-ID with a space cannot be linked) and
 * composes the rest; when the digest itself cannot be written (its
 * addressee's address), it is kept suppressed with the reason. Returns
 * pc_compose_digest()'s result for what is left, 0 for the suppressed
 * one, or PC_EDB.
 */
static int digest_without_bad_items(struct planner *p,
				    struct pc_notify_digest *nd,
				    struct pc_buf *msg, char *why, size_t len,
				    const char **reason)
{
	struct pc_notify_item *good = xcalloc(nd->nitems + 1, sizeof(*good));
	struct pc_notify_digest one = *nd;
	struct pc_buf scratch = PC_BUF_INIT;
	struct pc_err first = *p->err;
	size_t i, n = 0;
	int rc;

	for (i = 0; i < nd->nitems; i++) {
		one.items = &nd->items[i];
		one.nitems = 1;
		pc_buf_reset(&scratch);
		p->err->code = 0;
		rc = pc_compose_digest(&scratch, &one, p->err);
		if (pc_err_is_db(rc))
			goto out;
		if (rc >= 0)
			good[n++] = nd->items[i];
	}
	p->err->code = 0;
	p->err->msg[0] = '\0';
	one.items = good;
	one.nitems = n;
	pc_buf_reset(msg);
	/* No item can be written alone: the digest itself cannot be (its
	 * addressee), for the first reason. */
	if (!n) {
		*p->err = first;
		rc = first.code;
	} else {
		p->stats->unwritable += (unsigned)(nd->nitems - n);
		rc = pc_compose_digest(msg, &one, p->err);
	}
	if (rc < 0 && !pc_err_is_db(rc)) {
		unwritable(p, why, len, msg);
		*reason = why;
		rc = 0;
	}
out:
	pc_buf_release(&scratch);
	free(good);
	return rc;
}

static int send_digests(struct planner *p)
{
	char **kept = xcalloc(p->ndg + 1, sizeof(*kept));
	size_t i, nkept = 0;
	int rc = 0;

	for (i = 0; i < p->ndg && rc >= 0; i++) {
		struct digest *d = &p->dg[i];
		struct pc_notify_digest nd;
		struct pc_buf msg = PC_BUF_INIT, because = PC_BUF_INIT;
		struct pc_biz_local l;
		char key[PC_COMPOSE_KEY_MAX + 32], prefix[PC_COMPOSE_KEY_MAX],
			why[320];
		char *pkey = NULL;
		const char *reason = NULL;
		int64_t at = 0;
		int pending;
		size_t k;

		/* The digest already waiting for its opening, if any; else
		 * one for the next opening. */
		snprintf(prefix, sizeof(prefix), "digest:%s:", d->addr);
		if ((rc = pending = pc_outbox_pending(&pkey, &at, p->st, prefix,
						      p->err)) < 0)
			break;
		if (pending) {
			snprintf(key, sizeof(key), "%s", pkey);
		} else if (!d->news) {
			/* Nothing that no digest here listed yet: the same
			 * list again would be noise. */
			free(pkey);
			continue;
		} else {
			at = pc_bizclock_next_opening(d->ctx->clock, p->now);
			pc_bizclock_local(&l, d->ctx->clock, at);
			snprintf(key, sizeof(key), "%s%04d-%02d-%02d", prefix,
				 l.date.year, l.date.month, l.date.day);
		}
		free(pkey);
		memset(&nd, 0, sizeof(nd));
		head_init(p, &nd.head, key, d->ctx);
		nd.to.name = d->name;
		nd.to.addr = d->addr;
		nd.items = d->items;
		nd.nitems = d->n;
		rc = pc_compose_digest(&msg, &nd, p->err);
		if (rc < 0 && !pc_err_is_db(rc))
			rc = digest_without_bad_items(p, &nd, &msg, why,
						      sizeof(why), &reason);
		if (rc == PC_COMPOSE_NOTHING) {
			rc = 0;
		} else if (rc >= 0) {
			if ((rc = pc_optout_has(p->st, d->addr, p->err)) > 0)
				reason = "the maintainer opted out";
			/* One line per item: the series and why it is
			 * listed. */
			for (k = 0; k < d->n; k++)
				if (d->whys[k])
					pc_buf_addf(
						&because,
						"%sseries %lld v%d: %s",
						because.len ? "\n" : "",
						(long long)d->items[k].series.id,
						d->items[k].series.version,
						d->whys[k]);
			if (rc >= 0)
				rc = queue_digest(p, key, pending, d->addr, at,
						  reason, because.buf, &msg);
			if (rc >= 0 && !reason)
				kept[nkept++] = xstrdup(key);
			for (k = 0; rc >= 0 && !reason && k < d->n; k++)
				if (d->items[k].kind == PC_NOTIFY_OVERDUE ||
				    d->items[k].kind == PC_NOTIFY_READY)
					rc = pc_outbox_digest_list(
						p->st, d->addr,
						d->items[k].series.id,
						d->items[k].series.version,
						p->now, p->err);
		}
		pc_buf_release(&msg);
		pc_buf_release(&because);
	}
	if (rc >= 0)
		rc = pc_outbox_withdraw(p->st,
					pc_mail_kind_name(PC_MAIL_DIGEST), kept,
					nkept,
					"nothing left to report when it was "
					"due",
					p->now, &p->stats->withdrawn, p->err);
	for (i = 0; i < nkept; i++)
		free(kept[i]);
	free(kept);
	return rc;
}

/* The one answer to a sender whose commands were not understood. */
static int on_help(const struct pc_command_help *h, void *arg)
{
	struct planner *p = arg;
	struct pc_notify_command_help c = { 0 };
	const char *lines[16], *whys[16], *refs[64];
	char *key = xasprintf(PC_COMMAND_HELP_KEY "%s", h->from_addr);
	char *copy = xstrdup(h->lines ? h->lines : ""), *l;
	/* why: the sender's message whose commands were not understood */
	char *asked = xasprintf("patchclock: lines not understood in <%s>",
				h->msgid ? h->msgid : "");
	struct pc_buf msg = PC_BUF_INIT;
	char why[sizeof(p->err->msg) + 32];
	int rc;

	if ((rc = pc_optout_has(p->st, h->from_addr, p->err)) != 0 ||
	    (rc = over_limit(p, h->from_addr)) != 0)
		goto out; /* opted out or written to enough today: nothing */
	for (l = copy; *l && c.nlines < 16;) {
		char *nl = strchr(l, '\n'), *tab;

		if (nl)
			*nl = '\0';
		if ((tab = strchr(l, '\t')))
			*tab++ = '\0';
		lines[c.nlines] = l;
		whys[c.nlines++] = tab ? tab : "";
		if (!nl)
			break;
		l = nl + 1;
	}
	head_init(p, &c.head, key, NULL);
	c.to.addr = h->from_addr;
	c.to.name = h->from_name;
	c.subject = h->subject;
	c.msgid = h->msgid;
	c.nrefs = split_refs(p, h->refs, refs, 64);
	c.refs = refs;
	c.lines = lines;
	c.whys = whys;
	if ((rc = pc_compose_command_help(&msg, &c, p->err)) < 0) {
		if (rc == PC_EDB)
			goto out;
		unwritable(p, why, sizeof(why), &msg);
		rc = queue(p, key, PC_MAIL_COMMAND_HELP, 0, h->from_addr,
			   "patchclock commands", p->now, why, asked, &msg);
		goto out;
	}
	rc = queue(p, key, PC_MAIL_COMMAND_HELP, 0, h->from_addr,
		   "patchclock commands", p->now, NULL, asked, &msg);
out:
	free(asked);
	pc_buf_release(&msg);
	free(copy);
	free(key);
	return rc < 0 ? rc : 0;
}

int pc_plan_actions(struct pc_store *st, struct pc_policyset *ps,
		    const struct pc_plan_options *o, int64_t now,
		    struct pc_plan_stats *stats, struct pc_err *err)
{
	struct planner p = { .st = st,
			     .ps = ps,
			     .o = o,
			     .now = now,
			     .stats = stats,
			     .err = err };
	unsigned withdrawn = 0;
	int added = 0, rc;
	size_t i;

	memset(stats, 0, sizeof(*stats));
	if (!o->from_addr || !o->domain)
		return pc_err_set(err, PC_EUSAGE,
				  "planning mail needs patchclock's own "
				  "address and Message-ID domain");
	if ((rc = pc_optout_from_replies(st, now, &added, err)) < 0 ||
	    (rc = pc_outbox_first_run(&p.first_run, st,
				      o->watching_since &&
						      o->watching_since < now ?
					      o->watching_since :
					      now,
				      err)) < 0)
		return rc;
	stats->opt_outs = (unsigned)added;
	/* Mail goes only about series posted within max_age (mail_ok()):
	 * older ones are not even read, however large the archive. */
	rc = pc_outbox_candidates(
		st, now - (o->max_age ? o->max_age : PC_PLAN_MAX_AGE),
		on_candidate, &p, err);
	/* A reminder queued for a later opening goes only if it is still
	 * justified then: a reply or an "Applied" meanwhile withdraws it. */
	if (rc >= 0)
		rc = pc_outbox_withdraw(st, pc_mail_kind_name(PC_MAIL_RESEND),
					p.wanted, p.nwanted,
					"no longer justified when it was due",
					now, &withdrawn, err);
	if (rc >= 0)
		rc = send_digests(&p);
	if (rc >= 0 && o->replies)
		rc = pc_commands_help_due(st, now, on_help, &p, err);
	stats->withdrawn += withdrawn;
	for (i = 0; i < p.ndg; i++) {
		free(p.dg[i].addr);
		free(p.dg[i].name);
		free(p.dg[i].items);
		free(p.dg[i].whys);
	}
	free(p.dg);
	for (i = 0; i < p.nstrs; i++)
		free(p.strs[i]);
	free(p.strs);
	for (i = 0; i < p.nwanted; i++)
		free(p.wanted[i]);
	free(p.wanted);
	for (i = 0; i < p.nac; i++) {
		free(p.ac[i].entry);
		free(p.ac[i].list);
		people_release(&p.ac[i].pe);
	}
	free(p.ac);
	return rc < 0 ? rc : 0;
}
