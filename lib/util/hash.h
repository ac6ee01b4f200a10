/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SHA-1 through OpenSSL's libcrypto, for git-compatible patch-ids; SHA-256
 * in plain C (sha256.c), for stable ids: mail without a Message-ID,
 * MAINTAINERS, file names. A program that hashes only with SHA-256 does
 * not load libcrypto.
 */
#ifndef PC_UTIL_HASH_H
#define PC_UTIL_HASH_H

#include <stddef.h>

#define PC_SHA1_LEN 20
#define PC_SHA256_LEN 32

struct pc_sha1; /* opaque incremental context */

struct pc_sha1 *pc_sha1_new(void);
void pc_sha1_free(struct pc_sha1 *c);
void pc_sha1_update(struct pc_sha1 *c, const void *p, size_t len);
/* Writes the digest and resets the context for reuse. */
void pc_sha1_final(unsigned char out[PC_SHA1_LEN], struct pc_sha1 *c);

void pc_sha256(unsigned char out[PC_SHA256_LEN], const void *p, size_t len);

#endif
