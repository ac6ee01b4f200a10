/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One patchclockd per database. The instance lock is a lock file beside
 * the database ("DB.lock", flock(2)) held for the process's life and
 * naming its pid; a second daemon on the same database refuses to start
 * and names the first. The pidfile is checked, not overwritten, while the
 * process it names runs. Children (sender, fetchers, tester) die with the
 * daemon (PR_SET_PDEATHSIG) and never hold the lock themselves, so a
 * daemon killed with SIGKILL leaves no sender behind beside its successor.
 *
 * The lock is process-wide by nature: this module keeps its descriptor.
 */
#ifndef PC_DAEMON_INSTANCE_H
#define PC_DAEMON_INSTANCE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Takes the lock for database db. Returns 0, or -1 with a message in
 * errbuf ("another patchclockd (pid N) runs on DB: ...").
 */
int instance_lock(const char *db, char *errbuf, size_t len);

/* Writes the current pid into the lock file (after daemon(3) forked). */
void instance_note_pid(void);

/*
 * Writes pid into path unless path names another process that runs.
 * Returns 0, or -1 with a message in errbuf.
 */
int instance_pidfile(const char *path, char *errbuf, size_t len);

/* Call first in a forked child of the daemon (parent: the daemon's pid):
 * it dies with the daemon and lets go of its copy of the lock. */
void instance_child(pid_t parent);

#endif
