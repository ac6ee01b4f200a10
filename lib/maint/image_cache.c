// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cache that keeps MAINTAINERS images between processes. See image.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/image_format.h"
#include "maint/maint_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Maps path: 0, 1 when it is missing (missing_ok), -1 on any error. */
int pc_maint__map(struct pc_maint__mapped *f, const char *path, int missing_ok)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	void *p;

	memset(f, 0, sizeof(*f));
	if (fd < 0)
		return missing_ok && errno == ENOENT ? 1 : -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (uint64_t)st.st_size > SIZE_MAX / 2) {
		close(fd);
		return -1;
	}
	f->len = (size_t)st.st_size;
	if (!f->len) {
		f->p = "";
		close(fd);
		return 0;
	}
	p = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	f->p = p;
	f->mapped = 1;
	return 0;
}

void pc_maint__unmap(struct pc_maint__mapped *f)
{
	if (f->mapped)
		munmap((void *)f->p, f->len);
	memset(f, 0, sizeof(*f));
}

/* mkdir -p dir, the directories made private. */
static int mkdirs(const char *dir)
{
	char *p = xstrdup(dir), *s;
	int rc = 0;

	for (s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		if (s[-1] != '/') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0700) < 0 && errno != EEXIST)
				rc = -1;
			*s = c;
		}
		if (!*s)
			break;
	}
	free(p);
	return rc;
}

/* Writes (img, len) to path through a new file renamed over it; 0 or
 * -1 (nothing left behind). */
int pc_maint__cache_write(const char *dir, const char *path,
			  const unsigned char *img, size_t len)
{
	char *tmp = xasprintf("%s/.maint-XXXXXX", dir);
	size_t done = 0;
	int fd, rc = -1;

	if (mkdirs(dir) < 0)
		goto out;
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	while (done < len) {
		ssize_t n = write(fd, img + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (close(fd) == 0 && done == len && rename(tmp, path) == 0)
		rc = 0;
	else
		unlink(tmp);
out:
	free(tmp);
	return rc;
}

/* The cache file of a tree: one per tree, named by its real path. */
static char *cache_path(const char *cache_dir, const char *tree_dir)
{
	char *real = realpath(tree_dir, NULL), *p;

	if (!real)
		return NULL;
	p = xasprintf("%s/maint-%016llx.img", cache_dir,
		      (unsigned long long)pc_maint__hash64(real, strlen(real),
							   0));
	free(real);
	return p;
}

/* The image in path, mapped, if it is ours and fits (text, mm). */
static int try_cache(struct pc_maint **out, const char *path,
		     const struct pc_maint__mapped *text,
		     const struct pc_maint__mapped *mm, const char *tree_dir)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	void *img;
	size_t len;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_size < (off_t)sizeof(struct head) ||
	    (uint64_t)st.st_size > SIZE_MAX / 2) {
		close(fd);
		return -1;
	}
	len = (size_t)st.st_size;
	img = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return -1;
	if (!pc_maint__image_fits(img, len, text->p, text->len, mm->p,
				  mm->len) ||
	    pc_maint__open(out, img, len, PC_MAINT__HELD_MMAP, 1, tree_dir,
			   NULL) < 0) {
		munmap(img, len);
		return -1;
	}
	return 0;
}

int pc_maint_load_cached(struct pc_maint **out, const char *tree_dir,
			 const char *cache_dir, struct pc_err *err)
{
	struct pc_maint__mapped text, mm;
	struct pc_maint__build b;
	char *tpath = xasprintf("%s/MAINTAINERS", tree_dir);
	char *mpath = xasprintf("%s/.mailmap", tree_dir);
	char *cpath = cache_dir && *cache_dir ?
			      cache_path(cache_dir, tree_dir) :
			      NULL;
	unsigned char *img = NULL;
	size_t ilen = 0;
	int rc, have_mm;

	memset(&b, 0, sizeof(b));
	memset(&mm, 0, sizeof(mm));
	/* Anything odd about the files: the plain load says what. */
	if (!cpath || pc_maint__map(&text, tpath, 0) < 0) {
		rc = pc_maint_load(out, tree_dir, err);
		goto out_free;
	}
	if ((have_mm = pc_maint__map(&mm, mpath, 1)) < 0) {
		pc_maint__unmap(&text);
		rc = pc_maint_load(out, tree_dir, err);
		goto out_free;
	}
	if (try_cache(out, cpath, &text, &mm, tree_dir) == 0) {
		(*out)->cache = PC_MAINT_CACHE_HIT;
		rc = 0;
		goto out;
	}
	if ((rc = pc_maint__parse(&b, text.p, text.len,
				  have_mm == 0 ? mm.p : NULL, mm.len, err)) <
	    0) {
		pc_err_prefix(err, "%s", tpath);
		goto out;
	}
	pc_maint__image(&img, &ilen, &b);
	pc_maint__build_release(&b);
	pc_maint__image_key(img, text.p, text.len, have_mm == 0 ? mm.p : NULL,
			    mm.len);
	{
		int wrote =
			pc_maint__cache_write(cache_dir, cpath, img, ilen) == 0;

		if ((rc = pc_maint__open(out, img, ilen, PC_MAINT__HELD_MALLOC,
					 0, tree_dir, err)) < 0) {
			pc_err_prefix(err, "%s", tpath);
			goto out;
		}
		img = NULL;
		(*out)->cache = wrote ? PC_MAINT_CACHE_WRITTEN :
					PC_MAINT_CACHE_UNWRITTEN;
	}
out:
	pc_maint__build_release(&b);
	free(img);
	pc_maint__unmap(&text);
	pc_maint__unmap(&mm);
out_free:
	free(tpath);
	free(mpath);
	free(cpath);
	return rc;
}

int pc_maint_cache(const struct pc_maint *m)
{
	return m->cache;
}
