// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Message parsing (see message.h). The header block is scanned here for
 * the fields patchclock needs (first occurrence wins, as in most MUAs);
 * their values go through libetpan's RFC 5322 parsers (dates, message-id
 * lists, address lists) and rfc2047.c. Bodies: a single-part message is
 * transfer-decoded directly with libetpan's part decoder; a multipart one
 * is parsed into libetpan's MIME tree and walked for its text leaves.
 */
#include <libetpan/libetpan.h>
#include <stdlib.h>
#include <string.h>

#include "mail/charset.h"
#include "mail/message.h"
#include "mail/rfc2047.h"
#include "util/civil.h"
#include "util/hash.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct span {
	const char *p;
	size_t len;
};

/* The header fields this parser reads; first occurrence of each. */
struct headers {
	struct span from, to, cc, subject, date, msgid, in_reply_to, refs;
	struct span list_id, auto_submitted, precedence, supersedes;
	struct span content_type, cte, x_mailer, user_agent, pw_hint;
	int nfields;
};

static const struct {
	const char *name;
	size_t len; /* strlen(name): compared first, once per header line */
	size_t off;
} wanted[] = {
	{ "from", 4, offsetof(struct headers, from) },
	{ "to", 2, offsetof(struct headers, to) },
	{ "cc", 2, offsetof(struct headers, cc) },
	{ "subject", 7, offsetof(struct headers, subject) },
	{ "date", 4, offsetof(struct headers, date) },
	{ "message-id", 10, offsetof(struct headers, msgid) },
	{ "in-reply-to", 11, offsetof(struct headers, in_reply_to) },
	{ "references", 10, offsetof(struct headers, refs) },
	{ "list-id", 7, offsetof(struct headers, list_id) },
	{ "auto-submitted", 14, offsetof(struct headers, auto_submitted) },
	{ "precedence", 10, offsetof(struct headers, precedence) },
	{ "supersedes", 10, offsetof(struct headers, supersedes) },
	{ "content-type", 12, offsetof(struct headers, content_type) },
	{ "content-transfer-encoding", 25, offsetof(struct headers, cte) },
	{ "x-mailer", 8, offsetof(struct headers, x_mailer) },
	{ "user-agent", 10, offsetof(struct headers, user_agent) },
	{ "x-patchwork-hint", 16, offsetof(struct headers, pw_hint) },
};

int64_t pc_civil_to_epoch(int year, int month, int day, int hour, int min,
			  int sec)
{
	int64_t days = pc_days_from_civil(year, month, day);

	return days * 86400 + hour * 3600 + min * 60 + sec;
}

/*
 * Scans the header block of (raw, len): fills h and returns the offset of
 * the body (after the blank line), or len when there is no body.
 */
static size_t scan_headers(struct headers *h, const char *raw, size_t len)
{
	size_t pos = 0;
	int from_line = 0;

	memset(h, 0, sizeof(*h));
	while (pos < len) {
		const char *line = raw + pos, *nl, *colon;
		size_t llen, end, i, nlen;

		nl = memchr(line, '\n', len - pos);
		llen = nl ? (size_t)(nl - line) : len - pos;
		if (llen == 0 || (llen == 1 && line[0] == '\r'))
			return pos + llen + (nl ? 1 : 0);
		if (line[0] == ' ' || line[0] == '\t') {
			/* A continuation without a field: skip it. */
			pos += llen + (nl ? 1 : 0);
			continue;
		}
		/* The field runs until a line that does not start with WSP. */
		end = pos + llen + (nl ? 1 : 0);
		while (end < len && (raw[end] == ' ' || raw[end] == '\t')) {
			const char *n2 = memchr(raw + end, '\n', len - end);

			end = n2 ? (size_t)(n2 - raw) + 1 : len;
		}
		colon = memchr(line, ':', llen);
		/* git format-patch's "From <sha> Mon Sep 17 ..." line, or an
		 * mbox From_ line left in a file of one message. */
		if (pos == 0 && llen > 5 && !memcmp(line, "From ", 5)) {
			from_line = 1;
			pos = end;
			continue;
		}
		if (!colon && !h->nfields && !from_line)
			break; /* mail starts with a field */
		if (colon) {
			nlen = (size_t)(colon - line);
			while (nlen && (line[nlen - 1] == ' ' ||
					line[nlen - 1] == '\t'))
				nlen--;
			/* A field name is printable US-ASCII (RFC 5322
			 * ftext): a line of random bytes with a ':' in it
			 * is no header field. */
			for (i = 0; i < nlen; i++)
				if ((unsigned char)line[i] < 33 ||
				    (unsigned char)line[i] > 126)
					break;
			if (nlen && i == nlen)
				h->nfields++;
			else if (!h->nfields && !from_line)
				break; /* mail starts with a field */
			for (i = 0; i < PC_ARRAY_SIZE(wanted); i++) {
				struct span *s =
					(struct span *)(void *)((char *)h +
								wanted[i].off);

				if (s->p || wanted[i].len != nlen ||
				    !pc_mem_istarts(line, nlen, wanted[i].name))
					continue;
				s->p = colon + 1;
				s->len = (size_t)(raw + end - s->p);
				break;
			}
		}
		pos = end;
	}
	return len;
}

/* Unfolds a header value: drops CR/LF of folds, trims the ends. */
static void unfold(struct pc_buf *out, struct span v)
{
	const char *p = v.p, *end = v.p ? v.p + v.len : v.p;

	pc_buf_reset(out);
	while (p < end && pc_isspace((unsigned char)*p))
		p++;
	while (end > p && pc_isspace((unsigned char)end[-1]))
		end--;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;

		if (stop > p && stop[-1] == '\r')
			stop--;
		pc_buf_add(out, p, (size_t)(stop - p));
		p = nl ? nl + 1 : end;
	}
}

