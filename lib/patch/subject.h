/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Subject lines as git format-patch, b4 and people write them: reply and
 * forward prefixes, list tags, and the patch tag with its version, index,
 * total and topic words ("[RFC PATCH net-next v2 0/4]", "[PATCH 2/5 v3]",
 * "[PATCH1/8]", "[ndctl PATCH 0/2]", "[PATCH 0 of 2]", "[GIT PULL]").
 */
#ifndef PC_PATCH_SUBJECT_H
#define PC_PATCH_SUBJECT_H

#include <stddef.h>

#include "util/err.h"

enum {
	PC_SUBJ_REPLY = 1 << 0, /* Re:/RE:/Aw:/AW:/Antw:/SV:/R: ... prefix */
	PC_SUBJ_FWD = 1 << 1, /* Fwd:/Fw:/FW: prefix */
	PC_SUBJ_PATCH = 1 << 2, /* a PATCH (or PATCHv2...) tag */
	PC_SUBJ_RFC = 1 << 3, /* RFC tag, with or without PATCH */
	PC_SUBJ_RESEND = 1 << 4, /* RESEND tag */
	PC_SUBJ_PULL = 1 << 5, /* [GIT PULL], [PULL], [GIT,PULL] */
	PC_SUBJ_NUMBERED = 1 << 6, /* an n/N (or "n of N") was present */
};

#define PC_SUBJ_TOPIC_MAX 64

struct pc_subject {
	unsigned flags;
	int version; /* 1 when no vN is given */
	int index; /* n of n/N; 0 for a cover letter; 1 when unnumbered */
	int total; /* N of n/N; 1 when unnumbered */
	/* Words inside the patch tag that are not PATCH/RFC/RESEND/vN/n/N
	 * ("net-next", "ndctl", "-ndctl" -> "ndctl"), space-separated. */
	char topic[PC_SUBJ_TOPIC_MAX];
	/* The subject with every prefix and tag removed, borrowed from the
	 * input: name = input + name_off, name_len bytes, trimmed. */
	size_t name_off, name_len;
};

/*
 * Parses a decoded (UTF-8, unfolded) subject of len bytes. Never fails on
 * odd input: what is not understood stays in the name. Returns 0, or
 * PC_EUSAGE on a NULL argument.
 */
int pc_subject_parse(struct pc_subject *out, const char *subject, size_t len,
		     struct pc_err *err);

/*
 * Writes a normalised form of a subject name for fuzzy matching of series
 * versions (lower-case, whitespace collapsed, trailing punctuation
 * dropped) into out, which holds out_len bytes (always NUL-terminated).
 */
void pc_subject_normalize(char *out, size_t out_len, const char *name,
			  size_t name_len);

/*
 * Similarity of two normalised names in [0, 1], from their word sets
 * (b4 compares versions' subjects fuzzily; a reworded subject still
 * matches when most words agree).
 */
double pc_subject_similarity(const char *a, const char *b);

#endif
