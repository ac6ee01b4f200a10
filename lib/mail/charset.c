// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conversion of mail text to UTF-8. A charset label is first mapped, after
 * the WHATWG Encoding Standard, to the decoder browsers use for it (latin1
 * and us-ascii read as windows-1252, gb2312 as GB18030, shift_jis as CP932,
 * ...). UTF-8, us-ascii, windows-1252 and pure-ASCII input in any
 * ASCII-compatible charset are handled here without iconv; everything else
 * goes through glibc's iconv, opened per call (no cache: lib/ keeps no
 * mutable state). Bytes the declared charset cannot convert are read as
 * UTF-8 when the whole input is valid UTF-8, else as windows-1252, whose
 * five undefined bytes become U+FFFD rather than C1 controls, which
 * terminals may act on. The output is always valid UTF-8.
 */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <string.h>

#include "mail/charset.h"
#include "util/util.h"
#include "util/utf8.h"
#include "util/banned.h"

/* How a resolved charset is decoded. */
enum cs_kind {
	CS_UNKNOWN, /* no usable label: the fallback decides */
	CS_UTF8, /* UTF-8; invalid bytes read as windows-1252 */
	CS_ASCII, /* us-ascii: ASCII, else UTF-8 if valid, else 1252 */
	CS_CP1252, /* windows-1252, decoded here */
	CS_8BIT, /* iconv; an ASCII superset */
	CS_7BIT, /* iconv; ASCII unless `shift` bytes occur */
	CS_UTF16, /* iconv; byte order from the BOM, else little-endian */
	CS_OTHER, /* iconv; not known to be ASCII-compatible */
};

struct cs_label {
	const char *key; /* normalised: lower case, no '-' or '_' */
	const char *iconv; /* glibc name */
	enum cs_kind kind;
};

#define SHIFT_2022 "\x1b\x0e\x0f"

