// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Addresses the way scripts/get_maintainer.pl handles them: parse_email(),
 * format_email(), .mailmap (read_mailmap(), mailmap_email()), the RFC 822
 * checks that decide whether an M: value is one address or a list, and
 * the addresses it scrapes from .yaml files (maintainers_in_file(),
 * clean_file_emails()).
 *
 * The script is Perl on byte strings: \s is [ \t\n\v\f\r], \w is
 * [A-Za-z0-9_], lc() folds ASCII only, '.' does not match '\n' and '$'
 * also matches before a final '\n'. The hand-written matchers below
 * follow the backtracking of its regexes; the long or rare ones run on
 * PCRE2, byte for byte the script's patterns.
 */
#include <string.h>

#include "maint/maint_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ---- parse_email / format_email ------------------------------------------ */

/*
 * The end of the region a Perl ".*$" may cover from `from`: the first
 * '\n' at or after it, which must be the last byte (or there is none).
 * Returns that end, or (size_t)-1 when a '\n' sits before the last byte.
 */
static size_t dollar_end(const char *s, size_t len, size_t from)
{
	const char *nl = from < len ? memchr(s + from, '\n', len - from) : NULL;
	size_t e = nl ? (size_t)(nl - s) : len;

	if (e != len && e != len - 1)
		return (size_t)-1;
	return e;
}

static const char *memrchr_(const char *p, int c, size_t n)
{
	while (n--)
		if (p[n] == (char)c)
			return p + n;
	return NULL;
}

/* /^([^<]+)<(.+\@.*)>.*$/ */
static int re_name_addr(const char *s, size_t len, size_t *name_end, size_t *a0,
			size_t *a1)
{
	const char *lt = memchr(s, '<', len), *gt;
	size_t i, j, e;

	if (!lt || lt == s)
		return 0;
	i = (size_t)(lt - s);
	j = i + 1;
	if ((e = dollar_end(s, len, j)) == (size_t)-1 || e < j)
		return 0;
	if (!(gt = memrchr_(s + j, '>', e - j)))
		return 0;
	if ((size_t)(gt - s) < j + 2 ||
	    !memchr(s + j + 1, '@', (size_t)(gt - s) - j - 1))
		return 0;
	*name_end = i;
	*a0 = j;
	*a1 = (size_t)(gt - s);
	return 1;
}

/* /^\s*<(.+\@\S*)>.*$/ */
static int re_bracket_addr(const char *s, size_t len, size_t *a0, size_t *a1)
{
	size_t i = 0, j, e, a;

	while (i < len && pc_isspace((unsigned char)s[i]))
		i++;
	if (i >= len || s[i] != '<')
		return 0;
	j = i + 1;
	if ((e = dollar_end(s, len, j)) == (size_t)-1)
		return 0;
	for (a = e; a-- > j + 1;) {
		size_t r = a + 1;
		const char *gt;

		if (s[a] != '@')
			continue;
		while (r < e && !pc_isspace((unsigned char)s[r]))
			r++;
		if ((gt = memrchr_(s + a + 1, '>', r - a - 1))) {
			*a0 = j;
			*a1 = (size_t)(gt - s);
			return 1;
		}
	}
	return 0;
}

/* /^(.+\@\S*).*$/ */
static int re_bare_addr(const char *s, size_t len, size_t *a1)
{
	size_t e = dollar_end(s, len, 0), a, r;

	if (e == (size_t)-1 || e < 2)
		return 0;
	for (a = e; a-- > 1;)
		if (s[a] == '@')
			break;
	if (a == 0 || s[a] != '@')
		return 0;
	for (r = a + 1; r < e && !pc_isspace((unsigned char)s[r]); r++)
		;
	*a1 = r;
	return 1;
}

static void trim(const char **p, size_t *n)
{
	while (*n && pc_isspace((unsigned char)**p)) {
		(*p)++;
		(*n)--;
	}
	while (*n && pc_isspace((unsigned char)(*p)[*n - 1]))
		(*n)--;
}

