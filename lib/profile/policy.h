/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The typed policy a subsystem profile states (profile.h reads it): its
 * fields, from one table, and the types of their values.
 */
#ifndef PC_PROFILE_POLICY_H
#define PC_PROFILE_POLICY_H

#include <stddef.h>

#define PC_PROFILE_ZONE_MAX 64
#define PC_PROFILE_MAX_PEOPLE 64 /* beyond: PC_ELIMIT */

/*
 * The fields of a policy, in the order they are printed: the one table
 * that everything per field is made from (the enum, the keys of override
 * files and JSON, the labels, storing, copying, comparing, formatting).
 * X(FIELD, key, label, kind, member): kind is how the value is held
 * (enum pc_prof_kind), member where in struct pc_policy.
 */
#define PC_PROF_FIELDS(X)                                                     \
	X(PC_PROF_PING_AFTER, "ping_after", "ping after", DURATION,           \
	  ping_after) /* wait this long for a response, then ping */          \
	X(PC_PROF_REPOST_MIN, "repost_min", "minimum repost interval",        \
	  DURATION, repost_min) /* minimum time between two postings */       \
	X(PC_PROF_REMINDER, "reminder", "reminder", ENUM,                     \
	  reminder) /* how to remind: privately or on the list */             \
	X(PC_PROF_OFFICE_HOURS, "office_hours", "office hours", HOURS,        \
	  office_hours) /* days, hours and zone of the maintainers */         \
	X(PC_PROF_REVIEW, "review", "review tags required", ENUM,             \
	  review) /* which review tags a patch needs */                       \
	X(PC_PROF_NEW_FEATURES, "new_features", "last -rc for new features",  \
	  DEADLINE, new_features) /* last -rc for new feature submissions */  \
	X(PC_PROF_MERGE_FEATURES, "merge_features",                           \
	  "last -rc to merge features", DEADLINE,                             \
	  merge_features) /* last -rc to merge features */                    \
	X(PC_PROF_SUBMIT, "submit", "patches or pull requests", ENUM,         \
	  submit) /* patches only, or pull requests accepted */               \
	X(PC_PROF_TRUSTED, "trusted_reviewers", "trusted reviewers", PEOPLE,  \
	  trusted) /* trusted reviewers */                                    \
	X(PC_PROF_TEST_SUITE, "test_suite", "test suite", TEST,               \
	  test_suite) /* what must pass before submitting */                  \
	X(PC_PROF_STYLE, "style_cleanups", "style cleanups", ENUM,            \
	  style) /* standalone style cleanups */                              \
	X(PC_PROF_OFF_LIST, "off_list_review", "off-list review", ENUM,       \
	  off_list) /* off-list (internal) review */                          \
	X(PC_PROF_ATTESTATION, "review_attestation", "review tags attested",  \
	  ENUM, attestation) /* whether tags by mail must be DKIM-verified */ \
	X(PC_PROF_EXTENSIONS, "isa_extensions", "ISA extensions accepted",    \
	  ENUM, extensions) /* drafts, or frozen and ratified specs only */

#define PC_PROF_FIELD_ENUM(f, key, label, kind, member) f,
enum pc_prof_field { PC_PROF_FIELDS(PC_PROF_FIELD_ENUM) PC_PROF_NFIELDS };
#undef PC_PROF_FIELD_ENUM

