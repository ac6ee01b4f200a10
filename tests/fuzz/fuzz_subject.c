// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the subject parser (lib/patch/subject.h). The input is one or
 * two subjects, split at the first newline: each is parsed and its name
 * normalised, and the two names are compared.
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "patch/subject.h"

static void parse(char *norm, size_t norm_len, const char *s, size_t len)
{
	struct pc_subject subj;
	struct pc_err err = { 0 };

	FUZZ_CHECK(pc_subject_parse(&subj, s, len, &err) == 0);
	FUZZ_CHECK(subj.name_off <= len &&
		   subj.name_len <= len - subj.name_off);
	FUZZ_CHECK(memchr(subj.topic, '\0', sizeof(subj.topic)));
	FUZZ_CHECK(subj.version >= 0 && subj.index >= 0 && subj.total >= 0);
	pc_subject_normalize(norm, norm_len, s + subj.name_off, subj.name_len);
	FUZZ_CHECK(memchr(norm, '\0', norm_len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *nl = memchr(s, '\n', size);
	size_t a_len = nl ? (size_t)(nl - s) : size;
	char a[256], b[256];
	double sim;

	parse(a, sizeof(a), s, a_len);
	if (nl)
		parse(b, sizeof(b), nl + 1, size - a_len - 1);
	else
		memcpy(b, a, sizeof(a));
	sim = pc_subject_similarity(a, b);
	FUZZ_CHECK(!isnan(sim) && sim >= 0 && sim <= 1);
	FUZZ_CHECK(pc_subject_similarity(b, a) == sim);
	return 0;
}
