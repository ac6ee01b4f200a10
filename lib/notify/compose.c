// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parts every mail patchclock sends is made of (see compose.h):
 * times, provenance, greetings, the headers of a reply and its tail, the
 * signature; the letters themselves are compose_*.c. Each is written
 * with the generic mail writer of mailtext.h (cleaning, RFC 2047, header
 * folding, body wrapping at 72 columns). A mail is built in a local
 * buffer and appended to the caller's only when complete, so an error
 * leaves the caller's buffer as it was.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compose.h"
#include "compose_internal.h"
#include "mail/archive.h"
#include "mail/rfc2047.h"
#include "sla/bizclock.h"
#include "util/hash.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

const char pc_compose__signature[] =
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
int pc_compose__add_when(struct pc_buf *out, const struct pc_notify_head *h,
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
int pc_compose__add_when_local(struct pc_buf *out,
			       const struct pc_notify_head *h, int64_t t,
			       struct pc_err *err)
{
	int rc = add_local(out, h, t, err);

	if (rc == 1)
		add_utc(out, t);
	return rc < 0 ? rc : 0;
}

void pc_compose__add_plural(struct pc_buf *out, long long n, const char *what)
{
	pc_buf_addf(out, "%lld %s%s", n, what, n == 1 ? "" : "s");
}

char *pc_compose__and_list(const char *csv, size_t *n_out)
{
	struct pc_buf out = PC_BUF_INIT;
	const char *p = csv;
	size_t n = 0, i, total = 0;

	for (i = 0; csv[i]; i++)
		total += csv[i] == ',';
	total++;
	while (*p) {
		size_t len = strspn(p, "0123456789");

		if (len) {
			if (n)
				pc_buf_addstr(&out,
					      n + 1 == total ? " and " : ", ");
			pc_buf_add(&out, p, len);
			n++;
		}
		p += len;
		p += strcspn(p, ",");
		if (*p)
			p++;
	}
	*n_out = n;
	return pc_buf_detach(&out, NULL);
}

/* From `from` to `to`: "2 days 3 hours", "5 hours 12 minutes",
 * "40 minutes"; "0 minutes" when to is earlier. */
void pc_compose__add_elapsed(struct pc_buf *out, int64_t from, int64_t to)
{
	int64_t secs = clamp_time(to) - clamp_time(from);
	long long d, h, m;

	if (secs < 0)
		secs = 0;
	d = (long long)(secs / 86400);
	h = (long long)(secs % 86400 / 3600);
	m = (long long)(secs % 3600 / 60);
	if (d) {
		pc_compose__add_plural(out, d, "day");
		if (h) {
			pc_buf_addch(out, ' ');
			pc_compose__add_plural(out, h, "hour");
		}
	} else if (h) {
		pc_compose__add_plural(out, h, "hour");
		if (m) {
			pc_buf_addch(out, ' ');
			pc_compose__add_plural(out, m, "minute");
		}
	} else {
		pc_compose__add_plural(out, m, "minute");
	}
}

/* "2.5 business days", "1 business day"; one decimal, ".0" dropped. */
void pc_compose__add_business_days(struct pc_buf *out, double days)
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
void pc_compose__add_hours(struct pc_buf *out, const struct pc_prof_hours *hr)
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
int pc_compose__has_origin(const struct pc_notify_origin *o)
{
	return o->kind != PC_PROF_SRC_NONE && o->file && *o->file;
}

int pc_compose__add_origin(struct pc_buf *out, const struct pc_notify_origin *o)
{
	size_t start = out->len;

	if (!pc_compose__has_origin(o))
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
void pc_compose__add_origin_paren(struct pc_buf *out,
				  const struct pc_notify_origin *o)
{
	struct pc_buf b = PC_BUF_INIT;

	if (pc_compose__add_origin(&b, o))
		pc_buf_addf(out, " (%s)", b.buf);
	pc_buf_release(&b);
}

/* Who says so, to start a sentence. */
const char *pc_compose__who_asks(enum pc_prof_source kind)
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
void pc_compose__heading(struct pc_buf *out, const char *title)
{
	size_t w = pc_mail_text_width(title, strlen(title)), i;

	pc_buf_addf(out, "%s\n", title);
	for (i = 0; i < w; i++)
		pc_buf_addch(out, '-');
	pc_buf_addch(out, '\n');
}

char *pc_compose__spoken_name(const char *name)
{
	const char *comma = name ? strchr(name, ',') : NULL, *first;

	if (!name)
		return xstrdup("");
	if (!comma || comma == name || strchr(comma + 1, ',') ||
	    strpbrk(name, "@()\"<>"))
		return xstrdup(name);
	for (first = comma + 1; *first == ' '; first++)
		;
	if (!*first || comma[-1] == ' ')
		return xstrdup(name);
	return xasprintf("%s %.*s", first, (int)(comma - name), name);
}

/* "Hello NAME," or "Hello,". */
void pc_compose__greeting(struct pc_buf *out, const struct pc_notify_addr *a)
{
	char *spoken = pc_compose__spoken_name(a->name);
	char *name = pc_mail_clean_dup(spoken, PC_COMPOSE_NAME_MAX);

	free(spoken);

	/* A display name that is an address ("xinlei.lee@mediatek.com")
	 * is no name. */
	if (*name && !(strchr(name, '@') && !strchr(name, ' ')))
		pc_mail_para(out, "", "", "Hello %s,", name);
	else
		pc_buf_addstr(out, "Hello,\n");
	free(name);
}

/* "Jane Doe <jane@example.com>", for the body. */
void pc_compose__add_person(struct pc_buf *out, const struct pc_notify_addr *a)
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
int pc_compose__head_check(const struct pc_notify_head *h,
			   enum pc_mail_kind kind, char *msgid, size_t len,
			   struct pc_err *err)
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
void pc_compose__headers_id(struct pc_buf *m, const struct pc_notify_head *h,
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
void pc_compose__headers_tail(struct pc_buf *m, const char *series,
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
void pc_compose__err_quote(char *buf, size_t len, const char *s)
{
	struct pc_buf b = PC_BUF_INIT;

	pc_mail_clean(&b, s, 64);
	snprintf(buf, len, "%s", b.buf);
	pc_buf_release(&b);
}

/* Skips reply prefixes ("Re: RE:re:") of a cleaned subject. */
const char *pc_compose__skip_re(const char *p)
{
	while (pc_mem_istarts(p, strlen(p), "re:")) {
		p += 3;
		while (*p == ' ')
			p++;
	}
	return p;
}

/* Subject: "Re: " and the subject without its own reply prefixes. */
void pc_compose__subject_header(struct pc_buf *m, const char *subject)
{
	char *subj = pc_mail_clean_dup(subject, PC_COMPOSE_SUBJECT_MAX);
	struct pc_mail_hdr hd;

	pc_mail_hdr_start(&hd, m, "Subject");
	pc_mail_hdr_wordz(&hd, "Re:");
	pc_mail_hdr_text(&hd, pc_compose__skip_re(subj));
	pc_mail_hdr_end(&hd);
	free(subj);
}

/*
 * References: the anchor's own (the valid ones; when there are too many,
 * the first and the last, as RFC 5537 3.4.4 trims), then the anchor
 * (id, idlen), once.
 */
void pc_compose__references_header(struct pc_buf *m,
				   const struct pc_notify_series *s,
				   const char *id, size_t idlen)
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
int pc_compose__reply_headers(struct pc_buf *m, const struct pc_notify_head *h,
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
		pc_compose__err_quote(q, sizeof(q), s->author.addr);
		return pc_err_set(err, PC_EPARSE,
				  "cannot write to author '%s': not a plain "
				  "ascii address",
				  q);
	}
	if ((rc = pc_mail_msgid_check(&id, &idlen, s->msgid)) < 0) {
		pc_compose__err_quote(q, sizeof(q), s->msgid);
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

	pc_compose__subject_header(m, s->subject);
	pc_compose__headers_id(m, h, msgid);
	pc_buf_addf(&v, "<%.*s>", (int)idlen, id);
	pc_mail_header(m, "In-Reply-To", v.buf);
	pc_compose__references_header(m, s, id, idlen);
	pc_buf_reset(&v);
	pc_buf_addf(&v, "%" PRId64 " v%d", s->id, s->version);
	pc_compose__headers_tail(m, v.buf, kind);
	pc_buf_release(&v);
	return 0;
}

/* "  URL" on its own line(s), or nothing when too long for a line. */
void pc_compose__link_line(struct pc_buf *out, const struct pc_notify_head *h,
			   const char *msgid, const char *indent)
{
	struct pc_buf u = PC_BUF_INIT;

	/* The pattern was checked already; this cannot fail. */
	pc_archive_url(&u, h->archive_url, msgid, NULL);
	if (u.len <= BODY_LINE_BYTES_MAX - strlen(indent))
		pc_mail_wrap(out, u.buf, indent, indent);
	pc_buf_release(&u);
}

/* The cadence paragraph and its source block. */
void pc_compose__add_source_block(struct pc_buf *body,
				  const struct pc_notify_origin *o)
{
	struct pc_buf b = PC_BUF_INIT;

	if (!pc_compose__add_origin(&b, o)) {
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
