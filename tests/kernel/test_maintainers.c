// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/maint against the real thing: the kernel tree's own
 * scripts/get_maintainer.pl, run with --no-git --no-git-fallback
 * (--no-rolestats, or without it for the roles), on files sampled across
 * the whole tree, on directories, on the patches of the mail corpus and
 * on mails without a diff (K: only), one input and several per call.
 *
 * The script orders entries that tie on depth at random (Perl's hash
 * order), and that order decides more than the order of lines: which
 * entry names a person in --roles, and which address survives when two
 * share a name. So an output must equal ours line for line, ours
 * computed in MAINTAINERS order or, failing that, in some other order
 * of the tied entries (tried exhaustively); K:-only entries and .yaml
 * addresses keep the script's fixed order.
 *
 * Needs $PC_KERNEL_TREE (skips with 77 without it) and perl; runs two
 * scripts at a time.
 */
#include "testutil.h"
#include "maint/maint_internal.h"
#include "maint/maintainers.h"
#include "mail/source.h"
#include "patch/diff.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *tree;
static char *tmp;
static struct pc_maint *maint;

/* ---- running the script, two at a time ------------------------------------ */

struct job {
	char **argv; /* owned, NULL-terminated, each owned */
	char *out; /* owned: where its stdout goes */
	pid_t pid;
};

struct jobs {
	struct job *v;
	size_t n, alloc;
};

static void job_add(struct jobs *js, char *out, int roles, int file_mode,
		    char *const *args, size_t nargs)
{
	struct job *j;
	size_t k = 0, i;

	PC_ALLOC_GROW(js->v, js->n + 1, js->alloc);
	j = &js->v[js->n++];
	memset(j, 0, sizeof(*j));
	j->argv = xcalloc(nargs + 8, sizeof(*j->argv));
	j->argv[k++] = xstrdup("perl");
	j->argv[k++] = xstrdup("scripts/get_maintainer.pl");
	j->argv[k++] = xstrdup("--no-git");
	j->argv[k++] = xstrdup("--no-git-fallback");
	if (!roles)
		j->argv[k++] = xstrdup("--no-rolestats");
	if (file_mode)
		j->argv[k++] = xstrdup("-f");
	for (i = 0; i < nargs; i++)
		j->argv[k++] = xstrdup(args[i]);
	j->out = out;
}

static void job_start(struct job *j)
{
	if ((j->pid = fork()) < 0)
		fail_msg("fork failed");
	if (j->pid == 0) {
		int fd = open(j->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_RDWR);

		/* The script reads ~/.get_maintainer.conf: not ours. */
		setenv("HOME", tmp, 1);
		if (fd < 0 || null < 0 || chdir(tree) < 0)
			_exit(126);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(null, 2);
		execvp(j->argv[0], j->argv);
		_exit(127);
	}
}

static void jobs_run(struct jobs *js)
{
	size_t next = 0, running = 0, i;
	int status;

	while (next < js->n || running) {
		pid_t pid;

		while (running < 2 && next < js->n) {
			job_start(&js->v[next++]);
			running++;
		}
		pid = wait(&status);
		if (pid < 0)
			fail_msg("wait failed");
		for (i = 0; i < js->n; i++) {
			if (js->v[i].pid != pid)
				continue;
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				fail_msg("get_maintainer.pl failed (%d) for "
					 "'%s'",
					 status, js->v[i].argv[5]);
			js->v[i].pid = 0;
			running--;
		}
	}
}

static void jobs_release(struct jobs *js)
{
	size_t i, k;

	for (i = 0; i < js->n; i++) {
		for (k = 0; js->v[i].argv[k]; k++)
			free(js->v[i].argv[k]);
		free(js->v[i].argv);
		free(js->v[i].out);
	}
	free(js->v);
	memset(js, 0, sizeof(*js));
}

/* ---- comparing ------------------------------------------------------------- */

struct strs {
	char **v;
	size_t n, alloc;
};

static void strs_push(struct strs *s, char *p)
{
	PC_ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = p;
}