/*
 * The name part both functions share:
 *   $name =~ s/^\s+|\s+$//g; $name =~ s/^\"|\"$//g;
 *   if ($name =~ /[^\w \-]/i) { s/(?<!\\)"/\\"/g; $name = "\"$name\""; }
 */
static void norm_name(struct pc_buf *out, const char *p, size_t n)
{
	size_t i;
	int quote = 0;

	trim(&p, &n);
	if (n && p[0] == '"') {
		p++;
		n--;
	}
	if (n && p[n - 1] == '"')
		n--;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (!(pc_isalnum(c) || c == '_' || c == ' ' || c == '-')) {
			quote = 1;
			break;
		}
	}
	if (!quote) {
		pc_buf_add(out, p, n);
		return;
	}
	pc_buf_addch(out, '"');
	for (i = 0; i < n; i++) {
		if (p[i] == '"' && (i == 0 || p[i - 1] != '\\'))
			pc_buf_addch(out, '\\');
		pc_buf_addch(out, p[i]);
	}
	pc_buf_addch(out, '"');
}

void pc_maint__parse_email(struct pc_buf *name, struct pc_buf *addr,
			   const char *s, size_t len)
{
	size_t ne = 0, a0 = 0, a1 = 0;
	const char *ap;
	size_t an;

	pc_buf_reset(name);
	pc_buf_reset(addr);
	if (re_name_addr(s, len, &ne, &a0, &a1)) {
		norm_name(name, s, ne);
	} else if (!re_bracket_addr(s, len, &a0, &a1) &&
		   !re_bare_addr(s, len, &a1)) {
		return;
	}
	ap = s + a0;
	an = a1 - a0;
	trim(&ap, &an);
	pc_buf_add(addr, ap, an);
}

void pc_maint__format_email(struct pc_buf *out, const char *name,
			    size_t name_len, const char *addr, size_t addr_len)
{
	size_t start = out->len;

	norm_name(out, name, name_len);
	trim(&addr, &addr_len);
	if (out->len == start) {
		pc_buf_add(out, addr, addr_len);
		return;
	}
	pc_buf_addstr(out, " <");
	pc_buf_add(out, addr, addr_len);
	pc_buf_addch(out, '>');
}

/* ---- .mailmap ------------------------------------------------------------- */

static pcre2_code *compile(const char *re, uint32_t opts)
{
	int ec;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				      opts, &ec, &off, NULL);

	/* Only the fixed patterns of this file come here. */
	if (!c)
		abort();
	return c;
}

static size_t mm_str(struct pc_maint__mailmap *mm, const char *s, size_t n)
{
	PC_ALLOC_GROW(mm->strs, mm->n_strs + 1, mm->alloc_strs);
	mm->strs[mm->n_strs] = xmemdupz(s, n);
	return mm->n_strs++;
}

/* ($name, $addr) = parse_email("$name <$addr>") after s/\s+$// on name. */
static void reparse(struct pc_buf *name, struct pc_buf *addr, struct pc_buf *t,
		    const char *np, size_t nn, const char *ap, size_t an)
{
	while (nn && pc_isspace((unsigned char)np[nn - 1]))
		nn--;
	pc_buf_reset(t);
	pc_buf_add(t, np, nn);
	pc_buf_addstr(t, " <");
	pc_buf_add(t, ap, an);
	pc_buf_addch(t, '>');
	pc_maint__parse_email(name, addr, t->buf, t->len);
}