/* Decodes an unfolded value and collapses whitespace runs into a space. */
static char *decode_line(struct pc_msg *m, const char *p, size_t len)
{
	struct pc_buf dec = PC_BUF_INIT, out = PC_BUF_INIT;
	size_t i, n = 0;
	int space = 0;

	if (pc_rfc2047_decode(&dec, p, len) == PC_CHARSET_FALLBACK)
		m->charset_fallback = 1;
	/* The result is never longer than the decoded text. */
	pc_buf_grow(&out, dec.len);
	for (i = 0; i < dec.len; i++) {
		unsigned char c = (unsigned char)dec.buf[i];

		if (pc_isspace(c) || c == 0) {
			space = 1;
			continue;
		}
		if (space && n)
			out.buf[n++] = ' ';
		space = 0;
		out.buf[n++] = (char)c;
	}
	pc_buf_setlen(&out, n);
	pc_buf_release(&dec);
	return pc_buf_detach(&out, NULL);
}

static char *decode_for_addr(const char *p, size_t len, void *arg)
{
	return decode_line(arg, p, len);
}

/*
 * Message-ids: every "<...>" in order; without any angle brackets, one
 * bare token containing '@'. Ids are kept as written, bounded in length.
 */
static size_t extract_ids(char ***out, size_t max, const char *p, size_t len)
{
	size_t n = 0, alloc = 0, i = 0;
	char **ids = NULL;
	int any_bracket = memchr(p, '<', len) != NULL;

	while (i < len && n < max) {
		size_t s, e;

		if (any_bracket) {
			const char *lt = memchr(p + i, '<', len - i), *gt;

			if (!lt)
				break;
			s = (size_t)(lt - p) + 1;
			gt = memchr(p + s, '>', len - s);
			if (!gt)
				break;
			e = (size_t)(gt - p);
			i = e + 1;
		} else {
			while (i < len && pc_isspace((unsigned char)p[i]))
				i++;
			s = i;
			while (i < len && !pc_isspace((unsigned char)p[i]))
				i++;
			e = i;
			if (!memchr(p + s, '@', e - s))
				continue;
		}
		while (s < e && pc_isspace((unsigned char)p[s]))
			s++;
		while (e > s && pc_isspace((unsigned char)p[e - 1]))
			e--;
		/* An id with a NUL byte would be cut short as a string. */
		if (e == s || e - s > PC_MSG_MAX_ID ||
		    memchr(p + s, '\0', e - s))
			continue;
		PC_ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = xmemdupz(p + s, e - s);
	}
	*out = ids;
	return n;
}

char *pc_msg_hash_id(const char *raw, size_t len)
{
	unsigned char d[PC_SHA256_LEN];
	char hex[2 * PC_SHA256_LEN + 1];

	pc_sha256(d, raw, len);
	pc_hex(hex, d, sizeof(d));
	return xasprintf("%s@sha256.patchclock.invalid", hex);
}

/* git mailinfo's unquote_quoted_pair(): comments kept, quotes removed. */
static void unquote_pairs(struct pc_buf *out, const char *in, size_t len)
{
	size_t i = 0;

	while (i < len) {
		char c = in[i++];

		if (c == '"') {
			int lit = 0;

			while (i < len) {
				c = in[i++];
				if (lit)
					lit = 0;
				else if (c == '\\') {
					lit = 1;
					continue;
				} else if (c == '"')
					break;
				pc_buf_addch(out, c);
			}
			continue;
		}
		if (c == '(') {
			int lit = 0, depth = 1;

			pc_buf_addch(out, '(');
			while (i < len) {
				c = in[i++];
				if (lit) {
					lit = 0;
				} else if (c == '\\') {
					lit = 1;
					continue;
				} else if (c == '(') {
					depth++;
				} else if (c == ')') {
					pc_buf_addch(out, ')');
					if (!--depth)
						break;
					continue;
				}
				pc_buf_addch(out, c);
			}
			continue;
		}
		pc_buf_addch(out, c);
	}
}

/*
 * git mailinfo's cleanup_space(): every run of whitespace becomes one
 * space (removing the address can leave "Thor   (Comment)").
 */
static void collapse_space(struct pc_buf *b)
{
	size_t i, o = 0;

	for (i = 0; i < b->len; i++) {
		if (pc_isspace((unsigned char)b->buf[i])) {
			if (o && b->buf[o - 1] == ' ' && i &&
			    pc_isspace((unsigned char)b->buf[i - 1]))
				continue;
			b->buf[o++] = ' ';
		} else {
			b->buf[o++] = b->buf[i];
		}
	}
	pc_buf_setlen(b, o);
}

static void trim_buf(struct pc_buf *b)
{
	size_t i = 0;

	pc_buf_rtrim(b);
	while (i < b->len && pc_isspace((unsigned char)b->buf[i]))
		i++;
	if (i) {
		memmove(b->buf, b->buf + i, b->len - i);
		pc_buf_setlen(b, b->len - i);
	}
}

/* git's get_sane_name(): odd or tiny names are replaced by the address. */
static char *sane_name(struct pc_buf *name, const char *addr)
{
	if (name->len < 3 || name->len > 60 ||
	    memchr(name->buf, '@', name->len) ||
	    memchr(name->buf, '<', name->len) ||
	    memchr(name->buf, '>', name->len))
		return xstrdup(addr);
	return xmemdupz(name->buf, name->len);
}

