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

#include "util/buf.h"
#include "util/err.h"

/* Limits on what a profile may hold; beyond them PC_ELIMIT. */
#define PC_PROFILE_MAX_PEOPLE 64
#define PC_PROFILE_MAX_OVERRIDE_BYTES (1u << 20)
#define PC_PROFILE_QUOTE_MAX 400 /* longer quotes are cut, with "..." */
#define PC_PROFILE_ZONE_MAX 64

/* The fields of a policy, in the order they are printed. */
enum pc_prof_field {
	PC_PROF_PING_AFTER, /* wait this long for a response, then ping */
	PC_PROF_REPOST_MIN, /* minimum time between two postings */
	PC_PROF_REMINDER, /* how to remind: privately or on the list */
	PC_PROF_OFFICE_HOURS, /* days, hours and zone of the maintainers */
	PC_PROF_REVIEW, /* which review tags a patch needs */
	PC_PROF_NEW_FEATURES, /* last -rc for new feature submissions */
	PC_PROF_MERGE_FEATURES, /* last -rc to merge features */
	PC_PROF_SUBMIT, /* patches only, or pull requests accepted */
	PC_PROF_TRUSTED, /* trusted reviewers */
	PC_PROF_TEST_SUITE, /* what must pass before submitting */
	PC_PROF_STYLE, /* standalone style cleanups */
	PC_PROF_OFF_LIST, /* off-list (internal) review */
	PC_PROF_NFIELDS
};

enum pc_prof_unit {
	PC_PROF_UNIT_NONE = 0, /* not stated */
	PC_PROF_UNIT_HOURS,
	PC_PROF_UNIT_DAYS, /* calendar days */
	PC_PROF_UNIT_BUSINESS_DAYS, /* Monday to Friday in the profile's zone */
	PC_PROF_UNIT_WEEKS,
};

struct pc_prof_duration {
	unsigned count; /* 1..9999; 0 when unit is NONE */
	enum pc_prof_unit unit;
};

enum pc_prof_deadline_kind {
	PC_PROF_DL_NONE = 0,
	PC_PROF_DL_RC, /* "before -rc5" (exclusive), "by -rc6" (inclusive) */
	PC_PROF_DL_LAST_RC, /* "End of last -rc" */
	/* "at least a week before the merge window opens": lead before the
	 * release that opens it */
	PC_PROF_DL_MERGE_WINDOW,
};

struct pc_prof_deadline {
	enum pc_prof_deadline_kind kind;
	unsigned rc; /* PC_PROF_DL_RC: the N of -rcN (1..20) */
	/* PC_PROF_DL_RC: 1 for "by -rcN" (until -rcN is out, that week
	 * included), 0 for "before -rcN" (until -rcN is out) */
	int inclusive;
	struct pc_prof_duration lead; /* PC_PROF_DL_MERGE_WINDOW */
};

/* Days of the week as a mask: bit 0 Sunday ... bit 6 Saturday. */
#define PC_PROF_DAY(wday) (1u << (wday))
#define PC_PROF_WEEKDAYS 0x3eu /* Monday to Friday */

struct pc_prof_hours {
	/* 0 when the profile states no days (the clock then uses its
	 * business days) */
	unsigned days;
	int start, end; /* minutes after midnight; -1 when not stated */
	/* an IANA zone name ("America/Los_Angeles"), "" when not stated */
	char zone[PC_PROFILE_ZONE_MAX];
};

enum pc_prof_review {
	PC_PROF_REVIEW_UNSET = 0,
	PC_PROF_REVIEW_NONE, /* no review tag required */
	PC_PROF_REVIEW_NON_AUTHOR, /* a Reviewed-by/Acked-by from anyone else */
	PC_PROF_REVIEW_REVIEWERS, /* from the entry's R: (listed) reviewers */
	PC_PROF_REVIEW_TRUSTED, /* from the profile's trusted reviewers */
};

enum pc_prof_reminder {
	PC_PROF_REMIND_UNSET = 0,
	PC_PROF_REMIND_PRIVATE, /* a private mail; no list Cc */
	PC_PROF_REMIND_LIST, /* on the list */
	PC_PROF_REMIND_NONE, /* no pings at all (netdev: watch patchwork) */
};

enum pc_prof_submit {
	PC_PROF_SUBMIT_UNSET = 0,
	PC_PROF_SUBMIT_PATCHES, /* patches only */
	PC_PROF_SUBMIT_PULLS, /* pull requests accepted (patches too) */
};