void pc_maint__mailmap_parse(struct pc_maint__mailmap *mm, const char *p,
			     size_t len)
{
	pcre2_code *re[4];
	pcre2_match_data *md;
	struct pc_buf name = PC_BUF_INIT, addr = PC_BUF_INIT, t = PC_BUF_INIT;
	struct pc_buf wn = PC_BUF_INIT, wa = PC_BUF_INIT;
	const char *end = p + len;

	re[0] = compile("^([^<]+)<([^>]+)>$", 0);
	re[1] = compile("^<([^>]+)>\\s*<([^>]+)>$", 0);
	re[2] = compile("^(.+)<([^>]+)>\\s*<([^>]+)>$", 0);
	re[3] = compile("^(.+)<([^>]+)>\\s*(.+)\\s*<([^>]+)>$", 0);
	md = pcre2_match_data_create(8, NULL);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *hash;
		const char *s = p;
		size_t n;
		PCRE2_SIZE *ov;
		int k;

		p = nl ? nl + 1 : end;
		/* s/#.*$//; s/^\s+|\s+$//g; */
		if ((hash = memchr(s, '#', (size_t)(le - s))))
			le = hash;
		n = (size_t)(le - s);
		trim(&s, &n);
		if (!n)
			continue;
		for (k = 0; k < 4; k++)
			if (pcre2_match(re[k], (PCRE2_SPTR)s, n, 0, 0, md,
					NULL) > 0)
				break;
		if (k == 4)
			continue;
		ov = pcre2_get_ovector_pointer(md);
#define G(i) (s + ov[2 * (i)]), (ov[2 * (i) + 1] - ov[2 * (i)])
		switch (k) {
		case 0:
			reparse(&name, &addr, &t, G(1), G(2));
			pc_maint__smap_put(&mm->names, addr.buf,
					   mm_str(mm, name.buf, name.len));
			break;
		case 1: {
			char *wrong = xmemdupz(G(2));

			pc_maint__smap_put(&mm->addresses, wrong,
					   mm_str(mm, G(1)));
			free(wrong);
			break;
		}
		case 2: {
			char *wrong = xmemdupz(G(3));

			reparse(&name, &addr, &t, G(1), G(2));
			pc_maint__smap_put(&mm->names, wrong,
					   mm_str(mm, name.buf, name.len));
			pc_maint__smap_put(&mm->addresses, wrong,
					   mm_str(mm, addr.buf, addr.len));
			free(wrong);
			break;
		}
		default:
			reparse(&name, &addr, &t, G(1), G(2));
			reparse(&wn, &wa, &t, G(3), G(4));
			pc_buf_reset(&t);
			pc_maint__format_email(&t, wn.buf, wn.len, wa.buf,
					       wa.len);
			pc_maint__smap_put(&mm->names, t.buf,
					   mm_str(mm, name.buf, name.len));
			pc_maint__smap_put(&mm->addresses, t.buf,
					   mm_str(mm, addr.buf, addr.len));
			break;
		}
#undef G
	}
	pcre2_match_data_free(md);
	for (int k = 0; k < 4; k++)
		pcre2_code_free(re[k]);
	pc_buf_release(&name);
	pc_buf_release(&addr);
	pc_buf_release(&t);
	pc_buf_release(&wn);
	pc_buf_release(&wa);
}

void pc_maint__mailmap_release(struct pc_maint__mailmap *mm)
{
	size_t i;

	pc_maint__smap_release(&mm->names);
	pc_maint__smap_release(&mm->addresses);
	for (i = 0; i < mm->n_strs; i++)
		free(mm->strs[i]);
	free(mm->strs);
	memset(mm, 0, sizeof(*mm));
}

void pc_maint__mailmap_email(struct pc_buf *out, const struct pc_maint *m,
			     const char *s)
{
	struct pc_buf name = PC_BUF_INIT, addr = PC_BUF_INIT;
	struct pc_buf email = PC_BUF_INIT;
	const char *rn, *ra;
	size_t v;

	pc_maint__parse_email(&name, &addr, s, strlen(s));
	pc_maint__format_email(&email, name.buf, name.len, addr.buf, addr.len);
	rn = name.buf;
	ra = addr.buf;
	if (pc_maint__fmap_get(&m->mm_names, email.buf, NULL) ||
	    pc_maint__fmap_get(&m->mm_addrs, email.buf, NULL)) {
		if (pc_maint__fmap_get(&m->mm_names, email.buf, &v))
			rn = m->str + m->mm_strs[v];
		if (pc_maint__fmap_get(&m->mm_addrs, email.buf, &v))
			ra = m->str + m->mm_strs[v];
	} else {
		if (pc_maint__fmap_get(&m->mm_names, addr.buf, &v))
			rn = m->str + m->mm_strs[v];
		if (pc_maint__fmap_get(&m->mm_addrs, addr.buf, &v))
			ra = m->str + m->mm_strs[v];
	}
	pc_buf_reset(out);
	pc_maint__format_email(out, rn, strlen(rn), ra, strlen(ra));
	pc_buf_release(&name);
	pc_buf_release(&addr);
	pc_buf_release(&email);
}

