// SPDX-License-Identifier: GPL-2.0-or-later
/* One patchclockd per database. See instance.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "instance.h"
#include "util/banned.h"

/* The lock file's descriptor: one per process, for its life. */
static int lock_fd = -1;

/* The pid written in a small file, or 0. */
static long pid_in(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

int instance_lock(const char *db, char *errbuf, size_t len)
{
	char path[4096];
	int fd;

	if (snprintf(path, sizeof(path), "%s.lock", db) >= (int)sizeof(path)) {
		snprintf(errbuf, len, "database path too long: %s", db);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(errbuf, len, "cannot open the lock file '%s': %s",
			 path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		long pid = pid_in(fd);

		snprintf(errbuf, len,
			 "another patchclockd (pid %ld) runs on '%s': stop it "
			 "first, or give this one its own database",
			 pid, db);
		close(fd);
		return -1;
	}
	lock_fd = fd;
	instance_note_pid();
	return 0;
}

void instance_note_pid(void)
{
	char buf[32];
	int n;

	if (lock_fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(lock_fd, 0) < 0 || pwrite(lock_fd, buf, (size_t)n, 0) < 0)
		return; /* the lock holds without it */
}

int instance_pidfile(const char *path, char *errbuf, size_t len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	char buf[32];
	long pid;
	int n;

	if (fd < 0) {
		snprintf(errbuf, len, "cannot write pidfile '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	pid = pid_in(fd);
	if (pid > 0 && pid != (long)getpid() &&
	    (kill((pid_t)pid, 0) == 0 || errno == EPERM)) {
		snprintf(errbuf, len,
			 "pidfile '%s' names process %ld, which runs: is "
			 "another patchclockd using it? Give each daemon its "
			 "own pidfile",
			 path, pid);
		close(fd);
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n) {
		snprintf(errbuf, len, "cannot write pidfile '%s': %s", path,
			 strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void instance_child(pid_t parent)
{
	sigset_t none;

	/* The daemon's handlers (libev's, which only note the signal for a
	 * loop the child never runs) would make it deaf to SIGTERM. */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* The daemon may have died before the line above. */
	if (getppid() != parent)
		_exit(0);
	if (lock_fd >= 0) {
		close(lock_fd);
		lock_fd = -1;
	}
}
