// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maint_bench: what lib/maint costs on a real kernel tree, and the same
 * queries through scripts/get_maintainer.pl for the ratio.
 *
 *  - load: MAINTAINERS + .mailmap read, parsed, indexed and laid out as
 *    an image (median and minimum of --loads runs);
 *  - with --cache DIR: the same through the image cache, the first load
 *    (which writes it) and the following ones (which map it);
 *  - map path: one path to its entries (F:/X:/N:, the index), over every
 *    file git tracks in the tree;
 *  - map -f: the same with get_maintainer.pl -f's work (K: against the
 *    file's content, addresses of .yaml files) and the output lines;
 *  - map patch: the patches of a mailbox (K: on their lines, the lines),
 *    per patch and per file it touches; and the first patch mapped after
 *    a fresh load from the cache, as each `patchclock who` does;
 *  - with --scale: MAINTAINERS 1, 2 and 4 times over (the copies' F:/X:
 *    paths under copyN/, their entries renamed): load, cached load,
 *    image size and per-file mapping, to show how they grow;
 *  - get_maintainer.pl -f and on patches, a sample run one at a time.
 *
 * usage: maint_bench [--tree DIR] [--mbox FILE] [--loads N] [--perl N]
 *                    [--cache DIR] [--scale] [--load-only]
 * The tree defaults to $PC_KERNEL_TREE; exits 77 without one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "maint/maint_internal.h"
#include "maint/maintainers.h"
#include "mail/source.h"
#include "patch/diff.h"
#include "util/buf.h"
#include "util/file.h"
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

/* Sorts v; returns its median, *min its least. */
static double median(double *v, size_t n, double *min)
{
	qsort(v, n, sizeof(*v), cmp_double);
	if (min)
		*min = v[0];
	return v[n / 2];
}

/* The paths a result maps: a new file's "dev/null" is none. */
static size_t files_of(const struct pc_maint_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n_files; i++)
		n += strcmp(r->files[i], "dev/null") != 0;
	return n;
}

/* Maps every patch (and makes its lines): seconds; *nfiles the paths. */
static double map_patches(const struct pc_maint *m, const struct list *p,
			  size_t *nfiles)
{
	struct pc_err err = { 0 };
	double t = now();
	size_t i;

	*nfiles = 0;
	for (i = 0; i < p->n; i++) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;

		pc_maint_map_patch(&r, m, p->v[i], p->len[i], PC_MAINT_DEFAULT,
				   &err);
		lines_of(m, &r);
		*nfiles += files_of(&r);
		pc_maint_result_release(&r);
	}
	return now() - t;
}

/* Loads through the cache in dir: the first load, then n more. */
static void bench_cache(const char *tree, const char *dir, size_t n)
{
	struct pc_err err = { 0 };
	struct pc_maint *m;
	double first, *lt = xcalloc(n, sizeof(*lt)), min, med, t;
	size_t i, len;
	int how;

	t = now();
	if (pc_maint_load_cached(&m, tree, dir, &err) < 0) {
		fprintf(stderr, "maint_bench: %s\n", err.msg);
		exit(1);
	}
	first = now() - t;
	how = pc_maint_cache(m);
	pc_maint_free(m);
	for (i = 0; i < n; i++) {
		t = now();
		if (pc_maint_load_cached(&m, tree, dir, &err) < 0)
			exit(1);
		lt[i] = now() - t;
		len = m->img_len;
		if (pc_maint_cache(m) != PC_MAINT_CACHE_HIT) {
			fprintf(stderr,
				"maint_bench: the cache in '%s' is "
				"not used\n",
				dir);
			exit(1);
		}
		pc_maint_free(m);
	}
	med = median(lt, n, &min);
	printf("load from the cache: median %.3f ms, min %.3f ms (%zu "
	       "runs; a %.1f MB image); the first load %.2f ms (%s)\n",
	       1e3 * med, 1e3 * min, n, (double)len / 1e6, 1e3 * first,
	       how == PC_MAINT_CACHE_HIT     ? "it was there" :
	       how == PC_MAINT_CACHE_WRITTEN ? "writing it" :
					       "it could not be written");
	free(lt);
}

