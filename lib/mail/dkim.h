/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * DKIM (RFC 6376) verification of a stored mail, through libopendkim:
 * whether the mail carries a signature by its From domain that verifies.
 * The one place that includes libopendkim.
 *
 * A signature counts for the From domain when its d= is that domain or
 * a parent of it (relaxed alignment, as DMARC reads it): mail from
 * dan.j.williams@intel.com signed d=intel.com counts; signed d=gmail.com
 * it does not. Keys come from DNS (TXT at SELECTOR._domainkey.DOMAIN),
 * or from a key table file, one "SELECTOR._domainkey.DOMAIN RECORD" per
 * line, for tests and for machines that must not use the network.
 */
#ifndef PC_MAIL_DKIM_H
#define PC_MAIL_DKIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"

enum pc_dkim_result {
	PC_DKIM_NONE, /* no DKIM-Signature at all */
	PC_DKIM_PASS, /* a signature by the From domain verifies */
	PC_DKIM_FAIL, /* signed, but none by the From domain verifies */
};

struct pc_dkim;

/*
 * A verifier. keytable: the key table file, or NULL for DNS. Errors:
 * PC_EUSAGE (a key table that cannot be read), PC_EIO.
 */
int pc_dkim_new(struct pc_dkim **out, const char *keytable, struct pc_err *err);
void pc_dkim_free(struct pc_dkim *d);

/*
 * Verifies (raw, len), a mail as stored (LF or CRLF line ends), at now
 * (a signature's t= and x= are read against it), for from_domain. Writes
 * what was found to why (a sentence: "signed by intel.com
 * (s=selector1), verified", "body changed since it was signed (d=...)")
 * and returns the result. A signature that verifies still fails when it
 * covers only part of the body (l=) or leaves out the In-Reply-To or
 * References the mail has, and so does a mail with a field RFC 5322
 * allows once written twice (pc_msg_duplicated_field()).
 */
enum pc_dkim_result pc_dkim_verify(struct pc_dkim *d, const char *raw,
				   size_t len, const char *from_domain,
				   int64_t now, char *why, size_t whylen);

/* "none", "pass", "fail". */
const char *pc_dkim_result_name(enum pc_dkim_result r);

/*
 * Signs (raw, len) for domain with selector and the PEM private key
 * (relaxed/relaxed, rsa-sha256, at now): the DKIM-Signature header
 * field, with its name and a final LF, in *out (caller frees). For the
 * tests and for an operator checking a key table; patchclock's own mail
 * is signed by its MTA. Errors: PC_EUSAGE.
 */
int pc_dkim_sign(char **out, struct pc_dkim *d, const char *raw, size_t len,
		 const char *key_pem, const char *selector, const char *domain,
		 int64_t now, struct pc_err *err);

/* pc_dkim_sign() with the signature's shape chosen: the header fields it
 * signs (h=; NULL: libopendkim's default list) and the body length it
 * covers (l=; -1: all of it, no l=). For tests of what a verifier must
 * refuse. */
struct pc_dkim_sign_opts {
	const char *key_pem, *selector, *domain;
	int64_t now;
	const char **headers; /* NULL-terminated, lower-case, or NULL */
	ssize_t body_length;
};
int pc_dkim_sign_with(char **out, struct pc_dkim *d, const char *raw,
		      size_t len, const struct pc_dkim_sign_opts *o,
		      struct pc_err *err);

#endif