/* ---- RFC 822: one address or a list (push_email_addresses()) ------------- */

struct pc_maint__rfc822 {
	pcre2_code *strip, *valid, *list, *item; /* owned */
	pcre2_match_data *md; /* owned */
};

/* make_rfc822re(), spelled out. */
#define LWSP "(?:(?:\\r\\n)?[ \\t])"
#define SPECIALS "()<>@,;:\\\\\".\\[\\]"
#define CONTROLS "\\000-\\037\\177"
#define DTEXT "[^\\[\\]\\r\\\\]"
#define DOMAIN_LITERAL "\\[(?:" DTEXT "|\\\\.)*\\]" LWSP "*"
#define QUOTED_STRING "\"(?:[^\\\"\\r\\\\]|\\\\.|" LWSP ")*\"" LWSP "*"
#define ATOM \
	"[^" SPECIALS " " CONTROLS "]+(?:" LWSP "+|\\Z|(?=[\\[\"" SPECIALS "]))"
#define WORD "(?:" ATOM "|" QUOTED_STRING ")"
#define LOCALPART WORD "(?:\\." LWSP "*" WORD ")*"
#define SUB_DOMAIN "(?:" ATOM "|" DOMAIN_LITERAL ")"
#define DOMAIN SUB_DOMAIN "(?:\\." LWSP "*" SUB_DOMAIN ")*"
#define ADDR_SPEC LOCALPART "@" LWSP "*" DOMAIN
#define PHRASE WORD "*"
#define ROUTE "(?:@" DOMAIN "(?:,@" LWSP "*" DOMAIN ")*:" LWSP "*)"
#define ROUTE_ADDR "\\<" LWSP "*" ROUTE "?" ADDR_SPEC "\\>" LWSP "*"
#define MAILBOX "(?:" ADDR_SPEC "|" PHRASE ROUTE_ADDR ")"
#define GROUP PHRASE ":" LWSP "*(?:" MAILBOX "(?:,\\s*" MAILBOX ")*)?;\\s*"
#define ADDRESS "(?:" MAILBOX "|" GROUP ")"
#define RFC822RE LWSP "*" ADDRESS

static struct pc_maint__rfc822 *rfc822_new(void)
{
	struct pc_maint__rfc822 *r = xcalloc(1, sizeof(*r));

	r->strip = compile("^((?:[^\"\\\\]|\\\\.)*"
			   "(?:\"(?:[^\"\\\\]|\\\\.)*\"(?:[^\"\\\\]|\\\\.)*)*)"
			   "\\((?:[^()\\\\]|\\\\.)*\\)",
			   PCRE2_DOTALL);
	r->valid = compile("^" RFC822RE "$", PCRE2_DOTALL);
	r->list = compile("^(?:" RFC822RE ")?(?:,(?:" RFC822RE ")?)*$",
			  PCRE2_DOTALL);
	r->item = compile("(?:^|," LWSP "*)(" RFC822RE ")", PCRE2_DOTALL);
	r->md = pcre2_match_data_create(32, NULL);
	return r;
}

void pc_maint__rfc822_free(struct pc_maint__rfc822 *r)
{
	if (!r)
		return;
	pcre2_code_free(r->strip);
	pcre2_code_free(r->valid);
	pcre2_code_free(r->list);
	pcre2_code_free(r->item);
	pcre2_match_data_free(r->md);
	free(r);
}

