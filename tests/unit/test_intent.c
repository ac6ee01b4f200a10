// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/patch/intent.c: what a reply says (applied, changes
 * wanted, opt-out), from real maintainer phrasings and the traps around
 * them (quotes, test reports, questions, signatures).
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "patch/intent.h"

#define A PC_INTENT_APPLIED
#define P PC_INTENT_PING
#define W PC_INTENT_WITHDRAW
#define C PC_INTENT_CHANGES
#define O PC_INTENT_OPT_OUT
#define S PC_INTENT_SERIES

#define AGREED                                                              \
	"> the patch is based on the latest linux-next.\n\nAh I see.  "     \
	"Sorry.\n\n> In this case, we have a 'return -ENOMEM'.\n\nYes "     \
	"agreed.  I was looking at Linus' kernel not linux-next sorry.\n\n" \
	"Sorry for the noise,\nIra\n"

static const struct {
	const char *body;
	unsigned want;
} cases[] = {
	/* Maintainers' own words (lore.kernel.org nvdimm, netdev, tip). */
	{ "Applied to libnvdimm-for-next, thanks!\n", A },
	{ "On Mon, May 17, 2021 Jane wrote:\n> patch\n\nApplied, thanks.\n",
	  A },
	{ "Thanks, applied.\n", A },
	{ "Queued for 5.14.\n", A },
	{ "I've applied patches 1-3 to the nvdimm tree.\n",
	  A | PC_INTENT_RANGE(1, 3) },
	{ "Picked up, thanks.\n", A },
	/* Greg Kroah-Hartman's note of a patch he took (usb, tty,
	 * staging, char-misc) */
	{ "This is a note to let you know that I've just added the patch "
	  "titled\n\n    usb: foo: fix bar\n\nto my usb git tree which "
	  "can be found at\n",
	  A },
	{ "Thanks, I've taken this into my tree.\n", A },
	{ "Added to the i2c tree, thanks.\n", A },
	{ "I picked this up for 6.3.\n", A },
	/* how it was done, after the verb; a condition before it */
	{ "Applied after fixing up the subject line, thanks.\n", A },
	{ "Once this is applied, please rebase the rest.\n", 0 },
	{ "After it is merged, the old driver goes away.\n", 0 },
	{ "Care seems to have been taken to add one before an earlier "
	  "error return.\n",
	  0 },
	/* ... but a remark taken into account is no apply */
	{ "Your comments have been taken into account.\n", 0 },
	{ "I have taken it into consideration.\n", 0 },
	{ "Hi Vishal,\n\nlooks good, applied to nvdimm-pending.\n",
	  A | PC_INTENT_APPROVE },
	{ "Here is the summary with links:\n  - [net] x: fix y\n"
	  "Merged into net.\n",
	  A },
	/* A subset, a short "added", a bot (lore cxl 2022, netdev). */
	{ "Top 6 patches applied to cxl/next, thanks.\n",
	  A | PC_INTENT_RANGE(1, 6) },
	{ "Applied the first two patches, thanks.\n",
	  A | PC_INTENT_RANGE(1, 2) },
	{ "Applied the whole series to libnvdimm-for-next.\n", A | S },
	{ "Thanks, applied them all.\n", A | S },
	/* The first range named stays. */
	{ "Applied patch 2.\n\nAlso applied patches 4-5.\n",
	  A | PC_INTENT_RANGE(2, 2) },
	{ "Applied 3-2, oddly.\n", A },
	{ "Thanks, I added that.\n", A },
	{ "Thanks, I added it to libnvdimm-for-next.\n", A },
	{ "Hello:\n\nThis series was applied to netdev/net-next.git (main)\n"
	  "by Jakub Kicinski <kuba@kernel.org>:\n",
	  A | S },
	{ "I added that check in v2.\n", PC_INTENT_RESPIN },
	{ "I added a comment above it.\n", 0 },
	/* Not "applied". */
	{ "It fails to build when applied on top of v5.13-rc1.\n", 0 },
	{ "This patch applied cleanly and boots.\n", 0 },
	{ "Can this be applied to 5.10 stable?\n", PC_INTENT_QUESTION },
	{ "I will queue it once the review is done.\n", 0 },
	{ "> Applied, thanks!\nNo, it was not.\n", 0 },
	{ "This is not applied yet.\n", 0 },
	{ "Regards\n-- \nApplied science division\n", 0 },
	{ "Picked the wrong base, sorry.\n", 0 },
	/* Changes wanted. */
	{ "NAK.\n\nThis breaks the label format.\n", C },
	{ "Nacked-by: Dan Williams <dan.j.williams@intel.com>\n", C },
	{ "Looks mostly fine, but please respin with the comment fixed.\n", C },
	{ "This needs another version; see below.\n", C },
	{ "> please respin\nDone in v2.\n", PC_INTENT_RESPIN },
	{ "Nakamura-san, thanks for testing.\n", 0 },
	/* The author will send another version. */
	{ "Got it! Thanks.\n", PC_INTENT_RESPIN },
	{ "Sure, I'll fix that in v3.\n", PC_INTENT_RESPIN },
	{ "Agreed, will send a new version.\n", PC_INTENT_RESPIN },
	/* The author agreeing, alone, to a change the maintainer put as a
	 * question (linux-integrity 2022-11-30); not when disagreeing, nor
	 * a longer sentence that says what it agrees with. */
	{ "> Does it make sense to limit this change to just\n"
	  "> CONFIG_VMAP_STACK?\n\nYes, I agree.\n\nRoberto\n",
	  PC_INTENT_RESPIN },
	{ "I don't agree.\n", 0 },
	{ "I agree the lock is not needed on this path today.\n", 0 },
	{ "Good point, fixed in v2.\n", PC_INTENT_RESPIN },
	{ "> I'll fix it\nNo need.\n", 0 },
	{ "> Why?\nBecause. How did you find it?\n", PC_INTENT_QUESTION },
	{ "The name comes from the spec, see section 5.\n", 0 },
	{ "It broke in v5.15-rc3, in v5.14 it worked.\n", 0 },
	/* Opt-out, exactly the line. */
	{ "patchclock: opt-out\n", O },
	{ "Thanks.\n\nPatchClock: Opt-Out\n", O },
	{ "> patchclock: opt-out\n", 0 },
	/* Commands are not prose: "applied" counts only from who may say
	 * it (lib/store/command.c). */
	{ "patchclock: applied\n", 0 },
	{ "Thanks.\npatchclock: applied 1-3 widget-next\n", 0 },
	{ "patchclock: opt-out please\n", 0 },
	{ "I said patchclock: opt-out yesterday\n", 0 },
	/* Sentences wrapped over lines are read whole (lore nvdimm,
	 * 2021-10-22 and -25, Dan Williams; 2021 Vishal Verma). */
	{ "Looks good, I plan to get this\nqueued for v5.15-rc7.\n",
	  PC_INTENT_APPROVE },
	{ "I'd love to get this series\nmerged in soon.\n", 0 },
	{ "This is the patch that eventually gets\napplied.\n", 0 },
	{ "It will be pushed out to -next tonight.\n", 0 },
	{ "Thanks,\napplied.\n", A },
	{ "Can you please fix up your mailer?\n", PC_INTENT_QUESTION },
	{ "Please split this into two patches.\n", C },
	/* Together. */
	{ "Applied patch 1, thanks.\n\nPatch 2: please respin with a "
	  "better subject.\n",
	  A | C | PC_INTENT_RANGE(1, 1) },
	/* A top-posted reply's original is not read. */
	{ "Sounds good.\n\n-----Original Message-----\nApplied, thanks\n", 0 },
	{ "Applied, thanks.\r\n> quoted\r\n-------- original message "
	  "--------\r\nPlease respin.\r\n",
	  A },
	/* Pings, withdrawals and approvals (lore linux-pwm, linux-hwmon,
	 * linux-integrity, 2022). */
	{ "Gentle ping.\n", P },
	{ "Hello,\n\nping?\n", P | PC_INTENT_QUESTION },
	{ "Hi Thierry,\n\nAny comments on this series?\n",
	  P | PC_INTENT_QUESTION },
	{ "Friendly ping, could this be picked up for 6.2?\n",
	  P | PC_INTENT_QUESTION },
	/* A question of routing is a ping, no question to the author
	 * (linux-integrity 2022-10-28, Kees Cook). */
	{ "Who's tree can this land in?\n", P },
	{ "Other than that: Who would pick this up, I assume it to go via "
	  "an ARM tree?\n",
	  P },
	{ "Which tree should take it, yours or the ARM SoC one?\n", P },
	{ "Who will pick this patch up? Looking at the git history, patches "
	  "were\ncommitted by Thierry and Rob in the past. Who volunteers? "
	  "(Assuming no\nobjections are brought forward of course.)\n",
	  P },
	/* an applier asking another subsystem's maintainer (lore nvdimm
	 * 2021-08-26, Dan Williams) */
	{ "Darrick, any concerns with me taking this through the dax "
	  "tree?\n",
	  P },
	{ "Mike, any objections to me taking this through a dax branch?\n", P },
	/* Curiosity about the author's next work asks nothing of this
	 * series (lore nvdimm 2021-05-25, Ulf Hansson, with his
	 * Reviewed-by); a question about this series still asks. */
	{ "May I ask what else you have in the pipe for the next steps?\n", 0 },
	{ "What are your future plans for the other drivers?\n", 0 },
	{ "Why is the lock dropped before the next step?\n",
	  PC_INTENT_QUESTION },
	{ "Is the data still in the pipe when the reader closes it?\n",
	  PC_INTENT_QUESTION },
	/* a question addressed by name to someone the reply does not
	 * quote asks them, not the author (lore nvdimm 2021-06-23, Peter
	 * Zijlstra; linux-integrity 2022-11, Mimi Zohar) */
	{ "On Wed, Jun 23, 2021 at 01:40:38PM +0530, kajoljain wrote:\n"
	  "> Can you help me on how to take these patches?\n\n"
	  "I would expect either the NVDIMM or PPC maintainers to take "
	  "this. Dan,\nMichael ?\n",
	  P },
	{ "On Tue, Nov 29, 2022, Roberto Sassu wrote:\n> I would be more "
	  "in favor of not touching it.\n\nCasey, Paul, any comment?\n",
	  P },
	{ "On Fri, Dec 10, 2021 at 10:42:50AM +0800, Shiyang Ruan\nwrote:\n"
	  "> the patch\n\nDan, why is this erroneous commit still in your "
	  "tree?\n",
	  P },
	/* ... and the question just before it is put to them too: a
	 * suggestion asked below a hunk, then the maintainer asked for
	 * their take (linux-pwm 2022-12-02, Uwe Kleine-König on "arm64:
	 * dts: mediatek: mt7622: Add missing pwm-cells") */
	{ "On Mon, Nov 28, 2022 at 12:20:27PM +0100, A D R wrote:\n"
	  "> +\t\t#pwm-cells = <2>;\n\n3 should be possible, too. The "
	  "driver does only support one\npolarity, so it's not really "
	  "needed, but would be nice for consistency?\n\nThierry, what's "
	  "your take here?\n\nOther than that: Who would pick this up, I "
	  "assume it to go via an ARM\ntree together with the 2nd patch in "
	  "this series?\n",
	  P },
	{ "On Mon, Nov 28, 2022, A D R wrote:\n> +\tx = 2;\n\nWould 3 be "
	  "nicer? Thierry, what's your take here?\n",
	  P },
	/* a plain question stays the author's to answer */
	{ "On Mon, Nov 28, 2022, A D R wrote:\n> +\tx = 2;\n\nWhy is the "
	  "lock needed here?\n\nDan, what's your take?\n",
	  P | PC_INTENT_QUESTION },
	/* a question asked before another quote stays the author's */
	{ "On Mon, Nov 28, 2022, A D R wrote:\n> +\tx = 2;\n\nWhy 2?\n\n"
	  "> +\ty = 3;\n\nThierry, what's your take here?\n",
	  P | PC_INTENT_QUESTION },
	/* A change already made, for the next version (linux-pwm
	 * 2022-11-15, Biju Das) */
	{ "> I think you want these moved up a level.\n\nThanks, I moved "
	  "this up a level and the checks are now passing.\n",
	  PC_INTENT_RESPIN },
	{ "> Does this build?\n\nYes, I have fixed the warning locally.\n",
	  PC_INTENT_RESPIN },
	/* Outlook's quoted header of a mail answered inline ends nothing
	 * (lore nvdimm 2021-07-20, Shiyang Ruan); an unquoted one below a
	 * top-posted reply ends the reading. */
	{ "> -----Original Message-----\r\n> Subject: Re: [PATCH v5 2/9]\r\n"
	  "> That lock won't protect anything.\r\n\r\nYes, I misunderstood "
	  "the purpose of the lock. I'll fix this.\r\n",
	  PC_INTENT_RESPIN },
	{ "Thanks.\r\n\r\n-----Original Message-----\r\nFrom: A\r\n\r\n"
	  "I'll fix this.\r\n",
	  0 },
	/* ... but asked of the person it quotes, a name its attribution
	 * holds, or in a mail that quotes nobody, it is a question */
	{ "On Wed, Jun 23, 2021, kajoljain wrote:\n> patch\n\nKajol, "
	  "does this build on ppc32?\n",
	  PC_INTENT_QUESTION },
	{ "On Wed, Jun 23, 2021 at 01:40:38PM +0530, Kajol\nJain wrote:\n"
	  "> patch\n\nKajol, does this build on ppc32?\n",
	  PC_INTENT_QUESTION },
	{ "Dan, why is this erroneous commit still in your tree?\n",
	  PC_INTENT_QUESTION },
	{ "On Wed, Jun 23, 2021, kajoljain wrote:\n> patch\n\nAlso, "
	  "does this build on ppc32?\n",
	  PC_INTENT_QUESTION },
	{ "On Wed, Jun 23, 2021, kajoljain wrote:\n> patch\n\nHonestly, "
	  "does this build on ppc32?\n",
	  PC_INTENT_QUESTION },
	{ "On Wed, Jun 23, 2021, kajoljain wrote:\n> patch\n\nRight?\n",
	  PC_INTENT_QUESTION },
	/* a question about the posting, not the patches (lore nvdimm
	 * 2021-11-16, Christophe Leroy on a RESEND) */
	{ "> Patchset adds performance stats reporting support.\n\nYou "
	  "resending your v5 series ? Is there any news since your "
	  "submittion\nlast month that's awaiting in patchwork here at\n"
	  "https://patchwork.ozlabs.org/project/linuxppc-dev/list/"
	  "?series=264422 ?\n",
	  0 },
	{ "What has changed since v4?\n", 0 },
	{ "What has changed in the error path?\n", PC_INTENT_QUESTION },
	/* but what the patch is based on is asked of the author */
	{ "Which tree is this based on?\n", PC_INTENT_QUESTION },
	{ "Hi Jarkko, did you have a chance to look at this?\n",
	  P | PC_INTENT_QUESTION },
	{ "Jarko, thanks for the review so far. What about this patch, are "
	  "there any concerns from your side?\n",
	  P | PC_INTENT_QUESTION },
	/* after posting a new version (linux-hwmon 2022-11-07) */
	{ "Guenter, thanks so much for your feedback. Just posted the final "
	  "v6\nwith your suggestions. Let me know If anything needs to be "
	  "changed or\nclarified.\n",
	  P },
	/* where to look, not a request for a look (lore nvdimm
	 * 2021-05-21, Christoph Hellwig answering Coly Li) */
	{ "> Maybe add a parameter to blk_cleanup_disk()?\n\nPlease take a "
	  "look at patch 4 in the series.\n",
	  0 },
	{ "Have a look at commit 86da9f736740, please.\n", 0 },
	{ "Please take a look at this series.\n", P },
	{ "Could you take a look when you have time?\n",
	  P | PC_INTENT_QUESTION },
	{ "The ping test passes on the board now.\n", 0 },
	{ "I ran ping over the link for an hour.\n", 0 },
	{ "Please ignore this patch, I sent the wrong version.\n", W },
	/* the author's verdict on one patch (linux-pwm 2022-11-01) */
	{ "This patch is wrong and it seems I have tried something like "
	  "this in the past. The rest in the series is okay.\n",
	  W },
	{ "I don't think this patch is wrong: the lock is taken above.\n", 0 },
	{ "Self-NAK, this breaks the build on arm.\n", W },
	{ "Oops, sent by mistake; the real v2 follows.\n", W },
	{ "Looks good to me.\n\nReviewed-by: Rita <rita@example.com>\n",
	  PC_INTENT_APPROVE },
	{ "LGTM\n", PC_INTENT_APPROVE },
	{ "No concerns on this one.\n\nBR, Jarkko\n", PC_INTENT_APPROVE },
	{ "It looks good but for the comment below.\n", 0 },
	{ "Your version is better, I'll drop mine.\n", PC_INTENT_RESPIN },
	/* The author's one-word answers to review points (lore nvdimm
	 * 2021-08-07, PKS V7 14/18). */
	{ "> s/teh/the/\n\nFixed.\n", PC_INTENT_RESPIN },
	{ "> Please use a define here.\n\nDone, thanks.\n", PC_INTENT_RESPIN },
	/* A reviewer takes an objection back (lore nvdimm 2021-11-08,
	 * "nvdimm/pmem: Fix an error handling path"). */
	{ AGREED, PC_INTENT_APPROVE },
	{ "Agreed, but the name should say what it counts.\n", 0 },
	/* A maintainer who would apply it given another's ack (lore
	 * nvdimm 2021-06-23, Michael Ellerman on "[PATCH v3 0/4] Add perf
	 * interface to expose nvdimm"; 2021-08-23, Dan Williams on
	 * "[PATCH 9/9] dax: remove bdev_dax_supported") */
	{ "Peter Zijlstra <peterz@infradead.org> writes:\n> I would expect "
	  "either the NVDIMM or PPC maintainers to take this. Dan,\n> "
	  "Michael ?\n\nI can take it but would need Acks from nvdimm "
	  "folks.\n\ncheers\n",
	  PC_INTENT_NEEDS_ACK },
	{ "Looks good, series passes regression tests:\n\nI can take this "
	  "with an XFS ack, or if Darrick wants to carry it to\nmake Ruan's "
	  "life easier that's ok with me.\n",
	  PC_INTENT_NEEDS_ACK | PC_INTENT_APPROVE },
	{ "Once Rob acks the binding I'll queue it.\n", PC_INTENT_NEEDS_ACK },
	/* an ack given, not needed; one asked for is a question */
	{ "If you take it, you have my ack.\n", 0 },
	{ "Feel free to take it with my ack.\n", 0 },
	{ "Mike, can I get an ack to take this through nvdimm.git?\n", P },
	/* The author asking who takes it is the author's ping (lore
	 * nvdimm 2021-06-23, Kajol Jain; linux-hwmon 2022-11-01, Pali
	 * Rohar) ... */
	{ "Hi Peter,\n    Thanks for reviewing the patch. Can you help me "
	  "on how to take\nthese patches to linus tree or can you take "
	  "it?\n",
	  P },
	{ "Michael, could you take this patch?\n", P },
	/* ... and a request to take something into account none */
	{ "Could you take this into account?\n", PC_INTENT_QUESTION },
	/* The decision handed to the applier by name, below the author's
	 * "Will you send a cleaned up version of this?", asks the
	 * maintainers (linux-pwm 2022-11-28, Uwe Kleine-König); handed to
	 * the author it quotes, or "let Thierry know", it does not. */
	{ "On Wed, Nov 16, 2022 at 06:41:06PM +0100, Emil Renner Berthing "
	  "wrote:\n> Will you send a cleaned up\n> version of this?\n\n"
	  "I'd let Thierry decide what he want here. Depending on his "
	  "choice I can\nclean up my suggestion.\n",
	  P },
	{ "That's Thierry's call.\n", P },
	{ "I'll leave that to Guenter.\n", P },
	{ "It's up to Thierry.\n", P },
	{ "On Wed, Nov 16, 2022, Emil Renner Berthing wrote:\n> Will you "
	  "send it?\n\nI'd let Emil decide.\n",
	  0 },
	{ "This is up to Kconfig to select.\n", 0 },
	{ "Please let Thierry know when you send it.\n", 0 },
	{ "Let's call this new flag \"spam\".\n", 0 },
	{ "Today's call went well.\n", 0 },
	/* A line that opens with "@Thierry," is read, not taken for a
	 * hunk's "@@" (linux-pwm 2022-12-05, the author's ping). */
	{ "@Thierry, it seems this is stuck on some opinion from you.\n", P },
	{ "@@ -1,2 +1,3 @@\n", 0 },
	{ "", 0 },
};

