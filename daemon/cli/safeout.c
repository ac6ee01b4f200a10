// SPDX-License-Identifier: GPL-2.0-or-later
/* Control characters escaped on the way to stdout. See safeout.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/safeout.h"
#include "util/banned.h"

struct filter {
	FILE *out; /* the real stdout */
	/* bytes held back: 0xc2 may start a C1 control, 0xe2 0x80/0x81 and
	 * 0xd8 a bidi control */
	unsigned char held[2];
	int nheld;
};

static void put(struct filter *f, unsigned char c);

/* Writes what was held back as it was, then c afresh. */
static void release(struct filter *f, unsigned char c)
{
	int i, n = f->nheld;

	f->nheld = 0;
	for (i = 0; i < n; i++)
		fputc(f->held[i], f->out);
	put(f, c);
}

/* Whether U+cp is a Unicode bidi control: LRM, RLM, ALM, the embeddings
 * and overrides U+202A..U+202E, the isolates U+2066..U+2069. A Subject
 * with U+202E reverses the rest of the terminal line. */
static int is_bidi(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static void put(struct filter *f, unsigned char c)
{
	if (f->nheld) {
		unsigned char h = f->held[0];
		int cont = c >= 0x80 && c <= 0xbf;

		if (h == 0xc2 && c >= 0x80 && c <= 0x9f) {
			f->nheld = 0;
			fprintf(f->out, "\\u%04x", c);
		} else if (h == 0xd8 && c == 0x9c) {
			f->nheld = 0;
			fprintf(f->out, "\\u061c");
		} else if (h == 0xe2 && f->nheld == 1 &&
			   (c == 0x80 || c == 0x81)) {
			f->held[f->nheld++] = c;
		} else if (h == 0xe2 && f->nheld == 2 && cont) {
			unsigned cp = 0x2000u |
				      (unsigned)(f->held[1] & 0x3f) << 6 |
				      (c & 0x3fu);

			f->nheld = 0;
			if (is_bidi(cp))
				fprintf(f->out, "\\u%04x", cp);
			else
				fprintf(f->out, "%c%c%c", 0xe2, f->held[1], c);
		} else {
			release(f, c);
		}
		return;
	}
	if (c == 0xc2 || c == 0xe2 || c == 0xd8) {
		f->held[f->nheld++] = c;
	} else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
		fprintf(f->out, "\\x%02x", c);
	} else {
		fputc(c, f->out);
	}
}

/* Writes what is still held back, at the end of the output. */
static void flush_held(struct filter *f)
{
	int i;

	for (i = 0; i < f->nheld; i++)
		fputc(f->held[i], f->out);
	f->nheld = 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t n)
{
	struct filter *f = cookie;
	size_t i;

	for (i = 0; i < n; i++)
		put(f, (unsigned char)buf[i]);
	return (ssize_t)n;
}

static int filter_close(void *cookie)
{
	struct filter *f = cookie;
	int rc;

	flush_held(f);
	rc = fflush(f->out);
	free(f);
	return rc;
}

/* The real stdout while the filter stands in for it: the program's one
 * stdout, so one variable. */
static FILE *real_stdout;

/* At exit: flushes the filter into the real stdout and frees it, before
 * stdio's own flush. */
static void safeout_end(void)
{
	FILE *fp = stdout;

	if (!real_stdout)
		return;
	stdout = real_stdout;
	real_stdout = NULL;
	fclose(fp);
}

void safeout_write(FILE *out, const char *p, size_t n)
{
	struct filter f = { out, { 0, 0 }, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		put(&f, (unsigned char)p[i]);
	flush_held(&f);
}

void safeout_raw(const char *s)
{
	if (real_stdout) {
		fflush(stdout);
		fputs(s, real_stdout);
	} else {
		fputs(s, stdout);
	}
}

int safeout_install(void)
{
	cookie_io_functions_t io = { NULL, filter_write, NULL, filter_close };
	struct filter *f = calloc(1, sizeof(*f));
	FILE *fp;

	if (!f)
		return -1;
	f->out = stdout;
	if (!(fp = fopencookie(f, "w", io))) {
		free(f);
		return -1;
	}
	setvbuf(fp, NULL, _IOFBF, 1 << 16);
	real_stdout = stdout;
	stdout = fp;
	atexit(safeout_end);
	return 0;
}
