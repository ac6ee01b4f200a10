// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gen_mbox: writes an mboxrd of N messages built from a real source, for
 * the ingest benchmark. The source is read again and again; in copy k,
 * every id in Message-ID, In-Reply-To and References gets the prefix
 * "bK." so that each copy is new mail with its threads intact, and an
 * "X-Bench-Copy: K" header makes mail without a Message-ID new as well.
 * The years in copy k's Date: headers move K-1 years on, so the copies
 * follow each other like a multi-year archive instead of all claiming
 * the same days.
 *
 * usage: gen_mbox [-a] SOURCE COUNT [FIRST] > out.mbox
 * -a: copy k's senders are new people too (From: a+bK@b), and its
 * subjects new titles (" bK" at the end), so that its
 * series are not new versions of the copies before it: every copy adds
 * open series, as a larger list with more contributors would; its dates
 * move (K-1) mod 5 years on, so they stay within 2021-2026.
 * FIRST skips that many messages of the sequence: gen_mbox S 200 100 is
 * messages 100..299 of what gen_mbox S 300 writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/source.h"
#include "util/buf.h"
#include "util/util.h"

/* Writes a Date: line with every year (a 4-digit 1970..2099) moved on. */
static void shift_years(struct pc_buf *out, const char *p, size_t l,
			unsigned long k)
{
	size_t i = 0;

	while (i < l) {
		if (i + 4 <= l && pc_isdigit((unsigned char)p[i]) &&
		    pc_isdigit((unsigned char)p[i + 1]) &&
		    pc_isdigit((unsigned char)p[i + 2]) &&
		    pc_isdigit((unsigned char)p[i + 3]) &&
		    (i == 0 || !pc_isdigit((unsigned char)p[i - 1])) &&
		    (i + 4 == l || !pc_isdigit((unsigned char)p[i + 4]))) {
			int y = (p[i] - '0') * 1000 + (p[i + 1] - '0') * 100 +
				(p[i + 2] - '0') * 10 + (p[i + 3] - '0');

			if (y >= 1970 && y <= 2099) {
				pc_buf_addf(out, "%04lu",
					    (unsigned long)y + k - 1);
				i += 4;
				continue;
			}
		}
		pc_buf_addch(out, p[i++]);
	}
}

/* From:'s address, "a@b" written "a+bK@b" in copy k (with -a). */
static void distinct_author(struct pc_buf *out, const char *p, size_t l,
			    unsigned long k)
{
	const char *at = memchr(p, '@', l);

	if (!at) {
		pc_buf_add(out, p, l);
		return;
	}
	pc_buf_add(out, p, (size_t)(at - p));
	pc_buf_addf(out, "+b%lu", k);
	pc_buf_add(out, at, l - (size_t)(at - p));
}

static int is_id_header(const char *p, size_t len)
{
	return pc_mem_istarts(p, len, "message-id:") ||
	       pc_mem_istarts(p, len, "in-reply-to:") ||
	       pc_mem_istarts(p, len, "references:");
}

/* Rewrites one message's id headers for copy k and writes it as mboxrd. */
static void emit(struct pc_buf *out, const char *p, size_t len, unsigned long k,
		 int authors)
{
	const char *end = p + len;
	int in_header = 1, in_id = 0;

	pc_buf_reset(out);
	pc_buf_addstr(out, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
	pc_buf_addf(out, "X-Bench-Copy: %lu\n", k);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t i, q = 0;

		if (in_header && l == 0)
			in_header = 0;
		if (in_header && l && p[0] != ' ' && p[0] != '\t')
			in_id = is_id_header(p, l);
		if (in_header && k > 1 && pc_mem_istarts(p, l, "date:")) {
			/* With -a, five years over and over: more people
			 * on the same days, not mail from the next century
			 * (which no release cycle reaches). */
			shift_years(out, p, l, authors ? (k - 1) % 5 + 1 : k);
		} else if (in_header && authors && k > 1 &&
			   pc_mem_istarts(p, l, "from:")) {
			distinct_author(out, p, l, k);
		} else if (in_header && authors && k > 1 &&
			   pc_mem_istarts(p, l, "subject:")) {
			/* New titles too: a real archive repeats a title a
			 * few times, not once per copy. */
			pc_buf_add(out, p, l);
			pc_buf_addf(out, " b%lu", k);
		} else if (in_header && in_id) {
			for (i = 0; i < l; i++) {
				pc_buf_addch(out, p[i]);
				if (p[i] == '<')
					pc_buf_addf(out, "b%lu.", k);
			}
		} else {
			/* mboxrd: one more '>' before any ">*From ". */
			while (q < l && p[q] == '>')
				q++;
			if (pc_mem_starts(p + q, l - q, "From "))
				pc_buf_addch(out, '>');
			pc_buf_add(out, p, l);
		}
		pc_buf_addch(out, '\n');
		p = nl ? nl + 1 : end;
	}
	pc_buf_addch(out, '\n');
	fwrite(out->buf, 1, out->len, stdout);
}

int main(int argc, char **argv)
{
	struct pc_buf out = PC_BUF_INIT;
	unsigned long want, done = 0, k, first = 0, seen = 0;
	struct pc_err err = { 0 };
	int authors = 0;

	if (argc > 1 && !strcmp(argv[1], "-a")) {
		authors = 1;
		argc--;
		argv++;
	}
	if ((argc != 3 && argc != 4) || !(want = strtoul(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: gen_mbox [-a] SOURCE COUNT [FIRST] > "
				"out.mbox\n");
		return 64;
	}
	/* FIRST: start at that message of the endless sequence, so that
	 * the segments of one large archive are made one at a time. */
	if (argc == 4)
		first = strtoul(argv[3], NULL, 10);
	for (k = 1; done < want; k++) {
		struct pc_source *src;
		struct pc_source_msg msg;
		unsigned long before = done;
		int rc;

		if (pc_source_open(&src, argv[1], NULL, &err) < 0) {
			fprintf(stderr, "gen_mbox: %s\n", err.msg);
			return 1;
		}
		while (done < want &&
		       (rc = pc_source_next(src, &msg, &err)) != 0) {
			if (rc < 0)
				continue;
			if (seen++ < first)
				continue;
			emit(&out, msg.data, msg.len, k, authors);
			done++;
		}
		pc_source_free(src);
		if (done == before && !seen) {
			fprintf(stderr, "gen_mbox: no messages in '%s'\n",
				argv[1]);
			return 1;
		}
	}
	pc_buf_release(&out);
	return 0;
}
