// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers shared by the unit and corpus tests (see testutil.h). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"
#include "util/xalloc.h"

void t_read_file(struct pc_buf *out, const char *path)
{
	gzFile f = gzopen(path, "rb");
	char chunk[65536];
	int n;

	if (!f)
		fail_msg("cannot open '%s'", path);
	while ((n = gzread(f, chunk, sizeof(chunk))) > 0)
		pc_buf_add(out, chunk, (size_t)n);
	if (n < 0)
		fail_msg("cannot read '%s'", path);
	gzclose(f);
}

const char *t_shared(const char *rel)
{
	static char path[4096];

	if (snprintf(path, sizeof(path), "%s/%s", PC_SHARED_DIR, rel) >=
	    (int)sizeof(path))
		fail_msg("path too long");
	return path;
}

char *t_mkdtemp(void)
{
	const char *tmp = getenv("TMPDIR");
	char *d = xasprintf("%s/patchclock-test.XXXXXX", tmp ? tmp : "/tmp");

	if (!mkdtemp(d))
		fail_msg("mkdtemp failed");
	return d;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void t_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
