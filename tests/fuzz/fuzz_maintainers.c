// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the MAINTAINERS reader (lib/maint/maintainers.h), without a
 * tree. The input is MAINTAINERS, optionally followed by a line
 * "%%mailmap" and a .mailmap. The harness walks every entry, looks each
 * one up by name, asks for the header's tag descriptions, then maps a
 * few paths and a small patch through the result and formats the lines
 * get_maintainer.pl would print.
 */
#define _GNU_SOURCE /* memmem() */
#include <string.h>

#include "fuzz.h"
#include "maint/maintainers.h"

#define MAILMAP_MARK "\n%%mailmap\n"

static const char patch[] =
	"Subject: [PATCH] x\n"
	"\n"
	"diff --git a/drivers/nvdimm/pmem.c b/drivers/nvdimm/pmem.c\n"
	"--- a/drivers/nvdimm/pmem.c\n"
	"+++ b/drivers/nvdimm/pmem.c\n"
	"@@ -1 +1 @@\n"
	"-\tnvdimm_bus_lock(dev);\n"
	"+\tdax_read_lock();\n"
	"diff --git a/fs/dax.c b/fs/dax2.c\n"
	"rename from fs/dax.c\n"
	"rename to fs/dax2.c\n";

static const char *const paths[] = {
	"MAINTAINERS",
	"drivers/nvdimm/pmem.c",
	"include/linux/libnvdimm.h",
	"fs/dax.c",
	"Documentation/",
	"net/core/dev.c",
	"arch/x86/kernel/cpu/common.c",
};

static void map(const struct pc_maint *m, struct pc_maint_result *r)
{
	struct pc_maint_lines lines = PC_MAINT_LINES_INIT;
	size_t i;

	FUZZ_CHECK(r->n_hits <= pc_maint_count(m));
	for (i = 0; i < r->n_hits; i++)
		FUZZ_CHECK(r->hits[i].entry);
	pc_maint_lines(&lines, m, r);
	for (i = 0; i < lines.n; i++) {
		FUZZ_CHECK(lines.v[i].text);
		FUZZ_CHECK(lines.v[i].hit == PC_MAINT_NONE ||
			   lines.v[i].hit < r->n_hits);
	}
	pc_maint_lines_release(&lines);
	pc_maint_result_release(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *mailmap = NULL;
	const char *mark =
		memmem(text, size, MAILMAP_MARK, strlen(MAILMAP_MARK));
	size_t len = size, mailmap_len = 0, i, n;
	struct pc_maint_result r = PC_MAINT_RESULT_INIT;
	struct pc_maint_query *q;
	struct pc_err err = { 0 };
	struct pc_maint *m = NULL;
	const char *tags = "MRLSWQBCPTFXNK";
	int rc;

	if (mark) {
		len = (size_t)(mark - text);
		mailmap = mark + strlen(MAILMAP_MARK);
		mailmap_len = size - len - strlen(MAILMAP_MARK);
	}
	rc = pc_maint_load_mem(&m, text, len, mailmap, mailmap_len, NULL, &err);
	if (rc < 0) {
		FUZZ_CHECK(err.code == rc && err.msg[0]);
		return 0;
	}

	FUZZ_CHECK(strlen(pc_maint_id(m)) == 64);
	FUZZ_CHECK(strlen(pc_maint_sha256(m)) == 64);
	FUZZ_CHECK(pc_maint_header(m));
	FUZZ_CHECK(pc_maint_tree(m) == NULL);
	for (; *tags; tags++)
		(void)pc_maint_tag_doc(m, *tags);
	for (i = 0; i < pc_maint_warning_count(m); i++)
		FUZZ_CHECK(pc_maint_warning(m, i));
	n = pc_maint_count(m);
	for (i = 0; i < n; i++) {
		const struct pc_maint_entry *e = pc_maint_entry_at(m, i);

		FUZZ_CHECK(e && e->name && e->role && e->index == i);
		FUZZ_CHECK(pc_maint_find(m, e->name));
	}

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (pc_maint_map_file(&r, m, paths[i], PC_MAINT_KEYWORDS,
				      &err) == 0)
			map(m, &r);
		else
			pc_maint_result_release(&r);
	}
	if (pc_maint_map_patch(&r, m, patch, strlen(patch), PC_MAINT_KEYWORDS,
			       &err) == 0)
		map(m, &r);
	else
		pc_maint_result_release(&r);

	/* A query over the input itself read as a patch. */
	q = pc_maint_query_new(m, PC_MAINT_KEYWORDS);
	pc_maint_query_add_patch(q, text, len, NULL);
	if (pc_maint_query_run(&r, q, &err) == 0)
		map(m, &r);
	else
		pc_maint_result_release(&r);
	pc_maint_query_free(q);

	pc_maint_free(m);
	return 0;
}