static void test_intent__table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* Whether a sentence is a comment is the next table's. */
		unsigned got =
			pc_intent_scan(cases[i].body, strlen(cases[i].body)) &
			~(unsigned)(PC_INTENT_COMMENT | PC_INTENT_REQUEST);

		if (got != cases[i].want) {
			fprintf(stderr, "case %zu: got %u, want %u: %s", i, got,
				cases[i].want, cases[i].body);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Approval that asks for nothing, and approval with a request: a tag or
 * a "looks good" with a nit is a review the author has yet to act on
 * (linux-hwmon 2022: "Reviewed-by" with "please drop 'driver' from the
 * subject"). */
static void test_intent__comment(void **state)
{
	static const struct {
		const char *body;
		int comment;
	} comments[] = {
		{ "Reviewed-by: Rita Viewer <rita@example.com>\n", 0 },
		{ AGREED, 0 },
		{ "Agreed, but the name should say what it counts.\n", 1 },
		{ "Looks good to me.\n\nReviewed-by: Rita <rita@example.com>\n",
		  0 },
		{ "Thanks for fixing this!\n\nAcked-by: Rita <r@example.com>\n",
		  0 },
		{ "Tested on an i.MX8 board.\nTested-by: Rita <r@example.com>\n",
		  0 },
		{ "Hi Jane,\n\nFor the series:\nAcked-by: Rita <r@example.com>\n",
		  0 },
		{ "> +\tint ret;\n\nPlease drop the word driver from the "
		  "subject.\n\nReviewed-by: Rita <r@example.com>\n",
		  2 },
		{ "> +\tint ret;\n\nThis should be unsigned, the register is "
		  "16 bits wide.\n",
		  2 },
		/* Attributions in other languages are no prose (lore
		 * linux-pwm 2022, AngeloGioacchino Del Regno's mailer). */
		{ "Il 19/10/22 11:42, xinlei.lee@mediatek.com ha scritto:\n"
		  "> patch\n\nReviewed-by: A G <a@example.com>\n",
		  0 },
		{ "Am 01.12.22 um 10:00 schrieb Jane Doe:\n> patch\n\n"
		  "Acked-by: A <a@example.com>\n",
		  0 },
		/* A remark that asks for nothing, with an ack (linux-pwm). */
		{ "Hello,\n\nOn Thu, Nov 17, 2022 at 06:58:12PM +0200, A wrote:"
		  "\n> quoted\n\nMy idea was that Thierry picks v2 from the "
		  "initial series, my intention wasn't to make you resend it "
		  "alone. Anyhow:\n\nAcked-by: U <u@example.com>\n",
		  0 },
		/* The sender's own plan once the patch is in, below a
		 * hunk (linux-hwmon 2022-12-14): it takes the patch as it
		 * is; with a request beside it, it asks. */
		{ ">  - OneXPlayer mini AMD PRO\n\nSince there is more "
		  "support now for this type of device I might be sending a "
		  "patch to change the name of the driver after this gets "
		  "merged.\n",
		  0 },
		{ "> +\tkfree(buf);\n\nThis frees buf twice, please fix "
		  "it: I will rebase my series once this is merged.\n",
		  2 },
		/* A problem named below a hunk, with no "please". */
		{ "> +\tkfree(buf);\n> +\treturn ret;\n\nThis frees buf twice "
		  "on the error path above.\n",
		  2 },
		/* An explanation that asks for nothing is a comment, not a
		 * request (linux-pwm 2022-11-24, Sam Shih); "please" is. */
		{ "Since the register does exist on MT7986, we should update "
		  "it where it exists.\n\nReviewed-by: S <s@example.com>\n",
		  1 },
		{ "Please update the register where it exists, even on "
		  "MT7986.\n\nReviewed-by: S <s@example.com>\n",
		  2 },
		/* "No concerns" approves (linux-integrity 2022-12-04,
		 * Jarkko Sakkinen on TPM IRQ fixes v11 13/14). */
		{ "> What about this patch, any concerns?\n\nNo concerns on "
		  "this one.\n\nBR, Jarkko\n",
		  0 },
		/* "OK for me" agrees (linux-pwm 2022-11-02, Biju Das). */
		{ "OK for me, as I do not know about your system.\n", 0 },
		/* "would be a nice thing" suggests (linux-pwm 2022-11-17,
		 * Uwe Kleine-König); "Nice catch" praises. */
		{ "I have no concerns. However converting that to yaml would "
		  "be a nice\nthing.\n",
		  1 },
		{ "Nice catch, thanks for fixing this.\n", 0 },
		/* A suggestion the sender's tag does not wait on
		 * (linux-hwmon 2022-11-29, Rasmus Villemoes on "rtc:
		 * isl12022: Explicitly use __le16 type"); a sentence that
		 * asks itself still asks (lore nvdimm 2021-06, "Either way,
		 * could you please move the actual check"). */
		{ "> -\ttemp = (temp_buf[1] << 8) | temp_buf[0];\n> +\ttemp = "
		  "le16_to_cpu(buf);\n\nMakes sense. Perhaps we should throw "
		  "in \"& 0x3ff\" just in case there\nwere ever any garbage "
		  "bits set in the temp_h register.\n\nWith or without that,"
		  "\n\nAcked-by: R V <r@example.com>\n",
		  1 },
		{ "> +\tif (cmd->flags & CMD_KERNEL)\n\nEither way, could you "
		  "please move the actual check to the validate helper.\n\n"
		  "Reviewed-by: A <a@example.com>\n",
		  2 },
		{ "Your code though, so if you prefer it like this, I don't "
		  "really care!\n\nFine either way with me.\nReviewed-by: J "
		  "<j@example.com>\n",
		  1 },
		/* Words in double quotes are cited, not asked for (lore
		 * nvdimm 2021-11-30, Darrick J. Wong on "dax: move the
		 * partition alignment check into fs_dax_get_by_bdev"). */
		{ "On Mon, Nov 29, 2021 at 11:21:40AM +0100, C H wrote:\n> "
		  "text\n\nMakes more sense than the old \"get the dax device "
		  "and /then/ check if\nit's ok to use it\" strategy.\n\n"
		  "Reviewed-by: D <d@example.com>\n",
		  1 },
		/* The reviewer's reading below a hunk, with an ack, asks
		 * nothing (lore nvdimm 2021-11-01, Bjorn Helgaas); one
		 * that names a problem does, and so does a question. */
		{ "On Thu, Oct 28, 2021 at 05:10:17PM +0200, C H wrote:\n"
		  "> -\tpercpu_ref_get(ref);\n\nI assume the change above "
		  "is safe because of the one below.\n\nAcked-by: B "
		  "<b@example.com>\n",
		  0 },
		{ "> -\tpercpu_ref_get(ref);\n\nI assume the change above "
		  "breaks the error path, which is wrong.\n",
		  2 },
		{ "> -\tpercpu_ref_get(ref);\n\nI assume the change above "
		  "is safe because of the one below?\n",
		  2 },
		{ "Please write \"uses\" here.\n", 2 },
		{ "Say \"use\" here, please.\n", 2 },
		/* A suggestion asked below a hunk and put to the maintainer
		 * by name asks the author nothing (linux-pwm 2022-12-02);
		 * a request that is no question still asks. */
		{ "On Mon, Nov 28, 2022 at 12:20:27PM +0100, A D R wrote:\n"
		  "> +\t\t#pwm-cells = <2>;\n\n3 should be possible, too. "
		  "The driver does only support one\npolarity, so it's not "
		  "really needed, but would be nice for consistency?\n\n"
		  "Thierry, what's your take here?\n\nOther than that: Who "
		  "would pick this up, I assume it to go via an ARM\ntree "
		  "together with the 2nd patch in this series?\n",
		  0 },
		{ "On Mon, Nov 28, 2022, A D R wrote:\n> +\tx = 2;\n\nWould "
		  "3 be nicer? Thierry, what's your take here?\n",
		  0 },
		{ "On Mon, Nov 28, 2022, A D R wrote:\n> +\tx = 2;\n\nWould "
		  "3 be nicer?\n\nThierry, what's your take here?\n",
		  0 },
		{ "On Mon, Nov 28, 2022, A D R wrote:\n> +\tx = 2;\n\nPlease "
		  "make this 3.\n\nThierry, what's your take here?\n",
		  2 },
		{ "On Mon, Nov 28, 2022, A D R wrote:\n> +\tx = 2;\n\n3 "
		  "should be possible, too?\n\n> +\ty = 3;\n\nThierry, "
		  "what's your take here?\n",
		  2 },
		{ "Thanks, as discussed on IRC:\nReported-by: E <e@example.com>"
		  "\n\n..and you can also add my\nReviewed-by: E "
		  "<e@example.com>\n",
		  0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(comments) / sizeof(comments[0]); i++) {
		unsigned got = pc_intent_scan(comments[i].body,
					      strlen(comments[i].body));

		print_message("%s", comments[i].body);
		/* 1: a comment; 2: one that asks the author (inline on the
		 * diff, or "please"). */
		assert_int_equal(!!(got & PC_INTENT_COMMENT) +
					 !!(got & PC_INTENT_REQUEST),
				 comments[i].comment);
	}
}

/* CRLF bodies and a body without a final newline read the same. */
static void test_intent__line_endings(void **state)
{
	(void)state;
	assert_int_equal(pc_intent_scan("Applied, thanks\r\n", 17), A);
	assert_int_equal(pc_intent_scan("NAK", 3), C);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intent__table),
		cmocka_unit_test(test_intent__comment),
		cmocka_unit_test(test_intent__line_endings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
