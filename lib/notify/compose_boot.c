// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot-test report, in the series' thread (see compose.h).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "compose_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

int pc_compose_boot_report(struct pc_buf *out,
			   const struct pc_notify_boot_report *b,
			   struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE];
	struct pc_buf m = PC_BUF_INIT;
	const struct pc_notify_head *h = &b->head;
	char *reason = NULL;
	int rc;

	assert(out && b);
	if ((rc = pc_compose__head_check(h, PC_MAIL_BOOT_REPORT, msgid,
					 sizeof(msgid), err)) < 0 ||
	    (rc = pc_compose__reply_headers(&m, h, &b->reply, &b->series,
					    PC_MAIL_BOOT_REPORT, msgid, err)) <
		    0)
		goto out;
	pc_compose__greeting(&m, &b->series.author);
	pc_buf_addch(&m, '\n');
	pc_mail_para(
		&m, "", "",
		"patchclock applied v%d of this series to the kernel tree, built "
		"it (tinyconfig with the NVDIMM options) and booted it in QEMU "
		"with two emulated NVDIMMs.",
		b->series.version);
	pc_buf_addch(&m, '\n');
	if (b->passed) {
		pc_mail_para(&m, "", "", "The boot test passed.");
	} else {
		reason = pc_mail_clean_dup(b->reason, PC_COMPOSE_REASON_MAX);
		pc_mail_para(&m, "", "", "The boot test failed: %s",
			     *reason ? reason : "see the checks below.");
	}
	if (b->summary && *b->summary) {
		const char *p = b->summary;
		int n = 0;

		/* Each line cleaned like any text from outside (it quotes
		 * the guest's output), at most 40 of them. */
		pc_buf_addstr(&m, "\nChecks:\n");
		while (*p && n++ < 40) {
			size_t l = strcspn(p, "\n");
			char *line = xmemdupz(p, l);

			pc_buf_addstr(&m, "  ");
			pc_mail_clean(&m, line, 200);
			pc_buf_addch(&m, '\n');
			free(line);
			p += l + (p[l] == '\n');
		}
	}
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, pc_compose__signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	free(reason);
	pc_buf_release(&m);
	return rc;
}
