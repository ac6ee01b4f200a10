// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DKIM verification through libopendkim. See dkim.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <opendkim/dkim.h>

#include "mail/dkim.h"
#include "mail/message.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define DNS_TIMEOUT 5 /* seconds per key lookup */

struct pc_dkim {
	DKIM_LIB *lib; /* owned */
	char *keytable; /* owned, or NULL: DNS */
};

int pc_dkim_new(struct pc_dkim **out, const char *keytable, struct pc_err *err)
{
	struct pc_dkim *d;
	unsigned int flags = DKIM_LIBFLAGS_FIXCRLF;
	unsigned int timeout = DNS_TIMEOUT;
	FILE *f;

	if (keytable) {
		if (!(f = fopen(keytable, "r")))
			return pc_err_set(err, PC_EUSAGE,
					  "cannot read the DKIM key table "
					  "'%s': %m",
					  keytable);
		fclose(f);
	}
	d = xcalloc(1, sizeof(*d));
	if (!(d->lib = dkim_init(NULL, NULL))) {
		free(d);
		return pc_err_set(err, PC_EIO, "cannot start libopendkim");
	}
	dkim_options(d->lib, DKIM_OP_SETOPT, DKIM_OPTS_FLAGS, &flags,
		     sizeof(flags));
	dkim_options(d->lib, DKIM_OP_SETOPT, DKIM_OPTS_TIMEOUT, &timeout,
		     sizeof(timeout));
	if (keytable) {
		dkim_query_t q = DKIM_QUERY_FILE;

		d->keytable = xstrdup(keytable);
		dkim_options(d->lib, DKIM_OP_SETOPT, DKIM_OPTS_QUERYMETHOD, &q,
			     sizeof(q));
		dkim_options(d->lib, DKIM_OP_SETOPT, DKIM_OPTS_QUERYINFO,
			     d->keytable, strlen(d->keytable));
	}
	*out = d;
	return 0;
}

void pc_dkim_free(struct pc_dkim *d)
{
	if (!d)
		return;
	dkim_close(d->lib);
	free(d->keytable);
	free(d);
}

const char *pc_dkim_result_name(enum pc_dkim_result r)
{
	switch (r) {
	case PC_DKIM_PASS:
		return "pass";
	case PC_DKIM_FAIL:
		return "fail";
	case PC_DKIM_NONE:
		break;
	}
	return "none";
}

/* Whether d= domain sd is from or a parent of it. */
static int aligned(const char *sd, const char *from)
{
	size_t ls = strlen(sd), lf = strlen(from);

	if (!ls || ls > lf)
		return 0;
	if (strcasecmp(from + lf - ls, sd))
		return 0;
	return ls == lf || from[lf - ls - 1] == '.';
}

static void set_time(struct pc_dkim *d, int64_t now)
{
	uint64_t t = now > 0 ? (uint64_t)now : 0;

	dkim_options(d->lib, DKIM_OP_SETOPT, DKIM_OPTS_FIXEDTIME, &t,
		     sizeof(t));
}

/* Why a signature did not verify, in words. */
static const char *sig_problem(DKIM_SIGINFO *sig)
{
	int e = dkim_sig_geterror(sig);

	if (dkim_sig_getbh(sig) == DKIM_SIGBH_MISMATCH)
		return "body changed since it was signed";
	if (e != DKIM_SIGERROR_OK && e != DKIM_SIGERROR_UNKNOWN)
		return dkim_sig_geterrorstr(e);
	return "signature does not verify";
}

/* Whether the header (raw, len) has a field name (lower-case). */
static int has_field(const char *raw, size_t len, const char *name)
{
	size_t pos = 0, n = strlen(name);

	while (pos < len) {
		const char *line = raw + pos,
			   *nl = memchr(line, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - line) : len - pos;

		if (!l || (l == 1 && line[0] == '\r'))
			break;
		if (l > n && !strncasecmp(line, name, n) &&
		    (line[n] == ':' || line[n] == ' ' || line[n] == '\t'))
			return 1;
		pos += l + (nl ? 1 : 0);
	}
	return 0;
}

/*
 * Why a verified signature still gives no authority, or NULL: it covers
 * only the first bytes of the body (l=: anything appended after them,
 * a command or a trailer, would ride on it), or it leaves out the
 * threading headers the mail has (a signed command replayed under a new
 * In-Reply-To would bind to another series).
 */
static const char *sig_limits(DKIM *dk, DKIM_SIGINFO *sig, const char *raw,
			      size_t len)
{
	ssize_t signlen = -1;

	if (dkim_sig_getcanonlen(dk, sig, NULL, NULL, &signlen) ==
		    DKIM_STAT_OK &&
	    signlen >= 0)
		return "it signs only part of the body (l=), refused";
	if (has_field(raw, len, "in-reply-to") &&
	    !dkim_sig_hdrsigned(sig, (u_char *)"in-reply-to"))
		return "it does not sign In-Reply-To, which binds the mail to "
		       "its thread";
	if (has_field(raw, len, "references") &&
	    !dkim_sig_hdrsigned(sig, (u_char *)"references"))
		return "it does not sign References, which binds the mail to "
		       "its thread";
	return NULL;
}

