// SPDX-License-Identifier: GPL-2.0-or-later
/* SHA-1 through libcrypto's EVP interface (see hash.h; SHA-256 is
 * sha256.c's). */
#include <openssl/evp.h>
#include <stdlib.h>

#include "hash.h"
#include "util/banned.h"

struct pc_sha1 {
	EVP_MD_CTX *ctx; /* owned */
};

struct pc_sha1 *pc_sha1_new(void)
{
	struct pc_sha1 *c = malloc(sizeof(*c));

	if (!c || !(c->ctx = EVP_MD_CTX_new()) ||
	    !EVP_DigestInit_ex(c->ctx, EVP_sha1(), NULL))
		abort();
	return c;
}

void pc_sha1_free(struct pc_sha1 *c)
{
	if (!c)
		return;
	EVP_MD_CTX_free(c->ctx);
	free(c);
}

void pc_sha1_update(struct pc_sha1 *c, const void *p, size_t len)
{
	if (len && !EVP_DigestUpdate(c->ctx, p, len))
		abort();
}

void pc_sha1_final(unsigned char out[PC_SHA1_LEN], struct pc_sha1 *c)
{
	unsigned int n = PC_SHA1_LEN;

	if (!EVP_DigestFinal_ex(c->ctx, out, &n) ||
	    !EVP_DigestInit_ex(c->ctx, EVP_sha1(), NULL))
		abort();
}