static void strs_release(struct strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static void read_lines(struct strs *out, const char *path)
{
	struct pc_buf b = PC_BUF_INIT;
	char *p, *nl;

	t_read_file(&b, path);
	for (p = b.buf; *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n'))) {
			strs_push(out, xstrdup(p));
			break;
		}
		strs_push(out, xstrndup(p, (size_t)(nl - p)));
	}
	pc_buf_release(&b);
}

struct stats {
	size_t compared, lines, mismatches, reordered;
};

static void show(const char *what, const struct strs *ours,
		 const struct strs *theirs)
{
	size_t i;

	print_message("MISMATCH %s\n  ours:\n", what);
	for (i = 0; i < ours->n; i++)
		print_message("    %s\n", ours->v[i]);
	print_message("  get_maintainer.pl:\n");
	for (i = 0; i < theirs->n; i++)
		print_message("    %s\n", theirs->v[i]);
}

/* Our lines for r, as the script prints them. */
static void our_lines(struct strs *out, const struct pc_maint_result *r,
		      int roles)
{
	struct pc_maint_lines lines = PC_MAINT_LINES_INIT;
	size_t i;

	pc_maint_lines(&lines, maint, r);
	for (i = 0; i < lines.n; i++)
		strs_push(out, roles ? xasprintf("%s (%s)", lines.v[i].text,
						 lines.v[i].role) :
				       xstrdup(lines.v[i].text));
	pc_maint_lines_release(&lines);
}

static int same(const struct strs *a, const struct strs *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return 1;
}

static int next_perm(size_t *v, size_t n)
{
	size_t i, j;

	if (n < 2)
		return 0;
	for (i = n - 1; i > 0 && v[i - 1] >= v[i]; i--)
		;
	if (i == 0)
		return 0;
	for (j = n - 1; v[j] <= v[i - 1]; j--)
		;
	{
		size_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
	for (j = n - 1; i < j; i++, j--) {
		size_t t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
	return 1;
}

#define MAX_ORDERS 50000

/*
 * Whether some order of the entries that tie (same path, same depth:
 * the script orders them at random) makes our lines equal to the
 * script's, line for line. Returns 1 if so, 0 if not, -1 if there are
 * too many orders to try. *tries counts the orders tried.
 */
static int some_order(const struct pc_maint_result *r,
		      const struct strs *theirs, int roles, size_t *tries)
{
	struct pc_maint_result pr = *r;
	size_t *perm = xcalloc(r->n_hits + 1, sizeof(*perm));
	size_t *gs = xcalloc(r->n_hits + 1, sizeof(*gs));
	size_t *gl = xcalloc(r->n_hits + 1, sizeof(*gl));
	size_t ng = 0, i, j, total = 1;
	int found = 0;

	for (i = 0; i < r->n_hits; i = j) {
		const struct pc_maint_hit *h = &r->hits[i];

		for (j = i + 1;
		     j < r->n_hits && !h->k_only && !r->hits[j].k_only &&
		     r->hits[j].file == h->file && r->hits[j].depth == h->depth;
		     j++)
			;
		if (j - i > 1) {
			size_t k;

			gs[ng] = i;
			gl[ng++] = j - i;
			for (k = 2; k <= j - i && total <= MAX_ORDERS; k++)
				total *= k;
		}
	}
	for (i = 0; i < r->n_hits; i++)
		perm[i] = i;
	pr.hits = xcalloc(r->n_hits + 1, sizeof(*pr.hits));
	*tries = 0;
	if (total > MAX_ORDERS) {
		found = -1;
		goto out;
	}
	for (;;) {
		struct strs ours = { 0 };

		for (i = 0; i < r->n_hits; i++)
			pr.hits[i] = r->hits[perm[i]];
		our_lines(&ours, &pr, roles);
		(*tries)++;
		found = same(&ours, theirs);
		strs_release(&ours);
		if (found)
			break;
		/* The next order: an odometer over the groups. */
		for (i = 0; i < ng; i++) {
			if (next_perm(perm + gs[i], gl[i]))
				break;
			/* Wrapped: back to sorted, carry on. */
			for (j = 0; j < gl[i]; j++)
				perm[gs[i] + j] = gs[i] + j;
		}
		if (i == ng)
			break;
	}
out:
	free(pr.hits);
	free(perm);
	free(gs);
	free(gl);
	return found;
}

/*
 * Compares our lines for r with the script's output in path: equal line
 * for line, for one of the orders the script could have picked.
 */
static void compare(struct stats *st, const char *what,
		    const struct pc_maint_result *r, const char *path,
		    int roles)
{
	struct strs ours = { 0 }, theirs = { 0 };
	size_t tries = 0;
	int ok;

	our_lines(&ours, r, roles);
	read_lines(&theirs, path);
	st->compared++;
	st->lines += theirs.n;
	ok = same(&ours, &theirs);
	if (!ok) {
		ok = some_order(r, &theirs, roles, &tries);
		if (ok < 0)
			fail_msg("%s: too many tie orders to try", what);
		st->reordered += ok;
	}
	if (!ok) {
		st->mismatches++;
		show(what, &ours, &theirs);
	}
	strs_release(&ours);
	strs_release(&theirs);
}

/* ---- inputs ------------------------------------------------------------------ */

/* Every file git tracks in the tree, sorted. */
static void tree_files(struct strs *out)
{
	char *path = xasprintf("%s/ls-files", tmp);
	struct pc_buf b = PC_BUF_INIT;
	struct jobs js = { 0 };
	char *p;

	PC_ALLOC_GROW(js.v, 1, js.alloc);
	js.n = 1;
	memset(js.v, 0, sizeof(*js.v));
	js.v[0].argv = xcalloc(4, sizeof(char *));
	js.v[0].argv[0] = xstrdup("git");
	js.v[0].argv[1] = xstrdup("ls-files");
	js.v[0].argv[2] = xstrdup("-z");
	js.v[0].out = path;
	jobs_run(&js);
	t_read_file(&b, path);
	for (p = b.buf; p < b.buf + b.len; p += strlen(p) + 1)
		strs_push(out, xstrdup(p));
	pc_buf_release(&b);
	jobs_release(&js);
	assert_true(out->n > 50000);
}

static int has(const struct strs *s, const char *p)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], p))
			return 1;
	return 0;
}

