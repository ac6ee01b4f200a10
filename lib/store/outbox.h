/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The outbox: mails patchclock means to send, each under a unique action
 * key, with its bytes and Message-ID fixed when it is queued, so that a
 * crash between the SMTP server's OK and the "sent" mark can only send
 * the same mail (same Message-ID) once more, which receivers drop.
 * Queue it in the transaction that stores the verdict causing it.
 */
#ifndef PC_STORE_OUTBOX_H
#define PC_STORE_OUTBOX_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct pc_outbox_item {
	int64_t id; /* set by the store */
	const char *key; /* unique action key */
	/* the kind of mail: a name of lib/mail/kinds.h ("resend") */
	const char *action;
	int64_t series_id; /* 0 for none */
	const char *recipients; /* envelope recipients, space-separated */
	const char *message_id; /* "<...>" */
	const char *subject;
	int64_t created_at, send_after;
	const char *status; /* "pending", "sent", "failed", "suppressed" */
	const char *reason; /* why suppressed or failed, or NULL */
	/* the rule that asked for the mail and the message that decided
	 * it (one line per digest item), or NULL */
	const char *why;
	/* when a sender claimed it to send it, until the outcome is marked;
	 * set on a pending row: its sender stopped mid-send (0: none) */
	int64_t sending_at;
	/* the server's answer to the message ("250 OK id=..."), or NULL */
	const char *server_reply;
	int attempts;
	int64_t next_attempt, sent_at; /* 0 for none */
	const char *last_error; /* or NULL */
	const char *message; /* the mail, LF line ends */
	size_t message_len;
};

/*
 * Queues it (status "pending", or "suppressed" with a reason when
 * it->status says so). *added_out is 1, or 0 when the key was already
 * there (nothing changes: exactly once). Errors: PC_EDB, PC_EUSAGE (an
 * action that names no kind of mail).
 */
int pc_outbox_add(struct pc_store *st, const struct pc_outbox_item *it,
		  int *added_out, struct pc_err *err);

/*
 * The pending row whose key starts with prefix, still gathered (composed
 * before its send_after: see pc_outbox_refresh()), that goes out first:
 * its key in *key_out (caller frees) and its send_after. Returns 1, or 0
 * when there is none. For a digest gathered again before it goes out; a
 * frozen one waiting for the sender does not stop the next.
 */
int pc_outbox_pending(char **key_out, int64_t *send_after_out,
		      struct pc_store *st, const char *prefix,
		      struct pc_err *err);

/*
 * How many mails are due at now (*n_out), and the next time after now
 * that a pending mail falls due (*next_out, 0 when none): the one rule
 * of what is due, that pc_outbox_list() also uses. Errors: PC_EDB.
 */
int pc_outbox_due_count(struct pc_store *st, int64_t now, int64_t *n_out,
			struct pc_err *err);
int pc_outbox_next_due(struct pc_store *st, int64_t now, int64_t *next_out,
		       struct pc_err *err);

/*
 * Replaces the recipients, subject, message, created_at, status and
 * reason of the still pending row it->key (its Message-ID stays), as
 * long as it was composed before its send_after: a digest says what is
 * true at its opening, and is frozen from then on (the sender may be
 * reading it). Sent rows never change. Returns 1 when the row changed,
 * 0 when it did not (frozen, or no longer pending).
 */
int pc_outbox_refresh(struct pc_store *st, const struct pc_outbox_item *it,
		      struct pc_err *err);

/*
 * Marks "suppressed" with reason every pending row of action whose key
 * is not in keep[0..nkeep), unless it is frozen (see
 * pc_outbox_refresh()) or its send time is not after now (it is due:
 * were a sender running, it would be out); *n_out (may be NULL) counts
 * them.
 */
int pc_outbox_withdraw(struct pc_store *st, const char *action,
		       char *const *keep, size_t nkeep, const char *reason,
		       int64_t now, unsigned *n_out, struct pc_err *err);

typedef int (*pc_outbox_fn)(const struct pc_outbox_item *it, void *arg);

/*
 * Calls fn for each pending item due at now (send_after and next_attempt
 * passed), oldest first; all strings are borrowed for the call. With
 * all, every item in the outbox instead, newest first. fn returning
 * non-zero stops and is returned.
 */
int pc_outbox_list(struct pc_store *st, int64_t now, int all, pc_outbox_fn fn,
		   void *arg, struct pc_err *err);

/*
 * Claims pending row id for sender who (e.g. "host:pid") until real_now +
 * lease (real seconds, not a simulated clock): call it in its own
 * transaction before sending. Returns 1 when claimed, 0 when the row is
 * no longer pending or another sender's claim still runs (skip it), or
 * PC_EDB. A claim ends with pc_outbox_sent/retry/failed, or
 * pc_outbox_unclaim(); a claim whose holder died runs out, and the row
 * is sent again with the same Message-ID.
 */
int pc_outbox_claim(struct pc_store *st, int64_t id, const char *who,
		    int64_t real_now, int64_t lease, struct pc_err *err);
int pc_outbox_unclaim(struct pc_store *st, int64_t id, const char *who,
		      struct pc_err *err);