/*
 * The address of a "name <addr>" value as RFC 5322 reads it: the last
 * angle-bracketed part outside quoted strings and comments that holds an
 * '@'; its offsets in *lt and *gt. A display name is never an address:
 * '"may@example.org" <attacker@evil.example>' and '(may@example.org)
 * <attacker@evil.example>' are the attacker's. Returns 0 when there is
 * none (a bare addr-spec).
 */
static int angle_addr(const char *v, size_t len, size_t *lt, size_t *gt)
{
	size_t i, open = 0;
	int quoted = 0, depth = 0, inside = 0, found = 0;

	for (i = 0; i < len; i++) {
		char c = v[i];

		if (c == '\\' && (quoted || depth) && i + 1 < len) {
			i++;
		} else if (quoted) {
			quoted = c != '"';
		} else if (depth) {
			depth += c == '(' ? 1 : c == ')' ? -1 : 0;
		} else if (c == '"') {
			quoted = 1;
		} else if (c == '(') {
			depth = 1;
		} else if (c == '<') {
			inside = 1;
			open = i;
		} else if (c == '>' && inside) {
			inside = 0;
			if (memchr(v + open, '@', i - open)) {
				*lt = open;
				*gt = i;
				found = 1;
			}
		}
	}
	return found;
}

/* The '@' of a bare addr-spec, outside quoted strings and comments
 * ("(may@example.org) attacker@evil.example" is the attacker's), or
 * NULL. */
static const char *bare_at(const char *v, size_t len)
{
	size_t i;
	int quoted = 0, depth = 0;

	for (i = 0; i < len; i++) {
		char c = v[i];

		if (c == '\\' && (quoted || depth) && i + 1 < len)
			i++;
		else if (quoted)
			quoted = c != '"';
		else if (depth)
			depth += c == '(' ? 1 : c == ')' ? -1 : 0;
		else if (c == '"')
			quoted = 1;
		else if (c == '(')
			depth = 1;
		else if (c == '@')
			return v + i;
	}
	return NULL;
}

void pc_addr_parse_git(struct pc_addr *out, const char *value, size_t len)
{
	struct pc_buf f = PC_BUF_INIT;
	char *at, *start;
	size_t el, lt, gt;

	if (angle_addr(value, len, &lt, &gt)) {
		/* "Name <addr>": the name is what precedes it, with its
		 * quotes and escapes read. */
		struct pc_buf n = PC_BUF_INIT;

		out->addr = xmemdupz(value + lt + 1, gt - lt - 1);
		el = strlen(out->addr);
		while (el && pc_isspace((unsigned char)out->addr[el - 1]))
			out->addr[--el] = '\0';
		for (start = out->addr;
		     *start && pc_isspace((unsigned char)*start); start++)
			;
		memmove(out->addr, start, strlen(start) + 1);
		/* and what follows it (git keeps "<addr> (Comment)"'s
		 * comment in the name) */
		unquote_pairs(&f, value, lt);
		pc_buf_add(&n, f.buf ? f.buf : "", f.len);
		pc_buf_reset(&f);
		unquote_pairs(&f, value + gt + 1, len - gt - 1);
		if (f.len) {
			pc_buf_addch(&n, ' ');
			pc_buf_add(&n, f.buf, f.len);
		}
		collapse_space(&n);
		trim_buf(&n);
		if (n.len >= 2 && n.buf[0] == '(' && n.buf[n.len - 1] == ')') {
			memmove(n.buf, n.buf + 1, n.len - 2);
			pc_buf_setlen(&n, n.len - 2);
		}
		out->name = sane_name(&n, out->addr);
		pc_buf_release(&n);
		pc_buf_release(&f);
		return;
	}
	{
		const char *real = bare_at(value, len),
			   *first = memchr(value, '@', len);

		if (first && real != first) {
			/* An '@' in a quoted name or a comment before the
			 * address, or no other: the address is the one
			 * outside them, or none. */
			const char *a = real, *b = real, *end = value + len;

			while (real && a > value &&
			       !strchr(" \t\r\n\"()<>,", a[-1]))
				a--;
			while (real && b < end && !strchr(" \t\r\n\"()<>,", *b))
				b++;
			out->addr = real ? xmemdupz(a, (size_t)(b - a)) :
					   xstrdup("");
			out->name = xstrdup(out->addr);
			return;
		}
	}
	unquote_pairs(&f, value, len);
	at = memchr(f.buf, '@', f.len);
	if (!at) {
		/* "John Doe <johndoe>": no @, but a bracketed address. */
		char *bra = memchr(f.buf, '<', f.len), *ket;

		out->name = xstrdup("");
		out->addr = xstrdup("");
		if (bra &&
		    (ket = memchr(bra, '>', f.len - (size_t)(bra - f.buf)))) {
			struct pc_buf n = PC_BUF_INIT;

			free(out->addr);
			out->addr = xmemdupz(bra + 1, (size_t)(ket - bra - 1));
			pc_buf_add(&n, f.buf, (size_t)(bra - f.buf));
			trim_buf(&n);
			free(out->name);
			out->name = sane_name(&n, out->addr);
			pc_buf_release(&n);
		}
		pc_buf_release(&f);
		return;
	}
	start = at;
	while (start > f.buf) {
		char c = start[-1];

		if (pc_isspace((unsigned char)c))
			break;
		if (c == '<') {
			start[-1] = ' ';
			break;
		}
		start--;
	}
	el = strcspn(start, " \n\t\r\v\f>");
	out->addr = xmemdupz(start, el);
	{
		size_t off = (size_t)(start - f.buf);
		size_t cut = el + (start[el] ? 1 : 0);

		memmove(f.buf + off, f.buf + off + cut, f.len - off - cut);
		pc_buf_setlen(&f, f.len - cut);
	}
	collapse_space(&f);
	trim_buf(&f);
	if (f.len >= 2 && f.buf[0] == '(' && f.buf[f.len - 1] == ')') {
		memmove(f.buf, f.buf + 1, f.len - 2);
		pc_buf_setlen(&f, f.len - 2);
	}
	out->name = sane_name(&f, out->addr);
	pc_buf_release(&f);
}