/* The most frequent labels come first: the table is searched in order. */
static const struct cs_label cs_labels[] = {
	{ "utf8", NULL, CS_UTF8 },
	{ "usascii", NULL, CS_ASCII },
	{ "iso88591", NULL, CS_CP1252 },
	{ "windows1252", NULL, CS_CP1252 },
	{ "gb2312", "GB18030", CS_8BIT },
	{ "gbk", "GB18030", CS_8BIT },
	{ "iso2022jp", "ISO-2022-JP-2", CS_7BIT },
	{ "unicode11utf8", NULL, CS_UTF8 },
	{ "unicode20utf8", NULL, CS_UTF8 },
	{ "xunicode20utf8", NULL, CS_UTF8 },
	{ "ascii", NULL, CS_ASCII },
	{ "us", NULL, CS_ASCII },
	{ "iso646us", NULL, CS_ASCII },
	{ "ansix3.41968", NULL, CS_ASCII },
	{ "ansix3.41986", NULL, CS_ASCII },
	{ "cp367", NULL, CS_ASCII },
	{ "ibm367", NULL, CS_ASCII },
	{ "csascii", NULL, CS_ASCII },
	{ "isoir6", NULL, CS_ASCII },
	{ "iso646irv:1991", NULL, CS_ASCII },
	{ "iso88591:1987", NULL, CS_CP1252 },
	{ "latin1", NULL, CS_CP1252 },
	{ "l1", NULL, CS_CP1252 },
	{ "cp819", NULL, CS_CP1252 },
	{ "ibm819", NULL, CS_CP1252 },
	{ "csisolatin1", NULL, CS_CP1252 },
	{ "isoir100", NULL, CS_CP1252 },
	{ "cp1252", NULL, CS_CP1252 },
	{ "xcp1252", NULL, CS_CP1252 },
	{ "xgbk", "GB18030", CS_8BIT },
	{ "gb18030", "GB18030", CS_8BIT },
	{ "euccn", "GB18030", CS_8BIT },
	{ "xeuccn", "GB18030", CS_8BIT },
	{ "chinese", "GB18030", CS_8BIT },
	{ "cp936", "GB18030", CS_8BIT },
	{ "ms936", "GB18030", CS_8BIT },
	{ "windows936", "GB18030", CS_8BIT },
	{ "csgb2312", "GB18030", CS_8BIT },
	{ "isoir58", "GB18030", CS_8BIT },
	{ "gb231280", "GB18030", CS_8BIT },
	{ "csiso58gb231280", "GB18030", CS_8BIT },
	{ "csiso2022jp", "ISO-2022-JP-2", CS_7BIT },
	{ "iso2022jp2", "ISO-2022-JP-2", CS_7BIT },
	{ "csiso2022jp2", "ISO-2022-JP-2", CS_7BIT },
	{ "iso2022kr", "ISO-2022-KR", CS_7BIT },
	{ "iso2022cn", "ISO-2022-CN", CS_7BIT },
	{ "shiftjis", "CP932", CS_8BIT },
	{ "sjis", "CP932", CS_8BIT },
	{ "xsjis", "CP932", CS_8BIT },
	{ "mskanji", "CP932", CS_8BIT },
	{ "csshiftjis", "CP932", CS_8BIT },
	{ "windows31j", "CP932", CS_8BIT },
	{ "cp932", "CP932", CS_8BIT },
	{ "ms932", "CP932", CS_8BIT },
	{ "eucjp", "EUC-JP", CS_8BIT },
	{ "xeucjp", "EUC-JP", CS_8BIT },
	{ "cseucpkdfmtjapanese", "EUC-JP", CS_8BIT },
	{ "ksc56011987", "CP949", CS_8BIT },
	{ "ksc56011989", "CP949", CS_8BIT },
	{ "ksc5601", "CP949", CS_8BIT },
	{ "csksc56011987", "CP949", CS_8BIT },
	{ "euckr", "CP949", CS_8BIT },
	{ "cseuckr", "CP949", CS_8BIT },
	{ "cp949", "CP949", CS_8BIT },
	{ "windows949", "CP949", CS_8BIT },
	{ "isoir149", "CP949", CS_8BIT },
	{ "korean", "CP949", CS_8BIT },
	{ "uhc", "CP949", CS_8BIT },
	{ "big5", "BIG5-HKSCS", CS_8BIT },
	{ "big5hkscs", "BIG5-HKSCS", CS_8BIT },
	{ "cnbig5", "BIG5-HKSCS", CS_8BIT },
	{ "xxbig5", "BIG5-HKSCS", CS_8BIT },
	{ "csbig5", "BIG5-HKSCS", CS_8BIT },
	{ "cp950", "BIG5-HKSCS", CS_8BIT },
	{ "koi8r", "KOI8-R", CS_8BIT },
	{ "koi8", "KOI8-R", CS_8BIT },
	{ "koi", "KOI8-R", CS_8BIT },
	{ "cskoi8r", "KOI8-R", CS_8BIT },
	{ "koi8u", "KOI8-U", CS_8BIT },
	{ "koi8ru", "KOI8-U", CS_8BIT },
	{ "utf16", "UTF-16LE", CS_UTF16 },
	{ "utf16le", "UTF-16LE", CS_UTF16 },
	{ "utf16be", "UTF-16BE", CS_UTF16 },
	{ "utf7", "UTF-7", CS_7BIT },
	{ "unicode11utf7", "UTF-7", CS_7BIT },
	{ "csunicode11utf7", "UTF-7", CS_7BIT },
	{ "iso88598i", "ISO-8859-8", CS_8BIT },
	{ "latin2", "ISO-8859-2", CS_8BIT },
	{ "l2", "ISO-8859-2", CS_8BIT },
	{ "latin3", "ISO-8859-3", CS_8BIT },
	{ "l3", "ISO-8859-3", CS_8BIT },
	{ "latin4", "ISO-8859-4", CS_8BIT },
	{ "l4", "ISO-8859-4", CS_8BIT },
	{ "latin5", "CP1254", CS_8BIT },
	{ "l5", "CP1254", CS_8BIT },
	{ "latin6", "ISO-8859-10", CS_8BIT },
	{ "l6", "ISO-8859-10", CS_8BIT },
	{ "latin9", "ISO-8859-15", CS_8BIT },
	{ "l9", "ISO-8859-15", CS_8BIT },
	{ "cyrillic", "ISO-8859-5", CS_8BIT },
	{ "greek", "ISO-8859-7", CS_8BIT },
	{ "hebrew", "ISO-8859-8", CS_8BIT },
	{ "arabic", "ISO-8859-6", CS_8BIT },
	{ "tis620", "CP874", CS_8BIT },
	{ "dos874", "CP874", CS_8BIT },
	{ "macintosh", "MACINTOSH", CS_8BIT },
	{ "mac", "MACINTOSH", CS_8BIT },
	{ "xmacroman", "MACINTOSH", CS_8BIT },
	/* Labels that say "I don't know": no iconv_open() for them. */
	{ "unknown8bit", NULL, CS_UNKNOWN },
	{ "xunknown", NULL, CS_UNKNOWN },
	{ "unknown", NULL, CS_UNKNOWN },
	{ "xuserdefined", NULL, CS_UNKNOWN },
	{ "8bit", NULL, CS_UNKNOWN },
	{ "default", NULL, CS_UNKNOWN },
};