/* After the server's OK. undelivered (or NULL) names the recipients the
 * server refused while it took the mail for the others; it replaces
 * last_error (NULL keeps the last attempt's error). */
int pc_outbox_sent(struct pc_store *st, int64_t id, int64_t now,
		   const char *undelivered, struct pc_err *err);
/* After the server's OK for some recipients and a temporary refusal
 * (4xx at RCPT) for the others: the row stays pending, its recipients
 * now retry (space-separated) alone, from next_attempt; sent_at keeps
 * the first delivery, last_error says who did not get it. */
int pc_outbox_sent_partly(struct pc_store *st, int64_t id, int64_t now,
			  int64_t next_attempt, const char *retry,
			  const char *undelivered, struct pc_err *err);
/* The server's answer to the message (its queue id), kept with the row
 * so the operator can find the mail in the server's log. */
int pc_outbox_server_reply(struct pc_store *st, int64_t id, const char *reply,
			   struct pc_err *err);
/* Records (in last_error) that a sender stopped while sending the row:
 * it may have been delivered already. */
int pc_outbox_in_doubt(struct pc_store *st, int64_t id, const char *note,
		       struct pc_err *err);
/* After a temporary failure: try again at next_attempt. */
int pc_outbox_retry(struct pc_store *st, int64_t id, int64_t next_attempt,
		    const char *error, struct pc_err *err);
/* After a permanent failure (5xx). */
int pc_outbox_failed(struct pc_store *st, int64_t id, const char *error,
		     struct pc_err *err);

/* Mail queued or sent to addr (one of the recipients) at or after since:
 * for the per-recipient daily limit. Returns the count or PC_EDB. */
int64_t pc_outbox_count_to(struct pc_store *st, const char *addr, int64_t since,
			   struct pc_err *err);

/* Outbox rows whose key starts with prefix (any status); *last_out (may
 * be NULL) gets the newest one's created_at, 0 when none. */
int64_t pc_outbox_count_prefix(struct pc_store *st, const char *prefix,
			       int64_t *last_out, struct pc_err *err);

/* Adds addr ("user@host", or "@domain") to the opt-out list. */
int pc_optout_add(struct pc_store *st, const char *addr, const char *source,
		  int64_t now, struct pc_err *err);
/* 1 when addr or its domain opted out, 0 when not, or PC_EDB. */
int pc_optout_has(struct pc_store *st, const char *addr, struct pc_err *err);

/* A verdict that may call for mail (see pc_outbox_candidates()). All
 * strings are borrowed for the callback's duration; NULL when unknown. */
struct pc_outbox_candidate {
	int64_t series_id;
	int version;
	const char *subject; /* the anchor's decoded subject */
	const char *anchor_msgid; /* without brackets */
	const char *anchor_refs; /* the anchor's References, spaced */
	const char *author_name, *author_addr;
	int author_is_bot; /* the anchor is bot mail */
	const char *auto_submitted, *precedence; /* the anchor's headers */
	const char *list_id; /* the anchor came through this list */
	const char *state, *flags, *entry, *lands;
	unsigned flag_bits; /* flags as PC_SLA_* bits (sla/state.h) */
	int64_t posted, due, act_at;
	double overdue_days;
	int patches, reviewed;
	int prev_version; /* the previous version, 0 when none */
	int64_t prev_posted;
	/* The latest test verdict (v_test_verdicts): 1 the boot test
	 * passed, -1 it failed or the series did not apply, 0 none. */
	int test_verdict;
	const char *test_reason;
	int64_t test_at;
	const char *test_summary; /* a "result  name  detail" line per
				     check, or NULL */
	const char *hold; /* why no mail may go (state.h), or NULL */
	int64_t wait_from; /* when this wait on the maintainers began */
	int64_t pinged_at; /* the author's last ping on the thread; 0 */
	/* the reply the wait began at (NULL: the posting) and the author's
	 * ping (NULL: none known), without brackets */
	const char *wait_msgid, *ping_msgid;
	/* whose reply began the wait when it is not the author's (an
	 * applier's tag: their move again), by name; NULL: the author's */
	const char *wait_by;
	/* the patches (their n, "3,4") already applied or queued, a part
	 * another subsystem took; NULL: none */
	const char *applied_patches;
};

typedef int (*pc_outbox_candidate_fn)(const struct pc_outbox_candidate *c,
				      void *arg);

/*
 * Calls fn for each current (not superseded) series posted at
 * min_posted or later whose stored verdict is overdue, too soon, late,
 * or reviewed (ready), and for each series with an apply or a boot
 * verdict, oldest posting first. min_posted keeps a pass's cost to the
 * series that may still get mail (an index on posted), not the
 * archive's. Errors: PC_EDB.
 */
int pc_outbox_candidates(struct pc_store *st, int64_t min_posted,
			 pc_outbox_candidate_fn fn, void *arg,
			 struct pc_err *err);

/*
 * Calls fn(addr, name, arg) for each person of MAINTAINERS entry `entry`
 * with role 'M', 'R' or 'L' (lists), in file order. Errors: PC_EDB.
 */
