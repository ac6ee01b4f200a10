// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mails patchclock sends, byte for byte (see compose.h): the texts of
 * the resend reply, the too-soon note, the boot report and the digest,
 * written with the generic mail writer of mailtext.h (cleaning, RFC 2047,
 * header folding, body wrapping at 72 columns). A mail is built in a
 * local buffer and appended to the caller's only when complete, so an
 * error leaves the caller's buffer as it was.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compose.h"
#include "mail/archive.h"
#include "mail/kinds.h"
#include "mail/rfc2047.h"
#include "patch/command.h"
#include "patch/subject.h"
#include "sla/bizclock.h"
#include "util/hash.h"
#include "util/utf8.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A body line longer than this (in bytes) is left out: SMTP allows 998. */
#define BODY_LINE_BYTES_MAX 990
#define LOCAL_TIME_MAX 64

static const char signature[] =
	"-- \n"
	"Sent by patchclock, which holds series to the subsystem's profile.\n"
	"Reply with a line 'patchclock: opt-out' to stop these mails.\n";

/* ---- UTF-8 and cleaning ---- */

/* ---- checks of what goes into headers unchanged ---- */

/* ---- public helpers ---- */

int pc_compose_zone_time(char *buf, size_t len, int64_t t, void *arg,
			 struct pc_err *err)
{
	return pc_bizclock_format(buf, len, arg, t, err);
}

void pc_compose_origin(struct pc_notify_origin *out,
		       const struct pc_prof_origin *o)
{
	memset(out, 0, sizeof(*out));
	if (!o)
		return;
	out->kind = o->kind;
	out->file = o->file;
	out->heading = o->heading;
	out->line = o->line;
	out->quote = o->quote;
}

int pc_compose_action_key(char *buf, size_t len, int64_t series_id, int version,
			  const char *action, const char *period,
			  struct pc_err *err)
{
	int n;

	assert(buf && action);
	n = snprintf(buf, len, "series:%" PRId64 ":v%d:%s:%s", series_id,
		     version, action, period ? period : "");
	if (n < 0 || (size_t)n >= len || (size_t)n > PC_COMPOSE_KEY_MAX)
		return pc_err_set(err, PC_ELIMIT,
				  "cannot write action key: too long");
	return 0;
}

int pc_compose_message_id(char *buf, size_t len, const char *action,
			  const char *key, const char *domain,
			  struct pc_err *err)
{
	unsigned char d[PC_SHA256_LEN];
	char hex[2 * PC_SHA256_LEN + 1];
	struct pc_buf in = PC_BUF_INIT;
	size_t i, alen = action ? strlen(action) : 0;
	int n;

	assert(buf);
	if (!alen || alen > 32)
		return pc_err_set(err, PC_EUSAGE, "invalid action name");
	for (i = 0; i < alen; i++)
		if (!(action[i] >= 'a' && action[i] <= 'z') &&
		    !pc_isdigit((unsigned char)action[i]) && action[i] != '-')
			return pc_err_set(err, PC_EUSAGE,
					  "invalid action name");
	if (!pc_mail_domain_ok(domain))
		return pc_err_set(err, PC_EUSAGE,
				  "invalid message-id domain: use letters, "
				  "digits, '.' and '-'");
	if (!key || strlen(key) > PC_COMPOSE_KEY_MAX)
		return pc_err_set(err, PC_EUSAGE,
				  "missing or too long action key");
	pc_buf_addstr(&in, action);
	pc_buf_addch(&in, '\0');
	pc_buf_addstr(&in, key);
	pc_sha256(d, in.buf, in.len);
	pc_buf_release(&in);
	pc_hex(hex, d, 16);
	n = snprintf(buf, len, "patchclock.%s.%s@%s", action, hex, domain);
	if (n < 0 || (size_t)n >= len)
		return pc_err_set(err, PC_ELIMIT,
				  "cannot write message-id: buffer too small");
	return 0;
}

/* ---- times ---- */

static const char *const wday_abbr[] = { "Sun", "Mon", "Tue", "Wed",
					 "Thu", "Fri", "Sat" };
static const char *const wday_name[] = { "Sunday",    "Monday",	  "Tuesday",
					 "Wednesday", "Thursday", "Friday",
					 "Saturday" };
static const char *const month_abbr[] = { "Jan", "Feb", "Mar", "Apr",
					  "May", "Jun", "Jul", "Aug",
					  "Sep", "Oct", "Nov", "Dec" };

struct utc {
	struct pc_biz_date d;
	int wday, hour, min, sec;
};

/* Hostile dates are clamped to 1900..9999, as the business clock does. */
static int64_t clamp_time(int64_t t)
{
	return t < PC_BIZ_TIME_MIN ? PC_BIZ_TIME_MIN :
	       t > PC_BIZ_TIME_MAX ? PC_BIZ_TIME_MAX :
				     t;
}

static void utc_split(struct utc *u, int64_t t)
{
	int64_t days, sod;

	t = clamp_time(t);
	days = t / 86400;
	sod = t % 86400;
	if (sod < 0) {
		sod += 86400;
		days--;
	}
	pc_biz_date_from_days(&u->d, days);
	u->wday = pc_biz_date_wday(&u->d);
	u->hour = (int)(sod / 3600);
	u->min = (int)(sod / 60 % 60);
	u->sec = (int)(sod % 60);
}

/* "Mon 2021-05-03 16:30 UTC", the shape of pc_bizclock_format(). */
static void add_utc(struct pc_buf *out, int64_t t)
{
	struct utc u;

	utc_split(&u, t);
	pc_buf_addf(out, "%s %04d-%02d-%02d %02d:%02d UTC", wday_abbr[u.wday],
		    u.d.year, u.d.month, u.d.day, u.hour, u.min);
}

/* RFC 5322: "Thu, 13 May 2021 15:00:00 +0000". */
static void add_rfc5322_date(struct pc_buf *out, int64_t t)
{
	struct utc u;

	utc_split(&u, t);
	pc_buf_addf(out, "%s, %d %s %04d %02d:%02d:%02d +0000",
		    wday_abbr[u.wday], u.d.day, month_abbr[u.d.month - 1],
		    u.d.year, u.hour, u.min, u.sec);
}

/* Appends t in the maintainers' zone, cleaned; 1 when there is none. */
static int add_local(struct pc_buf *out, const struct pc_notify_head *h,
		     int64_t t, struct pc_err *err)
{
	char buf[LOCAL_TIME_MAX + 1];
	int rc;

	if (!h->local_fn)
		return 1;
	buf[0] = '\0';
	if ((rc = h->local_fn(buf, sizeof(buf), t, h->local_arg, err)) < 0)
		return rc;
	buf[sizeof(buf) - 1] = '\0';
	pc_mail_clean(out, buf, LOCAL_TIME_MAX);
	return 0;
}