/* "iso-8859-N" for N = 2..16, with WHATWG's substitutions. */
static const char *const cs_iso8859[] = {
	NULL,	       NULL,	      "ISO-8859-2",  "ISO-8859-3",
	"ISO-8859-4",  "ISO-8859-5",  "ISO-8859-6",  "ISO-8859-7",
	"ISO-8859-8",  "CP1254",      "ISO-8859-10", "CP874",
	NULL,	       "ISO-8859-13", "ISO-8859-14", "ISO-8859-15",
	"ISO-8859-16",
};

static const char *const cs_cp125x[] = {
	"CP1250", "CP1251", NULL,     "CP1253", "CP1254",
	"CP1255", "CP1256", "CP1257", "CP1258",
};

/* windows-1252 0x80..0x9f; 0 marks the five undefined bytes. */
static const uint16_t cp1252_c1[32] = {
	0x20ac, 0,	0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0,	0x017d, 0,
	0,	0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0,	0x017e, 0x0178,
};

struct cs {
	enum cs_kind kind;
	const char *iconv; /* borrowed: the table or the caller's label */
	const char *shift; /* CS_7BIT: bytes that leave ASCII */
};

/* Parses a decimal number of at most two digits that ends the string. */
static int small_number(const char *s)
{
	if (pc_isdigit(s[0]) && !s[1])
		return s[0] - '0';
	if (pc_isdigit(s[0]) && pc_isdigit(s[1]) && !s[2] && s[0] != '0')
		return (s[0] - '0') * 10 + (s[1] - '0');
	return -1;
}

static void resolve(struct cs *cs, const char *label)
{
	char key[65];
	size_t i, n = 0;
	int num;

	cs->kind = CS_UNKNOWN;
	cs->iconv = NULL;
	cs->shift = "";
	if (!label || !*label)
		return;
	/*
	 * Only plain tokens reach iconv_open(): no quotes, whitespace, '/'
	 * (glibc's "//TRANSLIT" suffixes) or ','. A caller is expected to
	 * have unquoted the parameter; what is left unquoted is unknown.
	 */
	for (i = 0; label[i]; i++) {
		int c = (unsigned char)label[i];

		if (!pc_isalnum(c) && c != '-' && c != '_' && c != '.' &&
		    c != ':')
			return;
		if (c == '-' || c == '_')
			continue;
		if (n + 1 >= sizeof(key))
			return;
		key[n++] = (char)pc_tolower(c);
	}
	key[n] = '\0';
	if (!n)
		return;

	for (i = 0; i < PC_ARRAY_SIZE(cs_labels); i++) {
		if (!strcmp(key, cs_labels[i].key)) {
			cs->kind = cs_labels[i].kind;
			cs->iconv = cs_labels[i].iconv;
			if (cs->kind == CS_7BIT)
				cs->shift = strstr(key, "utf7") ? "+" :
								  SHIFT_2022;
			return;
		}
	}
	if (!strncmp(key, "iso8859", 7) && (num = small_number(key + 7)) >= 0 &&
	    num < (int)PC_ARRAY_SIZE(cs_iso8859)) {
		if (num == 1) {
			cs->kind = CS_CP1252;
			return;
		}
		if (cs_iso8859[num]) {
			cs->kind = CS_8BIT;
			cs->iconv = cs_iso8859[num];
			return;
		}
	}
	if ((!strncmp(key, "windows125", 10) &&
	     (num = small_number(key + 10)) >= 0) ||
	    (!strncmp(key, "xcp125", 6) &&
	     (num = small_number(key + 6)) >= 0) ||
	    (!strncmp(key, "cp125", 5) && (num = small_number(key + 5)) >= 0)) {
		if (num < (int)PC_ARRAY_SIZE(cs_cp125x) && cs_cp125x[num]) {
			cs->kind = CS_8BIT;
			cs->iconv = cs_cp125x[num];
			return;
		}
	}
	if (!strcmp(key, "windows874") || !strcmp(key, "cp874")) {
		cs->kind = CS_8BIT;
		cs->iconv = "CP874";
		return;
	}
	/*
	 * Anything else is tried with iconv as written; it may not be an
	 * ASCII superset (EBCDIC), so no ASCII shortcut for it.
	 */
	cs->kind = CS_OTHER;
	cs->iconv = label;
}

