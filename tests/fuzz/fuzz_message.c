// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the message parser (lib/mail/message.h): the input is one raw
 * mail. The harness parses it, then its To and Cc twice (the call is
 * idempotent), and reads the input as a From-style value the way
 * `git mailinfo` does. Everything is freed, so LeakSanitizer counts what
 * the parser loses.
 */
#include <string.h>

#include "fuzz.h"
#include "mail/message.h"

static void check_addr(const struct pc_addr *a)
{
	FUZZ_CHECK(a->name && a->addr);
}

static void check_msg(const struct pc_msg *m)
{
	size_t i;

	FUZZ_CHECK(m->msgid && m->msgid[0]);
	FUZZ_CHECK(m->subject && !strchr(m->subject, '\n'));
	FUZZ_CHECK(m->patch_subject);
	FUZZ_CHECK(m->nrefs <= PC_MSG_MAX_REFS);
	for (i = 0; i < m->nrefs; i++)
		FUZZ_CHECK(m->refs[i]);
	check_addr(&m->from);
	check_addr(&m->author);
	FUZZ_CHECK(m->body.buf && m->body.buf[m->body.len] == '\0');
	for (i = 0; i < m->natt; i++) {
		FUZZ_CHECK(m->att[i].filename && m->att[i].content_type);
		FUZZ_CHECK(m->att[i].text.buf[m->att[i].text.len] == '\0');
	}
	for (i = 0; i < m->nto; i++)
		check_addr(&m->to[i]);
	for (i = 0; i < m->ncc; i++)
		check_addr(&m->cc[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *raw = (const char *)data;
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;
	struct pc_addr a;
	size_t nto, ncc;

	if (pc_msg_parse(&m, raw, size, &err) == 0) {
		check_msg(m);
		pc_msg_parse_recipients(m);
		nto = m->nto;
		ncc = m->ncc;
		pc_msg_parse_recipients(m);
		FUZZ_CHECK(m->nto == nto && m->ncc == ncc);
		check_msg(m);
		pc_msg_free(m);
	} else {
		FUZZ_CHECK(err.code < 0 && err.msg[0]);
	}

	pc_addr_parse_git(&a, raw, size);
	check_addr(&a);
	pc_addr_release(&a);
	return 0;
}