/*
 * "Mon 2021-05-03 16:30 UTC (Mon 2021-05-03 09:30 PDT, the maintainers'
 * time)"; without local_fn, or when the zone is UTC, the first part only.
 */
static int add_when(struct pc_buf *out, const struct pc_notify_head *h,
		    int64_t t, struct pc_err *err)
{
	struct pc_buf utc = PC_BUF_INIT, loc = PC_BUF_INIT;
	int rc;

	add_utc(&utc, t);
	pc_buf_addstr(out, utc.buf);
	rc = add_local(&loc, h, t, err);
	if (rc == 0 && strcmp(loc.buf, utc.buf) != 0)
		pc_buf_addf(out, " (%s, the maintainers' time)", loc.buf);
	pc_buf_release(&utc);
	pc_buf_release(&loc);
	return rc < 0 ? rc : 0;
}

/* The maintainers' time alone, or UTC without local_fn. */
static int add_when_local(struct pc_buf *out, const struct pc_notify_head *h,
			  int64_t t, struct pc_err *err)
{
	int rc = add_local(out, h, t, err);

	if (rc == 1)
		add_utc(out, t);
	return rc < 0 ? rc : 0;
}

static void add_plural(struct pc_buf *out, long long n, const char *what)
{
	pc_buf_addf(out, "%lld %s%s", n, what, n == 1 ? "" : "s");
}

/* From `from` to `to`: "2 days 3 hours", "5 hours 12 minutes",
 * "40 minutes"; "0 minutes" when to is earlier. */
static void add_elapsed(struct pc_buf *out, int64_t from, int64_t to)
{
	int64_t secs = clamp_time(to) - clamp_time(from);
	long long d, h, m;

	if (secs < 0)
		secs = 0;
	d = (long long)(secs / 86400);
	h = (long long)(secs % 86400 / 3600);
	m = (long long)(secs % 3600 / 60);
	if (d) {
		add_plural(out, d, "day");
		if (h) {
			pc_buf_addch(out, ' ');
			add_plural(out, h, "hour");
		}
	} else if (h) {
		add_plural(out, h, "hour");
		if (m) {
			pc_buf_addch(out, ' ');
			add_plural(out, m, "minute");
		}
	} else {
		add_plural(out, m, "minute");
	}
}

/* "2.5 business days", "1 business day"; one decimal, ".0" dropped. */
static void add_business_days(struct pc_buf *out, double days)
{
	long long tenths;

	if (!(days > 0)) /* also NaN */
		days = 0;
	if (days > 1e6)
		days = 1e6;
	tenths = (long long)(days * 10 + 0.5);
	if (tenths % 10)
		pc_buf_addf(out, "%lld.%lld business days", tenths / 10,
			    tenths % 10);
	else
		pc_buf_addf(out, "%lld business day%s", tenths / 10,
			    tenths == 10 ? "" : "s");
}

/* "8:00am" for minutes after midnight. */
static void add_clock12(struct pc_buf *out, int minutes)
{
	int h = minutes / 60 % 24, m = minutes % 60;

	pc_buf_addf(out, "%d:%02d%s", h % 12 ? h % 12 : 12, m,
		    h < 12 ? "am" : "pm");
}

/*
 * Office hours for people: "8:00am-5:00pm America/Los_Angeles", with the
 * days in front ("Sunday to Thursday, ") unless they are Monday to
 * Friday, the meaning of "business days".
 */
static void add_hours(struct pc_buf *out, const struct pc_prof_hours *hr)
{
	unsigned days = hr ? hr->days & 0x7fu : 0;
	int d, first = -1, last, starts = 0, n = 0, i = 0;

#define IN(day) ((days >> ((unsigned)(day) % 7)) & 1u)
	for (d = 0; d < 7; d++) {
		if (!IN(d))
			continue;
		n++;
		if (!IN(d + 6)) {
			starts++;
			first = d;
		}
	}
	if (days == 0x7fu) {
		pc_buf_addstr(out, "every day, ");
	} else if (days && days != PC_PROF_WEEKDAYS && starts == 1 && n > 1) {
		/* One run, across the weekend or not: "Sunday to Thursday". */
		for (last = first; IN(last + 1); last = (last + 1) % 7)
			;
		pc_buf_addf(out, "%s to %s, ", wday_name[first],
			    wday_name[last]);
	} else if (days && days != PC_PROF_WEEKDAYS) {
		/* Monday first, as the working week is written. */
		for (d = 1; d <= 7; d++) {
			if (!IN(d))
				continue;
			i++;
			pc_buf_addf(out, "%s%s",
				    i == 1 ? "" :
				    i == n ? " and " :
					     ", ",
				    wday_name[d % 7]);
		}
		pc_buf_addstr(out, ", ");
	}
#undef IN
	if (hr && hr->start >= 0 && hr->end > hr->start &&
	    !(hr->start == 0 && hr->end >= 1440)) {
		add_clock12(out, hr->start);
		pc_buf_addch(out, '-');
		add_clock12(out, hr->end);
		pc_buf_addch(out, ' ');
	}
	if (hr && hr->zone[0]) {
		char zone[PC_PROFILE_ZONE_MAX + 1];

		memcpy(zone, hr->zone, PC_PROFILE_ZONE_MAX);
		zone[PC_PROFILE_ZONE_MAX] = '\0';
		pc_mail_clean(out, zone, PC_PROFILE_ZONE_MAX);
	} else {
		pc_buf_addstr(out, "UTC");
	}
}

/* ---- provenance ---- */

/*
 * Where a value is written: `FILE, "HEADING"`, `FILE, line N` or `FILE`;
 * nothing (returns 0) when nothing is known.
 */
static int has_origin(const struct pc_notify_origin *o)
{
	return o->kind != PC_PROF_SRC_NONE && o->file && *o->file;
}

static int add_origin(struct pc_buf *out, const struct pc_notify_origin *o)
{
	size_t start = out->len;

	if (!has_origin(o))
		return 0;
	pc_mail_clean(out, o->file, PC_COMPOSE_TEXT_MAX);
	if (o->heading && *o->heading) {
		pc_buf_addstr(out, ", \"");
		pc_mail_clean(out, o->heading, PC_COMPOSE_TEXT_MAX);
		pc_buf_addch(out, '"');
	} else if (o->line) {
		pc_buf_addf(out, ", line %u", o->line);
	}
	return out->len > start;
}

/* " (ORIGIN)" or nothing. */
static void add_origin_paren(struct pc_buf *out,
			     const struct pc_notify_origin *o)
{
	struct pc_buf b = PC_BUF_INIT;

	if (add_origin(&b, o))
		pc_buf_addf(out, " (%s)", b.buf);
	pc_buf_release(&b);
}

