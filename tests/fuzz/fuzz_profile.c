// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the profile reader (lib/profile/profile.h) and the
 * reStructuredText reader under it (lib/profile/rst.h): the input is a
 * maintainer entry profile. It is read as a document (labels looked up,
 * sections' subtrees walked), then as a profile without a tree, so no
 * reference is followed and no file is read, and every field of the
 * policy is formatted.
 */
#include <string.h>

#include "fuzz.h"
#include "profile/profile.h"
#include "profile/rst.h"

static void check_doc(const struct pc_rst_doc *d)
{
	size_t i, j;

	FUZZ_CHECK(d->n_sec >= 1 && d->sec[0].title == NULL);
	for (i = 0; i < d->n_sec; i++) {
		const struct pc_rst_section *s = &d->sec[i];
		size_t end = pc_rst_subtree_end(d, i);

		FUZZ_CHECK(end >= i && end < d->n_sec);
		FUZZ_CHECK(s->first_para <= d->n_para &&
			   s->n_paras <= d->n_para - s->first_para);
		FUZZ_CHECK(s->parent == PC_RST_NONE || s->parent < i);
		FUZZ_CHECK(i == 0 || s->title);
	}
	for (i = 0; i < d->n_para; i++) {
		const struct pc_rst_para *p = &d->para[i];

		FUZZ_CHECK(p->text && p->text[p->len] == '\0');
		FUZZ_CHECK(pc_rst_para_line(p, 0) >= p->line);
		(void)pc_rst_para_line(p, p->len);
		for (j = 0; j < p->n_lines; j++)
			FUZZ_CHECK(p->line_off[j] <= p->len);
		for (j = 0; j < p->n_refs; j++)
			FUZZ_CHECK(p->refs[j].target);
	}
	for (i = 0; i < d->n_labels; i++) {
		FUZZ_CHECK(d->labels[i].name);
		FUZZ_CHECK(d->labels[i].section < d->n_sec);
		FUZZ_CHECK(pc_rst_find_label(d, d->labels[i].name) !=
			   PC_RST_NONE);
	}
}

static void check_profile(const struct pc_profile *p)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;
	int f;

	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		const struct pc_prof_origin *o = &p->policy.from[f];

		FUZZ_CHECK(o->kind == PC_PROF_SRC_NONE || o->quote || o->file);
		pc_buf_reset(&b);
		pc_profile_format(&b, &p->policy, f);
		FUZZ_CHECK(o->kind != PC_PROF_SRC_NONE || b.len == 0);
		(void)pc_profile_field_key(f);
		(void)pc_profile_field_label(f);
		(void)pc_profile_source_name(o->kind);
	}
	FUZZ_CHECK(p->policy.n_trusted <= PC_PROFILE_MAX_PEOPLE);
	FUZZ_CHECK(memchr(p->policy.office_hours.zone, '\0',
			  sizeof(p->policy.office_hours.zone)));
	for (i = 0; i < p->n_unread; i++)
		FUZZ_CHECK(p->unread[i].text && p->unread[i].why);
	for (i = 0; i < p->n_notes; i++)
		FUZZ_CHECK(p->notes[i]);
	pc_buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct pc_profile_opts opts = PC_PROFILE_OPTS_INIT;
	struct pc_profile *p = NULL;
	struct pc_rst_doc *d = NULL;
	struct pc_err err = { 0 };
	int rc;

	rc = pc_rst_parse(&d, text, size, &err);
	if (rc == 0) {
		check_doc(d);
		pc_rst_doc_free(d);
	} else {
		FUZZ_CHECK(rc == PC_ELIMIT && err.code == rc);
	}

	opts.tree_dir = NULL;
	rc = pc_profile_parse(&p, text, size,
			      "Documentation/process/maintainer-fuzz.rst",
			      &opts, &err);
	if (rc == 0) {
		check_profile(p);
		pc_profile_free(p);
	} else {
		FUZZ_CHECK(rc == PC_ELIMIT && err.code == rc);
	}
	return 0;
}
