/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exact bytes of the mails patchclock sends: the "resend now" reply to
 * the author of an overdue series, the short note on a too-soon repost,
 * the boot-test report in a series' thread, the one-time answer to a
 * command it could not obey, and the maintainer's digest. Pure functions of plain data the caller
 * gathers (from the store, the profile and the clock): no SMTP, no
 * database, no clock, no locale, no globals. The same input always gives
 * the same bytes, Message-ID included, so a mail composed again after a
 * crash is the same mail.
 *
 * Format, common to every mail:
 *  - LF line ends (the SMTP sender converts to CRLF), headers first, one
 *    empty line, then the body. Header lines are folded at 78 columns at
 *    spaces (a single word longer than that stays whole on its line).
 *  - Headers in this order: From, To, Cc (only when not empty), Subject,
 *    Date (RFC 5322, in UTC: "Thu, 13 May 2021 15:00:00 +0000"),
 *    Message-ID, In-Reply-To and References (replies only), MIME-Version:
 *    1.0, Content-Type: text/plain; charset=utf-8,
 *    Content-Transfer-Encoding: 8bit, Auto-Submitted: auto-generated,
 *    X-Patchclock-Series ("42 v3", a comma-separated list in a digest),
 *    X-Patchclock-Action (resend, too-soon, boot-report, command-help
 *    or digest, the outbox's action).
 *  - 8bit, not quoted-printable: the body is UTF-8 text whose lines are
 *    at most 72 columns (and, by the length limits below, far below
 *    SMTP's 998 bytes), so it needs no transfer encoding on any server
 *    that offers 8BITMIME, and it stays readable and greppable in list
 *    archives, in the outbox and in `--dry-run` output. A sender facing a
 *    server without 8BITMIME must re-encode.
 *  - Header text is ASCII: display names and subject words with non-ASCII
 *    characters become RFC 2047 encoded words (UTF-8, Q encoding, at
 *    most 60 characters each); addresses must be ASCII.
 *  - The body is plain UTF-8 text wrapped at 72 columns (wide characters
 *    count 2, combining marks 0); words are never split, and a word
 *    longer than a line (a URL, a Message-ID) stands alone on its line.
 *    It ends with a signature: "-- ", a line naming patchclock, and
 *    "Reply with a line 'patchclock: opt-out' to stop these mails."
 *
 * Hostile input. Subjects, names, reasons and profile text come from
 * mail. Every string is cleaned before use: invalid UTF-8 becomes U+FFFD;
 * CR, LF, tabs and every other C0/C1 control, DEL and the Unicode line
 * and paragraph separators become spaces; bidirectional-override and
 * other invisible formatting characters are dropped; runs of spaces
 * collapse; the result is cut (with "...") at the PC_COMPOSE_*_MAX
 * bytes below. Addresses and Message-IDs are not cleaned but checked:
 * only printable ASCII without spaces, so nothing a caller passes can
 * start a header line of its own (header injection is impossible).
 *
 * Errors follow util/err.h. On error *out is left as it was.
 */
#ifndef PC_NOTIFY_COMPOSE_H
#define PC_NOTIFY_COMPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "notify/mailtext.h"
#include "util/buf.h"
#include "util/err.h"

/* pc_compose_digest(): the digest has no item, so no mail. */
#define PC_COMPOSE_NOTHING 1

/* Lengths in bytes after cleaning; longer text is cut and ends in "...". */
#define PC_COMPOSE_SUBJECT_MAX 400
#define PC_COMPOSE_TEXT_MAX 300 /* paths, headings, quotes, release names */
#define PC_COMPOSE_REASON_MAX 1000 /* a boot test's reason */
/* Longer values are refused (PC_ELIMIT) or, in References, dropped. */
#define PC_COMPOSE_KEY_MAX 512 /* an action key */
/* Counts beyond which a mail is refused with PC_ELIMIT. */
#define PC_COMPOSE_MAX_CC 64 /* maintainers + lists */
#define PC_COMPOSE_MAX_TRUSTED 64
#define PC_COMPOSE_MAX_ITEMS 1000 /* digest items */
/* References keeps the first and the last ones (RFC 5537, 3.4.4). */
#define PC_COMPOSE_MAX_REFS 20
/* A buffer for pc_compose_message_id() of this size always fits. */
#define PC_COMPOSE_MSGID_SIZE (PC_COMPOSE_DOMAIN_MAX + 80)

/*
 * Formats instant t (seconds since the epoch) in the maintainers' zone
 * into buf of len bytes (NUL-terminated), as "Mon 2021-05-17 08:00 PDT".
 * Returns 0 or a negative PC_E* code with err filled. It must not read
 * the clock or the process's time zone.
 */
typedef int pc_notify_time_fn(char *buf, size_t len, int64_t t, void *arg,
			      struct pc_err *err);

/*
 * A ready pc_notify_time_fn: arg is a `const struct pc_bizclock *`
 * (lib/sla/bizclock.h; pass it as (void *)clock), and the text is
 * pc_bizclock_format()'s.
 */
int pc_compose_zone_time(char *buf, size_t len, int64_t t, void *arg,
			 struct pc_err *err);

/* struct pc_notify_addr: notify/mailtext.h */

/*
 * Where a policy value is written: struct pc_prof_origin's fields as
 * borrowed strings, so a caller can fill it from the store as well as
 * from a parsed profile (pc_compose_origin()).
 */
struct pc_notify_origin {
	enum pc_prof_source kind; /* PC_PROF_SRC_NONE: say nothing */
	const char *file; /* borrowed; document or override file, or NULL */
	const char *heading; /* borrowed; section title, or NULL */
	unsigned line; /* 1-based; 0 when unknown */
	const char *quote; /* borrowed; the sentence or answer, or NULL */
};

/* Fills out from o (may be NULL: kind NONE); out borrows o's strings. */
void pc_compose_origin(struct pc_notify_origin *out,
		       const struct pc_prof_origin *o);

/* One series version, as the store knows it; all borrowed. */
struct pc_notify_series {
	int64_t id; /* the store's series id */
	int version; /* v of vN; 1 when none was given */
	/* the decoded subject of the anchor (the cover letter, else the
	 * first patch), as posted */
	const char *subject;
	/* the anchor's Message-ID, without angle brackets (brackets are
	 * tolerated) */
	const char *msgid;
	/* the anchor's own References, oldest first; used by replies */
	const char *const *refs;
	size_t nrefs;
	struct pc_notify_addr author;
	int64_t posted; /* the anchor's date */
};

/* What every mail has. */
struct pc_notify_head {
	struct pc_notify_addr from; /* patchclock's own address */
	int64_t date; /* the Date header: the caller's "now" */
	/* the right-hand side of generated Message-IDs
	 * ("patchclock.example.org"): letters, digits, '.' and '-' */
	const char *domain;
	/*
	 * The action's unique key (series, version, action, period), the
	 * outbox key; see pc_compose_action_key(). The Message-ID is a hash
	 * of it, so composing the same action twice gives the same id.
	 */
	const char *key;
	/* the archive link with one "%s" for the Message-ID; NULL:
	 * PC_ARCHIVE_DEFAULT (mail/archive.h) */
	const char *archive_url;
	/* the maintainers' zone; NULL: times are given in UTC only */
	pc_notify_time_fn *local_fn;
	void *local_arg; /* borrowed; passed to local_fn */
};

/* Whom a reply goes to besides the author. */
struct pc_notify_reply_opts {
	/*
	 * The profile's reminder preference: PC_PROF_REMIND_LIST puts the
	 * lists in Cc; PC_PROF_REMIND_PRIVATE and PC_PROF_REMIND_UNSET do
	 * not (an automated mail goes to a list only when the profile asks
	 * for it).
	 */
	enum pc_prof_reminder reminder;
	/* always in Cc; invalid addresses, the author and duplicates are
	 * left out */
	const struct pc_notify_addr *maintainers; /* borrowed */
	size_t nmaintainers;
	const struct pc_notify_addr *lists; /* borrowed */
	size_t nlists;
};

/* Someone who wrote in a series' thread (a reviewer, a tester, another
 * subsystem's maintainer). */
struct pc_notify_replier {
	struct pc_notify_addr who;
	unsigned tags; /* PC_NOTIFY_REVIEWED | PC_NOTIFY_ACKED | ... */
	int applies; /* one of those who apply the series */
	/* the patches (bit n - 1) their tags cover when not all of them
	 * ("Rob Herring reviewed patch 2"); 0: all of it */
	uint64_t tagged_patches;
};
/* Patches of a series that another MAINTAINERS entry holds (a dts patch
 * for the SoC's tree): its maintainers take them or ack them. */
struct pc_notify_part {
	const char *entry; /* borrowed */
	const char *path; /* the first patch's first file (borrowed; or NULL) */
	const int *patches; /* their numbers, ascending (borrowed) */
	size_t npatches;
};
#define PC_COMPOSE_MAX_PARTS 4
#define PC_NOTIFY_REVIEWED 1u
#define PC_NOTIFY_ACKED 2u
#define PC_NOTIFY_TESTED 4u
/* they applied or queued a part of it (another subsystem's patches of a
 * tree-wide series): not a tag */
#define PC_NOTIFY_QUEUED 8u
#define PC_COMPOSE_MAX_REPLIERS 4

/* A "resend now" reply to the author of an overdue series. */
struct pc_notify_resend {
	struct pc_notify_head head;
	struct pc_notify_reply_opts reply;
	struct pc_notify_series series;
	/* the policy's ping_after and where it is written */
	struct pc_prof_duration cadence;
	struct pc_notify_origin cadence_from;
	/* the policy's office hours (NULL: not stated) and their origin */
	const struct pc_prof_hours *hours; /* borrowed */
	struct pc_notify_origin hours_from;
	int64_t due; /* when the series became due; 0: not said */
	/* When this wait began, when later than the posting: the author's
	 * own answer, after which nobody wrote (0: the posting), or the
	 * reply of wait_by, who applies it (their own tag: borrowed; NULL:
	 * the author's). */
	int64_t wait_from;
	const char *wait_by;
	/* The author's last message in its thread (0: none): a postscript
	 * after the answer the wait counts from. */
	int64_t author_last;
	/* Who else wrote in its thread since the wait began (the author
	 * and bots aside), in the order they first wrote, at most
	 * PC_COMPOSE_MAX_REPLIERS (borrowed); nmore: how many more. The
	 * reminder names them rather than claim that nobody answered, and
	 * asks for their tags to be kept. */
	const struct pc_notify_replier *repliers;
	size_t nrepliers, nmore_repliers;
	/* PC_NOTIFY_* tags others gave anywhere in its thread, also
	 * before the wait began: a resend must keep them */
	unsigned thread_tags;
	/* The patches the author withdrew on the list, each below it (bit
	 * n - 1 for patch n): what waits is the rest, and the next step a
	 * new version without them. */
	uint64_t withdrawn_patches;
	/* The patches the author posted a newer version of below them (a
	 * "[PATCH v2]" of one patch below its review): the rest waits. */
	uint64_t replaced_patches;
	/* The patches already applied or queued, by n ("3,4"; borrowed;
	 * NULL: none): the rest is what waits and what to resend. */
	const char *applied_patches;
	/* The profile prefers a private reminder: this mail goes to the
	 * author alone, and names whom to write to (borrowed). */
	int private_reminder;
	const struct pc_notify_addr *write_to;
	size_t nwrite_to;
	/* the first nwrite_to_apply of write_to apply it; the others are
	 * its active reviewers */
	size_t nwrite_to_apply;
	/* Only part of the series reached the list: how many patches did;
	 * 0: all of them, or not known. Less than a third (a tree-wide
	 * series whose cover letter asks each subsystem to take its own:
	 * 5 of 606), the advice is to resend those, not all. */
	int patches_here;
	/* The governing entry, and the parts of the series other entries
	 * hold, at most PC_COMPOSE_MAX_PARTS (borrowed); nmore_parts: how
	 * many more. The mail names those entries, not their people: the
	 * author is to write to those who apply the rest. */
	const char *entry;
	const struct pc_notify_part *parts;
	size_t nparts, nmore_parts;
	/* 1 for the first reminder, n for the n-th after repeated silence
	 * (0 reads as 1): from the second on the mail names the trusted
	 * reviewers */
	unsigned nth;
	const struct pc_notify_addr *trusted; /* borrowed */
	size_t ntrusted;
	struct pc_notify_origin trusted_from;
	/* A feature posted after the profile's last -rc for new features:
	 * the deadline, where it is written, and the release whose merge
	 * window the series now targets ("6.11"). */
	int late;
	struct pc_prof_deadline deadline;
	struct pc_notify_origin deadline_from;
	const char *late_window; /* borrowed */
};

/* A note to the author of a version posted too soon after the previous. */
struct pc_notify_too_soon {
	struct pc_notify_head head;
	struct pc_notify_reply_opts reply;
	struct pc_notify_series series; /* the new version, vN+1 */
	int prev_version; /* N */
	int64_t prev_posted; /* when vN was posted */
	/* the policy's repost_min and where it is written */
	struct pc_prof_duration repost_min;
	struct pc_notify_origin repost_from;
};

/* A boot-test report in the series' thread, like the kernel test
 * robot's (off unless configured). */
struct pc_notify_boot_report {
	struct pc_notify_head head;
	struct pc_notify_reply_opts reply;
	struct pc_notify_series series;
	int passed;
	const char *reason; /* why it failed; NULL when it passed */
	const char *summary; /* a "result  name  detail" line per check */
};

/* The one answer to a sender whose commands patchclock did not
 * understand (lib/patch/command.h): to the sender alone, threaded on
 * their mail. */
struct pc_notify_command_help {
	struct pc_notify_head head;
	struct pc_notify_addr to; /* the sender */
	const char *subject; /* of the mail answered, decoded */
	const char *msgid; /* the mail answered, without angle brackets */
	const char *const *refs; /* its References, oldest first */
	size_t nrefs;
	/* the lines not understood (after "patchclock:") and why */
	const char *const *lines, *const *whys;
	size_t nlines;
};

/* The digest's sections, in the order they are printed. */
enum pc_notify_kind {
	PC_NOTIFY_OVERDUE, /* no response past the cadence */
	PC_NOTIFY_READY, /* review rules met: ready to apply */
	PC_NOTIFY_LATE, /* a feature after the last -rc for features */
	PC_NOTIFY_TOO_SOON, /* reposted before the minimum interval */
	PC_NOTIFY_BOOT, /* a boot-test verdict */
	PC_NOTIFY_NKINDS
};

/* One line of a digest; the fields after series belong to one kind. */
struct pc_notify_item {
	enum pc_notify_kind kind;
	struct pc_notify_series series; /* refs are not used */
	double overdue_days; /* OVERDUE: business days past due */
	unsigned reviewed, npatches; /* READY: patches reviewed, of N */
	/* OVERDUE, READY: the patches applied or queued already ("3,4";
	 * borrowed; NULL: none): the rest is what waits */
	const char *applied_patches;
	/* OVERDUE, READY: when its author last pinged it (0: never), and
	 * whether that was a RESEND of the same version (an audit read
	 * "posted 2022-12-05" below the link to the resend of 12-14 as
	 * the resend's own date) */
	int64_t pinged_at;
	int resent;
	/* LATE: the deadline and the release whose merge window the series
	 * now targets (borrowed, "6.11") */
	struct pc_prof_deadline deadline;
	const char *late_window;
	/* TOO_SOON: the previous version, when it was posted, and the
	 * policy's minimum */
	int prev_version;
	int64_t prev_posted;
	struct pc_prof_duration repost_min;
	/* BOOT: 1 passed, 0 failed, and why (borrowed; may be NULL) */
	int boot_passed;
	const char *boot_reason;
};

/* A maintainer's digest: one per maintainer address. */
struct pc_notify_digest {
	struct pc_notify_head head; /* local_fn: this maintainer's zone */
	struct pc_notify_addr to;
	const struct pc_notify_item *items; /* borrowed; any order */
	size_t nitems;
};

/*
 * Appends the "resend now" reply to out: To the author, Cc as
 * r->reply says, Subject "Re: " + the anchor's subject (an existing
 * "Re:" is not doubled), In-Reply-To the anchor, References the anchor's
 * References (first and last PC_COMPOSE_MAX_REFS - 1 kept, invalid ones
 * dropped) and the anchor. The body says when the series was posted (UTC
 * and, with head.local_fn, the maintainers' zone), the cadence and
 * where the profile sets it, how it was counted, and what to do: resend
 * with the same subject and RESEND in the tag (the exact subject is
 * shown) or ping. With nth >= 2 it names the trusted reviewers; with
 * late it says which merge window the series targets.
 *
 * Returns 0; PC_EUSAGE for an invalid From address, domain or archive
 * URL pattern; PC_EPARSE for an author address or anchor Message-ID that
 * cannot be used; PC_ELIMIT beyond the limits above; or local_fn's
 * error.
 */
int pc_compose_resend(struct pc_buf *out, const struct pc_notify_resend *r,
		      struct pc_err *err);

/*
 * Appends the too-soon note to out, addressed and threaded like
 * pc_compose_resend() (on the new version's anchor): when vN and vN+1
 * were posted, the time between them, the profile's minimum and where
 * it says so. Returns as pc_compose_resend().
 */
int pc_compose_too_soon(struct pc_buf *out, const struct pc_notify_too_soon *t,
			struct pc_err *err);

/*
 * Appends a boot-test report to out, addressed and threaded like
 * pc_compose_resend(): what was done (applied, built, booted with two
 * emulated NVDIMMs), the verdict and its reason, and one line per
 * check. Returns as pc_compose_resend().
 */
int pc_compose_boot_report(struct pc_buf *out,
			   const struct pc_notify_boot_report *b,
			   struct pc_err *err);

/*
 * Appends the answer to commands not understood: each line quoted with
 * why, the commands patchclock reads (pc_cmd_usage), who may give them,
 * and that this is said once. Returns as pc_compose_resend().
 */
int pc_compose_command_help(struct pc_buf *out,
			    const struct pc_notify_command_help *c,
			    struct pc_err *err);

/*
 * Appends the digest for d->to to out: a section per kind that has
 * items, in enum order, each oldest posting first (then by series id and
 * version); every item names the subject, version, author, posting
 * time, its kind's facts, the archive link and the Message-ID. Returns
 * 0; PC_COMPOSE_NOTHING (out untouched) when d has no item; or an error
 * as pc_compose_resend() (PC_EPARSE for an invalid To address). An
 * item's Message-ID is only body text here: one that could not go into
 * a header is shown cleaned, and its link percent-encodes it.
 */
int pc_compose_digest(struct pc_buf *out, const struct pc_notify_digest *d,
		      struct pc_err *err);

/*
 * Writes the Message-ID of an action, without angle brackets, into buf
 * (len >= PC_COMPOSE_MSGID_SIZE always fits):
 * "patchclock.<action>.<32 hex digits>@<domain>", the digits the first
 * 128 bits of SHA-256 over action, a NUL byte and key. The same action
 * and key give the same id; any other key gives another. Returns 0,
 * PC_EUSAGE for an action that is not [a-z0-9-]+, an invalid domain or a
 * key longer than PC_COMPOSE_KEY_MAX, or PC_ELIMIT when buf is too small.
 */
int pc_compose_message_id(char *buf, size_t len, const char *action,
			  const char *key, const char *domain,
			  struct pc_err *err);

/*
 * Writes the canonical action key "series:<id>:v<version>:<action>:
 * <period>" into buf: the key the outbox stores and head.key carries.
 * period is the caller's: the reminder number for "resend" (so the
 * second reminder is another action), "1" for "too-soon". A digest has
 * no series: pass 0, 0, "digest" and "<maintainer address>/<local
 * date>". Returns 0 or PC_ELIMIT when buf is too small
 * (PC_COMPOSE_KEY_MAX + 1 always fits for actions up to 32 bytes and
 * periods up to 400).
 */
int pc_compose_action_key(char *buf, size_t len, int64_t series_id, int version,
			  const char *action, const char *period,
			  struct pc_err *err);

/*
 * Appends to out the Subject of a mail (the bytes of a mail these
 * functions wrote, or any RFC 5322 message): the first Subject header of
 * its header section, unfolded and RFC 2047-decoded. Returns 1, or 0 when
 * the header section has no Subject (out unchanged).
 */
int pc_compose_subject_of(struct pc_buf *out, const char *msg, size_t len);

#endif