/* Who says so, to start a sentence. */
static const char *who_asks(enum pc_prof_source kind)
{
	switch (kind) {
	case PC_PROF_SRC_OVERRIDE:
		return "The maintainers' local settings ask";
	case PC_PROF_SRC_DEFAULT:
		return "The subsystem's profile does not say; the kernel's "
		       "general guideline asks";
	case PC_PROF_SRC_SHORT:
	case PC_PROF_SRC_PROSE:
	case PC_PROF_SRC_MAINTAINERS:
	case PC_PROF_SRC_NONE:
		break;
	}
	return "The subsystem's profile asks";
}

/* ---- the body ---- */

/* A heading and its underline of dashes. */
static void heading(struct pc_buf *out, const char *title)
{
	size_t w = pc_mail_text_width(title, strlen(title)), i;

	pc_buf_addf(out, "%s\n", title);
	for (i = 0; i < w; i++)
		pc_buf_addch(out, '-');
	pc_buf_addch(out, '\n');
}

/* "Hello NAME," or "Hello,". */
static void greeting(struct pc_buf *out, const struct pc_notify_addr *a)
{
	char *name = pc_mail_clean_dup(a->name, PC_COMPOSE_NAME_MAX);

	if (*name)
		pc_mail_para(out, "", "", "Hello %s,", name);
	else
		pc_buf_addstr(out, "Hello,\n");
	free(name);
}

/* "Jane Doe <jane@example.com>", for the body. */
static void add_person(struct pc_buf *out, const struct pc_notify_addr *a)
{
	size_t n = pc_mail_clean(out, a->name, PC_COMPOSE_NAME_MAX);

	if (a->addr && *a->addr) {
		pc_buf_addstr(out, n ? " <" : "<");
		pc_mail_clean(out, a->addr, PC_COMPOSE_ADDR_MAX);
		pc_buf_addch(out, '>');
	}
}

/* ---- headers ---- */

/* ---- common parts of every mail ---- */

/* Checks the head and writes the action's Message-ID into msgid. */
static int head_check(const struct pc_notify_head *h, enum pc_mail_kind kind,
		      char *msgid, size_t len, struct pc_err *err)
{
	if (!pc_mail_addr_ok(h->from.addr))
		return pc_err_set(err, PC_EUSAGE,
				  "invalid from address: it must be a plain "
				  "ascii address");
	if (h->archive_url && !pc_archive_pattern_ok(h->archive_url))
		return pc_err_set(err, PC_EUSAGE,
				  "invalid archive url pattern: it needs one "
				  "'%%s' and no spaces");
	return pc_compose_message_id(msgid, len, pc_mail_kind_name(kind),
				     h->key, h->domain, err);
}

/* Date, Message-ID: the headers after Subject. */
static void headers_id(struct pc_buf *m, const struct pc_notify_head *h,
		       const char *msgid)
{
	struct pc_buf v = PC_BUF_INIT;

	add_rfc5322_date(&v, h->date);
	pc_mail_header(m, "Date", v.buf);
	pc_buf_reset(&v);
	pc_buf_addf(&v, "<%s>", msgid);
	pc_mail_header(m, "Message-ID", v.buf);
	pc_buf_release(&v);
}

/* MIME and patchclock headers, the empty line after them; series NULL:
 * the mail is about none. */
static void headers_tail(struct pc_buf *m, const char *series,
			 enum pc_mail_kind kind)
{
	pc_mail_header(m, "MIME-Version", "1.0");
	pc_mail_header(m, "Content-Type", "text/plain; charset=utf-8");
	pc_mail_header(m, "Content-Transfer-Encoding", "8bit");
	pc_mail_header(m, "Auto-Submitted",
		       series ? "auto-generated" : "auto-replied");
	if (series)
		pc_mail_header(m, "X-Patchclock-Series", series);
	pc_mail_header(m, "X-Patchclock-Action", pc_mail_kind_name(kind));
	pc_buf_addch(m, '\n');
}

static int addr_eq(const char *a, const char *b)
{
	return strlen(a) == strlen(b) && pc_mem_istarts(a, strlen(a), b);
}

/* A short, clean form of hostile text for error messages. */
static void err_quote(char *buf, size_t len, const char *s)
{
	struct pc_buf b = PC_BUF_INIT;

	pc_mail_clean(&b, s, 64);
	snprintf(buf, len, "%s", b.buf);
	pc_buf_release(&b);
}

/* Skips reply prefixes ("Re: RE:re:") of a cleaned subject. */
static const char *skip_re(const char *p)
{
	while (pc_mem_istarts(p, strlen(p), "re:")) {
		p += 3;
		while (*p == ' ')
			p++;
	}
	return p;
}

/* Subject: "Re: " and the subject without its own reply prefixes. */
static void subject_header(struct pc_buf *m, const char *subject)
{
	char *subj = pc_mail_clean_dup(subject, PC_COMPOSE_SUBJECT_MAX);
	struct pc_mail_hdr hd;

	pc_mail_hdr_start(&hd, m, "Subject");
	pc_mail_hdr_wordz(&hd, "Re:");
	pc_mail_hdr_text(&hd, skip_re(subj));
	pc_mail_hdr_end(&hd);
	free(subj);
}

/*
 * References: the anchor's own (the valid ones; when there are too many,
 * the first and the last, as RFC 5537 3.4.4 trims), then the anchor
 * (id, idlen), once.
 */
static void references_header(struct pc_buf *m,
			      const struct pc_notify_series *s, const char *id,
			      size_t idlen)
{
	const char **refs = xcalloc(s->nrefs + 1, sizeof(*refs));
	size_t *lens = xcalloc(s->nrefs + 1, sizeof(*lens));
	size_t nr = 0, i;
	struct pc_buf v = PC_BUF_INIT;
	struct pc_mail_hdr hd;

	for (i = 0; i < s->nrefs; i++) {
		const char *r;
		size_t rl;

		if (pc_mail_msgid_check(&r, &rl, s->refs[i]) < 0 ||
		    (rl == idlen && memcmp(r, id, rl) == 0))
			continue;
		refs[nr] = r;
		lens[nr++] = rl;
	}
	pc_mail_hdr_start(&hd, m, "References");
	for (i = 0; i < nr; i++) {
		if (nr > PC_COMPOSE_MAX_REFS - 1 && i > 0 &&
		    i < nr - (PC_COMPOSE_MAX_REFS - 2))
			continue;
		pc_buf_reset(&v);
		pc_buf_addf(&v, "<%.*s>", (int)lens[i], refs[i]);
		pc_mail_hdr_word(&hd, v.buf, v.len);
	}
	pc_buf_reset(&v);
	pc_buf_addf(&v, "<%.*s>", (int)idlen, id);
	pc_mail_hdr_word(&hd, v.buf, v.len);
	pc_mail_hdr_end(&hd);
	pc_buf_release(&v);
	free(refs);
	free(lens);
}

/*
 * The headers of a reply to series s: From, To, Cc, Subject, Date,
 * Message-ID, In-Reply-To, References, and the tail.
 */
