/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policies of a kernel tree, ready for the clock: for a series mapped
 * to some MAINTAINERS entries, the governing entry is the first of them
 * in the caller's order (THE REST aside): lib/store/status.c orders them
 * by the changed lines they cover across all versions of the series,
 * then by the most specific match, so a series of 13 mm/ patches and
 * one Documentation/vm/ patch is governed by MEMORY MANAGEMENT, not by
 * the documentation profile, and an entry is never chosen for having a
 * profile. Its policy is its P: document or an override file's
 * `profile =`, with the override file's fields and the handbook's
 * defaults. Its profile is read once and kept with the business clock of its office
 * hours (days unstated: Monday to Friday; hours unstated: all day; zone
 * unstated: UTC) and the release cycle shared by all.
 */
#ifndef PC_SLA_POLICYSET_H
#define PC_SLA_POLICYSET_H

#include <stddef.h>

#include "maint/maintainers.h"
#include "profile/profile.h"
#include "sla/cycle.h"
#include "sla/state.h"
#include "util/err.h"

struct pc_policyset;

struct pc_policyset_opts {
	const struct pc_maint *maint; /* borrowed; NULL: no entries known */
	const char *tree_dir; /* borrowed; profile documents are read here */
	const struct pc_overrides *overrides; /* borrowed; may be NULL */
	struct pc_cycle *cycle; /* borrowed; may be NULL */
	const char *const *bots; /* borrowed extra bot addresses */
	size_t nbots;
	/* borrowed: local dates "YYYY-MM-DD" that are no business days in
	 * any profile's zone (public holidays of the maintainers) */
	const char *const *holidays;
	size_t nholidays;
	/* borrowed: other projects on the lists (state.h) */
	const struct pc_sla_project *projects;
	size_t nprojects;
	/* Identity of the overrides and configuration, mixed into the id. */
	const char *config_id;
};

/* Caller frees with pc_policyset_free(). opts is copied. */
struct pc_policyset *pc_policyset_new(const struct pc_policyset_opts *opts);
void pc_policyset_free(struct pc_policyset *ps);

/*
 * Picks and loads the policy for a series mapped to entries[0..n), each
 * covering files[i] of its files (files may be NULL: all equal); fills
 * *entry_out and *profile_out (borrowed from ps: NULL when none) and
 * returns the context, borrowed from ps, or NULL with err set (PC_EIO,
 * PC_ENOTFOUND for a missing profile document, PC_EUSAGE for an unknown
 * zone in a profile).
 */
const struct pc_sla_ctx *
pc_policyset_pick(struct pc_policyset *ps, const char *const *entries,
		  const int *files, size_t n, const char **entry_out,
		  const char **profile_out, struct pc_err *err);

/* The loaded profile of a governing entry (as picked), or NULL. */
const struct pc_profile *pc_policyset_profile(struct pc_policyset *ps,
					      const char *entry);

/* The context of a governing entry as picked (NULL entry: the default
 * policy's), or NULL when it was never picked. Borrowed. */
const struct pc_sla_ctx *pc_policyset_ctx(struct pc_policyset *ps,
					  const char *entry);

/* An id of everything that decides policies (MAINTAINERS, config):
 * when it changes, verdicts are recomputed. Borrowed. */
const char *pc_policyset_id(const struct pc_policyset *ps);

#endif