/*
 * A deterministic sample spread over the tree: every top-level file,
 * from each top-level directory a share of its files (at least 4) evenly
 * spaced, some .yaml files (their addresses are read) and directories.
 */
static void sample(struct strs *out, const struct strs *all)
{
	size_t i = 0, target = 240, k;
	struct strs yaml = { 0 };

	while (i < all->n) {
		const char *slash = strchr(all->v[i], '/');
		size_t plen = slash ? (size_t)(slash - all->v[i]) + 1 : 0;
		size_t j = i + 1, n, take;

		if (!slash) {
			strs_push(out, xstrdup(all->v[i++]));
			continue;
		}
		while (j < all->n && !strncmp(all->v[j], all->v[i], plen))
			j++;
		n = j - i;
		take = target * n / all->n;
		if (take < 4)
			take = 4;
		if (take > n)
			take = n;
		for (k = 0; k < take; k++)
			strs_push(out, xstrdup(all->v[i + (2 * k + 1) * n /
								  (2 * take)]));
		i = j;
	}
	for (i = 0; i < all->n; i++) {
		size_t l = strlen(all->v[i]);

		if (l > 5 && !strcmp(all->v[i] + l - 5, ".yaml"))
			strs_push(&yaml, all->v[i]);
	}
	for (k = 0; k < 10 && yaml.n; k++) {
		const char *y = yaml.v[(2 * k + 1) * yaml.n / 20];

		if (!has(out, y))
			strs_push(out, xstrdup(y));
	}
	free(yaml.v);
	/* Directories: the parents of some sampled files, and a few. */
	for (k = 0, i = 7; i < out->n && k < 8; i += out->n / 8, k++) {
		char *d = xstrdup(out->v[i]), *s = strrchr(d, '/');

		if (s) {
			*s = '\0';
			if (!has(out, d)) {
				strs_push(out, d);
				continue;
			}
		}
		free(d);
	}
	strs_push(out, xstrdup("drivers/nvdimm"));
	strs_push(out, xstrdup("Documentation"));
	strs_push(out, xstrdup("net/ipv6"));
}