/* The length of the RFC 2047 encoded-word at p ("=?cs?E?text?="), or 0;
 * an encoded-word holds no white space. */
static size_t encoded_word_len(const char *p, const char *end)
{
	const char *q = p + 2;
	int marks = 0;

	if (end - p < 8 || p[0] != '=' || p[1] != '?')
		return 0;
	for (; q < end && !pc_isspace((unsigned char)*q); q++) {
		if (*q != '?')
			continue;
		if (++marks >= 3 && q + 1 < end && q[1] == '=')
			return (size_t)(q + 2 - p);
	}
	return 0;
}

void pc_addr_parse_header(struct pc_addr *out, const char *raw, size_t len,
			  char *(*decode)(const char *p, size_t len, void *arg),
			  void *arg)
{
	struct pc_buf skel = PC_BUF_INIT;
	struct pc_addr real = { NULL, NULL };
	const char *p = raw, *end = raw + len;
	char *dec;

	/* The address as the header's own text gives it, each encoded-word
	 * (which may only ever be a display name) blanked out first. */
	while (p < end) {
		size_t n = encoded_word_len(p, end);

		if (n) {
			pc_buf_add(&skel, "Encoded", 7);
			p += n;
		} else {
			pc_buf_addch(&skel, *p++);
		}
	}
	pc_addr_parse_git(&real, skel.buf ? skel.buf : "", skel.len);
	pc_buf_release(&skel);
	dec = decode(raw, len, arg);
	pc_addr_parse_git(out, dec, strlen(dec));
	free(dec);
	if (strcmp(out->addr, real.addr)) {
		/* A decoded display name brought an address of its own
		 * ("=?utf-8?b?...?=" holding "x <may@example.org>"): it is
		 * no address, and no name either. */
		pc_addr_release(out);
		out->addr = real.addr;
		out->name = xstrdup(real.addr);
		real.addr = NULL;
	}
	pc_addr_release(&real);
}

/* The header fields RFC 5322 allows once, as DKIM h= names them. */
static const char *const singletons[] = { "from",	"sender",
					  "message-id", "in-reply-to",
					  "references", "subject",
					  "date",	NULL };

/* The first of singletons that (raw, len)'s header has more than once,
 * or NULL. The parser reads the first copy, DKIM verifies the last: with
 * two, what is read is not what was signed. */
const char *pc_msg_duplicated_field(const char *raw, size_t len)
{
	unsigned count[7] = { 0 };
	size_t pos = 0, k;

	while (pos < len) {
		const char *line = raw + pos,
			   *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		const char *colon = memchr(line, ':', n);

		if (!n || (n == 1 && line[0] == '\r'))
			break;
		pos += n + (nl ? 1 : 0);
		if (line[0] == ' ' || line[0] == '\t' || !colon)
			continue;
		while (colon > line && (colon[-1] == ' ' || colon[-1] == '\t'))
			colon--;
		for (k = 0; singletons[k]; k++)
			if (pc_tolower((unsigned char)line[0]) ==
				    singletons[k][0] &&
			    (size_t)(colon - line) == strlen(singletons[k]) &&
			    !strncasecmp(line, singletons[k],
					 strlen(singletons[k])) &&
			    ++count[k] == 2)
				return singletons[k];
	}
	return NULL;
}

void pc_addr_release(struct pc_addr *a)
{
	free(a->name);
	free(a->addr);
	a->name = a->addr = NULL;
}

static int parse_date(int64_t *out, int *tz, const char *p, size_t len)
{
	struct mailimf_date_time *dt = NULL;
	size_t idx = 0;
	int zone, tzmin, ok;

	if (mailimf_date_time_parse(p, len, &idx, &dt) != MAILIMF_NO_ERROR)
		return 0;
	ok = dt->dt_year >= 1970 && dt->dt_year < 2200 && dt->dt_month >= 1 &&
	     dt->dt_month <= 12 && dt->dt_day >= 1 && dt->dt_day <= 31 &&
	     dt->dt_hour >= 0 && dt->dt_hour < 24 && dt->dt_min >= 0 &&
	     dt->dt_min < 60 && dt->dt_sec >= 0 && dt->dt_sec <= 60 &&
	     dt->dt_zone > -2400 && dt->dt_zone < 2400;
	if (ok) {
		zone = dt->dt_zone < 0 ? -dt->dt_zone : dt->dt_zone;
		tzmin = (zone / 100) * 60 + zone % 100;
		if (dt->dt_zone < 0)
			tzmin = -tzmin;
		*tz = tzmin;
		*out = pc_civil_to_epoch(dt->dt_year, dt->dt_month, dt->dt_day,
					 dt->dt_hour, dt->dt_min, dt->dt_sec) -
		       (int64_t)tzmin * 60;
	}
	mailimf_date_time_free(dt);
	return ok;
}

static void add_addr(struct pc_msg *m, struct pc_addr **arr, size_t *n,
		     size_t *alloc, struct mailimf_mailbox *mb)
{
	struct pc_addr *a;

	if (*n >= PC_MSG_MAX_ADDRS)
		return;
	PC_ALLOC_GROW(*arr, *n + 1, *alloc);
	a = &(*arr)[(*n)++];
	a->name = mb->mb_display_name ?
			  decode_line(m, mb->mb_display_name,
				      strlen(mb->mb_display_name)) :
			  xstrdup("");
	a->addr = xstrdup(mb->mb_addr_spec ? mb->mb_addr_spec : "");
}

