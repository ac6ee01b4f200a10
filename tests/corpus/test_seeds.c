// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus test on the seed mails (tests/data/seeds/001-004): Dan Williams'
 * RFC series as saved from lore pages, one file per mail. The first
 * header block has no Message-ID (the id is generated), and 002-004 repeat
 * the mail with "(raw)" header blocks and the diff again. Ingested as four
 * messages they must make one RFC series, version 1, with a cover letter
 * (0/3) and three patches touching exactly the files of the originals.
 */
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/err.h"

static const char *const seeds[] = {
	"seeds/001-cover-maintainer-handbook-subsystem-profile.txt",
	("seeds/002-patch-maintainers-reclaim-the-p-tag-for-subsystem-"
	 "profile.patch"),
	"seeds/003-patch-maintainers-handbook-subsystem-profile.patch",
	"seeds/004-patch-libnvdimm-maintainers-subsystem-profile.patch",
};

struct seen {
	int n;
	struct pc_buf out;
};

static int list_series(const struct pc_series_info *s, void *arg)
{
	struct seen *seen = arg;
	size_t i, j;

	seen->n++;
	pc_buf_addf(&seen->out, "v%d rfc=%d total=%d received=%d %s\n",
		    s->version, s->is_rfc, s->total, s->received, s->name);
	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *p = &s->patches[i];

		pc_buf_addf(&seen->out, "%s %d/%d:", p->kind, p->idx, s->total);
		for (j = 0; j < p->nfiles; j++)
			pc_buf_addf(&seen->out, " %s", p->files[j].path);
		pc_buf_addch(&seen->out, '\n');
	}
	return 0;
}

static void test_seeds__one_rfc_series(void **state)
{
	struct pc_series_filter f = { .with_patches = 1 };
	struct seen seen = { .out = PC_BUF_INIT };
	struct pc_err err = { 0 };
	struct t_store ts;
	size_t i;

	(void)state;
	t_store_open(&ts);
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		assert_int_equal(
			t_ingest(&ts, t_data(seeds[i]), PC_SOURCE_MESSAGE), 1);
	assert_int_equal(ts.stats.added, 4);
	assert_int_equal(ts.stats.errors, 0);
	assert_int_equal(pc_series_list(ts.st, &f, list_series, &seen, &err),
			 0);
	assert_int_equal(seen.n, 1);
	assert_string_equal(
		seen.out.buf,
		"v1 rfc=1 total=3 received=3 Maintainer Handbook: Subsystem "
		"Profile\n"
		"cover 0/3:\n"
		"patch 1/3: MAINTAINERS\n"
		"patch 2/3: Documentation/maintainer/index.rst "
		"Documentation/maintainer/subsystem-profile.rst MAINTAINERS\n"
		"patch 3/3: Documentation/nvdimm/subsystem-profile.rst "
		"MAINTAINERS\n");
	/* No Message-ID in the first header block: ids are generated. */
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE msgid_generated = 1"),
			 4);
	pc_buf_release(&seen.out);
	t_store_close(&ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds__one_rfc_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
