// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the trailer parser (lib/patch/trailer.h): the input is read both
 * as a patch's commit message and as a reply.
 */
#include "fuzz.h"
#include "patch/trailer.h"

static void check(const struct pc_trailer_list *l, int rc,
		  const struct pc_err *err)
{
	size_t i;

	FUZZ_CHECK(rc == 0 || (rc == PC_ELIMIT && err->code == rc));
	FUZZ_CHECK(l->n <= l->alloc);
	for (i = 0; i < l->n; i++) {
		const struct pc_trailer *t = &l->v[i];

		FUZZ_CHECK(t->name && t->name[0] && t->value);
		FUZZ_CHECK(t->line >= 1);
		FUZZ_CHECK(!t->is_person || t->addr);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data;
	struct pc_trailer_list l = PC_TRAILER_LIST_INIT;
	struct pc_err err = { 0 };
	int rc;

	rc = pc_trailers_from_patch(&l, body, size, &err);
	check(&l, rc, &err);
	pc_trailer_list_release(&l);

	rc = pc_trailers_from_reply(&l, body, size, &err);
	check(&l, rc, &err);
	pc_trailer_list_release(&l);
	return 0;
}