/* To/Cc through libetpan's address-list parser; unparseable lists are
 * skipped (nothing depends on them beyond display). */
static void parse_addr_list(struct pc_msg *m, struct pc_addr **arr, size_t *n,
			    const char *value)
{
	struct mailimf_address_list *al = NULL;
	size_t idx = 0, alloc = 0;
	clistiter *it, *it2;

	if (!value || *n)
		return;
	if (mailimf_address_list_parse(value, strlen(value), &idx, &al) !=
	    MAILIMF_NO_ERROR)
		return;
	for (it = clist_begin(al->ad_list); it; it = clist_next(it)) {
		struct mailimf_address *ad = clist_content(it);

		if (ad->ad_type == MAILIMF_ADDRESS_MAILBOX) {
			add_addr(m, arr, n, &alloc, ad->ad_data.ad_mailbox);
		} else if (ad->ad_data.ad_group->grp_mb_list) {
			clist *l = ad->ad_data.ad_group->grp_mb_list->mb_list;

			for (it2 = clist_begin(l); it2; it2 = clist_next(it2))
				add_addr(m, arr, n, &alloc, clist_content(it2));
		}
	}
	mailimf_address_list_free(al);
}

/* Appends (p, len) as UTF-8 text with LF line ends. */
static void add_text(struct pc_msg *m, struct pc_buf *out, const char *charset,
		     const char *p, size_t len)
{
	size_t start = out->len, i, j;
	char *cr;

	if (pc_charset_to_utf8(out, charset, p, len) == PC_CHARSET_FALLBACK)
		m->charset_fallback = 1;
	/* CRLF inside decoded parts (base64 bodies keep them). */
	cr = memchr(out->buf + start, '\r', out->len - start);
	if (!cr)
		return;
	for (i = j = (size_t)(cr - out->buf); i < out->len; i++) {
		if (out->buf[i] == '\r' &&
		    (i + 1 == out->len || out->buf[i + 1] == '\n'))
			continue;
		out->buf[j++] = out->buf[i];
	}
	pc_buf_setlen(out, j);
}

/* Transfer-decodes (p, len) with libetpan and appends it as text. */
static void add_decoded(struct pc_msg *m, struct pc_buf *out, int encoding,
			const char *charset, const char *p, size_t len)
{
	struct pc_buf padded = PC_BUF_INIT;
	char *dec = NULL;
	size_t idx = 0, dlen = 0;

	if (encoding == MAILMIME_MECHANISM_QUOTED_PRINTABLE ||
	    encoding == MAILMIME_MECHANISM_BASE64) {
		/*
		 * libetpan's decoders read up to two bytes past the end of a
		 * part that stops inside an escape ("=4" at the very end of
		 * a truncated mail; found by feeding truncations under
		 * ASan). Hand them a copy with zero padding so that read
		 * stays in our memory and sees no escape digits.
		 */
		pc_buf_add(&padded, p, len);
		pc_buf_add(&padded, "\0\0\0\0", 4);
		if (mailmime_part_parse(padded.buf, len, &idx, encoding, &dec,
					&dlen) == MAILIMF_NO_ERROR) {
			add_text(m, out, charset, dec, dlen);
			mailmime_decoded_part_free(dec);
			pc_buf_release(&padded);
			return;
		}
		pc_buf_release(&padded);
		m->mime_fallback = 1;
	}
	add_text(m, out, charset, p, len);
}

static int encoding_from_span(struct pc_buf *tmp, struct span v)
{
	if (!v.p)
		return MAILMIME_MECHANISM_8BIT;
	unfold(tmp, v);
	if (pc_mem_istarts(tmp->buf, tmp->len, "quoted-printable"))
		return MAILMIME_MECHANISM_QUOTED_PRINTABLE;
	if (pc_mem_istarts(tmp->buf, tmp->len, "base64"))
		return MAILMIME_MECHANISM_BASE64;
	return MAILMIME_MECHANISM_8BIT;
}

static int is_patch_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return (n > 6 && !strcmp(name + n - 6, ".patch")) ||
	       (n > 5 && !strcmp(name + n - 5, ".diff"));
}

static int is_patch_subtype(const char *sub)
{
	return sub &&
	       (!strcasecmp(sub, "x-patch") || !strcasecmp(sub, "x-diff") ||
		!strcasecmp(sub, "patch") || !strcasecmp(sub, "diff"));
}

struct walk {
	struct pc_msg *m;
	size_t natt_alloc;
	int nparts;
};

static const char *content_param(struct mailmime_content *ct, const char *name)
{
	clistiter *it;

	if (!ct || !ct->ct_parameters)
		return NULL;
	for (it = clist_begin(ct->ct_parameters); it; it = clist_next(it)) {
		struct mailmime_parameter *pa = clist_content(it);

		if (pa->pa_name && !strcasecmp(pa->pa_name, name))
			return pa->pa_value;
	}
	return NULL;
}

static void leaf_disposition(struct mailmime_fields *f, int *attachment,
			     const char **filename)
{
	clistiter *it, *it2;

	if (!f)
		return;
	for (it = clist_begin(f->fld_list); it; it = clist_next(it)) {
		struct mailmime_field *fld = clist_content(it);
		struct mailmime_disposition *d;

		if (fld->fld_type != MAILMIME_FIELD_DISPOSITION)
			continue;
		d = fld->fld_data.fld_disposition;
		if (d->dsp_type && d->dsp_type->dsp_type ==
					   MAILMIME_DISPOSITION_TYPE_ATTACHMENT)
			*attachment = 1;
		for (it2 = clist_begin(d->dsp_parms); it2;
		     it2 = clist_next(it2)) {
			struct mailmime_disposition_parm *pm =
				clist_content(it2);

			if (pm->pa_type == MAILMIME_DISPOSITION_PARM_FILENAME)
				*filename = pm->pa_data.pa_filename;
		}
	}
}