static int is_dir(const char *rel)
{
	char *p = xasprintf("%s/%s", tree, rel);
	struct stat st;
	int d = stat(p, &st) == 0 && S_ISDIR(st.st_mode);

	free(p);
	return d;
}

static void map_files(struct pc_maint_result *r, char *const *files, size_t n)
{
	struct pc_maint_query *q = pc_maint_query_new(maint, PC_MAINT_DEFAULT);
	struct pc_err err = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		char *p = is_dir(files[i]) ? xasprintf("%s/", files[i]) :
					     xstrdup(files[i]);

		if (pc_maint_query_add_file(q, p, &err) < 0)
			fail_msg("add_file '%s': %s", p, err.msg);
		free(p);
	}
	if (pc_maint_query_run(r, q, &err) < 0)
		fail_msg("run: %s", err.msg);
	pc_maint_query_free(q);
}

static void map_patches(struct pc_maint_result *r, char *const *paths, size_t n)
{
	struct pc_maint_query *q = pc_maint_query_new(maint, PC_MAINT_DEFAULT);
	struct pc_err err = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		struct pc_buf b = PC_BUF_INIT;

		t_read_file(&b, paths[i]);
		pc_maint_query_add_patch(q, b.buf, b.len, NULL);
		pc_buf_release(&b);
	}
	if (pc_maint_query_run(r, q, &err) < 0)
		fail_msg("run: %s", err.msg);
	pc_maint_query_free(q);
}

static void report(const char *what, const struct stats *st)
{
	print_message("%s: %zu calls compared, %zu lines, %zu mismatches "
		      "(%zu equal only in another order of tied entries)\n",
		      what, st->compared, st->lines, st->mismatches,
		      st->reordered);
}

/* ---- tests -------------------------------------------------------------------- */

/* The load itself, checked against a plain count of the file's lines. */
static void test_maintainers__load(void **state)
{
	char *path = xasprintf("%s/MAINTAINERS", tree);
	struct pc_buf b = PC_BUF_INIT;
	size_t f = 0, p = 0, nf = 0, np = 0, i;
	const char *s;

	(void)state;
	t_read_file(&b, path);
	for (s = b.buf; s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
		f += !strncmp(s, "F:", 2);
		p += !strncmp(s, "P:", 2);
	}
	for (i = 0; i < pc_maint_count(maint); i++) {
		nf += pc_maint_entry_at(maint, i)->n_files;
		np += pc_maint_entry_at(maint, i)->n_profiles;
	}
	assert_int_equal(nf, f);
	assert_int_equal(np, p);
	assert_int_equal(pc_maint_warning_count(maint), 0);
	assert_non_null(pc_maint_find(maint, "libnvdimm pmem: persistent "
					     "memory driver"));
	assert_non_null(pc_maint_find(maint, "THE REST"));
	print_message("%zu entries, %zu F:, %zu P:\n", pc_maint_count(maint),
		      nf, np);
	pc_buf_release(&b);
	free(path);
}

static void test_maintainers__files(void **state)
{
	struct strs all = { 0 }, files = { 0 };
	struct jobs js = { 0 };
	struct stats st = { 0 }, st_roles = { 0 }, st_multi = { 0 };
	size_t i;

	(void)state;
	tree_files(&all);
	sample(&files, &all);
	assert_true(files.n >= 300);
	for (i = 0; i < files.n; i++)
		job_add(&js, xasprintf("%s/f%zu.out", tmp, i), 0, 1,
			&files.v[i], 1);
	/* Roles on every eighth. */
	for (i = 0; i < files.n; i += 8)
		job_add(&js, xasprintf("%s/r%zu.out", tmp, i), 1, 1,
			&files.v[i], 1);
	/* Several paths in one call: an entry counts once. */
	for (i = 0; i + 3 <= files.n; i += 37)
		job_add(&js, xasprintf("%s/m%zu.out", tmp, i), 0, 1,
			&files.v[i], 3);
	jobs_run(&js);

	for (i = 0; i < files.n; i++) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;
		char *out = xasprintf("%s/f%zu.out", tmp, i);

		map_files(&r, &files.v[i], 1);
		compare(&st, files.v[i], &r, out, 0);
		if (i % 8 == 0) {
			char *ro = xasprintf("%s/r%zu.out", tmp, i);

			compare(&st_roles, files.v[i], &r, ro, 1);
			free(ro);
		}
		if (i % 37 == 0 && i + 3 <= files.n) {
			struct pc_maint_result r3 = PC_MAINT_RESULT_INIT;
			char *mo = xasprintf("%s/m%zu.out", tmp, i);

			map_files(&r3, &files.v[i], 3);
			compare(&st_multi, files.v[i], &r3, mo, 0);
			pc_maint_result_release(&r3);
			free(mo);
		}
		pc_maint_result_release(&r);
		free(out);
	}
	report("files (-f)", &st);
	report("files with roles", &st_roles);
	report("three files per call", &st_multi);
	assert_int_equal(st.mismatches, 0);
	assert_int_equal(st_roles.mismatches, 0);
	assert_int_equal(st_multi.mismatches, 0);
	jobs_release(&js);
	strs_release(&files);
	strs_release(&all);
}