/* Length of the all-ASCII prefix of (s, n), eight bytes at a time. */
static size_t ascii_prefix(const unsigned char *s, size_t n)
{
	size_t i = 0;
	uint64_t w;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		if (w & UINT64_C(0x8080808080808080))
			break;
	}
	while (i < n && s[i] < 0x80)
		i++;
	return i;
}

int pc_utf8_valid(const char *p, size_t len)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, k;

	while (i < len) {
		i += ascii_prefix(s + i, len - i);
		if (i == len)
			break;
		if (!(k = pc_utf8_seq(s + i, len - i, NULL)))
			return 0;
		i += k;
	}
	return 1;
}

/* Whether (s, n) holds one of the bytes of the string `set`. */
static int has_any(const unsigned char *s, size_t n, const char *set)
{
	for (; *set; set++)
		if (memchr(s, *set, n))
			return 1;
	return 0;
}

static void add_cp(struct pc_buf *out, uint32_t cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	pc_buf_add(out, u, n);
}

/* Appends one byte read as windows-1252; returns 1 if it is undefined. */
static int add_cp1252_byte(struct pc_buf *out, unsigned char c)
{
	if (c < 0x80) {
		pc_buf_addch(out, c);
		return 0;
	}
	if (c >= 0xa0) {
		add_cp(out, c);
		return 0;
	}
	if (cp1252_c1[c - 0x80]) {
		add_cp(out, cp1252_c1[c - 0x80]);
		return 0;
	}
	add_cp(out, 0xfffd);
	return 1;
}

/* Appends (s, n) read as windows-1252; returns 1 if a byte is undefined. */
static int add_cp1252(struct pc_buf *out, const unsigned char *s, size_t n)
{
	size_t i = 0, k;
	int undef = 0;

	pc_buf_grow(out, n + n / 2);
	while (i < n) {
		k = ascii_prefix(s + i, n - i);
		pc_buf_add(out, s + i, k);
		i += k;
		if (i < n)
			undef |= add_cp1252_byte(out, s[i++]);
	}
	return undef;
}

/*
 * Appends (s, n) as UTF-8, reading each byte that does not start a valid
 * sequence as windows-1252. Returns 1 if such a byte was met.
 */
static int add_utf8_lenient(struct pc_buf *out, const unsigned char *s,
			    size_t n)
{
	size_t i = 0, start = 0, k;
	int bad = 0;

	while (i < n) {
		i += ascii_prefix(s + i, n - i);
		if (i == n)
			break;
		if ((k = pc_utf8_seq(s + i, n - i, NULL))) {
			i += k;
			continue;
		}
		pc_buf_add(out, s + start, i - start);
		add_cp1252_byte(out, s[i]);
		bad = 1;
		start = ++i;
	}
	pc_buf_add(out, s + start, i - start);
	return bad;
}

/*
 * Rewrites out from `start` so that every invalid UTF-8 sequence becomes
 * U+FFFD. Only a guard against a converter emitting bad UTF-8.
 */
static void sanitize_from(struct pc_buf *out, size_t start)
{
	struct pc_buf tmp = PC_BUF_INIT;
	const unsigned char *s;
	size_t i, n, k;

	if (pc_utf8_valid(out->buf + start, out->len - start))
		return;
	pc_buf_add(&tmp, out->buf + start, out->len - start);
	pc_buf_setlen(out, start);
	s = (const unsigned char *)tmp.buf;
	n = tmp.len;
	for (i = 0; i < n; i += k) {
		if ((k = pc_utf8_seq(s + i, n - i, NULL))) {
			pc_buf_add(out, s + i, k);
		} else {
			add_cp(out, 0xfffd);
			k = 1;
		}
	}
	pc_buf_release(&tmp);
}

/* Drops a U+FEFF at out->buf + start, where the conversion began. */
static void drop_bom_at(struct pc_buf *out, size_t start)
{
	if (out->len - start >= 3 &&
	    !memcmp(out->buf + start, "\xef\xbb\xbf", 3)) {
		memmove(out->buf + start, out->buf + start + 3,
			out->len - start - 3);
		pc_buf_setlen(out, out->len - 3);
	}
}

/*
 * The fallback for bytes no declared charset explains: valid UTF-8 as
 * is, anything else as windows-1252.
 */
static void add_fallback(struct pc_buf *out, const unsigned char *s, size_t n,
			 int utf8ok)
{
	if (utf8ok)
		pc_buf_add(out, s, n);
	else
		add_cp1252(out, s, n);
}

