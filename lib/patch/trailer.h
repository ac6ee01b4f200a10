/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trailers ("Reviewed-by: Name <addr>", "Fixes: abc (\"...\")") in a
 * patch's commit message and in replies on the list, never in quoted text.
 */
#ifndef PC_PATCH_TRAILER_H
#define PC_PATCH_TRAILER_H

#include <stddef.h>

#include "util/err.h"

struct pc_trailer {
	char *name; /* owned; canonical case: "Reviewed-by", "Fixes" */
	char *value; /* owned; the value as written, trimmed, unfolded */
	char *person; /* owned; display name for person trailers, or NULL */
	char *addr; /* owned; lower-cased address for person trailers, or NULL */
	int line; /* 1-based line in the body it came from */
	/* A tag a bot only suggests ("kindly add the following tag"): kept,
	 * but never a review. */
	unsigned suggested : 1;
	/* A *-by trailer with an address (Reviewed-by, Acked-by...). */
	unsigned is_person : 1;
};

struct pc_trailer_list {
	struct pc_trailer *v; /* owned */
	size_t n, alloc;
};

#define PC_TRAILER_LIST_INIT \
	{                    \
		0            \
	}

/* At most this many trailers are taken from one body. */
#define PC_TRAILER_MAX 1000

void pc_trailer_list_release(struct pc_trailer_list *l);

/*
 * Trailers of a patch's commit message: body is the decoded text of the
 * mail up to (not including) the "---" separator or the diff. Only the
 * trailer block (the last paragraph, git interpret-trailers style; b4's
 * "[ name: note ]" custody lines allowed) counts. Appends to out.
 * Reading stops where git mailinfo's would: at a "---" line, "--- file",
 * "diff -" or "Index: ".
 * Returns 0; PC_EUSAGE on a NULL argument; PC_ELIMIT after PC_TRAILER_MAX
 * trailers (those stay in out).
 */
int pc_trailers_from_patch(struct pc_trailer_list *out, const char *body,
			   size_t len, struct pc_err *err);

/*
 * Trailers given in a reply: unquoted lines anywhere in the reply's own
 * text (lines starting with '>' and everything after an Outlook
 * "-----Original Message-----" or a "-- " signature line are skipped).
 * Only person trailers with an address, and Fixes:, count here. Bot
 * suggestions are marked `suggested`. Appends to out. Returns as
 * pc_trailers_from_patch() does.
 */
int pc_trailers_from_reply(struct pc_trailer_list *out, const char *body,
			   size_t len, struct pc_err *err);

#endif
