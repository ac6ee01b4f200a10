// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maint_bench: what lib/maint costs on a real kernel tree, and the same
 * queries through scripts/get_maintainer.pl for the ratio.
 *
 *  - load: MAINTAINERS + .mailmap read, parsed and indexed (median and
 *    minimum of --loads runs);
 *  - map path: one path to its entries (F:/X:/N:, the index), over every
 *    file git tracks in the tree;
 *  - map -f: the same with get_maintainer.pl -f's work (K: against the
 *    file's content, addresses of .yaml files) and the output lines;
 *  - map patch: the patches of a mailbox (K: on their lines, the lines);
 *  - get_maintainer.pl -f and on patches, a sample run one at a time.
 *
 * usage: maint_bench [--tree DIR] [--mbox FILE] [--loads N] [--perl N]
 *                    [--load-only]
 * The tree defaults to $PC_KERNEL_TREE; exits 77 without one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "maint/maintainers.h"
#include "mail/source.h"
#include "patch/diff.h"
#include "util/buf.h"
#include "util/xalloc.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct list {
	char **v;
	size_t *len;
	size_t n, alloc, alloc_len;
};

static void push_len(struct list *l, char *s, size_t len)
{
	PC_ALLOC_GROW(l->v, l->n + 1, l->alloc);
	PC_ALLOC_GROW(l->len, l->n + 1, l->alloc_len);
	l->len[l->n] = len;
	l->v[l->n++] = s;
}

static void push(struct list *l, char *s)
{
	push_len(l, s, strlen(s));
}