static void walk_leaf(struct walk *w, struct mailmime *mime)
{
	struct mailmime_content *ct = mime->mm_content_type;
	struct mailmime_data *data = mime->mm_data.mm_single;
	const char *sub = ct ? ct->ct_subtype : NULL, *filename = NULL;
	const char *charset = content_param(ct, "charset");
	int is_text = 1, attachment = 0, encoding;
	struct pc_attachment *a;

	if (!data || data->dt_type != MAILMIME_DATA_TEXT)
		return;
	if (ct && ct->ct_type &&
	    ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE)
		is_text = ct->ct_type->tp_data.tp_discrete_type->dt_type ==
			  MAILMIME_DISCRETE_TYPE_TEXT;
	else if (ct && ct->ct_type)
		is_text = 0;
	leaf_disposition(mime->mm_mime_fields, &attachment, &filename);
	if (!filename)
		filename = content_param(ct, "name");
	encoding =
		mime->mm_mime_fields ?
			mailmime_transfer_encoding_get(mime->mm_mime_fields) :
			MAILMIME_MECHANISM_8BIT;
	if (!data->dt_encoded)
		encoding = MAILMIME_MECHANISM_8BIT;

	if (is_text && sub && !strcasecmp(sub, "html"))
		return;
	if (is_text && !filename && !attachment &&
	    (!sub || !strcasecmp(sub, "plain"))) {
		if (w->m->body.len &&
		    w->m->body.buf[w->m->body.len - 1] != '\n')
			pc_buf_addch(&w->m->body, '\n');
		add_decoded(w->m, &w->m->body, encoding, charset,
			    data->dt_data.dt_text.dt_data,
			    data->dt_data.dt_text.dt_length);
		return;
	}
	/* Text attachments, and patches sent as application/x-patch or
	 * named *.patch / *.diff, are kept: they may be the patch. */
	if (!is_text && !is_patch_subtype(sub) && !is_patch_name(filename))
		return;
	if (is_text && sub &&
	    (!strcasecmp(sub, "x-vcard") || !strcasecmp(sub, "calendar")))
		return;
	if (w->m->natt >= PC_MSG_MAX_PARTS)
		return;
	PC_ALLOC_GROW(w->m->att, w->m->natt + 1, w->natt_alloc);
	a = &w->m->att[w->m->natt++];
	a->filename = filename ? decode_line(w->m, filename, strlen(filename)) :
				 xstrdup("");
	a->content_type = xasprintf("%s/%s", is_text ? "text" : "application",
				    sub ? sub : "plain");
	pc_buf_init(&a->text, 0);
	add_decoded(w->m, &a->text, encoding, charset,
		    data->dt_data.dt_text.dt_data,
		    data->dt_data.dt_text.dt_length);
}

static int is_plain_leaf(struct mailmime *mime)
{
	struct mailmime_content *ct = mime->mm_content_type;

	if (mime->mm_type != MAILMIME_SINGLE)
		return 0;
	if (!ct || !ct->ct_type)
		return 1;
	return ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE &&
	       ct->ct_type->tp_data.tp_discrete_type->dt_type ==
		       MAILMIME_DISCRETE_TYPE_TEXT &&
	       ct->ct_subtype && !strcasecmp(ct->ct_subtype, "plain");
}

static void walk_mime(struct walk *w, struct mailmime *mime, int depth)
{
	clistiter *it;

	if (depth > PC_MSG_MAX_DEPTH || ++w->nparts > PC_MSG_MAX_PARTS)
		return;
	switch (mime->mm_type) {
	case MAILMIME_SINGLE:
		walk_leaf(w, mime);
		break;
	case MAILMIME_MULTIPLE: {
		const char *sub = mime->mm_content_type ?
					  mime->mm_content_type->ct_subtype :
					  NULL;
		clist *l = mime->mm_data.mm_multipart.mm_mp_list;

		if (sub && !strcasecmp(sub, "alternative")) {
			/* One representation: text/plain if there is one,
			 * else the first nested multipart. */
			struct mailmime *pick = NULL;

			for (it = clist_begin(l); it && !pick;
			     it = clist_next(it))
				if (is_plain_leaf(clist_content(it)))
					pick = clist_content(it);
			for (it = clist_begin(l); it && !pick;
			     it = clist_next(it)) {
				struct mailmime *c = clist_content(it);

				if (c->mm_type == MAILMIME_MULTIPLE)
					pick = c;
			}
			if (pick)
				walk_mime(w, pick, depth + 1);
			break;
		}
		for (it = clist_begin(l); it; it = clist_next(it))
			walk_mime(w, clist_content(it), depth + 1);
		break;
	}
	case MAILMIME_MESSAGE:
		/* The top-level message: walk its body. A forwarded
		 * message/rfc822 inside is somebody else's text: skip. */
		if (depth == 0 && mime->mm_data.mm_message.mm_msg_mime)
			walk_mime(w, mime->mm_data.mm_message.mm_msg_mime,
				  depth + 1);
		break;
	}
}

