// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the profile override files (lib/maint/profile.h, INI read with
 * libinih): the input is one override file. What it sets for a few
 * entries is applied to an empty profile and formatted.
 */
#include <string.h>

#include "fuzz.h"
#include "profile/profile.h"

static const char *const entries[] = {
	"LIBNVDIMM PMEM AND CORE",
	"NETWORKING [GENERAL]",
	"X86 ARCHITECTURE (32-BIT AND 64-BIT)",
	"",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_profile_opts opts = PC_PROFILE_OPTS_INIT;
	struct pc_overrides *ov = pc_overrides_new();
	struct pc_buf b = PC_BUF_INIT;
	struct pc_err err = { 0 };
	size_t i;
	int rc, f;

	rc = pc_overrides_read_mem(ov, "fuzz.ini", (const char *)data, size,
				   &err);
	if (rc < 0)
		FUZZ_CHECK(err.code == rc && err.msg[0]);
	(void)pc_overrides_count(ov);

	opts.tree_dir = NULL;
	opts.no_default = 1;
	for (i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		const struct pc_prof_origin *from = NULL;
		struct pc_profile *p = NULL;
		const char *doc;

		doc = pc_overrides_profile(ov, entries[i], &from);
		FUZZ_CHECK(!doc || from);
		FUZZ_CHECK(pc_profile_parse(&p, "", 0, "empty.rst", &opts,
					    &err) == 0);
		pc_overrides_apply(p, ov, entries[i]);
		for (f = 0; f < PC_PROF_NFIELDS; f++) {
			pc_buf_reset(&b);
			pc_profile_format(&b, &p->policy, f);
		}
		pc_profile_free(p);
	}
	pc_buf_release(&b);
	pc_overrides_free(ov);
	return 0;
}