/* The first patch mapped after a fresh load from the cache, for every
 * step-th patch: what one `patchclock who` pays. */
static void bench_cold(const char *tree, const char *dir, const struct list *p,
		       size_t step)
{
	struct pc_err err = { 0 };
	double t, total = 0;
	size_t i, n = 0, nf = 0;

	for (i = 0; i < p->n; i += step) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;
		struct pc_maint *m;

		if (pc_maint_load_cached(&m, tree, dir, &err) < 0)
			exit(1);
		t = now();
		pc_maint_map_patch(&r, m, p->v[i], p->len[i], PC_MAINT_DEFAULT,
				   &err);
		lines_of(m, &r);
		total += now() - t;
		nf += files_of(&r);
		n++;
		pc_maint_result_release(&r);
		pc_maint_free(m);
	}
	printf("  the first patch after a load from the cache: %.1f us/patch, "
	       "%.1f us/file (%zu patches)\n",
	       1e6 * total / (double)n, 1e6 * total / (double)nf, n);
}

/* The body of MAINTAINERS as copy c: names and F:/X: paths made new. */
static void add_copy(struct pc_buf *out, const char *body, unsigned c)
{
	const char *p = body;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n >= 2 && (p[0] == 'F' || p[0] == 'X') && p[1] == ':') {
			size_t v = 2;

			while (v < n && (p[v] == ' ' || p[v] == '\t'))
				v++;
			pc_buf_addf(out, "%c:\tcopy%u/%.*s\n", p[0], c,
				    (int)(n - v), p + v);
		} else if (n &&
			   !(n >= 2 && p[0] >= 'A' && p[0] <= 'Z' &&
			     p[1] == ':') &&
			   p[0] != ' ' && p[0] != '\t' && p[0] != '#') {
			pc_buf_addf(out, "%.*s (copy %u)\n", (int)n, p, c);
		} else {
			pc_buf_addf(out, "%.*s\n", (int)n, p);
		}
		p += n + (nl != NULL);
	}
}

