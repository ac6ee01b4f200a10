/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reply says, as far as the clock cares: that the patches were
 * applied or queued ("Applied to libnvdimm-for-next, thanks!"), that
 * changes are wanted ("NAK", "Nacked-by:", "please respin"), that the
 * sender asks for attention ("Gentle ping", "Any comments?"), withdraws
 * ("Please ignore", "self-NAK"), approves without asking for anything
 * ("Looks good to me"), or wants no more mail from patchclock (a line
 * "patchclock: opt-out"). Whether it matters depends on who says it:
 * lib/sla/state.c reads a ping or a withdrawal only from the author.
 *
 * Only the sender's own words count: quoted lines ("> ..."), the quoted
 * original of a top-posted reply ("On ... wrote:" and what follows it at
 * the end, "-----Original Message-----"), diff hunks and the signature
 * ("-- ") are skipped. The phrases are matched at the start of a line,
 * case-insensitively, and are deliberately narrow: a maintainer's
 * "applied" is a sentence of its own, not "it fails when applied on top
 * of -rc3".
 */
#ifndef PC_PATCH_INTENT_H
#define PC_PATCH_INTENT_H

#include <stddef.h>

enum {
	PC_INTENT_APPLIED = 1 << 0, /* applied, queued, picked up, merged */
	PC_INTENT_CHANGES = 1 << 1, /* NAK, Nacked-by, please respin... */
	PC_INTENT_OPT_OUT = 1 << 2, /* a line "patchclock: opt-out" */
	/* the sender will send another version or change it: "will fix in
	 * v3", "Got it!", "I'll respin" (said by a series' author, the next
	 * step is theirs) */
	PC_INTENT_RESPIN = 1 << 3,
	/* a question of the sender's own ("How did you find this?") */
	PC_INTENT_QUESTION = 1 << 4,
	/* the applied sentence names the whole series ("Applied the
	 * series", "applied them all") though it answers one patch */
	PC_INTENT_SERIES = 1 << 5,
	/* the sender would apply it given another's ack: "I can take it but
	 * would need Acks from nvdimm folks" (from a maintainer: the series
	 * waits on the others from this word) */
	PC_INTENT_NEEDS_ACK = 1 << 6,
	/* (bits 8 to 23 hold the range below) */
	/* the sender asks for attention: "Gentle ping", "Any comments on
	 * this?", "Could this be picked up?" (from a series' author: the
	 * reminder a bot would have sent) */
	PC_INTENT_PING = 1 << 24,
	/* the sender withdraws it: "Please ignore this", "self-NAK", "Please
	 * drop this patch", "sent by mistake" (from a series' author) */
	PC_INTENT_WITHDRAW = 1 << 25,
	/* the sender approves and asks for nothing: "Looks good to me",
	 * "LGTM" (with a review tag, the same) */
	PC_INTENT_APPROVE = 1 << 26,
	/* the sender says something of substance besides approval, thanks
	 * and tags: a review comment, a nit ("Reviewed-by, but please drop
	 * 'driver' from the subject") */
	PC_INTENT_COMMENT = 1 << 27,
	/* the comment asks the author for something: it is written below a
	 * quoted line of the diff (a remark on a hunk), or asks in so many
	 * words ("please", "could you", "nit:", "s/foo/bar/", "drop ...").
	 * A comment without it explains ("we should set it where the
	 * register exists, so true is right"): with the sender's own tag,
	 * the tag is the verdict. */
	PC_INTENT_REQUEST = 1 << 28,
	/* A posting's bit (a patch or cover letter; the others are a
	 * reply's): its author says the specification it implements is a
	 * draft (lib/patch/isa.h). */
	PC_INTENT_DRAFT_ISA = 1 << 29,
	/* A cover letter's bit: its author asks the maintainers of each
	 * part to apply it through their own trees (lib/patch/split.h). */
	PC_INTENT_SPLIT = 1 << 30,
};

/*
 * The patches an applied sentence names, by their n of n/N, packed above
 * the bits: "Top 6 patches applied" is 1 to 6, "applied patches 2-4" 2 to
 * 4, "applied patch 3" 3 to 3. 0 when it names none (numbers above 255
 * are not kept).
 */
#define PC_INTENT_FIRST(bits) (((bits) >> 8) & 0xffu)
#define PC_INTENT_LAST(bits) (((bits) >> 16) & 0xffu)
#define PC_INTENT_RANGE(first, last) \
	((((unsigned)(first)&0xffu) << 8) | (((unsigned)(last)&0xffu) << 16))

/* The PC_INTENT_* bits that (body, len), a decoded reply body, carries,
 * with the range of the first applied sentence that names one. */
unsigned pc_intent_scan(const char *body, size_t len);

#endif
