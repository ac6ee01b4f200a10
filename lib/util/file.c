// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading whole files. See file.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"
#include "util/banned.h"

int pc_read_fd(struct pc_buf *out, int fd, size_t limit, const char *path,
	       struct pc_err *err)
{
	size_t start = out->len;

	for (;;) {
		ssize_t n;

		pc_buf_grow(out, 65536);
		n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pc_err_errno(err, PC_EIO, "cannot read '%s'",
					    path);
		if (n == 0)
			return 0;
		pc_buf_setlen(out, out->len + (size_t)n);
		if (limit && out->len - start > limit)
			return pc_err_set(err, PC_ELIMIT,
					  "'%s' is larger than %zu bytes", path,
					  limit);
	}
}

int pc_read_file(struct pc_buf *out, const char *path, size_t limit,
		 unsigned flags, const char *hint, struct pc_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int missing_ok = flags & PC_READ_MISSING_OK;
	struct stat st;
	int rc;

	if (fd < 0) {
		if (missing_ok && errno == ENOENT)
			return 1;
		return pc_err_errno(err,
				    errno == ENOENT ? PC_ENOTFOUND : PC_EIO,
				    "cannot open '%s'", path);
	}
	if (fstat(fd, &st) < 0) {
		rc = pc_err_errno(err, PC_EIO, "cannot stat '%s'", path);
	} else if (!S_ISREG(st.st_mode)) {
		rc = missing_ok ? 1 :
		     hint	? pc_err_set(err, PC_EIO,
					     "'%s' is not a regular file (%s)", path,
					     hint) :
				  pc_err_set(err, PC_EIO,
					     "'%s' is not a regular file", path);
	} else if (limit && (unsigned long long)st.st_size > limit) {
		rc = pc_err_set(err, PC_ELIMIT, "'%s' is larger than %zu bytes",
				path, limit);
	} else {
		pc_buf_grow(out, (size_t)st.st_size);
		rc = pc_read_fd(out, fd, limit, path, err);
	}
	close(fd);
	return rc;
}