int pc_outbox_entry_people(struct pc_store *st, const char *entry, char role,
			   int (*fn)(const char *addr, const char *name,
				     void *arg),
			   void *arg, struct pc_err *err);

/*
 * Calls fn(addr, name, arg) for the people who apply the patches of
 * MAINTAINERS entry `entry` at now, in file order: of its M: people,
 * those seen applying one of its series in the year before now ("Applied",
 * "queued"); when nobody was, those who wrote to the list in the 180
 * days before now; when nobody did either, nobody, unless the list was
 * read for less than a month before now (a new database knows nobody
 * yet) and the entry is one of that list's (an L: line names list_id,
 * the List-Id the series came through; NULL: unknown, any entry): then
 * all of them. MAINTAINERS is often stale: a co-maintainer silent
 * for years is not who applies the patches. A non-zero return of fn
 * stops and is returned. Errors: PC_EDB.
 */
int pc_outbox_appliers(struct pc_store *st, const char *entry,
		       const char *list_id, int64_t now,
		       int (*fn)(const char *addr, const char *name, void *arg),
		       void *arg, struct pc_err *err);

/* Review tags a reply gave (pc_outbox_thread_others()). */
#define PC_OUTBOX_REVIEWED 1u
#define PC_OUTBOX_ACKED 2u
#define PC_OUTBOX_TESTED 4u
#define PC_OUTBOX_QUEUED 8u /* not a tag: their "Applied", "queued" */

/* Someone who wrote in a series' thread (pc_outbox_thread_others()). */
struct pc_outbox_writer {
	const char *addr, *name; /* valid during the call */
	unsigned tags; /* the PC_OUTBOX_* review tags their replies gave */
	/* The patches (bit n - 1 for patch n, up to 63) a reply of theirs
	 * below withdrew ("This patch is wrong"), and those below which they
	 * posted a patch of another series: its newer version (the
	 * author's "[PATCH v2]" of one patch, below its review). */
	uint64_t withdrew, replaced;
	/* The patches their review tags were given below (bit n - 1), and
	 * whether one was given below the cover letter: for all of it. */
	uint64_t tagged;
	int tagged_all;
	int64_t last; /* the Date of their last message there */
};

/*
 * Calls fn(writer, arg) for each person, bots and auto-submitted mail
 * aside, who wrote in series_id's thread (replies to its patches and
 * cover, and replies to those, and the author's patches posted below
 * them) after `after` and at or before `until`, once each, in the order
 * they first wrote. The author is among them when they wrote: the
 * caller tells them apart. A non-zero return of fn stops and is
 * returned. Errors: PC_EDB.
 */
int pc_outbox_thread_others(struct pc_store *st, int64_t series_id,
			    int64_t after, int64_t until,
			    int (*fn)(const struct pc_outbox_writer *w,
				      void *arg),
			    void *arg, struct pc_err *err);

/* The address of the list a List-Id names ("linux-pwm.vger.kernel.org"
 * is linux-pwm@vger.kernel.org, as MAINTAINERS' L: lines write it),
 * lower case; NULL for NULL or an id without a dot. Caller frees. */
char *pc_outbox_list_addr(const char *list_id);

/*
 * Calls fn(addr, name, arg) for each R: person of entry `entry` who wrote
 * to the list in the 180 days before now: the reviewers worth naming
 * beside those who apply it. Errors: PC_EDB.
 */
int pc_outbox_active_reviewers(struct pc_store *st, const char *entry,
			       int64_t now,
			       int (*fn)(const char *addr, const char *name,
					 void *arg),
			       void *arg, struct pc_err *err);

/*
 * When mail was first planned on this database, set to now on the first
 * call: a first run over an existing archive says nothing about what was
 * due before it. Errors: PC_EDB.
 */
int pc_outbox_first_run(int64_t *at_out, struct pc_store *st, int64_t now,
			struct pc_err *err);

/* Whether a digest to addr listed series_id at version at or after since
 * (1, or 0; <0 on error): the wait that began at since is no news to
 * them then, where a new wait after the last listing is (the applier
 * acked, then left it past the cadence again); and recording that a
 * digest lists it at at. Errors: PC_EDB. */
int pc_outbox_digest_listed(struct pc_store *st, const char *addr,
			    int64_t series_id, int version, int64_t since,
			    struct pc_err *err);
int pc_outbox_digest_list(struct pc_store *st, const char *addr,
			  int64_t series_id, int version, int64_t at,
			  struct pc_err *err);

/* When the last digest sent to addr was composed (0: none yet): test
 * verdicts after it are news for the next one. */
int pc_outbox_last_digest(int64_t *at_out, struct pc_store *st,
			  const char *addr, struct pc_err *err);

/* 1 when addr is a mailing list of some MAINTAINERS entry (L:). */
int pc_outbox_is_list(struct pc_store *st, const char *addr,
		      struct pc_err *err);

/*
 * Adds to the opt-out list the sender of every reply that says
 * "patchclock: opt-out" (intent bit 4). *added_out counts new ones.
 */
int pc_optout_from_replies(struct pc_store *st, int64_t now, int *added_out,
			   struct pc_err *err);

#endif