enum pc_prof_style {
	PC_PROF_STYLE_UNSET = 0,
	PC_PROF_STYLE_WELCOME, /* standalone style cleanups welcome */
	PC_PROF_STYLE_WITH_CHANGES, /* only together with other changes */
	PC_PROF_STYLE_UNWELCOME, /* standalone cleanups not welcome */
};

enum pc_prof_offlist {
	PC_PROF_OFFLIST_UNSET = 0,
	PC_PROF_OFFLIST_ACCEPTED, /* off-list review tags count */
	PC_PROF_OFFLIST_DISTRUSTED, /* off-list review tags do not count */
	PC_PROF_OFFLIST_REQUIRED, /* seek internal review before posting */
};

struct pc_prof_person {
	char *name; /* owned; NULL when only an address is given */
	char *addr; /* owned; NULL when only a name is given */
};

enum pc_prof_source {
	PC_PROF_SRC_NONE = 0, /* not stated anywhere */
	PC_PROF_SRC_SHORT, /* a short answer */
	PC_PROF_SRC_PROSE, /* a phrase in prose */
	PC_PROF_SRC_OVERRIDE, /* the override file */
	PC_PROF_SRC_DEFAULT, /* submitting-patches.rst's guideline */
	PC_PROF_SRC_MAINTAINERS, /* an entry's P: line (pc_profile.doc_from) */
};

struct pc_prof_origin {
	enum pc_prof_source kind;
	/* owned: the profile document (relative to the tree when inside it)
	 * or the override file; NULL for PC_PROF_SRC_NONE */
	char *file;
	char *heading; /* owned: the section title; NULL for override files */
	unsigned line; /* 1-based; 0 when unknown (the built-in default) */
	/* owned: the short answer, the prose sentence, or "key = value" */
	char *quote;
	/* owned: how the text was reached when not directly ("maintainer-
	 * tip.rst, \"Patch resend or reminders\": :ref:`resend_reminders`"),
	 * else NULL */
	char *via;
};

/*
 * A subsystem's policy. A field is meaningful only when from[field].kind
 * is not PC_PROF_SRC_NONE; unstated fields hold their zero value (and
 * office_hours.start/end -1).
 */
struct pc_policy {
	/* How long a series may go without a response before the author
	 * should ping or resend ("Resubmit Cadence", "wait up to one week
	 * before pinging"); the clock counts business days in
	 * office_hours.zone. */
	struct pc_prof_duration ping_after;
	/* The least time between two postings of a series (netdev: "don't
	 * repost your patches within one 24h period"). */
	struct pc_prof_duration repost_min;
	enum pc_prof_reminder reminder; /* nvdimm: "a private mail reminder" */
	struct pc_prof_hours office_hours;
	enum pc_prof_review review;
	/* Last -rc for new feature submissions: a feature posted later
	 * targets the merge window after next. */
	struct pc_prof_deadline new_features;
	/* Last -rc to merge features: a series not applied by then waits. */
	struct pc_prof_deadline merge_features;
	enum pc_prof_submit submit;
	struct pc_prof_person *trusted; /* owned, in the profile's order */
	size_t n_trusted;
	char *test_suite; /* owned: the text as written, markup stripped */
	char *test_url; /* owned: the first URL in it, or NULL */
	enum pc_prof_style style;
	enum pc_prof_offlist off_list;
	/* where each field came from; kind PC_PROF_SRC_NONE: not stated */
	struct pc_prof_origin from[PC_PROF_NFIELDS];
};

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

/* "ping_after", "repost_min", ...: the JSON and override-file key. */
const char *pc_profile_field_key(enum pc_prof_field f);
/* "ping after", "minimum repost interval", ...: for people. */
const char *pc_profile_field_label(enum pc_prof_field f);
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
/* Names of enumerated values ("non-author", "private", ...), or NULL
 * for the UNSET value. */
const char *pc_profile_review_name(enum pc_prof_review v);
const char *pc_profile_reminder_name(enum pc_prof_reminder v);
const char *pc_profile_submit_name(enum pc_prof_submit v);
const char *pc_profile_style_name(enum pc_prof_style v);
const char *pc_profile_offlist_name(enum pc_prof_offlist v);
const char *pc_profile_unit_name(enum pc_prof_unit u); /* "hours"... */

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
