/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a parsed message is, for storing it: its subject's tag and name,
 * its diff (inline, or in the first text attachment holding one), a pull
 * request's URL, its kind, whether a bot sent it, the trailers of a patch
 * or a reply (a bot's marked as suggestions), a reply's intent, and the
 * lines that link a patch or cover to an earlier version (b4's
 * change-id and "Link to v1", a "Supersedes:" pseudo-header).
 */
#ifndef PC_PATCH_ANALYSIS_H
#define PC_PATCH_ANALYSIS_H

#include "mail/message.h"
#include "patch/classify.h"
#include "patch/diff.h"
#include "patch/pull.h"
#include "patch/subject.h"
#include "patch/trailer.h"
#include "util/err.h"

/* What a message is; initialise with .diff = PC_DIFF_INIT. */
struct pc_analysis {
	struct pc_subject subj;
	struct pc_diff diff;
	struct pc_pull pull;
	struct pc_trailer_list trailers;
	enum pc_kind kind;
	const char *origin; /* trailers' origin: "patch", "reply" or NULL */
	char *name; /* owned; subject name */
	char *change_id; /* owned, or NULL */
	char *supersedes; /* owned, or NULL */
	int is_bot;
	unsigned intent; /* PC_INTENT_* of a mail outside patches and covers */
	int has_commands; /* such a mail holds "patchclock:" lines */
	int to_bot; /* and nothing else: pc_cmds_only() */
	int review_tag; /* a reply giving Reviewed-by or Acked-by */
};

/*
 * Analyses m into a (zeroed but for .diff = PC_DIFF_INIT). Returns 0, or
 * the diff's or trailers' error (a diff over its limits is no error: it
 * is kept as far as it was read).
 */
int pc_analyse(struct pc_analysis *a, const struct pc_msg *m,
	       struct pc_err *err);
void pc_analysis_release(struct pc_analysis *a);

/*
 * The text of m that holds its patch: the body when a diff is inline,
 * else the first text attachment that holds one. Returns 1 and sets
 * (*text, *len), or 0 when m has no diff.
 */
int pc_analysis_diff_text(const struct pc_msg *m, const char **text,
			  size_t *len);

/*
 * The PC_INTENT_* bits of a parsed mail: pc_intent_scan() of its body,
 * less the word that grants acceptance ("Applied") when the mail writes
 * a field RFC 5322 allows once twice (m->dup_field): such a mail carries
 * no authority (issue 36), whoever it names as its sender.
 */
unsigned pc_analysis_intent(const struct pc_msg *m);

/*
 * Whether a person tag given in the reply m names someone other than its
 * sender, as b4 checks before applying a follow-up tag: not when the
 * addresses are equal, or when one display name's words are all in the
 * other ("fan <nifan@gmail.com>" giving "Reviewed-by: Fan Ni
 * <fan.ni@samsung.com>" is the same person writing from home).
 */
int pc_trailer_sender_mismatch(const struct pc_trailer *t,
			       const struct pc_msg *m);

#endif