static void tree_files(struct list *out, const char *tree)
{
	char *cmd = xasprintf("git -C '%s' ls-files -z", tree);
	FILE *f = popen(cmd, "r");
	struct pc_buf b = PC_BUF_INIT;
	char chunk[65536];
	size_t n;
	char *p;

	if (!f) {
		fprintf(stderr, "cannot run git ls-files\n");
		exit(1);
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		pc_buf_add(&b, chunk, n);
	pclose(f);
	for (p = b.buf; p < b.buf + b.len; p += strlen(p) + 1)
		push(out, xstrdup(p));
	pc_buf_release(&b);
	free(cmd);
}

/* Runs get_maintainer.pl on one input in the tree; its wall time. */
static double perl_once(const char *tree, const char *arg, int file_mode)
{
	double t;
	pid_t pid;
	int status;

	fflush(stdout);
	t = now();
	pid = fork();
	if (pid == 0) {
		FILE *null = freopen("/dev/null", "w", stdout);

		(void)null;
		if (!freopen("/dev/null", "w", stderr) || chdir(tree) < 0)
			_exit(126);
		if (file_mode)
			execlp("perl", "perl", "scripts/get_maintainer.pl",
			       "--no-git", "--no-git-fallback",
			       "--no-rolestats", "-f", arg, (char *)NULL);
		else
			execlp("perl", "perl", "scripts/get_maintainer.pl",
			       "--no-git", "--no-git-fallback",
			       "--no-rolestats", arg, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "get_maintainer.pl failed on '%s'\n", arg);
		exit(1);
	}
	return now() - t;
}

static size_t lines_of(const struct pc_maint *m,
		       const struct pc_maint_result *r)
{
	struct pc_maint_lines l = PC_MAINT_LINES_INIT;
	size_t n;

	pc_maint_lines(&l, m, r);
	n = l.n;
	pc_maint_lines_release(&l);
	return n;
}

int main(int argc, char **argv)
{
	const char *tree = getenv("PC_KERNEL_TREE"), *mbox = NULL;
	size_t loads = 30, nperl = 40, i, j, hits = 0, nl = 0;
	struct list files = { 0 }, patches = { 0 };
	struct pc_err err = { 0 };
	struct pc_maint *m;
	double *lt, t, path_s, full_s, patch_s = 0, perl_f = 0, perl_p = 0;
	size_t patch_bytes = 0;
	char *tmp = NULL;
	int load_only = 0;

	for (i = 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "--loads") && i + 1 < (size_t)argc)
			loads = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--perl") && i + 1 < (size_t)argc)
			nperl = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--load-only"))
			load_only = 1;
		else if (!strcmp(argv[i], "--tree") && i + 1 < (size_t)argc)
			tree = argv[++i];
		else if (!strcmp(argv[i], "--mbox") && i + 1 < (size_t)argc)
			mbox = argv[++i];
		else {
			fprintf(stderr, "usage: maint_bench [--tree DIR] "
					"[--mbox FILE] [--loads N] [--perl N] "
					"[--load-only]\n");
			return 64;
		}
	}
	if (!tree || !*tree) {
		fprintf(stderr, "maint_bench: no tree ($PC_KERNEL_TREE)\n");
		return 77;
	}
	if (!loads)
		loads = 1;

	/* Load and index. */
	lt = xcalloc(loads, sizeof(*lt));
	for (i = 0; i < loads; i++) {
		t = now();
		if (pc_maint_load(&m, tree, &err) < 0) {
			fprintf(stderr, "maint_bench: %s\n", err.msg);
			return 1;
		}
		lt[i] = now() - t;
		pc_maint_free(m);
	}
	qsort(lt, loads, sizeof(*lt), cmp_double);
	printf("load+index MAINTAINERS: median %.2f ms, min %.2f ms "
	       "(%zu runs)\n",
	       1e3 * lt[loads / 2], 1e3 * lt[0], loads);
	if (pc_maint_load(&m, tree, &err) < 0)
		return 1;
	printf("  %zu entries\n", pc_maint_count(m));
	if (load_only) {
		pc_maint_free(m);
		free(lt);
		return 0;
	}

	/* Every path of the tree. */
	tree_files(&files, tree);
	t = now();
	for (i = 0; i < files.n; i++) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;

		pc_maint_map_file(&r, m, files.v[i], 0, &err);
		hits += r.n_hits;
		pc_maint_result_release(&r);
	}
	path_s = now() - t;
	printf("map one path (F:/X:/N:): %.2f us/file over %zu files "
	       "(%.1f entries each)\n",
	       1e6 * path_s / (double)files.n, files.n,
	       (double)hits / (double)files.n);

	/* The same with -f's reading of the file and the output lines, on
	 * every 20th file (the page cache warm from the first pass). */
	t = now();
	for (i = j = 0; i < files.n; i += 20, j++) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;

		if (pc_maint_map_file(&r, m, files.v[i], PC_MAINT_DEFAULT,
				      &err) < 0) {
			fprintf(stderr, "maint_bench: %s\n", err.msg);
			return 1;
		}
		nl += lines_of(m, &r);
		pc_maint_result_release(&r);
	}
	full_s = now() - t;
	printf("map -f (K: on the file, .yaml addresses) + lines: %.2f "
	       "us/file over %zu files (%.1f lines each)\n",
	       1e6 * full_s / (double)j, j, (double)nl / (double)j);

	/* Patches. */
	if (mbox) {
		struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
		struct pc_source *src;
		struct pc_source_msg msg;
		int rc;

		if (pc_source_open(&src, mbox, &opt, &err) < 0) {
			fprintf(stderr, "maint_bench: %s\n", err.msg);
			return 1;
		}
		while ((rc = pc_source_next(src, &msg, &err)) == 1)
			if (pc_diff_present(msg.data, msg.len))
				push_len(&patches, xmemdupz(msg.data, msg.len),
					 msg.len);
		pc_source_free(src);
		t = now();
		for (i = 0; i < patches.n; i++) {
			struct pc_maint_result r = PC_MAINT_RESULT_INIT;
			size_t len = patches.len[i];

			pc_maint_map_patch(&r, m, patches.v[i], len,
					   PC_MAINT_DEFAULT, &err);
			lines_of(m, &r);
			patch_bytes += len;
			pc_maint_result_release(&r);
		}
		patch_s = now() - t;
		printf("map patch + lines: %.1f us/patch over %zu patches "
		       "(%.0f bytes each)\n",
		       1e6 * patch_s / (double)patches.n, patches.n,
		       (double)patch_bytes / (double)patches.n);
	}

	/* get_maintainer.pl on a sample of the same queries. */
	if (nperl) {
		size_t step = files.n / nperl ? files.n / nperl : 1, np = 0;

		for (i = 0; i < files.n && np < nperl; i += step, np++)
			perl_f += perl_once(tree, files.v[i], 1);
		perl_f /= (double)np;
		printf("get_maintainer.pl -f: %.1f ms/file (%zu runs)\n",
		       1e3 * perl_f, np);
		printf("  ratio: %.0fx the path mapping, %.0fx the -f "
		       "mapping, %.0fx a load + -f mapping (one CLI call)\n",
		       perl_f / (path_s / (double)files.n),
		       perl_f / (full_s / (double)j),
		       perl_f / (lt[loads / 2] + full_s / (double)j));
	}
	if (nperl && patches.n) {
		size_t step = patches.n / nperl ? patches.n / nperl : 1, np = 0;
		char *path;

		tmp = xasprintf("%s/maint_bench.XXXXXX",
				getenv("TMPDIR") && *getenv("TMPDIR") ?
					getenv("TMPDIR") :
					"/tmp");
		if (!mkdtemp(tmp))
			return 1;
		path = xasprintf("%s/p.eml", tmp);
		for (i = 0; i < patches.n && np < nperl; i += step, np++) {
			FILE *f = fopen(path, "wb");

			fwrite(patches.v[i], 1, patches.len[i], f);
			fclose(f);
			perl_p += perl_once(tree, path, 0);
		}
		perl_p /= (double)np;
		printf("get_maintainer.pl on a patch: %.1f ms/patch (%zu runs)\n",
		       1e3 * perl_p, np);
		printf("  ratio: %.0fx the patch mapping, %.0fx a load + "
		       "patch mapping\n",
		       perl_p / (patch_s / (double)patches.n),
		       perl_p / (lt[loads / 2] + patch_s / (double)patches.n));
		unlink(path);
		rmdir(tmp);
		free(path);
		free(tmp);
	}
	for (i = 0; i < files.n; i++)
		free(files.v[i]);
	for (i = 0; i < patches.n; i++)
		free(patches.v[i]);
	free(files.v);
	free(files.len);
	free(patches.v);
	free(patches.len);
	free(lt);
	pc_maint_free(m);
	return 0;
}
