/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Subsystem profiles as a typed policy. A MAINTAINERS entry's P: line (or
 * an override file) names a profile document: an in-tree reStructuredText
 * file, read here, or a URL, never fetched. Both vocabularies are read:
 * the 2018 RFC's "Subsystem Profile" sections with their short answers
 * ("Resubmit Cadence: 8 business days") and the upstream "Maintainer
 * Entry Profile" prose ("please wait up to one week before pinging").
 *
 * Every field of the policy says where it came from: a short answer (the
 * body of a section whose title names the field), a phrase found in prose
 * (quoted), the override file (file and line), or the default that
 * Documentation/process/submitting-patches.rst gives. Precedence, highest
 * first: override file, short answer, prose in a section that names the
 * field, prose elsewhere, default. What cannot be read is kept as text
 * and reported (pc_profile.unread), never guessed.
 *
 * lib/ reads files but never the clock; errors follow util/err.h.
 */
#ifndef PC_MAINT_PROFILE_H
#define PC_MAINT_PROFILE_H

#include <stddef.h>

#include "profile/policy.h"
#include "util/buf.h"
#include "util/err.h"

/* Limits on what a profile may hold; beyond them PC_ELIMIT. */
#define PC_PROFILE_MAX_OVERRIDE_BYTES (1u << 20)
#define PC_PROFILE_QUOTE_MAX 400 /* longer quotes are cut, with "..." */

/* A section (or a part of one) that was not read into the policy. */
struct pc_prof_unread {
	char *file; /* owned */
	char *heading; /* owned; NULL for the text before the first title */
	unsigned line; /* of the title */
	char *text; /* owned: its paragraphs, markup stripped */
	char *why; /* owned: "no profile field has this title", ... */
};

struct pc_profile {
	char *entry; /* owned: the MAINTAINERS entry, or NULL */
	/* owned: the document as named (tree-relative path, path, or URL);
	 * NULL when the entry has no profile */
	char *doc;
	int doc_is_url; /* 1: a URL, not fetched */
	/* how the document was found: a P: line (PC_PROF_SRC_MAINTAINERS,
	 * file "MAINTAINERS"), an override file's `profile =`
	 * (PC_PROF_SRC_OVERRIDE), or the path given (PC_PROF_SRC_NONE) */
	struct pc_prof_origin doc_from;
	struct pc_policy policy;
	struct pc_prof_unread *unread; /* owned */
	size_t n_unread;
	char **notes; /* owned: disagreements and other remarks */
	size_t n_notes;
};

struct pc_overrides;

struct pc_profile_opts {
	/* The kernel tree: P: paths, :ref:/:doc: targets and the default
	 * are read from it. NULL: references are not followed and the
	 * default is the built-in copy of submitting-patches' guideline. */
	const char *tree_dir;
	/* How many :ref:/:doc: hops to follow from a section that defers
	 * to another document ("See :ref:`resend_reminders`."). */
	unsigned max_ref_depth;
	/* 0: fill fields nothing else states with the default. */
	int no_default;
};
#define PC_PROFILE_OPTS_INIT \
	{                    \
		NULL, 2, 0   \
	}

/*
 * Reads the profile document (text, len) named name (used in provenance:
 * pass the tree-relative path) into *out (caller frees with
 * pc_profile_free()). Only the document is read: no default, no
 * overrides. opts may be NULL. Returns 0, PC_ELIMIT for an oversized
 * document, or PC_EIO when a followed reference cannot be read.
 */
int pc_profile_parse(struct pc_profile **out, const char *text, size_t len,
		     const char *name, const struct pc_profile_opts *opts,
		     struct pc_err *err);

/*
 * Reads the profile document at path (absolute, relative to the current
 * directory, or, when not found there and opts->tree_dir is set, relative
 * to the tree) and fills unstated fields with the default. Returns 0,
 * PC_ENOTFOUND, PC_EIO or PC_ELIMIT.
 */
