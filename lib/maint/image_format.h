/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The format of a MAINTAINERS image (image.c says what it is): its
 * header and sections. Internal to lib/maint: image.c opens images,
 * image_layout.c lays them out, image_cache.c keeps them in files.
 */
#ifndef PC_MAINT_IMAGE_FORMAT_H
#define PC_MAINT_IMAGE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "maint/maint_internal.h"

#define MAGIC "pcmaint\n"
#define VERSION 1
#define ORDER 0x01020304u

enum {
	S_STR,
	S_FPAT,
	S_BUCKET,
	S_PIDX,
	S_LIT,
	S_NPAT,
	S_NIDX,
	S_NBITS,
	S_NRANK,
	S_NSTART,
	S_NALWAYS,
	S_KPAT,
	S_KIDX,
	S_KBITS,
	S_KRANK,
	S_KSTART,
	S_KTRI,
	S_ENT,
	S_TAG,
	S_ADDR,
	S_MMNAMES,
	S_MMADDRS,
	S_MMSTRS,
	S_NAMES,
	S_WARN,
	S_FRES,
	NSEC
};

struct sec {
	uint64_t off, n; /* offset in the image, elements */
};

struct head {
	char magic[8];
	uint32_t version;
	uint32_t order;
	uint64_t layout;
	uint64_t srcid;
	char pcre2[32];
	uint64_t text_len, text_hash;
	uint64_t mm_len, mm_hash; /* mm_len UINT64_MAX: no .mailmap */
	uint64_t total; /* the image's bytes, this header included */
	uint64_t sum; /* pc_maint__hash64() of the bytes after the header */
	char sha[72], mmsha[72];
	uint64_t bucket_mask;
	uint32_t header;
	uint32_t tag_doc[26];
	uint8_t prefix_lens[32];
	struct sec sec[NSEC];
};

/* Each section's element size, for the bounds checks. */
extern const size_t pc_maint__sec_elem[NSEC];
/* What the tables look like to this build: any change is a new layout. */
uint64_t pc_maint__image_layout(void);
/* The PCRE2 version the regular expressions were compiled by. */
void pc_maint__pcre2_version(char out[32]);
/* Sets the key of an image just built from (text, mailmap). */
void pc_maint__image_key(unsigned char *img, const char *text, size_t text_len,
			 const char *mailmap, size_t mailmap_len);

#endif