/* How a field's value is held. */
enum pc_prof_kind {
	PC_PROF_KIND_DURATION, /* struct pc_prof_duration */
	PC_PROF_KIND_ENUM, /* one of the enums below */
	PC_PROF_KIND_HOURS, /* struct pc_prof_hours */
	PC_PROF_KIND_DEADLINE, /* struct pc_prof_deadline */
	PC_PROF_KIND_PEOPLE, /* trusted, n_trusted */
	PC_PROF_KIND_TEST, /* test_suite and test_url */
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

/*
 * The values of the enumerated fields, after each one's UNSET (0):
 * V(ENUMERATOR, "name"). The enums, and the names that formatting, JSON
 * and `profile --help` print, come from these lists; the words a profile
 * writes them in are lib/profile/phrase.c's. A new enumerated field is
 * its row in PC_PROF_FIELDS, its list here, its row in
 * PC_PROF_ENUM_FIELDS, and its reading in phrase.c.
 */
#define PC_PROF_REVIEW_VALUES(V)                         \
	/* no review tag required */                     \
	V(PC_PROF_REVIEW_NONE, "none")                   \
	/* a Reviewed-by or Acked-by from anyone else */ \
	V(PC_PROF_REVIEW_NON_AUTHOR, "non-author")       \
	/* from the entry's R: (listed) reviewers */     \
	V(PC_PROF_REVIEW_REVIEWERS, "reviewers")         \
	/* from the profile's trusted reviewers */       \
	V(PC_PROF_REVIEW_TRUSTED, "trusted")
#define PC_PROF_REMINDER_VALUES(V)                      \
	/* a private mail; no list Cc */                \
	V(PC_PROF_REMIND_PRIVATE, "private")            \
	/* on the list */                               \
	V(PC_PROF_REMIND_LIST, "list")                  \
	/* no pings at all (netdev: watch patchwork) */ \
	V(PC_PROF_REMIND_NONE, "none")
#define PC_PROF_SUBMIT_VALUES(V)                   \
	/* patches only */                         \
	V(PC_PROF_SUBMIT_PATCHES, "patches")       \
	/* pull requests accepted (patches too) */ \
	V(PC_PROF_SUBMIT_PULLS, "pull-requests")
#define PC_PROF_STYLE_VALUES(V)                       \
	/* standalone style cleanups welcome */       \
	V(PC_PROF_STYLE_WELCOME, "welcome")           \
	/* only together with other changes */        \
	V(PC_PROF_STYLE_WITH_CHANGES, "with-changes") \
	/* standalone cleanups not welcome */         \
	V(PC_PROF_STYLE_UNWELCOME, "unwelcome")
#define PC_PROF_OFFLIST_VALUES(V)                   \
	/* off-list review tags count */            \
	V(PC_PROF_OFFLIST_ACCEPTED, "accepted")     \
	/* off-list review tags do not count */     \
	V(PC_PROF_OFFLIST_DISTRUSTED, "distrusted") \
	/* seek internal review before posting */   \
	V(PC_PROF_OFFLIST_REQUIRED, "required")
/* Whether a review tag given by mail must be attested (b4's word): its
 * mail DKIM-signed by the giver's domain (lib/store/command.h). */
#define PC_PROF_ATTESTATION_VALUES(V)                 \
	/* a tag counts as given */                   \
	V(PC_PROF_ATTEST_NONE, "none")                \
	/* a tag by mail counts only when verified */ \
	V(PC_PROF_ATTEST_DKIM, "dkim")
/* Which specifications of an instruction set's extensions code may
 * implement (RISC-V's patch-acceptance.rst: "We'll only accept patches
 * for new modules or extensions if the specifications ... are listed as
 * being "Frozen" or "Ratified""). */
#define PC_PROF_EXTENSIONS_VALUES(V)                 \
	/* drafts too */                             \
	V(PC_PROF_EXT_ANY, "any")                    \
	/* frozen or ratified specifications only */ \
	V(PC_PROF_EXT_RATIFIED, "ratified")

/* The enumerated fields and their lists: E(FIELD, LIST). */
#define PC_PROF_ENUM_FIELDS(E)                             \
	E(PC_PROF_REMINDER, PC_PROF_REMINDER_VALUES)       \
	E(PC_PROF_REVIEW, PC_PROF_REVIEW_VALUES)           \
	E(PC_PROF_SUBMIT, PC_PROF_SUBMIT_VALUES)           \
	E(PC_PROF_STYLE, PC_PROF_STYLE_VALUES)             \
	E(PC_PROF_OFF_LIST, PC_PROF_OFFLIST_VALUES)        \
	E(PC_PROF_ATTESTATION, PC_PROF_ATTESTATION_VALUES) \
	E(PC_PROF_EXTENSIONS, PC_PROF_EXTENSIONS_VALUES)

#define PC_PROF_VALUE_ENUM(e, name) e,
enum pc_prof_review {
	PC_PROF_REVIEW_UNSET = 0,
	PC_PROF_REVIEW_VALUES(PC_PROF_VALUE_ENUM)
};
enum pc_prof_reminder {
	PC_PROF_REMIND_UNSET = 0,
	PC_PROF_REMINDER_VALUES(PC_PROF_VALUE_ENUM)
};
enum pc_prof_submit {
	PC_PROF_SUBMIT_UNSET = 0,
	PC_PROF_SUBMIT_VALUES(PC_PROF_VALUE_ENUM)
};
enum pc_prof_style {
	PC_PROF_STYLE_UNSET = 0,
	PC_PROF_STYLE_VALUES(PC_PROF_VALUE_ENUM)
};
enum pc_prof_offlist {
	PC_PROF_OFFLIST_UNSET = 0,
	PC_PROF_OFFLIST_VALUES(PC_PROF_VALUE_ENUM)
};
enum pc_prof_attestation {
	PC_PROF_ATTEST_UNSET = 0,
	PC_PROF_ATTESTATION_VALUES(PC_PROF_VALUE_ENUM)
};
enum pc_prof_extensions {
	PC_PROF_EXT_UNSET = 0,
	PC_PROF_EXTENSIONS_VALUES(PC_PROF_VALUE_ENUM)
};
#undef PC_PROF_VALUE_ENUM

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
	enum pc_prof_attestation attestation;
	enum pc_prof_extensions extensions;
	/* where each field came from; kind PC_PROF_SRC_NONE: not stated */
	struct pc_prof_origin from[PC_PROF_NFIELDS];
};

/* "ping_after", "repost_min", ...: the JSON and override-file key. */
const char *pc_profile_field_key(enum pc_prof_field f);
/* "ping after", "minimum repost interval", ...: for people. */
const char *pc_profile_field_label(enum pc_prof_field f);
/* The kind of field f's value. */
enum pc_prof_kind pc_profile_field_kind(enum pc_prof_field f);

#endif