/* MAINTAINERS 1, 2 and 4 times over, in trees under tmp. */
static void bench_scale(const char *tree, const char *tmp,
			const struct list *patches, size_t loads)
{
	struct pc_buf text = PC_BUF_INIT, mm = PC_BUF_INIT;
	struct pc_err err = { 0 };
	struct pc_maint *m;
	char *path = xasprintf("%s/MAINTAINERS", tree);
	const char *body;
	unsigned k, c;
	size_t i;

	if (pc_read_file(&text, path, 0, 0, NULL, &err) < 0 ||
	    pc_maint_load(&m, tree, &err) < 0) {
		fprintf(stderr, "maint_bench: %s\n", err.msg);
		exit(1);
	}
	free(path);
	path = xasprintf("%s/.mailmap", tree);
	pc_read_file(&mm, path, 0, PC_READ_MISSING_OK, NULL, &err);
	free(path);
	body = text.buf + strlen(pc_maint_header(m));
	printf("MAINTAINERS scaled (the copies' paths under copyN/):\n"
	       "  %-7s %8s %8s %10s %10s %9s %10s\n",
	       "copies", "entries", "MB", "load ms", "cached ms", "image MB",
	       "us/file");
	for (k = 1; k <= 4; k *= 2) {
		struct pc_buf big = PC_BUF_INIT;
		char *dir = xasprintf("%s/scale%u", tmp, k);
		char *cache = xasprintf("%s/cache", dir);
		double *lt = xcalloc(loads, sizeof(*lt)), load, cached, t;
		size_t nf, len = 0;
		FILE *f;

		pc_buf_add(&big, text.buf, text.len);
		for (c = 2; c <= k; c++)
			add_copy(&big, body, c);
		if (mkdir(dir, 0755) < 0)
			exit(1);
		path = xasprintf("%s/MAINTAINERS", dir);
		f = fopen(path, "wb");
		fwrite(big.buf, 1, big.len, f);
		fclose(f);
		free(path);
		path = xasprintf("%s/.mailmap", dir);
		f = fopen(path, "wb");
		fwrite(mm.buf, 1, mm.len, f);
		fclose(f);
		free(path);
		pc_maint_free(m);
		for (i = 0; i < loads; i++) {
			t = now();
			if (pc_maint_load(&m, dir, &err) < 0)
				exit(1);
			lt[i] = now() - t;
			pc_maint_free(m);
		}
		load = median(lt, loads, NULL);
		if (pc_maint_load_cached(&m, dir, cache, &err) < 0)
			exit(1);
		pc_maint_free(m);
		for (i = 0; i < loads; i++) {
			t = now();
			if (pc_maint_load_cached(&m, dir, cache, &err) < 0)
				exit(1);
			lt[i] = now() - t;
			len = m->img_len;
			if (i + 1 < loads)
				pc_maint_free(m);
		}
		cached = median(lt, loads, NULL);
		t = map_patches(m, patches, &nf);
		printf("  %-7u %8zu %8.2f %10.2f %10.3f %9.2f %10.2f\n", k,
		       pc_maint_count(m), (double)big.len / 1e6, 1e3 * load,
		       1e3 * cached, (double)len / 1e6, 1e6 * t / (double)nf);
		free(lt);
		free(cache);
		free(dir);
		pc_buf_release(&big);
	}
	pc_maint_free(m);
	pc_buf_release(&text);
	pc_buf_release(&mm);
}

int main(int argc, char **argv)
{
	const char *tree = getenv("PC_KERNEL_TREE"), *mbox = NULL,
		   *cache = NULL;
	size_t loads = 30, nperl = 40, i, j, hits = 0, nl = 0;
	struct list files = { 0 }, patches = { 0 };
	struct pc_err err = { 0 };
	struct pc_maint *m;
	double *lt, t, path_s, full_s, patch_s = 0, perl_f = 0, perl_p = 0;
	size_t patch_bytes = 0;
	char *tmp = NULL;
	int load_only = 0, scale = 0;

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
		else if (!strcmp(argv[i], "--cache") && i + 1 < (size_t)argc)
			cache = argv[++i];
		else if (!strcmp(argv[i], "--scale"))
			scale = 1;
		else {
			fprintf(stderr,
				"usage: maint_bench [--tree DIR] "
				"[--mbox FILE] [--loads N] [--perl N] "
				"[--cache DIR] [--scale] [--load-only]\n");
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
	if (cache)
		bench_cache(tree, cache, loads);
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
		for (i = 0; i < patches.n; i++)
			patch_bytes += patches.len[i];
		patch_s = map_patches(m, &patches, &j);
		printf("map patch + lines: %.1f us/patch over %zu patches "
		       "(%.0f bytes each), %.1f us/file (%.1f files each)\n",
		       1e6 * patch_s / (double)patches.n, patches.n,
		       (double)patch_bytes / (double)patches.n,
		       1e6 * patch_s / (double)j,
		       (double)j / (double)patches.n);
		if (cache)
			bench_cold(tree, cache, &patches,
				   patches.n / 40 ? patches.n / 40 : 1);
	}
	if (scale && patches.n) {
		char *dir = xasprintf("%s/maint_bench.XXXXXX",
				      getenv("TMPDIR") && *getenv("TMPDIR") ?
					      getenv("TMPDIR") :
					      "/tmp");
		char *cmd;

		if (!mkdtemp(dir))
			return 1;
		bench_scale(tree, dir, &patches, loads > 5 ? 5 : loads);
		cmd = xasprintf("rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "maint_bench: cannot remove '%s'\n",
				dir);
		free(cmd);
		free(dir);
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
