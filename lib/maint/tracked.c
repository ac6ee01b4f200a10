// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracked paths of a git work tree, cached. See tracked.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "maint/maint_internal.h"
#include "maint/tracked.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAGIC "pctrack1"

/* The cache file: this header, then n sorted hashes. */
struct tracked_head {
	char magic[8];
	uint64_t dev, ino, size, mtime_sec, mtime_nsec;
	uint64_t n;
};

/* The index file of the repository at tree: .git/index, or the index of
 * the directory a .git file names ("gitdir: ..." of a worktree). */
static char *index_path(const char *tree)
{
	char *dotgit = xasprintf("%s/.git", tree), *res = NULL;
	struct stat st;

	if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode)) {
		res = xasprintf("%s/index", dotgit);
	} else if (stat(dotgit, &st) == 0 && S_ISREG(st.st_mode)) {
		FILE *f = fopen(dotgit, "re");
		char line[4096];

		if (f && fgets(line, sizeof(line), f) &&
		    !strncmp(line, "gitdir: ", 8)) {
			line[strcspn(line, "\r\n")] = '\0';
			res = line[8] == '/' ?
				      xasprintf("%s/index", line + 8) :
				      xasprintf("%s/%s/index", tree, line + 8);
		}
		if (f)
			fclose(f);
	}
	free(dotgit);
	return res;
}

/* The output of `git -C tree ARGS...` into out: 0, or -1 when git did
 * not run or failed. */
static int run_git(struct pc_buf *out, const char *tree, const char *arg1,
		   const char *arg2, const char *arg3)
{
	int fds[2], status;
	pid_t pid;
	char buf[65536];
	ssize_t n;

	if (pipe(fds) < 0)
		return -1;
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fds[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		close(fds[0]);
		close(fds[1]);
		execlp("git", "git", "-C", tree, arg1, arg2, arg3,
		       (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			pc_buf_add(out, buf, (size_t)n);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static uint64_t hash_of(const char *p, size_t n)
{
	return pc_maint__hash64(p, n, 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int found(const uint64_t *v, uint64_t n, uint64_t want)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (v[mid] < want)
			lo = mid + 1;
		else if (v[mid] > want)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

static void head_of(struct tracked_head *h, const struct stat *st)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, MAGIC, 8);
	h->dev = (uint64_t)st->st_dev;
	h->ino = (uint64_t)st->st_ino;
	h->size = (uint64_t)st->st_size;
	h->mtime_sec = (uint64_t)st->st_mtim.tv_sec;
	h->mtime_nsec = (uint64_t)st->st_mtim.tv_nsec;
}

/* The answer from the cache file (any: whether any path is tracked):
 * 1, 0, or -1 when it is not this index's. */
static int from_cache(const char *cpath, const struct tracked_head *want,
		      uint64_t h, int any)
{
	struct pc_maint__mapped f;
	struct tracked_head got;
	int rc = -1;

	if (pc_maint__map(&f, cpath, 1) != 0)
		return -1;
	if (f.len >= sizeof(got)) {
		memcpy(&got, f.p, sizeof(got));
		if (!memcmp(&got, want, offsetof(struct tracked_head, n)) &&
		    got.n <= (f.len - sizeof(got)) / sizeof(uint64_t) &&
		    got.n == (f.len - sizeof(got)) / sizeof(uint64_t))
			rc = any ? got.n > 0 :
				   found((const uint64_t
						  *)(const void *)(f.p +
								   sizeof(got)),
					 got.n, h);
	}
	pc_maint__unmap(&f);
	return rc;
}

/* Asks git for every tracked path, writes the cache for the index as
 * it was (h0) when git read the same one, and answers. */
static int from_git(const char *tree, const char *cache_dir, const char *cpath,
		    const char *ipath, const struct tracked_head *h0,
		    uint64_t want, int any)
{
	struct pc_buf out = PC_BUF_INIT, img = PC_BUF_INIT;
	uint64_t *v = NULL;
	size_t n = 0, alloc = 0, i, u;
	const char *p, *end;
	struct stat st;
	struct tracked_head h;
	int rc;

	if (run_git(&out, tree, "ls-files", "-z", "--") < 0) {
		pc_buf_release(&out);
		return -1;
	}
	for (p = out.buf, end = out.buf + out.len; p < end;) {
		const char *z = memchr(p, '\0', (size_t)(end - p)), *s;
		size_t len = z ? (size_t)(z - p) : (size_t)(end - p);

		PC_ALLOC_GROW(v, n + 1, alloc);
		v[n++] = hash_of(p, len);
		/* Each directory of it: "a/b/c" gives "a" and "a/b". */
		for (s = p; (s = memchr(s, '/', (size_t)(p + len - s))); s++) {
			PC_ALLOC_GROW(v, n + 1, alloc);
			v[n++] = hash_of(p, (size_t)(s - p));
		}
		p += len + 1;
	}
	pc_buf_release(&out);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = u = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	rc = any ? u > 0 : found(v, u, want);
	/* The index changed while git read it: its answer stands, the
	 * cache would not. */
	if (cache_dir && *cache_dir && stat(ipath, &st) == 0) {
		head_of(&h, &st);
		if (!memcmp(&h, h0, sizeof(h))) {
			h.n = u;
			pc_buf_add(&img, &h, sizeof(h));
			pc_buf_add(&img, v, u * sizeof(*v));
			pc_maint__cache_write(cache_dir, cpath,
					      (const unsigned char *)img.buf,
					      img.len);
		}
	}
	pc_buf_release(&img);
	free(v);
	return rc;
}

int pc_tracked(const char *tree, const char *cache_dir, const char *path)
{
	char *ipath = index_path(tree), *real = NULL, *cpath = NULL;
	struct tracked_head h0;
	struct stat st;
	uint64_t want = hash_of(path, strlen(path));
	int any = !*path || !strcmp(path, "."), rc;

	if (!ipath || stat(ipath, &st) < 0) {
		free(ipath);
		return -1;
	}
	head_of(&h0, &st);
	if (cache_dir && *cache_dir && (real = realpath(tree, NULL)))
		cpath = xasprintf("%s/tracked-%016llx", cache_dir,
				  (unsigned long long)hash_of(real,
							      strlen(real)));
	rc = cpath ? from_cache(cpath, &h0, want, any) : -1;
	if (rc < 0)
		rc = from_git(tree, cpath ? cache_dir : NULL, cpath, ipath, &h0,
			      want, any);
	free(real);
	free(cpath);
	free(ipath);
	return rc;
}
