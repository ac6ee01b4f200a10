// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing the HTML report into place as a whole. See report_model.h.
 *
 * The site is written into a new directory beside the target, then the
 * two are exchanged with one renameat2(RENAME_EXCHANGE), and the old one
 * is removed. A target that exists is replaced only when it is empty or
 * holds a report (the marker file .patchclock-report): a mistyped --html
 * never swaps away someone's directory.
 */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE, nftw's FTW_PHYS */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_model.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MARKER ".patchclock-report"

static int write_file(const char *root, const char *path, const char *bytes,
		      size_t len, struct pc_err *err)
{
	char *full = xasprintf("%s/%s", root, path);
	int fd = -1, rc = 0;

	if (!bytes) {
		if (mkdir(full, 0755) < 0)
			rc = pc_err_set(err, PC_EIO, "cannot make '%s': %s",
					full, strerror(errno));
		free(full);
		return rc;
	}
	fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	while (fd >= 0 && len) {
		ssize_t w = write(fd, bytes, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		bytes += w;
		len -= (size_t)w;
	}
	if (fd >= 0) {
		int short_write = len != 0;

		if (close(fd) < 0 || short_write)
			fd = -1;
		else
			fd = 0;
	}
	if (fd < 0)
		rc = pc_err_set(err, PC_EIO, "cannot write '%s': %s", full,
				strerror(errno ? errno : EIO));
	free(full);
	return rc;
}

struct out {
	const char *root;
};

static int put(const char *path, const char *bytes, size_t len, void *arg,
	       struct pc_err *err)
{
	const struct out *o = arg;

	return write_file(o->root, path, bytes, len, err);
}

static int rm_one(const char *path, const struct stat *sb, int type,
		  struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* Removes the tree at path, not following symbolic links. */
static void remove_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Whether dir is empty or a report: 1, 0 when it is something else. */
static int replaceable(const char *dir)
{
	char *marker = xasprintf("%s/" MARKER, dir);
	struct stat st;
	DIR *d;
	struct dirent *e;
	int ok = lstat(marker, &st) == 0 && S_ISREG(st.st_mode);

	free(marker);
	if (ok || !(d = opendir(dir)))
		return ok;
	ok = 1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ok = 0;
	closedir(d);
	return ok;
}

/* Puts the new site tmp at dir: a rename, or an exchange. */
static int swap_in(const char *tmp, const char *dir, struct pc_err *err)
{
	struct stat st;

	if (lstat(dir, &st) < 0) {
		if (errno == ENOENT && rename(tmp, dir) == 0)
			return 0;
		return pc_err_set(err, PC_EIO,
				  "cannot put the report at '%s': %s", dir,
				  strerror(errno));
	}
	if (!S_ISDIR(st.st_mode) || !replaceable(dir))
		return pc_err_set(err, PC_EIO,
				  "'%s' exists and is not a patchclock "
				  "report: give a new or empty directory",
				  dir);
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) < 0)
		return pc_err_set(err, PC_EIO,
				  "cannot swap the new report into '%s': %s",
				  dir, strerror(errno));
	return 0;
}

int cli_report_write(const char *dir, const struct pc_report *r,
		     struct pc_err *err)
{
	char *copy = xstrdup(dir), *copy2 = xstrdup(dir);
	char *tmp =
		xasprintf("%s/.%s.new-XXXXXX", dirname(copy), basename(copy2));
	struct out o = { .root = tmp };
	int rc;

	free(copy);
	free(copy2);
	if (!mkdtemp(tmp)) {
		rc = pc_err_set(err, PC_EIO,
				"cannot make a directory beside '%s': %s", dir,
				strerror(errno));
		free(tmp);
		return rc;
	}
	chmod(tmp, 0755);
	if ((rc = write_file(tmp, MARKER, "", 0, err)) < 0 ||
	    (rc = pc_report_render(r, put, &o, err)) < 0 ||
	    (rc = swap_in(tmp, dir, err)) < 0) {
		remove_tree(tmp);
		free(tmp);
		return rc;
	}
	/* tmp now holds the old report, if there was one. */
	remove_tree(tmp);
	free(tmp);
	return 0;
}