static void save_msg(struct strs *out, const char *p, size_t len)
{
	char *path = xasprintf("%s/p%zu.eml", tmp, out->n);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	strs_push(out, path);
}

/*
 * Messages of a source: those with a diff (every `every`-th), and every
 * `nodiff`-th of those without one (0: none).
 */
static void collect(struct strs *out, const char *src_path, size_t every,
		    size_t nodiff)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	size_t nd = 0, nn = 0;
	int rc;

	if (pc_source_open(&src, src_path, &opt, &err) < 0)
		fail_msg("cannot open '%s': %s", src_path, err.msg);
	while ((rc = pc_source_next(src, &msg, &err)) == 1) {
		if (pc_diff_present(msg.data, msg.len)) {
			if (nd++ % every == 0)
				save_msg(out, msg.data, msg.len);
		} else if (nodiff && nn++ % nodiff == 0) {
			save_msg(out, msg.data, msg.len);
		}
	}
	if (rc < 0)
		fail_msg("reading '%s': %s", src_path, err.msg);
	pc_source_free(src);
}

static void test_maintainers__patches(void **state)
{
	static const char *const others[] = {
		"corpus/lore-nvdimm/threads/from-lines-in-body-io-ticks-rfc.mbox",
		"corpus/lore-nvdimm/threads/outlook-iso-2022-jp-sanitize-memdev.mbox",
		"corpus/lore-nvdimm/threads/patch-attachment-in-reply-badblocks-bug.mbox",
		"corpus/lore-nvdimm/threads/poison-list-retrieval-v11-v12.mbox",
		"corpus/lore-nvdimm/threads/rfc2047-subjects-dm-pcache.mbox",
		"corpus/lore-nvdimm/threads/git-pull-dax-libnvdimm-v5.17.mbox",
		"corpus/patchwork/mail/0003-git-pull-request-with-diff.mbox",
		"corpus/patchwork/mail/0007-cvs-format-diff.mbox",
		"corpus/patchwork/mail/0008-git-rename.mbox",
		"corpus/patchwork/mail/0011-no-newline-at-end-of-file.mbox",
		"corpus/patchwork/mail/0019-multipart-patch.mbox",
		"corpus/patchwork/mail/0021-git-empty-new-file.mbox",
		"corpus/patchwork/mail/0022-git-mode-change.mbox",
		"corpus/patchwork/mail/0025-git-add-binary-file.mbox",
		"corpus/patchwork/mail/0027-git-modify-binary-file.mbox",
		"corpus/patchwork/series/revision-basic.mbox",
		"corpus/patchwork/series/mercurial-cover-letter.mbox",
		"corpus/patchew/0004-multiple-patch-reviewed.mbox.gz",
		"corpus/patchew/0021-mode-only-patch.mbox.gz",
		"corpus/patchew/0029-diffstat-in-patch.gz",
		"corpus/patchew/0033-raw-diff.mbox.gz",
		"corpus/b4/shazam-git1-just-series.mbox",
		"corpus/b4/trailers-thread-with-followups.mbox",
		"corpus/b4/trailers-followup-non-git-patch.mbox",
		"corpus/git-t5100/sample.mbox",
		"corpus/public-inbox/plack-attached-patch.eml",
	};
	static const char *const seeds[] = {
		("seeds/002-patch-maintainers-reclaim-the-p-tag-for-subsystem-"
		 "profile.patch"),
		"seeds/003-patch-maintainers-handbook-subsystem-profile.patch",
		"seeds/004-patch-libnvdimm-maintainers-subsystem-profile.patch",
	};
	struct strs msgs = { 0 };
	struct jobs js = { 0 };
	struct stats st = { 0 }, st_roles = { 0 }, st_multi = { 0 };
	size_t i;

	(void)state;
	collect(&msgs,
		t_data("corpus/lore-nvdimm/"
		       "nvdimm-2021-05_2021-12.mboxrd.gz"),
		9, 60);
	for (i = 0; i < PC_ARRAY_SIZE(others); i++)
		collect(&msgs, t_data(others[i]), 1, 0);
	for (i = 0; i < PC_ARRAY_SIZE(seeds); i++) {
		struct pc_buf b = PC_BUF_INIT;

		t_read_file(&b, t_data(seeds[i]));
		save_msg(&msgs, b.buf, b.len);
		pc_buf_release(&b);
	}
	print_message("%zu messages\n", msgs.n);
	assert_true(msgs.n >= 150);
	for (i = 0; i < msgs.n; i++)
		job_add(&js, xasprintf("%s.out", msgs.v[i]), 0, 0, &msgs.v[i],
			1);
	for (i = 0; i < msgs.n; i += 6)
		job_add(&js, xasprintf("%s.roles", msgs.v[i]), 1, 0, &msgs.v[i],
			1);
	/* A series: consecutive mails in one call. */
	for (i = 0; i + 4 <= msgs.n; i += 29)
		job_add(&js, xasprintf("%s.multi", msgs.v[i]), 0, 0, &msgs.v[i],
			4);
	jobs_run(&js);
	for (i = 0; i < msgs.n; i++) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;
		char *out = xasprintf("%s.out", msgs.v[i]);

		map_patches(&r, &msgs.v[i], 1);
		compare(&st, msgs.v[i], &r, out, 0);
		free(out);
		if (i % 6 == 0) {
			out = xasprintf("%s.roles", msgs.v[i]);
			compare(&st_roles, msgs.v[i], &r, out, 1);
			free(out);
		}
		if (i % 29 == 0 && i + 4 <= msgs.n) {
			struct pc_maint_result r4 = PC_MAINT_RESULT_INIT;

			out = xasprintf("%s.multi", msgs.v[i]);
			map_patches(&r4, &msgs.v[i], 4);
			compare(&st_multi, msgs.v[i], &r4, out, 0);
			pc_maint_result_release(&r4);
			free(out);
		}
		pc_maint_result_release(&r);
	}
	report("patches", &st);
	report("patches with roles", &st_roles);
	report("four patches per call", &st_multi);
	assert_int_equal(st.mismatches, 0);
	assert_int_equal(st_roles.mismatches, 0);
	assert_int_equal(st_multi.mismatches, 0);
	jobs_release(&js);
	strs_release(&msgs);
}

