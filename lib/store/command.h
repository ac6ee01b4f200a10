/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Commands given by mail (lib/patch/command.h): read from the messages
 * ingest marked, judged for authority, stored with their outcome.
 *
 * Who may: a command about a series counts only from an M: or R: of
 * the series' governing entry (the judged one, else the first by
 * covered lines); opt-out and opt-in act on the sender's own address.
 * The sender is the From addr-spec (not the display name, not Sender:
 * or Reply-To:). A mail that carries a DKIM-Signature must carry one by
 * the From domain that verifies (lib/mail/dkim.h); with require_dkim,
 * an unsigned mail is refused too. A refused command is stored with its
 * reason and changes nothing, except opt-out, which is always obeyed
 * (forging it can only stop mail).
 *
 * The series: the first message up the In-Reply-To chain that belongs
 * to one, or patchclock's own mail that the command answers (the
 * outbox's Message-ID). Obeyed commands are read by the judging
 * (lib/store/status.c) and mark the series to be judged again.
 */
#ifndef PC_STORE_COMMAND_H
#define PC_STORE_COMMAND_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct pc_dkim;

struct pc_command_options {
	struct pc_dkim *dkim; /* the verifier; NULL: signed mail is refused */
	int require_dkim; /* refuse unsigned mail too */
	/* The real time of the check, which a signature's t= and x= are
	 * read against (a replay's simulated now is no time to check a
	 * signature made today); 0: now. */
	int64_t dkim_now;
	/* called for each command decided, for the log; may be NULL */
	void (*decided)(const char *msgid, const char *from, const char *text,
			const char *outcome, const char *reason, void *arg);
	void *arg;
};

struct pc_command_stats {
	unsigned mails, obeyed, refused, invalid;
	unsigned opt_outs; /* addresses newly on the opt-out list */
};

/*
 * Reads every message marked as holding commands and not yet read, at
 * now, in the caller's transaction. Errors: PC_EDB.
 */
int pc_commands_process(struct pc_store *st,
			const struct pc_command_options *opt, int64_t now,
			struct pc_command_stats *stats, struct pc_err *err);

/*
 * Attestation of review tags given by mail, as b4 attests patches: the
 * DKIM verdict of each reply that carries a Reviewed-by or Acked-by in
 * its sender's own name, posted in the max_age seconds before now and
 * not yet checked, stored with the mail (messages.dkim). A profile whose
 * review rule asks for attested tags (review_attestation = dkim) then
 * counts only tags whose mail passed. *checked (may be NULL) counts the
 * mails checked. Errors: PC_EDB.
 */
int pc_attest_tags(struct pc_store *st, const struct pc_command_options *opt,
		   int64_t now, int64_t max_age, unsigned *checked,
		   struct pc_err *err);

/*
 * A mail whose commands were not understood (outcome "invalid"), given
 * in the two days before now, from a person (not a bot or an
 * auto-submitted mail) whose mail did not fail DKIM, who has never been
 * answered (outbox key "command-help:ADDR"): what the one answer needs.
 * lines: "TEXT\tWHY" per line not understood, joined by "\n". All
 * borrowed for the call.
 */
struct pc_command_help {
	const char *msgid, *subject, *refs, *from_addr, *from_name, *lines;
};
typedef int (*pc_command_help_fn)(const struct pc_command_help *h, void *arg);
int pc_commands_help_due(struct pc_store *st, int64_t now,
			 pc_command_help_fn fn, void *arg, struct pc_err *err);

/* The outbox key of the answer to addr's commands: once per sender. */
#define PC_COMMAND_HELP_KEY "command-help:"

/* One stored command, for `patchclock show`. Strings borrowed for the
 * call. */
struct pc_command_row {
	int64_t id, series_id, given_at, decided_at;
	const char *message_id, *verb, *text, *from_addr, *outcome, *reason,
		*dkim, *dkim_why;
};
typedef int (*pc_command_fn)(const struct pc_command_row *r, void *arg);

/* The commands about series_id (0: every command), oldest first. */
int pc_commands_list(struct pc_store *st, int64_t series_id, pc_command_fn fn,
		     void *arg, struct pc_err *err);

#endif