/* A text/plain-ish single-part body: decode it directly. */
static void single_part(struct pc_msg *m, struct headers *h, struct pc_buf *tmp,
			const char *body, size_t blen)
{
	struct mailmime_content *ct = NULL;
	const char *charset = NULL, *sub = NULL;
	int encoding = encoding_from_span(tmp, h->cte), is_text = 1;
	size_t idx = 0;

	if (h->content_type.p) {
		unfold(tmp, h->content_type);
		if (mailmime_content_parse(tmp->buf, tmp->len, &idx, &ct) !=
		    MAILIMF_NO_ERROR)
			ct = NULL;
	}
	if (ct) {
		charset = content_param(ct, "charset");
		sub = ct->ct_subtype;
		if (ct->ct_type &&
		    ct->ct_type->tp_type == MAILMIME_TYPE_DISCRETE_TYPE)
			is_text =
				ct->ct_type->tp_data.tp_discrete_type->dt_type ==
				MAILMIME_DISCRETE_TYPE_TEXT;
	}
	if (is_text || is_patch_subtype(sub) ||
	    is_patch_name(content_param(ct, "name")))
		add_decoded(m, &m->body, encoding, charset, body, blen);
	if (ct)
		mailmime_content_free(ct);
}

static int is_multipart(struct pc_buf *tmp, struct span ct)
{
	if (!ct.p)
		return 0;
	unfold(tmp, ct);
	return pc_mem_istarts(tmp->buf, tmp->len, "multipart/");
}

/* git mailinfo's patchbreak(): "diff -", "Index: ", "--- name", "---". */
static int is_patchbreak(const char *p, size_t len)
{
	size_t i;

	if (pc_mem_starts(p, len, "diff -") || pc_mem_starts(p, len, "Index: "))
		return 1;
	if (len < 3 || memcmp(p, "---", 3) != 0)
		return 0;
	if (len > 4 && p[3] == ' ' && !pc_isspace((unsigned char)p[4]))
		return 1;
	for (i = 3; i < len; i++)
		if (!pc_isspace((unsigned char)p[i]))
			return 0;
	return 1;
}

