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
	int lead; /* a 0xc2 byte held back: it may start a C1 control */
};

static void put(struct filter *f, unsigned char c)
{
	if (f->lead) {
		f->lead = 0;
		if (c >= 0x80 && c <= 0x9f) {
			fprintf(f->out, "\\u%04x", c);
			return;
		}
		fputc(0xc2, f->out);
	}
	if (c == 0xc2) {
		f->lead = 1;
	} else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
		fprintf(f->out, "\\x%02x", c);
	} else {
		fputc(c, f->out);
	}
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

	if (f->lead)
		fputc(0xc2, f->out);
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
	struct filter f = { out, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		put(&f, (unsigned char)p[i]);
	if (f.lead)
		fputc(0xc2, out);
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