static int reply_headers(struct pc_buf *m, const struct pc_notify_head *h,
			 const struct pc_notify_reply_opts *ro,
			 const struct pc_notify_series *s,
			 enum pc_mail_kind kind, const char *msgid,
			 struct pc_err *err)
{
	const struct pc_notify_addr **cc = NULL, *one;
	size_t ncc = 0, i, j, idlen, nlists;
	const char *id;
	char q[80];
	struct pc_buf v = PC_BUF_INIT;
	int rc;

	if (!pc_mail_addr_ok(s->author.addr)) {
		err_quote(q, sizeof(q), s->author.addr);
		return pc_err_set(err, PC_EPARSE,
				  "cannot write to author '%s': not a plain "
				  "ascii address",
				  q);
	}
	if ((rc = pc_mail_msgid_check(&id, &idlen, s->msgid)) < 0) {
		err_quote(q, sizeof(q), s->msgid);
		return pc_err_set(err, rc,
				  "cannot reply to message-id '%s': %s", q,
				  rc == PC_ELIMIT ? "too long" :
						    "not a valid message-id");
	}
	nlists = ro->reminder == PC_PROF_REMIND_LIST ? ro->nlists : 0;
	if (ro->nmaintainers > PC_COMPOSE_MAX_CC ||
	    nlists > PC_COMPOSE_MAX_CC ||
	    ro->nmaintainers + nlists > PC_COMPOSE_MAX_CC)
		return pc_err_set(err, PC_ELIMIT,
				  "cannot compose reply: more than %d cc "
				  "addresses",
				  PC_COMPOSE_MAX_CC);

	cc = xcalloc(ro->nmaintainers + nlists + 1, sizeof(*cc));
	for (i = 0; i < ro->nmaintainers + nlists; i++) {
		const struct pc_notify_addr *a =
			i < ro->nmaintainers ? &ro->maintainers[i] :
					       &ro->lists[i - ro->nmaintainers];

		if (!pc_mail_addr_ok(a->addr) ||
		    addr_eq(a->addr, s->author.addr) ||
		    addr_eq(a->addr, h->from.addr))
			continue;
		for (j = 0; j < ncc; j++)
			if (addr_eq(cc[j]->addr, a->addr))
				break;
		if (j == ncc)
			cc[ncc++] = a;
	}

	one = &h->from;
	pc_mail_header_mailboxes(m, "From", &one, 1);
	one = &s->author;
	pc_mail_header_mailboxes(m, "To", &one, 1);
	if (ncc)
		pc_mail_header_mailboxes(m, "Cc", cc, ncc);
	free(cc);

	subject_header(m, s->subject);
	headers_id(m, h, msgid);
	pc_buf_addf(&v, "<%.*s>", (int)idlen, id);
	pc_mail_header(m, "In-Reply-To", v.buf);
	references_header(m, s, id, idlen);
	pc_buf_reset(&v);
	pc_buf_addf(&v, "%" PRId64 " v%d", s->id, s->version);
	headers_tail(m, v.buf, kind);
	pc_buf_release(&v);
	return 0;
}

/* "  URL" on its own line(s), or nothing when too long for a line. */
static void link_line(struct pc_buf *out, const struct pc_notify_head *h,
		      const char *msgid, const char *indent)
{
	struct pc_buf u = PC_BUF_INIT;

	/* The pattern was checked already; this cannot fail. */
	pc_archive_url(&u, h->archive_url, msgid, NULL);
	if (u.len <= BODY_LINE_BYTES_MAX - strlen(indent))
		pc_mail_wrap(out, u.buf, indent, indent);
	pc_buf_release(&u);
}

/*
 * The subject to resend with: the patch tag gets RESEND after its PATCH
 * word (or in front), list tags before it are dropped, and a subject
 * without a patch tag gets "[PATCH RESEND]".
 */
static int patch_word(const char *w, size_t n)
{
	size_t i, slash = 0;

	if ((n == 5 && pc_mem_istarts(w, n, "patch")) ||
	    (n == 3 && pc_mem_istarts(w, n, "rfc")) ||
	    (n == 6 && pc_mem_istarts(w, n, "resend")) ||
	    (n > 5 && pc_mem_istarts(w, n, "patch") &&
	     (pc_isdigit((unsigned char)w[5]) || w[5] == 'v' || w[5] == 'V')))
		return 1;
	if (n > 1 && (w[0] == 'v' || w[0] == 'V')) {
		for (i = 1; i < n && pc_isdigit((unsigned char)w[i]); i++)
			;
		if (i == n)
			return 1;
	}
	for (i = 0; i < n; i++) {
		if (w[i] == '/')
			slash++;
		else if (!pc_isdigit((unsigned char)w[i]))
			return 0;
	}
	return slash == 1 && n > 2 && w[0] != '/' && w[n - 1] != '/';
}

static void add_resend_subject(struct pc_buf *out, const char *subj)
{
	const char *p = subj;

	while (*p == '[') {
		const char *close = strchr(p, ']'), *w = p + 1, *patch = NULL;
		int is_tag = 0, resend = 0;

		if (!close)
			break;
		while (w < close) {
			size_t n = strcspn(w, " ,]");

			if (n && patch_word(w, n)) {
				is_tag = 1;
				if (n == 6 && pc_mem_istarts(w, n, "resend"))
					resend = 1;
				if (n == 5 && pc_mem_istarts(w, n, "patch") &&
				    !patch)
					patch = w + n;
			}
			w += n;
			while (w < close && (*w == ' ' || *w == ','))
				w++;
		}
		if (is_tag) {
			if (resend) {
				pc_buf_add(out, p, (size_t)(close + 1 - p));
			} else if (patch) {
				pc_buf_add(out, p, (size_t)(patch - p));
				pc_buf_addstr(out, " RESEND");
				pc_buf_add(out, patch,
					   (size_t)(close + 1 - patch));
			} else {
				pc_buf_addstr(out, "[RESEND ");
				pc_buf_add(out, p + 1, (size_t)(close - p));
			}
			p = close + 1;
			while (*p == ' ')
				p++;
			if (*p)
				pc_buf_addf(out, " %s", p);
			return;
		}
		/* A list tag: the list adds it again. */
		p = close + 1;
		while (*p == ' ')
			p++;
	}
	pc_buf_addstr(out, "[PATCH RESEND]");
	if (*p)
		pc_buf_addf(out, " %s", p);
}

/* Whether the subject numbers a series of several patches. */
static int several_patches(const char *subj)
{
	struct pc_subject ps;

	if (pc_subject_parse(&ps, subj, strlen(subj), NULL) < 0)
		return 0;
	return (ps.flags & PC_SUBJ_NUMBERED) && ps.total > 1;
}