static char *hit_names(const struct pc_maint_result *r)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;

	for (i = 0; i < r->n_hits; i++)
		pc_buf_addf(&b, "%s%s:%d:%d|", r->hits[i].entry->name,
			    r->hits[i].k_only ? "(k)" : "", r->hits[i].depth,
			    r->hits[i].keyword);
	return pc_buf_detach(&b, NULL);
}

/*
 * The K: prefilters (literals, whole-text scans) are an optimisation:
 * with every K: regex run on every line and file, the results must be
 * the same. Checked on many more inputs than the script could be run on.
 */
static void test_maintainers__keyword_prefilter(void **state)
{
	struct strs all = { 0 };
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_source *src;
	struct pc_source_msg msg;
	struct pc_err err = { 0 };
	size_t i, nfiles = 0, nmsgs = 0, kfiles = 0, kmsgs = 0;
	int rc;

	(void)state;
	tree_files(&all);
	for (i = 0; i < all.n; i += 25) {
		struct pc_maint_result a = PC_MAINT_RESULT_INIT,
				       b = PC_MAINT_RESULT_INIT;
		char *ha, *hb;

		assert_int_equal(pc_maint_map_file(&a, maint, all.v[i],
						   PC_MAINT_DEFAULT, &err),
				 0);
		assert_int_equal(
			pc_maint_map_file(&b, maint, all.v[i],
					  PC_MAINT_DEFAULT |
						  PC_MAINT__NO_PREFILTER,
					  &err),
			0);
		ha = hit_names(&a);
		hb = hit_names(&b);
		if (strcmp(ha, hb))
			fail_msg("%s: '%s' with prefilters, '%s' without",
				 all.v[i], ha, hb);
		kfiles += strstr(ha, ":1|") != NULL;
		nfiles++;
		free(ha);
		free(hb);
		pc_maint_result_release(&a);
		pc_maint_result_release(&b);
	}
	if (pc_source_open(&src,
			   t_data("corpus/lore-nvdimm/"
				  "nvdimm-2021-05_2021-12.mboxrd.gz"),
			   &opt, &err) < 0)
		fail_msg("%s", err.msg);
	while ((rc = pc_source_next(src, &msg, &err)) == 1) {
		struct pc_maint_result a = PC_MAINT_RESULT_INIT,
				       b = PC_MAINT_RESULT_INIT;
		char *ha, *hb;

		assert_int_equal(pc_maint_map_patch(&a, maint, msg.data,
						    msg.len, PC_MAINT_DEFAULT,
						    &err),
				 0);
		assert_int_equal(
			pc_maint_map_patch(&b, maint, msg.data, msg.len,
					   PC_MAINT_DEFAULT |
						   PC_MAINT__NO_PREFILTER,
					   &err),
			0);
		ha = hit_names(&a);
		hb = hit_names(&b);
		if (strcmp(ha, hb))
			fail_msg("%s: '%s' with prefilters, '%s' without",
				 msg.where, ha, hb);
		kmsgs += strstr(ha, ":1|") != NULL;
		nmsgs++;
		free(ha);
		free(hb);
		pc_maint_result_release(&a);
		pc_maint_result_release(&b);
	}
	assert_int_equal(rc, 0);
	pc_source_free(src);
	print_message("K: prefilters: %zu files (%zu with K: hits), %zu "
		      "messages (%zu with K: hits) the same without them\n",
		      nfiles, kfiles, nmsgs, kmsgs);
	assert_true(kfiles > 0 && kmsgs > 0);
	strs_release(&all);
}

