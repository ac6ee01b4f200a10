// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one answer to a sender whose commands were not understood (see compose.h).
 */
#include <assert.h>
#include <string.h>

#include "compose.h"
#include "compose_internal.h"
#include "patch/command.h"
#include "util/banned.h"

int pc_compose_command_help(struct pc_buf *out,
			    const struct pc_notify_command_help *c,
			    struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE], q[80];
	struct pc_buf m = PC_BUF_INIT, v = PC_BUF_INIT;
	const struct pc_notify_head *h = &c->head;
	struct pc_notify_series s = { 0 };
	const struct pc_notify_addr *one;
	const char *id, *p;
	size_t idlen, i;
	int rc;

	assert(out && c);
	if ((rc = pc_compose__head_check(h, PC_MAIL_COMMAND_HELP, msgid,
					 sizeof(msgid), err)) < 0)
		goto out;
	if (!pc_mail_addr_ok(c->to.addr)) {
		pc_compose__err_quote(q, sizeof(q), c->to.addr);
		rc = pc_err_set(err, PC_EPARSE,
				"cannot write to '%s': not a plain ascii "
				"address",
				q);
		goto out;
	}
	if ((rc = pc_mail_msgid_check(&id, &idlen, c->msgid)) < 0) {
		pc_compose__err_quote(q, sizeof(q), c->msgid);
		rc = pc_err_set(err, rc, "cannot reply to message-id '%s'", q);
		goto out;
	}
	one = &h->from;
	pc_mail_header_mailboxes(&m, "From", &one, 1);
	one = &c->to;
	pc_mail_header_mailboxes(&m, "To", &one, 1);
	pc_compose__subject_header(&m, c->subject ? c->subject : "");
	pc_compose__headers_id(&m, h, msgid);
	pc_buf_addf(&v, "<%.*s>", (int)idlen, id);
	pc_mail_header(&m, "In-Reply-To", v.buf);
	s.refs = c->refs;
	s.nrefs = c->nrefs;
	pc_compose__references_header(&m, &s, id, idlen);
	pc_compose__headers_tail(&m, NULL, PC_MAIL_COMMAND_HELP);

	pc_compose__greeting(&m, &c->to);
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "", "patchclock did not act on %s of your mail:",
		     c->nlines == 1 ? "this line" : "these lines");
	pc_buf_addch(&m, '\n');
	for (i = 0; i < c->nlines && i < 16; i++) {
		pc_buf_addstr(&m, "  patchclock: ");
		pc_mail_clean(&m, c->lines[i], 200);
		pc_buf_addstr(&m, "\n    (");
		pc_mail_clean(&m, c->whys[i], 200);
		pc_buf_addstr(&m, ")\n");
	}
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "",
		     "It reads one command per line, in a reply in a series' "
		     "thread or to one of its own mails. Commands about a "
		     "series count from the maintainers and reviewers (M: and "
		     "R:) of its MAINTAINERS entry; opt-out and opt-in act on "
		     "your own address.");
	pc_buf_addch(&m, '\n');
	for (p = pc_cmd_usage; *p;) {
		size_t l = strcspn(p, "\n");

		pc_buf_addstr(&m, "  ");
		pc_buf_add(&m, p, l);
		pc_buf_addch(&m, '\n');
		p += l + (p[l] == '\n');
	}
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "", "patchclock says this to you only once.");
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, pc_compose__signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	pc_buf_release(&v);
	pc_buf_release(&m);
	return rc;
}
