// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the reader of commands to patchclock (lib/patch/command.h): a
 * body from anyone on a list, read for "patchclock:" lines.
 */
#include <string.h>

#include "fuzz.h"
#include "patch/command.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data;
	struct pc_cmds c;
	size_t i;
	int present = pc_cmds_present(body, size);
	int only = pc_cmds_only(body, size);

	pc_cmds_scan(&c, body, size);
	FUZZ_CHECK(c.n <= PC_CMDS_MAX);
	/* A mail of commands only holds some; a scan finds what the cheap
	 * test saw (unless the signature or the cap came first). */
	FUZZ_CHECK(!only || present);
	FUZZ_CHECK(!c.n || present);
	for (i = 0; i < c.n; i++) {
		const struct pc_cmd *m = &c.v[i];

		FUZZ_CHECK(m->text && strlen(m->text) <= 200);
		FUZZ_CHECK(m->lineno >= 1);
		FUZZ_CHECK(m->verb != PC_CMD_UNKNOWN || m->error);
		FUZZ_CHECK(m->first <= m->last);
		FUZZ_CHECK(m->first >= 0 && m->last <= 255);
		FUZZ_CHECK(m->verb == PC_CMD_APPLIED || !m->tree);
		FUZZ_CHECK(!m->release || m->release[0] == 'v');
		FUZZ_CHECK(m->seconds >= 0);
		FUZZ_CHECK(pc_cmd_verb_name(m->verb)[0]);
	}
	pc_cmds_release(&c);
	return 0;
}