/* The cadence paragraph and its source block. */
static void add_source_block(struct pc_buf *body,
			     const struct pc_notify_origin *o)
{
	struct pc_buf b = PC_BUF_INIT;

	if (!add_origin(&b, o)) {
		pc_buf_release(&b);
		return;
	}
	pc_buf_addch(body, '\n');
	pc_mail_wrap(body, b.buf, "  ", "  ");
	if ((o->kind == PC_PROF_SRC_PROSE || o->kind == PC_PROF_SRC_DEFAULT) &&
	    o->quote && *o->quote) {
		pc_buf_reset(&b);
		pc_buf_addch(&b, '"');
		pc_mail_clean(&b, o->quote, PC_COMPOSE_TEXT_MAX);
		pc_buf_addch(&b, '"');
		pc_mail_wrap(body, b.buf, "  ", "  ");
	}
	pc_buf_release(&b);
}

static int resend_body(struct pc_buf *body, const struct pc_notify_resend *r,
		       const char *anchor, struct pc_err *err)
{
	const struct pc_notify_head *h = &r->head;
	char *subj =
		pc_mail_clean_dup(r->series.subject, PC_COMPOSE_SUBJECT_MAX);
	struct pc_buf t = PC_BUF_INIT, d = PC_BUF_INIT;
	const char *s = skip_re(subj);
	size_t i;
	int rc, several = several_patches(s);

	greeting(body, &r->series.author);
	pc_buf_addch(body, '\n');
	if ((rc = add_when(&t, h, r->series.posted, err)) < 0)
		goto out;
	if (r->nth > 1) {
		pc_buf_addstr(&d, "has still had no response after ");
		add_plural(&d, r->nth - 1, "earlier reminder");
	} else if (r->wait_from > r->series.posted) {
		pc_buf_addstr(&d, "the last message in its thread is yours, "
				  "of ");
		if ((rc = add_when(&d, h, r->wait_from, err)) < 0)
			goto out;
		pc_buf_addstr(&d, "; nobody has answered it since");
	} else {
		pc_buf_addstr(&d, "has had no response yet");
	}
	pc_mail_para(body, "", "",
		     "Your series \"%s\" was posted on %s and %s:", s, t.buf,
		     d.buf);
	pc_buf_addch(body, '\n');
	link_line(body, h, anchor, "  ");

	/* The cadence and where it is written. */
	pc_buf_reset(&d);
	pc_profile_format_duration(&d, &r->cadence);
	pc_buf_addch(body, '\n');
	pc_mail_para(body, "", "",
		     "%s for a resend or a ping after %s without a response%s",
		     who_asks(r->cadence_from.kind),
		     d.len ? d.buf : "some time",
		     has_origin(&r->cadence_from) ? ":" : ".");
	add_source_block(body, &r->cadence_from);

	/* How it was counted. */
	pc_buf_reset(&t);
	if (r->cadence.unit == PC_PROF_UNIT_BUSINESS_DAYS) {
		pc_buf_addf(&t,
			    "The time was counted in the maintainers' "
			    "business days and zone: %s, ",
			    d.buf);
		add_hours(&t, r->hours);
		add_origin_paren(&t, &r->hours_from);
		pc_buf_addch(&t, '.');
	} else if (r->cadence.unit != PC_PROF_UNIT_NONE && r->hours &&
		   (r->hours->days || r->hours->start >= 0 ||
		    r->hours->zone[0])) {
		pc_buf_addf(&t,
			    "The time was counted in calendar time (%s), "
			    "and this reminder waited for the maintainers' "
			    "office hours: ",
			    d.buf);
		add_hours(&t, r->hours);
		add_origin_paren(&t, &r->hours_from);
		pc_buf_addch(&t, '.');
	} else if (r->cadence.unit != PC_PROF_UNIT_NONE) {
		/* The profile states no office hours: say nothing of
		 * them. */
		pc_buf_addf(&t, "The time was counted in calendar time (%s).",
			    d.buf);
	}
	if (r->due) {
		if (t.len)
			pc_buf_addch(&t, ' ');
		pc_buf_addstr(&t, "The series was due on ");
		if ((rc = add_when(&t, h, r->due, err)) < 0)
			goto out;
		pc_buf_addch(&t, '.');
	}
	if (t.len) {
		pc_buf_addch(body, '\n');
		pc_mail_wrap(body, t.buf, "", "");
	}

	/* Whom to write to, when they are not in Cc. */
	if (r->private_reminder) {
		pc_buf_addch(body, '\n');
		pc_mail_para(
			body, "", "",
			"The profile prefers a private reminder, so this mail goes "
			"to you alone, off the list. To ping, write to the "
			"maintainers directly%s",
			r->nwrite_to ? ":" : ".");
	} else if (r->nwrite_to) {
		pc_buf_addch(body, '\n');
		pc_mail_para(
			body, "", "",
			"This mail goes to you alone. The maintainers of this "
			"code (MAINTAINERS) are:");
	}
	if (r->nwrite_to) {
		pc_buf_addch(body, '\n');
		for (i = 0; i < r->nwrite_to; i++) {
			pc_buf_reset(&t);
			add_person(&t, &r->write_to[i]);
			if (t.len)
				pc_mail_wrap(body, t.buf, "  ", "    ");
		}
	}

	/* Late for the cycle. */
	if (r->late) {
		char *win =
			pc_mail_clean_dup(r->late_window, PC_COMPOSE_TEXT_MAX);
		struct pc_buf o = PC_BUF_INIT;

		pc_buf_reset(&t);
		pc_buf_reset(&d);
		pc_profile_format_deadline(&d, &r->deadline);
		if (d.len)
			pc_buf_addstr(&t, d.buf);
		if (add_origin(&o, &r->deadline_from))
			pc_buf_addf(&t, "%s%s", t.len ? "; " : "", o.buf);
		pc_buf_addch(body, '\n');
		pc_buf_reset(&d);
		if (*win)
			pc_buf_addf(&d, "the %s merge window", win);
		else
			pc_buf_addstr(&d, "a later merge window");
		pc_mail_para(
			body, "", "",
			"The series adds a feature and was posted after the "
			"profile's last -rc for new features%s%s%s, so it now "
			"targets %s, not the next one.",
			t.len ? " (" : "", t.buf, t.len ? ")" : "", d.buf);
		pc_buf_release(&o);
		free(win);
	}

	/* Repeated silence: the trusted reviewers. */
	if (r->nth > 1 && r->ntrusted) {
		pc_buf_reset(&t);
		add_origin_paren(&t, &r->trusted_from);
		pc_buf_addch(body, '\n');
		pc_mail_para(
			body, "", "",
			"A review from one of the profile's trusted reviewers "
			"may help the maintainers take the series%s:",
			t.buf);
		pc_buf_addch(body, '\n');
		for (i = 0; i < r->ntrusted; i++) {
			pc_buf_reset(&t);
			add_person(&t, &r->trusted[i]);
			if (t.len)
				pc_mail_wrap(body, t.buf, "  ", "    ");
		}
	}

	/* What to do. */
	pc_buf_reset(&t);
	add_resend_subject(&t, s);
	pc_buf_addch(body, '\n');
	pc_mail_para(body, "", "",
		     "What to do now: if it still applies, resend the series "
		     "unchanged, with the same subject and RESEND in the tag:");
	pc_buf_addch(body, '\n');
	/* One line, however long: it is copied into a Subject. */
	pc_buf_addf(body, "  %s\n", t.buf);
	pc_buf_addch(body, '\n');
	if (r->private_reminder)
		pc_mail_para(
			body, "", "",
			"%sor remind the maintainers in a private mail, as the "
			"profile prefers.",
			several ? "and the same for each of its patches; " :
				  "");
	else if (several)
		pc_mail_para(
			body, "", "",
			"and the same for each of its patches; or ping the "
			"maintainers with a short reply to it on the list.");
	else
		pc_mail_para(
			body, "", "",
			"Or ping the maintainers with a short reply to it on the "
			"list.");
	rc = 0;
out:
	pc_buf_release(&t);
	pc_buf_release(&d);
	free(subj);
	return rc;
}