/* Whether a patchbreak line is in (p, len). */
static int has_patchbreak(const char *p, size_t len)
{
	const char *end = p + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (is_patchbreak(p, l))
			return 1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/*
 * git mailinfo's in-body headers: at the top of the body, an optional
 * ">From <sha1>" format-patch line, then From:/Subject:/Date: lines
 * (folded lines allowed) or a "[PATCH] subject" line, up to a blank
 * line. Like git (handle_info()
 * prints in-body headers only when a patch was written), they count only
 * when a patch follows: a reply quoting a patch's header lines keeps its
 * own sender and subject.
 */
static void inbody_headers(struct pc_msg *m, struct pc_buf *tmp)
{
	const char *p = m->body.buf, *end = p + m->body.len;
	struct span from = { 0 }, subj = { 0 }, date = { 0 };
	struct span *cur = NULL;
	int any = 0;

	while (p < end && *p == '\n')
		p++;
	for (; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = nl ? nl + 1 : end;

		if (len == 0)
			break;
		if (cur && (p[0] == ' ' || p[0] == '\t')) {
			cur->len = (size_t)(p + len - cur->p);
		} else if (!any && len > 6 &&
			   (pc_mem_starts(p, len, ">From ") ||
			    pc_mem_starts(p, len, "From ")) &&
			   !memchr(p, ':', 5)) {
			/* A pasted format-patch separator line. */
			const char *s = p + (p[0] == '>' ? 6 : 5);
			size_t k = 0;

			while (s + k < p + len &&
			       ((s[k] >= '0' && s[k] <= '9') ||
				(s[k] >= 'a' && s[k] <= 'f')))
				k++;
			if (k < 40)
				break;
			cur = NULL;
		} else if (len > 7 && pc_mem_starts(p, len, "[PATCH]") &&
			   pc_isspace((unsigned char)p[7])) {
			/* git takes a "[PATCH] subject" line as Subject:. */
			cur = NULL;
			subj.p = p;
			subj.len = len;
		} else if (pc_mem_istarts(p, len, "from:")) {
			cur = &from;
			from.p = p + 5;
			from.len = len - 5;
		} else if (pc_mem_istarts(p, len, "subject:")) {
			cur = &subj;
			subj.p = p + 8;
			subj.len = len - 8;
		} else if (pc_mem_istarts(p, len, "date:")) {
			cur = &date;
			date.p = p + 5;
			date.len = len - 5;
		} else {
			break;
		}
		any = 1;
		p = next;
	}
	if (any) {
		size_t i;
		int patch = has_patchbreak(p, (size_t)(end - p));

		for (i = 0; !patch && i < m->natt; i++)
			patch = has_patchbreak(m->att[i].text.buf,
					       m->att[i].text.len);
		if (!patch)
			return;
	}
	if (from.p) {
		unfold(tmp, from);
		pc_addr_release(&m->author);
		pc_addr_parse_header(&m->author, tmp->buf, tmp->len,
				     decode_for_addr, m);
	}
	if (subj.p) {
		unfold(tmp, subj);
		free(m->patch_subject);
		m->patch_subject = decode_line(m, tmp->buf, tmp->len);
	}
	if (date.p) {
		int64_t t;
		int tz;

		unfold(tmp, date);
		if (parse_date(&t, &tz, tmp->buf, tmp->len))
			m->author_date = t;
	}
}

int pc_msg_parse(struct pc_msg **out, const char *raw, size_t len,
		 struct pc_err *err)
{
	struct pc_buf tmp = PC_BUF_INIT;
	struct headers h;
	struct pc_msg *m;
	size_t body_off, n;
	char **ids;

	body_off = scan_headers(&h, raw, len);
	if (!h.nfields)
		return pc_err_set(err, PC_EPARSE,
				  "no header fields: not a mail message");
	m = xcalloc(1, sizeof(*m));
	pc_buf_init(&m->body, 0);
	m->dup_field = pc_msg_duplicated_field(raw, body_off);

	/* Identity and threading. */
	if (h.msgid.p && (n = extract_ids(&ids, 1, h.msgid.p, h.msgid.len))) {
		m->msgid = ids[0];
		free(ids);
	} else {
		m->msgid = pc_msg_hash_id(raw, len);
		m->msgid_generated = 1;
	}
	if (h.in_reply_to.p &&
	    (n = extract_ids(&ids, 1, h.in_reply_to.p, h.in_reply_to.len))) {
		m->in_reply_to = ids[0];
		free(ids);
	}
	if (h.refs.p)
		m->nrefs = extract_ids(&m->refs, PC_MSG_MAX_REFS, h.refs.p,
				       h.refs.len);
	if (h.supersedes.p &&
	    (n = extract_ids(&ids, 1, h.supersedes.p, h.supersedes.len))) {
		m->supersedes = ids[0];
		free(ids);
	}

	/* Decoded headers. */
	unfold(&tmp, h.subject);
	m->subject = h.subject.p ? decode_line(m, tmp.buf, tmp.len) :
				   xstrdup("");
	if (h.from.p) {
		unfold(&tmp, h.from);
		pc_addr_parse_header(&m->from, tmp.buf, tmp.len,
				     decode_for_addr, m);
	} else {
		m->from.name = xstrdup("");
		m->from.addr = xstrdup("");
	}
	if (h.to.p) {
		unfold(&tmp, h.to);
		m->to_raw = xmemdupz(tmp.buf, tmp.len);
	}
	if (h.cc.p) {
		unfold(&tmp, h.cc);
		m->cc_raw = xmemdupz(tmp.buf, tmp.len);
	}
	if (h.date.p) {
		unfold(&tmp, h.date);
		m->date_valid = parse_date(&m->date, &m->date_tz, tmp.buf,
					   tmp.len) != 0;
	}
	if (h.list_id.p &&
	    (n = extract_ids(&ids, 1, h.list_id.p, h.list_id.len))) {
		m->list_id = ids[0];
		free(ids);
	} else if (h.list_id.p) {
		unfold(&tmp, h.list_id);
		if (tmp.len)
			m->list_id = xmemdupz(tmp.buf, tmp.len);
	}
	if (h.list_id.p && !m->list_id) {
		unfold(&tmp, h.list_id);
		/* "Name <id>" where the id has no '@'. */
		char *lt = memchr(tmp.buf, '<', tmp.len);
		char *gt =
			lt ? memchr(lt, '>', tmp.len - (size_t)(lt - tmp.buf)) :
			     NULL;

		if (gt)
			m->list_id = xmemdupz(lt + 1, (size_t)(gt - lt - 1));
	}
#define COPY_HDR(field, span)                                        \
	do {                                                         \
		if ((span).p) {                                      \
			unfold(&tmp, (span));                        \
			m->field = decode_line(m, tmp.buf, tmp.len); \
		}                                                    \
	} while (0)
	COPY_HDR(auto_submitted, h.auto_submitted);
	COPY_HDR(precedence, h.precedence);
	COPY_HDR(user_agent, h.x_mailer.p ? h.x_mailer : h.user_agent);
	COPY_HDR(pw_hint, h.pw_hint);
#undef COPY_HDR

	/* Body. */
	if (is_multipart(&tmp, h.content_type)) {
		struct mailmime *mime = NULL;
		size_t idx = 0;

		if (mailmime_parse(raw, len, &idx, &mime) == MAILIMF_NO_ERROR) {
			struct walk w = { .m = m };

			walk_mime(&w, mime, 0);
			mailmime_free(mime);
		} else {
			m->mime_fallback = 1;
			add_text(m, &m->body, NULL, raw + body_off,
				 len - body_off);
		}
	} else {
		single_part(m, &h, &tmp, raw + body_off, len - body_off);
	}

	/* The git-am view. */
	m->author.name = xstrdup(m->from.name);
	m->author.addr = xstrdup(m->from.addr);
	m->patch_subject = xstrdup(m->subject);
	m->author_date = m->date;
	inbody_headers(m, &tmp);

	pc_buf_release(&tmp);
	*out = m;
	return 0;
}

void pc_msg_parse_recipients(struct pc_msg *m)
{
	parse_addr_list(m, &m->to, &m->nto, m->to_raw);
	parse_addr_list(m, &m->cc, &m->ncc, m->cc_raw);
}

static void free_addrs(struct pc_addr *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pc_addr_release(&a[i]);
	free(a);
}

void pc_msg_free(struct pc_msg *m)
{
	size_t i;

	if (!m)
		return;
	free(m->msgid);
	free(m->in_reply_to);
	for (i = 0; i < m->nrefs; i++)
		free(m->refs[i]);
	free(m->refs);
	free(m->subject);
	pc_addr_release(&m->from);
	free(m->to_raw);
	free(m->cc_raw);
	free_addrs(m->to, m->nto);
	free_addrs(m->cc, m->ncc);
	free(m->list_id);
	free(m->auto_submitted);
	free(m->precedence);
	free(m->supersedes);
	free(m->user_agent);
	free(m->pw_hint);
	pc_addr_release(&m->author);
	free(m->patch_subject);
	pc_buf_release(&m->body);
	for (i = 0; i < m->natt; i++) {
		free(m->att[i].filename);
		free(m->att[i].content_type);
		pc_buf_release(&m->att[i].text);
	}
	free(m->att);
	free(m);
}
