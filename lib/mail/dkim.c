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
#include "util/xalloc.h"

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

/* Reads the verdict of a finished verification. */
static enum pc_dkim_result judge(DKIM *dk, const char *from_domain, char *why,
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
			snprintf(why, whylen, "signed by %s (s=%s), verified",
				 sd, sel ? sel : "?");
			return PC_DKIM_PASS;
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
		r = judge(dk, from_domain ? from_domain : "", why, whylen);
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
	DKIM_STAT st;
	DKIM *dk;
	unsigned char *hdr = NULL;
	size_t hlen = 0;
	int rc = 0;

	set_time(d, now);
	dk = dkim_sign(d->lib, (const unsigned char *)"patchclock", NULL,
		       (dkim_sigkey_t)(uintptr_t)key_pem,
		       (const unsigned char *)selector,
		       (const unsigned char *)domain, DKIM_CANON_RELAXED,
		       DKIM_CANON_RELAXED, DKIM_SIGN_RSASHA256, -1, &st);
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
	return rc;
}