/* Reads the verdict of a finished verification. */
static enum pc_dkim_result judge(DKIM *dk, const char *from_domain,
				 const char *raw, size_t len, char *why,
				 size_t whylen)
{
	DKIM_SIGINFO **sigs = NULL;
	int nsigs = 0, i;
	const char *first_bad = NULL, *bad_domain = "";

	if (dkim_getsiglist(dk, &sigs, &nsigs) != DKIM_STAT_OK || !nsigs) {
		snprintf(why, whylen, "not signed");
		return PC_DKIM_NONE;
	}
	for (i = 0; i < nsigs; i++) {
		const char *sd = (const char *)dkim_sig_getdomain(sigs[i]);
		const char *sel = (const char *)dkim_sig_getselector(sigs[i]);

		if (!sd)
			continue;
		if (DKIM_SIG_CHECK(sigs[i]) && aligned(sd, from_domain)) {
			const char *limit = sig_limits(dk, sigs[i], raw, len);

			if (!limit) {
				snprintf(why, whylen,
					 "signed by %s (s=%s), verified", sd,
					 sel ? sel : "?");
				return PC_DKIM_PASS;
			}
			if (!first_bad) {
				first_bad = limit;
				bad_domain = sd;
			}
			continue;
		}
		if (!first_bad) {
			first_bad = DKIM_SIG_CHECK(sigs[i]) ?
					    "signed by another domain" :
					    sig_problem(sigs[i]);
			bad_domain = sd;
		}
	}
	snprintf(why, whylen, "no valid signature by %s: %s (d=%s)",
		 from_domain, first_bad ? first_bad : "malformed signature",
		 bad_domain);
	return PC_DKIM_FAIL;
}

enum pc_dkim_result pc_dkim_verify(struct pc_dkim *d, const char *raw,
				   size_t len, const char *from_domain,
				   int64_t now, char *why, size_t whylen)
{
	DKIM_STAT st;
	DKIM *dk;
	enum pc_dkim_result r;
	const char *dup = pc_msg_duplicated_field(raw, len);

	if (dup) {
		snprintf(why, whylen,
			 "more than one %s header field (RFC 5322 allows "
			 "one): what is read is not what was signed",
			 dup);
		return PC_DKIM_FAIL;
	}
	set_time(d, now);
	if (!(dk = dkim_verify(d->lib, (const unsigned char *)"patchclock",
			       NULL, &st))) {
		snprintf(why, whylen, "cannot verify: %s",
			 dkim_getresultstr(st));
		return PC_DKIM_FAIL;
	}
	st = dkim_chunk(dk, (unsigned char *)(uintptr_t)raw, len);
	if (st == DKIM_STAT_OK)
		st = dkim_chunk(dk, NULL, 0);
	if (st == DKIM_STAT_OK || st == DKIM_STAT_NOSIG)
		st = dkim_eom(dk, NULL);
	if (st == DKIM_STAT_NOSIG) {
		snprintf(why, whylen, "not signed");
		r = PC_DKIM_NONE;
	} else {
		r = judge(dk, from_domain ? from_domain : "", raw, len, why,
			  whylen);
	}
	dkim_free(dk);
	return r;
}

/* "DKIM-Signature: " and the field libopendkim folds with CRLF, with LF
 * line ends as patchclock stores mail. */
static char *lf_header(const unsigned char *h, size_t n)
{
	size_t name = strlen(DKIM_SIGNHEADER ": "), i, o = name;
	char *out = xmalloc(name + n + 2);

	memcpy(out, DKIM_SIGNHEADER ": ", name);
	for (i = 0; i < n; i++)
		if (h[i] != '\r')
			out[o++] = (char)h[i];
	out[o++] = '\n';
	out[o] = '\0';
	return out;
}

int pc_dkim_sign(char **out, struct pc_dkim *d, const char *raw, size_t len,
		 const char *key_pem, const char *selector, const char *domain,
		 int64_t now, struct pc_err *err)
{
	struct pc_dkim_sign_opts o = { 0 };

	o.key_pem = key_pem;
	o.selector = selector;
	o.domain = domain;
	o.now = now;
	o.body_length = -1;
	return pc_dkim_sign_with(out, d, raw, len, &o, err);
}

int pc_dkim_sign_with(char **out, struct pc_dkim *d, const char *raw,
		      size_t len, const struct pc_dkim_sign_opts *o,
		      struct pc_err *err)
{
	DKIM_STAT st;
	DKIM *dk;
	unsigned char *hdr = NULL;
	size_t hlen = 0;
	int rc = 0;

	set_time(d, o->now);
	if (o->headers)
		dkim_options(d->lib, DKIM_OP_SETOPT, DKIM_OPTS_SIGNHDRS,
			     (void *)(uintptr_t)o->headers, sizeof(char **));
	dk = dkim_sign(d->lib, (const unsigned char *)"patchclock", NULL,
		       (dkim_sigkey_t)(uintptr_t)o->key_pem,
		       (const unsigned char *)o->selector,
		       (const unsigned char *)o->domain, DKIM_CANON_RELAXED,
		       DKIM_CANON_RELAXED, DKIM_SIGN_RSASHA256, o->body_length,
		       &st);
	if (!dk)
		return pc_err_set(err, PC_EUSAGE, "cannot sign: %s",
				  dkim_getresultstr(st));
	st = dkim_chunk(dk, (unsigned char *)(uintptr_t)raw, len);
	if (st == DKIM_STAT_OK)
		st = dkim_chunk(dk, NULL, 0);
	if (st == DKIM_STAT_OK)
		st = dkim_eom(dk, NULL);
	if (st == DKIM_STAT_OK)
		st = dkim_getsighdr_d(dk, strlen(DKIM_SIGNHEADER ": "), &hdr,
				      &hlen);
	if (st != DKIM_STAT_OK)
		rc = pc_err_set(err, PC_EUSAGE, "cannot sign: %s",
				dkim_geterror(dk) ? dkim_geterror(dk) :
						    dkim_getresultstr(st));
	else
		*out = lf_header(hdr, hlen);
	dkim_free(dk);
	if (o->headers) /* back to libopendkim's default: every field */
		dkim_options(d->lib, DKIM_OP_SETOPT, DKIM_OPTS_SIGNHDRS, NULL,
			     sizeof(char **));
	return rc;
}