/*
 * Converts with iconv. Returns -1 if iconv does not know the charset (out
 * untouched), else PC_CHARSET_EXACT or PC_CHARSET_FALLBACK.
 */
static int add_iconv(struct pc_buf *out, const char *name, int utf16,
		     const unsigned char *s, size_t n)
{
	size_t start = out->len, inleft = n, outleft;
	char *in = (char *)s, *outp;
	int rc = PC_CHARSET_EXACT, utf8ok = -1;
	iconv_t cd;
	size_t r;

	cd = iconv_open("UTF-8", name);
	if (cd == (iconv_t)-1)
		return -1;
	pc_buf_grow(out, n + n / 2 + 16);
	while (inleft) {
		outp = out->buf + out->len;
		outleft = out->alloc - out->len - 1;
		r = iconv(cd, &in, &inleft, &outp, &outleft);
		pc_buf_setlen(out, (size_t)(outp - out->buf));
		if (r != (size_t)-1 || !inleft)
			continue;
		if (errno == E2BIG) {
			pc_buf_grow(out, out->alloc);
			continue;
		}
		/* EILSEQ, or EINVAL for a sequence cut off at the end. */
		rc = PC_CHARSET_FALLBACK;
		if (utf16) {
			/* A bad code unit: byte-wise guesses would misalign. */
			add_cp(out, 0xfffd);
			in += inleft >= 2 ? 2 : 1;
			inleft -= inleft >= 2 ? 2 : 1;
			continue;
		}
		if (utf8ok < 0)
			utf8ok = pc_utf8_valid((const char *)s, n);
		if (utf8ok) {
			/* Mislabelled UTF-8: take all of it as UTF-8. */
			pc_buf_setlen(out, start);
			pc_buf_add(out, s, n);
			goto out_close;
		}
		add_cp1252_byte(out, (unsigned char)*in);
		in++;
		inleft--;
	}
	/* Ends the conversion, writing any shift state out. */
	for (;;) {
		outp = out->buf + out->len;
		outleft = out->alloc - out->len - 1;
		r = iconv(cd, NULL, NULL, &outp, &outleft);
		pc_buf_setlen(out, (size_t)(outp - out->buf));
		if (r != (size_t)-1 || errno != E2BIG)
			break;
		pc_buf_grow(out, out->alloc);
	}
out_close:
	iconv_close(cd);
	sanitize_from(out, start);
	drop_bom_at(out, start);
	return rc;
}

int pc_charset_to_utf8(struct pc_buf *out, const char *charset, const char *p,
		       size_t len)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t start = out->len, ascii;
	struct cs cs;
	int rc;

	resolve(&cs, charset);
	if (cs.kind == CS_UTF16 && len >= 2 &&
	    ((s[0] == 0xfe && s[1] == 0xff) ||
	     (s[0] == 0xff && s[1] == 0xfe))) {
		/* glibc's "UTF-16" guesses host order without a BOM. */
		cs.iconv = s[0] == 0xfe ? "UTF-16BE" : "UTF-16LE";
		s += 2;
		len -= 2;
	} else if (cs.kind < CS_UTF16 && len >= 3 &&
		   !memcmp(s, "\xef\xbb\xbf", 3)) {
		s += 3;
		len -= 3;
	}
	ascii = ascii_prefix(s, len);
	switch (cs.kind) {
	case CS_UTF8:
		if (pc_utf8_valid((const char *)s + ascii, len - ascii)) {
			pc_buf_add(out, s, len);
			return PC_CHARSET_EXACT;
		}
		add_utf8_lenient(out, s, len);
		return PC_CHARSET_FALLBACK;
	case CS_CP1252:
		return add_cp1252(out, s, len) ? PC_CHARSET_FALLBACK :
						 PC_CHARSET_EXACT;
	case CS_8BIT:
	case CS_7BIT:
		if (ascii == len && !has_any(s, len, cs.shift)) {
			pc_buf_add(out, s, len);
			return PC_CHARSET_EXACT;
		}
		/* fall through */
	case CS_UTF16:
	case CS_OTHER:
		rc = add_iconv(out, cs.iconv, cs.kind == CS_UTF16, s, len);
		if (rc >= 0)
			return rc;
		break; /* iconv does not know it */
	case CS_ASCII:
	case CS_UNKNOWN:
		break;
	}
	if (ascii == len) {
		pc_buf_add(out, s, len);
		return PC_CHARSET_EXACT;
	}
	add_fallback(out, s, len,
		     pc_utf8_valid((const char *)s + ascii, len - ascii));
	drop_bom_at(out, start);
	return PC_CHARSET_FALLBACK;
}