int pc_compose_resend(struct pc_buf *out, const struct pc_notify_resend *r,
		      struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE];
	struct pc_buf m = PC_BUF_INIT;
	const char *id;
	size_t idlen;
	char *anchor = NULL;
	int rc;

	assert(out && r);
	if (r->ntrusted > PC_COMPOSE_MAX_TRUSTED)
		return pc_err_set(err, PC_ELIMIT,
				  "cannot compose reminder: more than %d "
				  "trusted reviewers",
				  PC_COMPOSE_MAX_TRUSTED);
	if ((rc = head_check(&r->head, PC_MAIL_RESEND, msgid, sizeof(msgid),
			     err)) < 0 ||
	    (rc = reply_headers(&m, &r->head, &r->reply, &r->series,
				PC_MAIL_RESEND, msgid, err)) < 0)
		goto out;
	/* reply_headers() checked the anchor. */
	pc_mail_msgid_check(&id, &idlen, r->series.msgid);
	anchor = xmemdupz(id, idlen);
	if ((rc = resend_body(&m, r, anchor, err)) < 0)
		goto out;
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, signature);
	pc_buf_add(out, m.buf, m.len);
out:
	free(anchor);
	pc_buf_release(&m);
	return rc;
}

int pc_compose_too_soon(struct pc_buf *out, const struct pc_notify_too_soon *ts,
			struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE];
	struct pc_buf m = PC_BUF_INIT, a = PC_BUF_INIT, b = PC_BUF_INIT,
		      d = PC_BUF_INIT;
	const struct pc_notify_head *h = &ts->head;
	const char *id;
	size_t idlen;
	char *anchor = NULL;
	int rc;

	assert(out && ts);
	if ((rc = head_check(h, PC_MAIL_TOO_SOON, msgid, sizeof(msgid), err)) <
		    0 ||
	    (rc = reply_headers(&m, h, &ts->reply, &ts->series,
				PC_MAIL_TOO_SOON, msgid, err)) < 0)
		goto out;
	pc_mail_msgid_check(&id, &idlen, ts->series.msgid);
	anchor = xmemdupz(id, idlen);

	greeting(&m, &ts->series.author);
	pc_buf_addch(&m, '\n');
	if ((rc = add_when(&a, h, ts->series.posted, err)) < 0 ||
	    (rc = add_when(&b, h, ts->prev_posted, err)) < 0)
		goto out;
	add_elapsed(&d, ts->prev_posted, ts->series.posted);
	pc_mail_para(
		&m, "", "",
		"v%d of this series was posted on %s, %s after v%d, which was "
		"posted on %s:",
		ts->series.version, a.buf, d.buf, ts->prev_version, b.buf);
	pc_buf_addch(&m, '\n');
	link_line(&m, h, anchor, "  ");

	pc_buf_reset(&d);
	pc_profile_format_duration(&d, &ts->repost_min);
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "",
		     "%s for at least %s between two postings of a series%s",
		     who_asks(ts->repost_from.kind),
		     d.len ? d.buf : "some time",
		     has_origin(&ts->repost_from) ? ":" : ".");
	add_source_block(&m, &ts->repost_from);
	pc_buf_addch(&m, '\n');
	pc_mail_para(
		&m, "", "",
		"Please give reviewers that long to respond to one version "
		"before posting the next; there is no need to resend this one.");
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	free(anchor);
	pc_buf_release(&m);
	pc_buf_release(&a);
	pc_buf_release(&b);
	pc_buf_release(&d);
	return rc;
}

/* ---- the boot-test report ---- */

int pc_compose_boot_report(struct pc_buf *out,
			   const struct pc_notify_boot_report *b,
			   struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE];
	struct pc_buf m = PC_BUF_INIT;
	const struct pc_notify_head *h = &b->head;
	char *reason = NULL;
	int rc;

	assert(out && b);
	if ((rc = head_check(h, PC_MAIL_BOOT_REPORT, msgid, sizeof(msgid),
			     err)) < 0 ||
	    (rc = reply_headers(&m, h, &b->reply, &b->series,
				PC_MAIL_BOOT_REPORT, msgid, err)) < 0)
		goto out;
	greeting(&m, &b->series.author);
	pc_buf_addch(&m, '\n');
	pc_mail_para(
		&m, "", "",
		"patchclock applied v%d of this series to the kernel tree, built "
		"it (tinyconfig with the NVDIMM options) and booted it in QEMU "
		"with two emulated NVDIMMs.",
		b->series.version);
	pc_buf_addch(&m, '\n');
	if (b->passed) {
		pc_mail_para(&m, "", "", "The boot test passed.");
	} else {
		reason = pc_mail_clean_dup(b->reason, PC_COMPOSE_REASON_MAX);
		pc_mail_para(&m, "", "", "The boot test failed: %s",
			     *reason ? reason : "see the checks below.");
	}
	if (b->summary && *b->summary) {
		const char *p = b->summary;
		int n = 0;

		/* Each line cleaned like any text from outside (it quotes
		 * the guest's output), at most 40 of them. */
		pc_buf_addstr(&m, "\nChecks:\n");
		while (*p && n++ < 40) {
			size_t l = strcspn(p, "\n");
			char *line = xmemdupz(p, l);

			pc_buf_addstr(&m, "  ");
			pc_mail_clean(&m, line, 200);
			pc_buf_addch(&m, '\n');
			free(line);
			p += l + (p[l] == '\n');
		}
	}
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	free(reason);
	pc_buf_release(&m);
	return rc;
}

/* ---- the answer to commands not understood ---- */

