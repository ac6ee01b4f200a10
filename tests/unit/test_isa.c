// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/patch/isa.c: whether a posting says the
 * specification it implements is a draft. The sentences are real: the
 * traps from a Linux dt-bindings thread (Conor Dooley, "[PATCH v3]
 * dt-bindings: riscv: deprecate riscv,isa", June 2023), the drafts from
 * the commit messages that added unratified RISC-V extensions to LLVM
 * (D133239, rGdd1ee6dc076).
 */
#include <string.h>

#include "testutil.h"
#include "patch/isa.h"

static int draft(const char *s)
{
	return pc_isa_draft(s, strlen(s));
}

static void test_isa__drafts(void **state)
{
	(void)state;
	assert_true(draft(
		"This is a minimalist implementation which simply adds the\n"
		"extension (in the experimental namespace since its not "
		"ratified),\nand wires up the setting of the required ELF "
		"header flag.\n"));
	assert_true(draft(
		"This is intended to implement v0.1 of the proposed "
		"specification\nwhich can be found in Chapter 25 of https://"
		"github.com/riscv/riscv-isa-manual/releases/download/"
		"draft-20220723-10eea63/riscv-spec.pdf.\n"));
	assert_true(draft("The bitmanip 'b' extension has been added as a "
			  "first use of this support,\nit should easily "
			  "extend to other as yet unratified extensions.\n"));
	/* A title says it too. */
	assert_true(draft("riscv: Add support for the draft Zjpm extension"));
}

static void test_isa__not_drafts(void **state)
{
	(void)state;
	/* The past, and a mention of what might be. */
	assert_false(draft(
		"When the RISC-V dt-bindings were accepted upstream in Linux, "
		"the base\nISA etc had yet to be ratified. By the "
		"ratification of the base ISA,\nincompatible changes had "
		"snuck into the specifications - for example the\nZicsr and "
		"Zifencei extensions were spun out of the base ISA.\n"));
	assert_false(draft("Future systems may choose to implement their "
			   "own instruction fencing,\nperhaps using a vendor "
			   "extension, or they may not implement the "
			   "optional\ncounter extensions.\n"));
	/* Settled now; a draft of something else; quoted words; the diff. */
	assert_false(draft("The Zicbom extension was a draft when v1 was "
			   "posted; it has been ratified since.\n"));
	assert_false(draft("Drafted with help from the datasheet.\n"));
	assert_false(draft("> based on the draft spec v0.4\n\nNo, it is "
			   "not.\n"));
	assert_false(draft("Add Zicboz.\n\nSigned-off-by: A <a@b.c>\n---\n"
			   "+/* draft spec v0.4 */\n"));
	assert_false(draft("") || pc_isa_draft(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa__drafts),
		cmocka_unit_test(test_isa__not_drafts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