int pc_profile_read(struct pc_profile **out, const char *path,
		    const struct pc_profile_opts *opts, struct pc_err *err);

/*
 * The profile of MAINTAINERS entry `entry` whose P: values are
 * p_values[0..n_p), written on MAINTAINERS lines p_lines[0..n_p) (NULL
 * when unknown): the override files' `profile =` for the entry wins,
 * else the first P: value. A tree-relative path must stay inside
 * opts->tree_dir (no "..", no absolute path, no symlink out); a URL is
 * not fetched. Then the override files' fields for the entry replace the
 * document's, and the default fills what is left. ov may be NULL.
 * Returns 0, PC_ENOTFOUND (the document is missing), PC_EPARSE (a path
 * leaving the tree), PC_EIO or PC_ELIMIT.
 */
int pc_profile_for_entry(struct pc_profile **out, const char *entry,
			 const char *const *p_values, const unsigned *p_lines,
			 size_t n_p, const struct pc_overrides *ov,
			 const struct pc_profile_opts *opts,
			 struct pc_err *err);

void pc_profile_free(struct pc_profile *p);

/* "short answer", "prose", "override file", "default", "not stated". */
const char *pc_profile_source_name(enum pc_prof_source s);

/*
 * Appends field f of pol in the canonical form the override file also
 * accepts ("8 business days", "before -rc5", "mon-fri 08:00-17:00
 * America/Los_Angeles", "non-author"...); nothing when not stated.
 */
void pc_profile_format(struct pc_buf *out, const struct pc_policy *pol,
		       enum pc_prof_field f);
/* The same for a duration ("24 hours") and a deadline ("by -rc6"). */
void pc_profile_format_duration(struct pc_buf *out,
				const struct pc_prof_duration *d);
void pc_profile_format_deadline(struct pc_buf *out,
				const struct pc_prof_deadline *d);
/* The name of value v of enumerated field f (PC_PROF_KIND_ENUM: its
 * list in policy.h), "non-author", "private"...; NULL for the UNSET value
 * or another field. */
const char *pc_profile_enum_name(enum pc_prof_field f, int v);
/* A duration's unit: "hours", "days"...; NULL for none. */
const char *pc_profile_unit_name(enum pc_prof_unit u);

/*
 * Override files: INI, read with libinih. One section per MAINTAINERS
 * entry, named as in MAINTAINERS and matched case-insensitively (the
 * whole text between the first '[' and the last ']' of the line, so
 * "[NETWORKING [GENERAL]]" works); keys are the field keys above plus
 * `profile = PATH|URL`. Values are read like short answers. Files read
 * later win, field by field. Unknown keys, bad values, keys outside a
 * section, a key given twice in one section and over-long lines are
 * errors naming the file and line.
 */
struct pc_overrides *pc_overrides_new(void);
void pc_overrides_free(struct pc_overrides *ov);
/* Returns 0, PC_ENOTFOUND, PC_EIO, PC_EPARSE or PC_ELIMIT. */
int pc_overrides_read(struct pc_overrides *ov, const char *path,
		      struct pc_err *err);
/* The same for (text, len), named name in messages and provenance. */
int pc_overrides_read_mem(struct pc_overrides *ov, const char *name,
			  const char *text, size_t len, struct pc_err *err);
/*
 * The profile document the override files attach to entry, or NULL;
 * *from_out (when not NULL) is set to where (borrowed from ov).
 */
const char *pc_overrides_profile(const struct pc_overrides *ov,
				 const char *entry,
				 const struct pc_prof_origin **from_out);
/* Replaces the fields of p->policy that the override files set for
 * entry. */
void pc_overrides_apply(struct pc_profile *p, const struct pc_overrides *ov,
			const char *entry);
/* The number of entries the files name (for messages). */
size_t pc_overrides_count(const struct pc_overrides *ov);

#endif