int pc_compose_command_help(struct pc_buf *out,
			    const struct pc_notify_command_help *c,
			    struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE], q[80];
	struct pc_buf m = PC_BUF_INIT, v = PC_BUF_INIT;
	const struct pc_notify_head *h = &c->head;
	struct pc_notify_series s = { 0 };
	const struct pc_notify_addr *one;
	const char *id, *p;
	size_t idlen, i;
	int rc;

	assert(out && c);
	if ((rc = head_check(h, PC_MAIL_COMMAND_HELP, msgid, sizeof(msgid),
			     err)) < 0)
		goto out;
	if (!pc_mail_addr_ok(c->to.addr)) {
		err_quote(q, sizeof(q), c->to.addr);
		rc = pc_err_set(err, PC_EPARSE,
				"cannot write to '%s': not a plain ascii "
				"address",
				q);
		goto out;
	}
	if ((rc = pc_mail_msgid_check(&id, &idlen, c->msgid)) < 0) {
		err_quote(q, sizeof(q), c->msgid);
		rc = pc_err_set(err, rc, "cannot reply to message-id '%s'", q);
		goto out;
	}
	one = &h->from;
	pc_mail_header_mailboxes(&m, "From", &one, 1);
	one = &c->to;
	pc_mail_header_mailboxes(&m, "To", &one, 1);
	subject_header(&m, c->subject ? c->subject : "");
	headers_id(&m, h, msgid);
	pc_buf_addf(&v, "<%.*s>", (int)idlen, id);
	pc_mail_header(&m, "In-Reply-To", v.buf);
	s.refs = c->refs;
	s.nrefs = c->nrefs;
	references_header(&m, &s, id, idlen);
	headers_tail(&m, NULL, PC_MAIL_COMMAND_HELP);

	greeting(&m, &c->to);
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "", "patchclock did not act on %s of your mail:",
		     c->nlines == 1 ? "this line" : "these lines");
	pc_buf_addch(&m, '\n');
	for (i = 0; i < c->nlines && i < 16; i++) {
		pc_buf_addstr(&m, "  patchclock: ");
		pc_mail_clean(&m, c->lines[i], 200);
		pc_buf_addstr(&m, "\n    (");
		pc_mail_clean(&m, c->whys[i], 200);
		pc_buf_addstr(&m, ")\n");
	}
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "",
		     "It reads one command per line, in a reply in a series' "
		     "thread or to one of its own mails. Commands about a "
		     "series count from the maintainers and reviewers (M: and "
		     "R:) of its MAINTAINERS entry; opt-out and opt-in act on "
		     "your own address.");
	pc_buf_addch(&m, '\n');
	for (p = pc_cmd_usage; *p;) {
		size_t l = strcspn(p, "\n");

		pc_buf_addstr(&m, "  ");
		pc_buf_add(&m, p, l);
		pc_buf_addch(&m, '\n');
		p += l + (p[l] == '\n');
	}
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "", "patchclock says this to you only once.");
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	pc_buf_release(&v);
	pc_buf_release(&m);
	return rc;
}

/* ---- the digest ---- */

struct sorted_item {
	const struct pc_notify_item *it;
	size_t idx;
};

