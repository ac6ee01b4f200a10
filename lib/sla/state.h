/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict on one series at an explicit "now": its state, its flags,
 * whose turn it is, when it is due, and each patch's review status. A
 * pure function of the facts the caller gathers (lib/store/status.c reads
 * them from the state), the entry's policy (lib/profile/profile.h), the
 * maintainers' business clock and the release cycle.
 *
 * Rules, in the words of the profiles:
 *  - Only mail dated at or before now exists: replaying an archive at an
 *    earlier "now" sees the thread as it was then, and the verdict's
 *    next_check is the date of the next mail, so a stored verdict is
 *    judged again when that mail "arrives".
 *  - A response is a reply from a human other than the author. Bots
 *    (pc_is_bot(), Auto-Submitted, the ctx's extra addresses) never count
 *    as one, but a build failure a bot reports (the kernel test robot)
 *    gives the next step to the author.
 *    Who counts follows the review rule: with "trusted reviewers" only
 *    the entry's maintainers and the profile's trusted reviewers; with
 *    "reviewers" also the entry's R: people; otherwise anyone.
 *  - The series waits on the people who apply it (its "appliers": the
 *    M: people of the governing entry and of the entries sharing an M:
 *    with it) from its posting ("wait_from") until the ball moves:
 *      - an applier replies (a review, a question, a plan: they acted);
 *      - anyone else asks for changes, asks a question, or comments
 *        on the patch (PC_INTENT_COMMENT: a nit, a problem named, a
 *        remark on a hunk): the next step is the author's;
 *      - the author withdraws it ("please ignore", "self-NAK": held as
 *        withdrawn) or promises a new version ("will fix in v3", "your
 *        code is better": PC_INTENT_RESPIN).
 *    A Reviewed-by, Acked-by or Tested-by, or a "looks good", from
 *    someone who does not apply the patch, asking and saying nothing
 *    more (a tag with a nit is a review the author has yet to act on),
 *    does not move the ball: the series still waits on whoever applies it, and
 *    once every patch meets the review rule it is ready to apply. The
 *    author's answer starts a new wait when it answers a question (the
 *    message it replies to asked one; when that is not in the thread,
 *    the reply before it), or is a ping, and nobody asked for changes,
 *    the answer promises none and the author does not maintain the
 *    governing entry (author_governs: a maintainer discussing their own
 *    tree owes no one an answer; the maintainer of another subsystem
 *    posting here still waits). The author's own ping ("gentle ping",
 *    "any comments?") is recorded (pinged_at): it is the reminder a
 *    bot would send. Due = wait_from + ping-after in the clock's units
 *    (business days in the maintainers' zone). Overdue: waiting, and due
 *    has passed; "overdue by" is in business days. The action time is
 *    the next opening of office hours at or after due. An overdue
 *    verdict is judged again hourly in office hours, so the stored
 *    "overdue by" stays current.
 *  - Review rule, per patch: a Reviewed-by or Acked-by from someone other
 *    than the patch's author (and from the right people when the profile
 *    says so). Tags a bot only suggested, and tags given in a reply by
 *    someone they do not name, never count. A tag written in the posting
 *    itself whose giver never gave a tag on the list (in this version's
 *    thread or an earlier version's) is off-list: it does not count when
 *    the profile distrusts off-list review, and is then flagged, as are
 *    tags from the author's own mail domain. A profile asking for
 *    attested tags (review_attestation = dkim) counts a tag given by
 *    mail only when the mail verified, and one carried in the posting
 *    only when its giver gave an attested tag by mail for this version
 *    or an earlier one. An unset review rule is read
 *    as "non-author", the handbook's expectation.
 *  - Acceptance, per patch: a maintainer said applied/queued (an M: of
 *    a mapped entry, or of any entry, since maintainers of neighbouring
 *    trees take patches; a bot's "was applied" counts too), a pull
 *    request carries the series, `patchclock accept`, or a commit with
 *    the patch's patch-id on the tree's branches (accepted at the
 *    commit's time, or at the posting when the commit is older). An
 *    "applied"
 *    accepts what it names: "Top 6 patches" the first six, "patch 3"
 *    the third, "the series" all of them; naming nothing, the patch it
 *    replies to, or every patch when it answers the cover. From a
 *    maintainer outside the series' own entries (the governing entry
 *    and those sharing an M: with it) whose entries cover some of the
 *    patches, it accepts only those: the mm maintainer's "Applied" to a
 *    series that also touches drivers/nvdimm takes the mm patches.
 *  - States, the first that holds: superseded; tested (the boot test
 *    passed); applied (applied to the tree); accepted (every patch
 *    accepted); reviewed
 *    (every patch meets a review rule that asks for one); changes-
 *    requested (a response asks for changes or NAKs); acknowledged (a
 *    response); new.
 *  - Whose turn: the maintainers' while the series waits on them, the
 *    author's otherwise; nobody's once accepted or superseded. (The
 *    same rule as the wait: a reviewer's tag leaves it with the
 *    maintainers.)
 *  - Holds: why no mail may go out about the series, whatever its clock
 *    says (the judgement a maintainer applies to every bot mail,
 *    doc/mail-judgement.md), the first that holds:
 *      not-kernel        most of its files' pre-images are not in the
 *                        kernel tree (a userspace project's patch on the
 *                        same list: ndctl's cxl/meson.build), or its
 *                        subject tag names another project ([ndctl PATCH],
 *                        [PATCH ndctl]: PC_SLA_FOREIGN_DEFAULT and
 *                        ctx->projects);
 *      not-a-submission  X-Patchwork-Hint: ignore or an AUTOSEL stable
 *                        selection; a stable-queue copy ("[PATCH 6.1
 *                        012/200]"); an RFC or RFT; a lone part of a
 *                        larger series (fewer patches reached the list
 *                        than its n/N says), or a patch sent inside
 *                        another of the author's series' threads, as
 *                        part of it; a bug report with an inline diff
 *                        (no [PATCH] tag and no Signed-off-by);
 *      already-applied   a maintainer (or a bot such as patchwork-bot)
 *                        said applied or queued, a pull request carries
 *                        it, it was applied or accepted by hand; also
 *                        when only some patches were accepted
 *                        (partly-accepted): someone acted on it;
 *      superseded        a newer version was posted;
 *      already-answered  someone other than the author answered on the
 *                        list: the next step is read as the author's;
 *      profile-forbids   the profile asks not to be pinged (netdev:
 *                        "watch patchwork"), or takes frozen or
 *                        ratified ISA extensions only and the series
 *                        says its specification is a draft (RISC-V);
 *      own               the author maintains the tree that takes it
 *                        (author_governs): they apply it themselves,
 *                        there is nobody to wait on;
 *      withdrawn         the author withdrew it on the list ("please
 *                        ignore", "self-NAK", "drop this"): nothing is
 *                        owed until a newer version comes;
 *      steered           a maintainer said so by mail: "patchclock:
 *                        rejected", "snooze 2w" (until then), "deferred
 *                        until v6.14-rc1" (until the cycle reaches it)
 *                        or until a date; "resend-ok" lifts those before
 *                        it (lib/patch/command.h).
 *    Holds are kept with the verdict; the planner adds its own (one
 *    reminder per version, the configured age, the first run's past).
 *  - Too soon: this version was posted less than the minimum repost
 *    interval after the previous one. Late for the cycle: a feature (not
 *    a fix, not an RFC) posted after the profile's last -rc for new
 *    features in the cycle it was posted in.
 */
#ifndef PC_SLA_STATE_H
#define PC_SLA_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"
#include "sla/bizclock.h"
#include "sla/cycle.h"
#include "util/err.h"

enum pc_sla_state {
	PC_SLA_NEW,
	PC_SLA_ACKNOWLEDGED,
	PC_SLA_CHANGES_REQUESTED,
	PC_SLA_REVIEWED,
	PC_SLA_ACCEPTED,
	PC_SLA_APPLIED,
	PC_SLA_TESTED,
	PC_SLA_SUPERSEDED,
};

enum {
	PC_SLA_OVERDUE = 1 << 0, /* due passed with no response */
	PC_SLA_TOO_SOON = 1 << 1, /* reposted before the minimum interval */
	PC_SLA_LATE = 1 << 2, /* a feature after the last -rc for features */
	PC_SLA_NEEDS_REVIEW = 1 << 3, /* a patch misses its review rule */
	PC_SLA_OFF_LIST = 1 << 4, /* an off-list tag the profile distrusts */
	PC_SLA_INCOMPLETE = 1 << 5, /* patches missing (n of N) */
	PC_SLA_TEST_FAILED = 1 << 6, /* the boot test failed */
	PC_SLA_PARTLY_ACCEPTED = 1 << 7, /* some patches accepted, not all */
};

enum pc_sla_hold {
	PC_SLA_HOLD_NONE,
	PC_SLA_HOLD_NOT_KERNEL,
	PC_SLA_HOLD_NOT_SUBMISSION,
	PC_SLA_HOLD_APPLIED,
	PC_SLA_HOLD_SUPERSEDED,
	PC_SLA_HOLD_ANSWERED,
	PC_SLA_HOLD_PROFILE,
	PC_SLA_HOLD_STEERED,
	PC_SLA_HOLD_WITHDRAWN,
	PC_SLA_HOLD_OWN,
};

enum pc_sla_turn {
	PC_SLA_TURN_NONE,
	PC_SLA_TURN_MAINTAINERS,
	PC_SLA_TURN_AUTHOR,
};

/* A message of the series' thread other than its own patches. */
struct pc_sla_reply {
	int64_t date;
	/* borrowed, may be NULL: its Message-ID and the one it answers */
	const char *msgid, *in_reply_to;
	const char *from_addr; /* borrowed; lower-case */
	const char *from_name; /* borrowed; may be NULL */
	unsigned bot : 1; /* a bot or Auto-Submitted mail */
	/* an M: of any MAINTAINERS entry (maintainers of other trees take
	 * patches too: "Applied" from one of them accepts the series) */
	unsigned maintainer : 1;
	/* not an M: address, but an M: of the series' entries by full name
	 * (a maintainer writing from another address, or someone writing
	 * that name): an "Applied" from it withholds mail (hold
	 * already-applied) and accepts nothing */
	unsigned named_maintainer : 1;
	unsigned applied : 1; /* PC_INTENT_APPLIED (a bot's counts too) */
	unsigned changes : 1; /* PC_INTENT_CHANGES */
	unsigned respin : 1; /* PC_INTENT_RESPIN: "will fix in v3" */
	unsigned question : 1; /* PC_INTENT_QUESTION: asks something */
	unsigned ping : 1; /* PC_INTENT_PING: "gentle ping" */
	unsigned withdraw : 1; /* PC_INTENT_WITHDRAW: "please ignore" */
	unsigned approve : 1; /* PC_INTENT_APPROVE: "looks good to me" */
	unsigned comment : 1; /* PC_INTENT_COMMENT: says more than that */
	/* PC_INTENT_REQUEST: the comment asks the author for something */
	unsigned request : 1;
	/* PC_INTENT_NEEDS_ACK: "I can take it but would need Acks from
	 * nvdimm folks" */
	unsigned needs_ack : 1;
	/* it carries a Reviewed-by, Acked-by or Tested-by of its sender */
	unsigned tagged : 1;
	/* the sender applies the series: an M: of the governing entry or
	 * of an entry sharing an M: with it */
	unsigned applier : 1;
	/* not a reply but the author's new version of one patch, posted
	 * below a review of it (lib/store/status_facts.c): that patch's
	 * feedback is answered */
	unsigned repost : 1;
	/* An applied reply: what it names. whole: "the series" (however it
	 * is threaded); first..last: "Top 6 patches" (n of n/N; 0 0 when
	 * not said); answers: the n of the patch it replies to (0: the
	 * cover, or none of the series' patches). */
	unsigned whole : 1;
	int first, last;
	int answers;
	/* For an applied reply by a maintainer outside the series' own
	 * entries (the governing one and those sharing an M: with it) whose
	 * entries cover some of the patches: per patch (by position in the
	 * series' patches), whether they cover it. NULL: the reply accepts
	 * what it names. */
	const unsigned char *covers;
};

/* A review-type tag that applies to a patch. */
struct pc_sla_tag {
	const char *name; /* borrowed: "Reviewed-by", "Acked-by", ... */
	const char *addr; /* borrowed; lower-case; may be NULL */
	const char *person; /* borrowed; may be NULL */
	int64_t date; /* of the mail that carried it */
	unsigned from_reply : 1; /* given on the list, not in the posting */
	unsigned suggested : 1; /* a bot's suggestion */
	unsigned mismatch : 1; /* given by someone it does not name */
	/* given by mail whose DKIM signature verified for its sender's
	 * domain (lib/store/command.h, pc_attest_tags()) */
	unsigned attested : 1;
};

struct pc_sla_patch {
	int idx;
	const char *msgid; /* borrowed */
	const char *author_addr; /* borrowed; lower-case */
	const struct pc_sla_tag *tags; /* borrowed */
	size_t ntags;
	/* the commit time of a commit on the tree's branches with its
	 * patch-id (lib/apply/branches.h); 0 when none */
	int64_t in_tree_at;
};

/* The facts of one series, all borrowed. */
struct pc_sla_series {
	int64_t id;
	const char *author_addr; /* lower-case */
	/* the author's display name, or NULL: the same person writes from
	 * other addresses ("Geert Uytterhoeven" <geert+renesas@glider.be>
	 * posts, <geert@linux-m68k.org> answers) */
	const char *author_name;
	int64_t posted; /* first posting of this version */
	int64_t prev_posted; /* the previous version's first posting; 0 */
	int64_t superseded_at; /* when the next version was posted; 0 */
	int is_rfc, is_fix;
	int not_in_tree; /* most of its files' pre-images are not in the tree */
	int ignored; /* X-Patchwork-Hint: ignore, or an AUTOSEL selection */
	int inside_other; /* posted in another of the author's series'
			     threads, as no new version of it */
	/* a diff in mail with no [PATCH] tag and no Signed-off-by: a bug
	 * report with a suggested fix, not a submission */
	int bug_report;
	/* its author says the specification it implements is a draft
	 * (lib/patch/isa.h): held where the profile takes frozen or
	 * ratified extensions only (isa_extensions = ratified) */
	int draft_isa;
	/* its cover letter asks the maintainers of each part to apply it
	 * through their own trees (lib/patch/split.h): a part of two
	 * patches or more that reached the list is a submission to it;
	 * an apply note on the cover concerns this part only when one of
	 * its appliers wrote it */
	int split_by_tree;
	/* another subsystem applied its part of the series (the patches
	 * its entries cover) and what is left maps only to entries it
	 * does not maintain: the governing entry is the rest's, and the
	 * rest is a submission still waiting (lib/store/status_facts.c,
	 * pc_status_facts_rest()) */
	int rest_of_other;
	/* an unchanged [PATCH RESEND] of the same version: its posting is
	 * the author's ping (pinged_at), and the wait runs from the first
	 * posting of the version (prev_posted) */
	int resend;
	/* the author is an M: of the governing entry or of one sharing an
	 * M: with it: nobody else's answer is awaited */
	int author_governs;
	const char *topic; /* subject tag words ("ndctl"), or NULL */
	const char *list_id; /* the list it came through, or NULL */
	int total, received; /* N of n/N (0 unknown) and patches seen */
	int has_cover; /* its cover letter reached the list */
	int64_t accepted_at; /* `patchclock accept`; 0 when not */
	int64_t applied_at; /* applied to the tree; 0 when not */
	int64_t pulled_at; /* a pull request's shortlog carries a patch */
	/* a later patch's Fixes: tag named one of its patches, a commit */
	int64_t committed_at;
	int boot; /* 1 the boot test passed, -1 it failed, 0 not run */
	/* Steered by mail (obeyed commands, folded in order): rejected;
	 * no mail before steer_until (0 none); no mail until the cycle
	 * reaches steer_release ("v6.14-rc1", NULL none; without a cycle,
	 * held). steer_why: the command's words, for the hold's reason. */
	int steer_rejected;
	int64_t steer_until;
	const char *steer_release, *steer_why;
	const struct pc_sla_reply *replies; /* by date */
	size_t nreplies;
	const struct pc_sla_patch *patches; /* by index */
	size_t npatches;
	/* Lower-case addresses: the M: and R: people of the mapped entries,
	 * and everyone who gave a tag on the list for an earlier version. */
	const char *const *maintainers;
	size_t nmaintainers;
	const char *const *reviewers;
	size_t nreviewers;
	const char *const *earlier_taggers;
	size_t nearlier_taggers;
	/* Of those, who gave an attested tag (DKIM-verified mail). */
	const char *const *attested_taggers;
	size_t nattested_taggers;
};

/*
 * Memo of deadline verdicts for one cycle (caller-owned, zeroed before
 * first use, written by pc_sla_evaluate(): a context with a cache must
 * not be shared between threads). Series posted in the same cycle share
 * the deadline, so judging thousands of them builds the cycle's schedule
 * once instead of once per series.
 */
#define PC_SLA_CYCLE_SLOTS 8
struct pc_sla_cycle_cache {
	struct pc_sla_cycle_slot {
		int valid;
		const struct pc_cycle *cycle; /* what it was filled from */
		struct pc_cycle_deadline dl;
		int64_t open, close; /* postings in [open, close) share it */
		int has[2]; /* [0] late, [1] in time */
		struct pc_cycle_verdict v[2];
	} slot[PC_SLA_CYCLE_SLOTS];
	unsigned next; /* the slot to fill next */
};

/* Another project whose patches share a list: a series whose subject
 * tag carries one of its words (and, with list_id, that came through
 * that list) is not the kernel tree's. */
struct pc_sla_project {
	const char *name;
	const char *const *words; /* tag words, compared whole, any case */
	size_t nwords;
	const char *list_id; /* NULL: any list */
};

/* How to judge: all borrowed for the call. */
struct pc_sla_ctx {
	const struct pc_policy *policy; /* NULL: the handbook defaults */
	const struct pc_bizclock *clock; /* the maintainers' office hours */
	const struct pc_cycle *cycle; /* NULL: no cycle checks */
	const char *const *bots; /* extra bot addresses (lower-case) */
	size_t nbots;
	/* Other projects on the lists (configured: [project] in
	 * patchclockd.conf), besides PC_SLA_FOREIGN_DEFAULT. */
	const struct pc_sla_project *projects;
	size_t nprojects;
	struct pc_sla_cycle_cache *cache; /* may be NULL; see above */
};

struct pc_sla_patch_verdict {
	int reviewed; /* meets the review rule */
	/* borrowed from the facts: the name and address of the first tag
	 * that counts (the name is its address when it has none), or NULL */
	const char *reviewed_by, *reviewed_by_addr;
	int off_list; /* carries a tag never seen on the list */
	int own_domain; /* carries a tag from the author's mail domain */
	int64_t accepted_at; /* when it was accepted; 0 when not */
};

struct pc_sla_verdict {
	enum pc_sla_state state;
	enum pc_sla_hold hold; /* why no mail may go; see above */
	const char *hold_why; /* static text saying more, or NULL */
	int64_t wait_from; /* the posting while it waits on its maintainers
			      (nobody else answered, not accepted); 0 */
	int64_t pinged_at; /* the author's last ping at or before now; 0 */
	/* an "Applied" by a maintainer's full name from an address that is
	 * not an M: one: mail is withheld (already-applied), the series is
	 * not accepted; 0 for none */
	int64_t named_applied;
	/* Message-IDs (borrowed from the series' replies): the reply the
	 * wait began at (NULL: the posting, or the first posting of a
	 * RESEND), and the author's last ping (NULL: none, or a RESEND) */
	const char *wait_msgid, *ping_msgid;
	unsigned flags; /* PC_SLA_* */
	enum pc_sla_turn turn;
	int64_t due; /* posted + ping-after; 0 without a cadence */
	int64_t act_at; /* next office-hours opening at or after due */
	int64_t first_response; /* 0 when none yet */
	double overdue_days; /* business days past due, when overdue */
	int64_t repost_allowed; /* prev_posted + minimum interval; 0 */
	int64_t last_human; /* date of the last human message */
	/* When the verdict changes by itself, with no new mail (due, the
	 * action time, an -rc deadline); 0 for never. */
	int64_t next_check;
	int has_cycle; /* the cycle verdict below is filled */
	/* The profile has a cycle deadline but no release or -rc is known
	 * at or before the posting (a calendar that starts later than the
	 * archive): the cycle is not judged, everything else is. */
	int cycle_unknown;
	struct pc_cycle_verdict cycle;
	struct pc_sla_patch_verdict *patches; /* owned; npatches of them */
	size_t npatches, reviewed;
};

/*
 * Judges s at now into *out (release it with pc_sla_verdict_release()).
 * Returns 0, or an error of the clock or cycle (PC_ELIMIT for times out
 * of range).
 */
int pc_sla_evaluate(struct pc_sla_verdict *out, const struct pc_sla_series *s,
		    const struct pc_sla_ctx *ctx, int64_t now,
		    struct pc_err *err);
void pc_sla_verdict_release(struct pc_sla_verdict *v);

/* Userspace projects whose patches share kernel lists, by the word
 * their subject tags carry ("[ndctl PATCH]", "[PATCH v2 -ndctl]"). */
#define PC_SLA_FOREIGN_DEFAULT                                             \
	"ndctl", "daxctl", "cxl-cli", "qemu", "xfsprogs", "e2fsprogs",     \
		"btrfs-progs", "xfstests", "fstests", "blktests", "mdadm", \
		"nvme-cli", "util-linux", "iproute2", "iproute2-next",     \
		"ethtool", "kvm-unit-tests", "ltp", "kmod", "pahole",      \
		"dwarves", "rt-tests", "libtraceevent", "trace-cmd"

/* Whether a subject's tag words name another project of the list. */
int pc_sla_foreign_topic(const char *topic, const char *const *foreign,
			 size_t n);

/* "not-kernel", "not-a-submission", ..., or NULL for PC_SLA_HOLD_NONE. */
const char *pc_sla_hold_name(enum pc_sla_hold h);

/* A profile's deadline (new features, merging) as the cycle's: 1, or 0
 * when the profile states none. */
int pc_sla_cycle_deadline(struct pc_cycle_deadline *out,
			  const struct pc_prof_deadline *d);

/* "new", "acknowledged", "changes-requested", ... */
/* Whether other_addr/other_name (a sender) is the person addr/name (an
 * author): the same address, or the same full name from another one,
 * in either order ("Vaittinen, Matti" is Matti Vaittinen: linux-hwmon
 * 2022-10-24). A name of one word says nothing: anyone may be "Thor".
 * Any argument may be NULL. */
int pc_sla_same_person(const char *addr, const char *name,
		       const char *other_addr, const char *other_name);
const char *pc_sla_state_name(enum pc_sla_state s);
/* "author", "maintainers", or "" for nobody. */
const char *pc_sla_turn_name(enum pc_sla_turn t);
/* The flags as words: "overdue too-soon ..." into buf (always
 * NUL-terminated; 128 bytes always fit). */
void pc_sla_flags_format(char *buf, size_t len, unsigned flags);

/* The policy's durations as the clock's units: 0 when not stated. */
int pc_sla_duration(unsigned *amount_out, enum pc_biz_unit *unit_out,
		    const struct pc_prof_duration *d);

#endif
