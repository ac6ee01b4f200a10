/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The facts of one series that its verdict is made from
 * (lib/sla/state.h's struct pc_sla_series), read from the store in a
 * few queries: its thread, steering commands, patches and their tags,
 * entries, acceptors and people. Internal to lib/store: status.c judges
 * with them.
 */
#ifndef PC_STORE_STATUS_FACTS_H
#define PC_STORE_STATUS_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "sla/state.h"
#include "store/store.h"
#include "util/err.h"

/* Strings and arrays of one series' facts, freed together. */
struct pc_status_facts {
	struct pc_sla_series s;
	char **strs;
	size_t nstrs, astrs;
	struct pc_sla_reply *replies;
	size_t areplies;
	struct pc_sla_patch *patches;
	int64_t *patch_ids;
	size_t apatches;
	struct pc_sla_tag *tags; /* all patches' tags, by patch */
	size_t ntags, atags;
	size_t *tag_start; /* per patch: index of its first tag */
	const char **maint, **rev, **earlier, **attested, **entries;
	int *entry_files; /* parallel to entries when judging */
	size_t nmaint, amaint, nrev, arev, nearlier, aearlier, nattested,
		aattested, nentries, aentries;
	char *name;
};

/* Reads series sid's facts into f (zeroed by the caller; release it
 * whatever this returns). Errors: PC_EDB, PC_ENOTFOUND. */
int pc_status_facts_gather(struct pc_store *st, struct pc_status_facts *f,
			   int64_t sid, struct pc_err *err);
void pc_status_facts_release(struct pc_status_facts *f);
/* A copy of s that lives as long as f (NULL for NULL). */
const char *pc_status_facts_keep(struct pc_status_facts *f,
				 const unsigned char *s);
/* Reads the entries series sid maps to into f->entries. */
/*
 * After a first judgement v of the series in f: when the governing
 * entry's maintainers applied their part (the patches its files map
 * to) and none of the rest is theirs ("[PATCH v4 0/4] Use devm helpers
 * for regulator get and enable": hwmon took 3/4 and 4/4, the drm two
 * wait on drm's maintainers), makes the first entry of the rest, in
 * the governing order, the governing one (f->entries[0]), marks the
 * series rest_of_other and reads again who applies it. 1 when it did
 * (judge the series again), 0 when the series stays as it is, or a
 * negative PC_E* code.
 */
int pc_status_facts_rest(struct pc_store *st, struct pc_status_facts *f,
			 const struct pc_sla_verdict *v, struct pc_err *err);
int pc_status_facts_entries(struct pc_store *st, struct pc_status_facts *f,
			    int64_t sid, struct pc_err *err);

#endif