static int item_cmp(const void *x, const void *y)
{
	const struct sorted_item *a = x, *b = y;
	const struct pc_notify_series *sa = &a->it->series,
				      *sb = &b->it->series;

	if (a->it->kind != b->it->kind)
		return a->it->kind < b->it->kind ? -1 : 1;
	if (sa->posted != sb->posted)
		return sa->posted < sb->posted ? -1 : 1;
	if (sa->id != sb->id)
		return sa->id < sb->id ? -1 : 1;
	if (sa->version != sb->version)
		return sa->version < sb->version ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static const char *const section_title[PC_NOTIFY_NKINDS] = {
	"Overdue, oldest first", "Ready to apply", "Late for the cycle",
	"Too-soon reposts",	 "Boot tests",
};

/* "2 overdue", "1 ready to apply", ... for the subject and intro. */
static void add_count(struct pc_buf *out, enum pc_notify_kind k, size_t n)
{
	static const char *const what[PC_NOTIFY_NKINDS] = {
		"overdue", "ready to apply", "late for the cycle", "too soon",
		NULL,
	};

	if (what[k])
		pc_buf_addf(out, "%zu %s", n, what[k]);
	else
		add_plural(out, (long long)n, "boot test");
}

/* The kind's own line of an item. */
static void add_item_facts(struct pc_buf *t, const struct pc_notify_item *it)
{
	struct pc_buf d = PC_BUF_INIT;
	char *s;

	switch (it->kind) {
	case PC_NOTIFY_OVERDUE:
		pc_buf_addstr(t, "overdue by ");
		add_business_days(t, it->overdue_days);
		break;
	case PC_NOTIFY_READY:
		pc_buf_addstr(t, "review rules met");
		if (it->npatches)
			pc_buf_addf(t, ": %u of %u patches reviewed",
				    it->reviewed, it->npatches);
		break;
	case PC_NOTIFY_LATE:
		pc_buf_addstr(t, "a feature posted after the last -rc for new "
				 "features");
		pc_profile_format_deadline(&d, &it->deadline);
		if (d.len)
			pc_buf_addf(t, " (%s)", d.buf);
		s = pc_mail_clean_dup(it->late_window, PC_COMPOSE_TEXT_MAX);
		if (*s)
			pc_buf_addf(t, "; it targets the %s merge window", s);
		free(s);
		break;
	case PC_NOTIFY_TOO_SOON:
		pc_buf_addstr(t, "posted ");
		add_elapsed(t, it->prev_posted, it->series.posted);
		pc_buf_addf(t, " after v%d", it->prev_version);
		pc_profile_format_duration(&d, &it->repost_min);
		if (d.len)
			pc_buf_addf(t, "; the profile asks for at least %s",
				    d.buf);
		break;
	case PC_NOTIFY_BOOT:
		pc_buf_addf(t, "boot test %s",
			    it->boot_passed ? "passed" : "failed");
		s = pc_mail_clean_dup(it->boot_reason, PC_COMPOSE_REASON_MAX);
		if (*s)
			pc_buf_addf(t, ": %s", s);
		free(s);
		break;
	case PC_NOTIFY_NKINDS:
		break;
	}
	pc_buf_release(&d);
}

static int digest_item(struct pc_buf *body, const struct pc_notify_head *h,
		       const struct pc_notify_item *it, struct pc_err *err)
{
	struct pc_buf t = PC_BUF_INIT;
	const struct pc_notify_series *s = &it->series;
	const char *id;
	size_t idlen;
	int rc;

	pc_mail_clean(&t, s->subject, PC_COMPOSE_SUBJECT_MAX);
	pc_mail_wrap(body, t.buf, "- ", "  ");
	pc_buf_reset(&t);
	pc_buf_addf(&t, "v%d by ", s->version);
	add_person(&t, &s->author);
	pc_buf_addstr(&t, ", posted ");
	if ((rc = add_when_local(&t, h, s->posted, err)) < 0)
		goto out;
	pc_mail_wrap(body, t.buf, "  ", "  ");
	pc_buf_reset(&t);
	add_item_facts(&t, it);
	pc_mail_wrap(body, t.buf, "  ", "  ");
	/* The Message-ID is body text here: a strange one is shown
	 * cleaned, and its link percent-encodes whatever it holds. */
	pc_buf_reset(&t);
	if (pc_mail_msgid_check(&id, &idlen, s->msgid) == 0) {
		char *bare = xmemdupz(id, idlen);

		link_line(body, h, bare, "  ");
		pc_buf_addf(&t, "Message-ID: <%s>", bare);
		free(bare);
	} else {
		if (s->msgid && *s->msgid &&
		    strlen(s->msgid) <= PC_COMPOSE_ID_MAX)
			link_line(body, h, s->msgid, "  ");
		pc_buf_addstr(&t, "Message-ID: <");
		pc_mail_clean(&t, s->msgid, PC_COMPOSE_ID_MAX);
		pc_buf_addch(&t, '>');
	}
	pc_mail_wrap(body, t.buf, "  ", "  ");
	rc = 0;
out:
	pc_buf_release(&t);
	return rc;
}

int pc_compose_digest(struct pc_buf *out, const struct pc_notify_digest *dg,
		      struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE], q[80];
	const struct pc_notify_head *h = &dg->head;
	struct pc_buf m = PC_BUF_INIT, t = PC_BUF_INIT, ids = PC_BUF_INIT;
	struct sorted_item *si = NULL;
	size_t count[PC_NOTIFY_NKINDS] = { 0 }, i, j, k;
	const struct pc_notify_addr *one;
	struct pc_mail_hdr hd;
	int rc, first;

	assert(out && dg);
	if (!dg->nitems)
		return PC_COMPOSE_NOTHING;
	if (dg->nitems > PC_COMPOSE_MAX_ITEMS)
		return pc_err_set(err, PC_ELIMIT,
				  "cannot compose digest: more than %d items",
				  PC_COMPOSE_MAX_ITEMS);
	if ((rc = head_check(h, PC_MAIL_DIGEST, msgid, sizeof(msgid), err)) < 0)
		return rc;
	if (!pc_mail_addr_ok(dg->to.addr)) {
		err_quote(q, sizeof(q), dg->to.addr);
		return pc_err_set(err, PC_EPARSE,
				  "cannot write to maintainer '%s': not a "
				  "plain ascii address",
				  q);
	}
	for (i = 0; i < dg->nitems; i++)
		if ((unsigned)dg->items[i].kind >= PC_NOTIFY_NKINDS)
			return pc_err_set(err, PC_EUSAGE,
					  "cannot compose digest: item %zu has "
					  "an unknown kind",
					  i);
	si = xcalloc(dg->nitems, sizeof(*si));
	for (i = 0; i < dg->nitems; i++) {
		si[i].it = &dg->items[i];
		si[i].idx = i;
		count[dg->items[i].kind]++;
	}
	qsort(si, dg->nitems, sizeof(*si), item_cmp);

	/* Headers. */
	one = &h->from;
	pc_mail_header_mailboxes(&m, "From", &one, 1);
	one = &dg->to;
	pc_mail_header_mailboxes(&m, "To", &one, 1);
	for (k = 0, first = 1; k < PC_NOTIFY_NKINDS; k++) {
		if (!count[k])
			continue;
		pc_buf_addstr(&t, first ? "" : ", ");
		add_count(&t, k, count[k]);
		first = 0;
	}
	pc_mail_hdr_start(&hd, &m, "Subject");
	pc_mail_hdr_wordz(&hd, "[patchclock]");
	pc_mail_hdr_text(&hd, t.buf);
	pc_mail_hdr_end(&hd);
	headers_id(&m, h, msgid);
	for (i = 0; i < dg->nitems; i++) {
		const struct pc_notify_series *s = &si[i].it->series;

		for (j = 0; j < i; j++)
			if (si[j].it->series.id == s->id &&
			    si[j].it->series.version == s->version)
				break;
		if (j < i)
			continue;
		pc_buf_addf(&ids, "%s%" PRId64 " v%d", ids.len ? ", " : "",
			    s->id, s->version);
	}
	headers_tail(&m, ids.buf, PC_MAIL_DIGEST);

	/* Body. */
	greeting(&m, &dg->to);
	pc_buf_addch(&m, '\n');
	{
		struct pc_buf when = PC_BUF_INIT;

		rc = add_when_local(&when, h, h->date, err);
		if (rc == 0)
			pc_mail_para(
				&m, "", "",
				"This is patchclock's digest as of %s: %s.",
				when.buf, t.buf);
		pc_buf_release(&when);
		if (rc < 0)
			goto out;
	}
	for (i = 0; i < dg->nitems; i++) {
		const struct pc_notify_item *it = si[i].it;

		if (i == 0 || si[i - 1].it->kind != it->kind) {
			pc_buf_reset(&t);
			pc_buf_addf(&t, "%s (%zu)", section_title[it->kind],
				    count[it->kind]);
			pc_buf_addch(&m, '\n');
			heading(&m, t.buf);
		}
		pc_buf_addch(&m, '\n');
		if ((rc = digest_item(&m, h, it, err)) < 0)
			goto out;
	}
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	free(si);
	pc_buf_release(&m);
	pc_buf_release(&t);
	pc_buf_release(&ids);
	return rc;
}

/* The header line at p: its length without CR LF in *len; returns the
 * start of the next line. */
static const char *header_line(const char *p, const char *end, size_t *len)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;

	*len = (size_t)(e - p) - (e > p && e[-1] == '\r');
	return nl ? nl + 1 : end;
}

int pc_compose_subject_of(struct pc_buf *out, const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len, *next;
	struct pc_buf v = PC_BUF_INIT;
	size_t n, i;

	/* Up to the empty line that ends the header section. */
	while (p < end && *p != '\n' && *p != '\r') {
		next = header_line(p, end, &n);
		if (n < 8 || strncasecmp(p, "Subject:", 8)) {
			p = next;
			continue;
		}
		pc_buf_add(&v, p + 8, n - 8);
		/* Its folded lines: unfolding removes the line break only
		 * (RFC 5322 2.2.3). */
		for (p = next; p < end && (*p == ' ' || *p == '\t'); p = next) {
			next = header_line(p, end, &n);
			pc_buf_add(&v, p, n);
		}
		for (i = 0; i < v.len && (v.buf[i] == ' ' || v.buf[i] == '\t');)
			i++;
		pc_rfc2047_decode(out, v.buf + i, v.len - i);
		pc_buf_release(&v);
		return 1;
	}
	return 0;
}
