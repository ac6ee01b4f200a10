/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a mail is: a patch, a cover letter, a reply, a pull request, or
 * something else (announcements, bounces, bot mail, spam); and whether its
 * sender is a bot.
 */
#ifndef PC_PATCH_CLASSIFY_H
#define PC_PATCH_CLASSIFY_H

#include "patch/subject.h"

enum pc_kind {
	PC_KIND_PATCH,
	PC_KIND_COVER,
	PC_KIND_REPLY,
	PC_KIND_PULL,
	PC_KIND_OTHER,
	PC_KIND_ERROR, /* could not be parsed; kept raw */
};

/* "patch", "cover", "reply", "pull", "other", "error". */
const char *pc_kind_name(enum pc_kind kind);

/*
 * Classifies from the parsed subject and what the body holds:
 * - a Re:/Aw:/... subject is a reply, whatever it carries;
 * - a pull tag, or a request-pull URL, is a pull request;
 * - a patch tag numbered 0/N is a cover letter; a patch tag with a diff,
 *   or numbered n/N (n >= 1) even without a diff, is a patch;
 * - an untagged mail with a diff is a patch (patchwork's rule);
 * - otherwise a mail in reply to another is a reply, and the rest other.
 */
enum pc_kind pc_classify(const struct pc_subject *subj, int has_diff,
			 int has_pull_url, int has_parent);

/*
 * Whether mail from (name, addr) with the given Auto-Submitted value is
 * from a bot: the kernel's test and tracking robots by address or name,
 * or any Auto-Submitted other than "no". Any argument may be NULL.
 */
int pc_is_bot(const char *name, const char *addr, const char *auto_submitted);

/* Whether addr (an addr-spec, NULL: no) is a known bot's own address
 * (lkp@intel.com): what may vouch for a fact, where a name or an
 * Auto-Submitted header, which anyone can write, only withholds. */
int pc_is_bot_addr(const char *addr);

#endif