/*
 * Hand-made patches for the corners of the script's patch loop: K: in
 * the message and in +/- lines but not in context lines, diff header
 * lines and Fixes: lines not scanned, "--- " lines in the message taken
 * as file names, /dev/null, renames, mode changes, CRLF, no final
 * newline, a top-level alternation in a K: regex (phylink).
 */
static const char *const synthetic[] = {
	"Subject: [PATCH] riscv: mention in the subject\n\n"
	"A body about dma_buf and clone3.\n---\n"
	"diff --git a/drivers/nvdimm/pmem.c b/drivers/nvdimm/pmem.c\n"
	"--- a/drivers/nvdimm/pmem.c\n+++ b/drivers/nvdimm/pmem.c\n"
	"@@ -1,3 +1,3 @@\n context with bpf_prog and SGX_ENCLS\n"
	"-removed landlock line\n+added __NO_FORTIFY line\n",

	"Subject: [PATCH] context only\n\nPlain words.\n---\n"
	"--- a/fs/dax.c\n+++ b/fs/dax.c\n@@ -10,2 +10,2 @@\n"
	" struct phylink *pl; zstd\n-x\n+y\n",

	"Subject: [PATCH] alternation\n\nnothing\n---\n"
	"--- a/mm/memory.c\n+++ b/mm/memory.c\n@@ -1 +1 @@\n"
	" a context line with struct phylink in it\n",

	"Subject: [PATCH] fixes and headers\n\n"
	"Fixes: 0123456789ab (\"riscv: something\")\n"
	"Link: https://example.org/pidfd\n---\n"
	"diff --git a/riscv.c b/riscv.c\n"
	"rename from drivers/nvdimm/btt.c\nrename to drivers/dax/btt.c\n"
	" mode change 100644 => 100755 scripts/checkpatch.pl\n"
	"--- a/drivers/nvdimm/btt.c\n+++ /dev/null\n",

	"Subject: [PATCH v2] changelog\n\n"
	"--- v2: drop the riscv part\n--- a/b/c\n"
	"diff --git a/include/linux/libnvdimm.h b/include/linux/libnvdimm.h\n"
	"@@ -1,1 +1,1 @@\n-a\n+#include <linux/dma-buf.h> dma_fence\n",

	"Subject: [PATCH] crlf\r\n\r\nA reset_control_get change.\r\n---\r\n"
	"diff --git a/drivers/reset/core.c b/drivers/reset/core.c\r\n"
	"--- a/drivers/reset/core.c\r\n+++ b/drivers/reset/core.c\r\n"
	"@@ -1 +1 @@\r\n-old\r\n+devm_reset_control_get(dev)\r\n",

	"Subject: no diff, no newline at the end: csky and rust",

	"Subject: [PATCH] Documentation\n\n---\n"
	"diff --git a/Documentation/devicetree/bindings/iio/adc/adi,ad7124.yaml "
	"b/Documentation/devicetree/bindings/iio/adc/adi,ad7124.yaml\n"
	"diff --git a/MAINTAINERS b/MAINTAINERS\n"
	"diff --git a/arch/arm/boot/dts/vexpress-v2m.dtsi "
	"b/arch/arm/boot/dts/vexpress-v2m.dtsi\n",

	"Subject: odd spacing\n\n"
	"diff --git a/a b  b/b\n+++\tb/net/core/dev.c\tdate\n"
	"--- \n+++\n@@ -x,1 +1 @@ printk_index\n@@ -1 +1 @@ regulator_get_optional\n",
};