/* rfc822_strip_comments() */
static void strip_comments(struct pc_maint__rfc822 *r, struct pc_buf *s)
{
	for (;;) {
		PCRE2_SIZE *ov;
		struct pc_buf t = PC_BUF_INIT;

		if (pcre2_match(r->strip, (PCRE2_SPTR)s->buf, s->len, 0, 0,
				r->md, NULL) <= 0)
			return;
		ov = pcre2_get_ovector_pointer(r->md);
		pc_buf_add(&t, s->buf + ov[2], ov[3] - ov[2]);
		pc_buf_addch(&t, ' ');
		pc_buf_add(&t, s->buf + ov[1], s->len - ov[1]);
		pc_buf_release(s);
		*s = t;
	}
}

static void push(struct pc_maint__arena *a, const char ***v, size_t *n,
		 const char *p, size_t len)
{
	const char **nv = pc_maint__alloc(a, (*n + 1) * sizeof(*nv));

	if (*n)
		memcpy(nv, *v, *n * sizeof(*nv));
	nv[*n] = pc_maint__strndup(a, p, len);
	*v = nv;
	(*n)++;
}

void pc_maint__split_addresses(struct pc_maint__rfc822 **rp,
			       struct pc_maint__arena *a, const char *value,
			       const char ***v, size_t *n)
{
	struct pc_maint__rfc822 *r;
	struct pc_buf s = PC_BUF_INIT;
	PCRE2_SIZE off = 0;

	*v = NULL;
	*n = 0;
	/*
	 * Without a comma, a valid list is a valid address (or empty, which
	 * pushes nothing either way): the value goes whole, as it does when
	 * it is valid or invalid. Only a comma needs the regexes.
	 */
	if (!strchr(value, ',')) {
		push(a, v, n, value, strlen(value));
		return;
	}
	if (!*rp)
		*rp = rfc822_new();
	r = *rp;
	pc_buf_addstr(&s, value);
	strip_comments(r, &s);
	if (pcre2_match(r->valid, (PCRE2_SPTR)s.buf, s.len, 0, 0, r->md, NULL) >
		    0 ||
	    pcre2_match(r->list, (PCRE2_SPTR)s.buf, s.len, 0, 0, r->md, NULL) <=
		    0) {
		push(a, v, n, value, strlen(value));
		goto out;
	}
	while (off <= s.len && pcre2_match(r->item, (PCRE2_SPTR)s.buf, s.len,
					   off, 0, r->md, NULL) > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(r->md);

		/* while (my $entry = shift(@address_list)): a false item
		 * ("" or "0") ends the loop. */
		if (ov[3] == ov[2] ||
		    (ov[3] - ov[2] == 1 && s.buf[ov[2]] == '0'))
			break;
		push(a, v, n, s.buf + ov[2], ov[3] - ov[2]);
		off = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
out:
	pc_buf_release(&s);
}

/* ---- addresses in .yaml files ---------------------------------------------- */

/*
 * PC_MAINT__FE_FIND's character class [A-Za-zÀ-ÿ...] is written in UTF-8
 * and read as bytes by the script: 'À' is C3 80 and 'ÿ' C3 BF, so the
 * class holds C3, the range 80-C3 and BF, that is every byte from 0x80
 * to 0xC3.
 */
static int name_byte(unsigned char c)
{
	return pc_isalpha(c) || (c >= 0x80 && c <= 0xc3) || c == '\'' ||
	       c == ',' || c == '.' || c == '+' || c == '-';
}

/* clean_file_emails() for one address. */
static void clean_one(struct pc_buf *out, const pcre2_code *sub, const char *p,
		      size_t len)
{
	struct pc_buf e = PC_BUF_INIT, name = PC_BUF_INIT, addr = PC_BUF_INIT;
	struct pc_buf t = PC_BUF_INIT;
	struct field {
		const char *p;
		size_t n;
	} *fv = NULL;
	size_t nfv = 0, afv = 0, i, start;
	PCRE2_SIZE olen = len * 2 + 16;
	char *n;
	size_t nl;

	pc_buf_grow(&e, olen);
	if (pcre2_substitute(sub, (PCRE2_SPTR)p, len, 0,
			     PCRE2_SUBSTITUTE_GLOBAL, NULL, NULL,
			     (PCRE2_SPTR) "<$1>", 4, (PCRE2_UCHAR *)e.buf,
			     &olen) < 0)
		abort(); /* cannot grow past len * 2: one '<' '>' per '@' */
	pc_buf_setlen(&e, olen);
	pc_maint__parse_email(&name, &addr, e.buf, e.len);
	if (!strcmp(name.buf, "\"[,\\.]\""))
		pc_buf_reset(&name);

	/* my @nw = split(/[^A-Za-zÀ-ÿ\'\,\.\+-]/, $name): fields between
	 * separator bytes, trailing empty ones dropped; the last three. */
	for (i = 0, start = 0; i <= name.len; i++) {
		if (i < name.len && name_byte((unsigned char)name.buf[i]))
			continue;
		PC_ALLOC_GROW(fv, nfv + 1, afv);
		fv[nfv].p = name.buf + start;
		fv[nfv++].n = i - start;
		start = i + 1;
	}
	while (nfv && !fv[nfv - 1].n)
		nfv--;
	if (nfv > 2) {
		const struct field *f = &fv[nfv - 3], *mid = &fv[nfv - 2],
				   *l = &fv[nfv - 1];

		pc_buf_reset(&t);
		if ((f->n == 1 && pc_isalpha((unsigned char)f->p[0])) ||
		    (f->n == 2 && f->p[1] == '.') || mid->n == 1 ||
		    (mid->n == 2 && mid->p[1] == '.')) {
			pc_buf_add(&t, f->p, f->n);
			pc_buf_addch(&t, ' ');
		}
		pc_buf_add(&t, mid->p, mid->n);
		pc_buf_addch(&t, ' ');
		pc_buf_add(&t, l->p, l->n);
		pc_buf_reset(&name);
		pc_buf_add(&name, t.buf, t.len);
	}
	n = name.buf;
	nl = name.len;
	if (nl && (n[nl - 1] == ',' || n[nl - 1] == '.')) {
		nl--;
	} else if (nl >= 2 && (n[nl - 2] == ',' || n[nl - 2] == '.') &&
		   n[nl - 1] == '"') {
		n[nl - 2] = '"';
		nl--;
	}
	if (nl && (n[0] == ',' || n[0] == '.')) {
		n++;
		nl--;
	} else if (nl >= 2 && n[0] == '"' && (n[1] == ',' || n[1] == '.')) {
		n[1] = '"';
		n++;
		nl--;
	}
	pc_buf_reset(out);
	pc_maint__format_email(out, n, nl, addr.buf, addr.len);
	pc_buf_release(&e);
	pc_buf_release(&name);
	pc_buf_release(&addr);
	pc_buf_release(&t);
	free(fv);
}

void pc_maint__file_emails(struct pc_maint_result *r, const pcre2_code *find,
			   const pcre2_code *sub, const char *text, size_t len)
{
	pcre2_match_data *md = pcre2_match_data_create(4, NULL);
	struct pc_buf out = PC_BUF_INIT;
	PCRE2_SIZE off = 0;

	while (off < len &&
	       pcre2_match(find, (PCRE2_SPTR)text, len, off, 0, md, NULL) > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

		clean_one(&out, sub, text + ov[0], ov[1] - ov[0]);
		PC_ALLOC_GROW(r->file_emails, r->n_file_emails + 1,
			      r->alloc_file_emails);
		r->file_emails[r->n_file_emails++] = pc_buf_detach(&out, NULL);
		off = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	pc_buf_release(&out);
	pcre2_match_data_free(md);
}
