// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the diff reader (lib/patch/diff.h): the input is a mail body
 * with or without diffs.
 */
#include <string.h>

#include "fuzz.h"
#include "patch/diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct pc_diff d = PC_DIFF_INIT;
	struct pc_err err = { 0 };
	size_t i;
	int rc;

	(void)pc_diff_present(text, size);
	rc = pc_diff_parse(&d, text, size, &err);
	FUZZ_CHECK(rc == 0 || (rc == PC_ELIMIT && err.code == rc));
	FUZZ_CHECK(d.nfiles <= PC_DIFF_MAX_FILES);
	FUZZ_CHECK(d.diff_off <= size);
	FUZZ_CHECK(memchr(d.patch_id, '\0', sizeof(d.patch_id)));
	FUZZ_CHECK(memchr(d.base_commit, '\0', sizeof(d.base_commit)));
	FUZZ_CHECK(strlen(d.patch_id) == 0 || strlen(d.patch_id) == 40);
	for (i = 0; i < d.nfiles; i++) {
		const struct pc_diff_file *f = &d.files[i];

		FUZZ_CHECK(f->old_path || f->new_path);
		FUZZ_CHECK(f->status && strchr("MADRC", f->status));
	}
	pc_diff_release(&d);
	return 0;
}
