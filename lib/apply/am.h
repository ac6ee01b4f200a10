/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a patch mail to what `git am` commits, and b4's trailer merging:
 * pure functions of plain data (no git, no store).
 *
 * The commit message is the subject without its [PATCH ...] prefix, a
 * blank line, and the body up to the "---" line, the diff or the
 * scissors' end (git mailinfo's rules: in-body From:/Date:/Subject:
 * lines at the top are dropped, as is trailing whitespace). Trailers
 * collected from the list are added after the message's own trailer
 * block, each once (name and value compared without case and extra
 * spaces), in the order given, then a Link: to the archive, as `b4 am`
 * does.
 */
#ifndef PC_APPLY_AM_H
#define PC_APPLY_AM_H

#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

/* A trailer to add; strings borrowed. */
struct pc_am_trailer {
	const char *name; /* "Reviewed-by" */
	const char *value; /* "Jane Doe <jane@example.org>" */
};

/*
 * Splits body (a patch mail's decoded text, LF line ends) into the
 * commit message body (*msg_len bytes at body) and the diff (*diff at
 * an offset into body, *diff_len bytes, the mail signature "-- " and
 * what follows removed). Returns 0, or PC_EPARSE when there is no diff.
 */
int pc_am_split(size_t *msg_len, const char **diff, size_t *diff_len,
		const char *body, size_t len, struct pc_err *err);

/*
 * Writes the commit message to out: title, blank line, the message body
 * (msg, msg_len; in-body headers dropped, trimmed), its trailers, then
 * each of add[0..nadd) not already there, then "Link: " link when link
 * is not NULL and not already there. Ends with one newline.
 */
void pc_am_message(struct pc_buf *out, const char *title, const char *msg,
		   size_t msg_len, const struct pc_am_trailer *add, size_t nadd,
		   const char *link);

#endif
