// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The policy's fields, from the one table of policy.h.
 */
#include <assert.h>

#include "profile/policy.h"
#include "util/banned.h"

#define FIELD_KEY(f, key, label, kind, member) [f] = key,
static const char *const field_keys[PC_PROF_NFIELDS] = { PC_PROF_FIELDS(
	FIELD_KEY) };
#undef FIELD_KEY

#define FIELD_LABEL(f, key, label, kind, member) [f] = label,
static const char *const field_labels[PC_PROF_NFIELDS] = { PC_PROF_FIELDS(
	FIELD_LABEL) };
#undef FIELD_LABEL

enum pc_prof_kind pc_profile_field_kind(enum pc_prof_field f)
{
#define FIELD_KIND(f, key, label, kind, member) [f] = PC_PROF_KIND_##kind,
	static const enum pc_prof_kind kinds[PC_PROF_NFIELDS] = {
		PC_PROF_FIELDS(FIELD_KIND)
	};
#undef FIELD_KIND

	assert(f < PC_PROF_NFIELDS);
	return kinds[f];
}

const char *pc_profile_field_key(enum pc_prof_field f)
{
	assert(f < PC_PROF_NFIELDS);
	return field_keys[f];
}

const char *pc_profile_field_label(enum pc_prof_field f)
{
	assert(f < PC_PROF_NFIELDS);
	return field_labels[f];
}