static void test_maintainers__synthetic(void **state)
{
	struct strs msgs = { 0 };
	struct jobs js = { 0 };
	struct stats st = { 0 }, st_roles = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(synthetic); i++)
		save_msg(&msgs, synthetic[i], strlen(synthetic[i]));
	for (i = 0; i < msgs.n; i++) {
		job_add(&js, xasprintf("%s.out", msgs.v[i]), 0, 0, &msgs.v[i],
			1);
		job_add(&js, xasprintf("%s.roles", msgs.v[i]), 1, 0, &msgs.v[i],
			1);
	}
	jobs_run(&js);
	for (i = 0; i < msgs.n; i++) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;
		char *out = xasprintf("%s.out", msgs.v[i]);
		char *ro = xasprintf("%s.roles", msgs.v[i]);

		map_patches(&r, &msgs.v[i], 1);
		compare(&st, synthetic[i], &r, out, 0);
		compare(&st_roles, synthetic[i], &r, ro, 1);
		pc_maint_result_release(&r);
		free(out);
		free(ro);
	}
	report("hand-made patches", &st);
	report("hand-made patches with roles", &st_roles);
	assert_int_equal(st.mismatches, 0);
	assert_int_equal(st_roles.mismatches, 0);
	jobs_release(&js);
	strs_release(&msgs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maintainers__load),
		cmocka_unit_test(test_maintainers__files),
		cmocka_unit_test(test_maintainers__patches),
		cmocka_unit_test(test_maintainers__synthetic),
		cmocka_unit_test(test_maintainers__keyword_prefilter),
	};
	struct pc_err err = { 0 };
	int rc;

	tree = getenv("PC_KERNEL_TREE");
	if (!tree || !*tree) {
		fprintf(stderr, "PC_KERNEL_TREE is not set: skipping\n");
		return 77;
	}
	if (pc_maint_load(&maint, tree, &err) < 0) {
		fprintf(stderr, "cannot load the tree '%s': %s\n", tree,
			err.msg);
		return 1;
	}
	tmp = t_mkdtemp();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	t_rmtree(tmp);
	free(tmp);
	pc_maint_free(maint);
	return rc;
}
