/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's tester ([test] apply = yes): for each accepted series not
 * yet applied at its version, a child process applies it to the kernel
 * tree (lib/apply/amseries.h) and, when it applied, boots it
 * (kernel-test/run through boottest.h). One child at a time: a cold
 * kernel build takes both cores for minutes. The loop learns of the end
 * through ev_child and judges again, so the verdict reaches the state,
 * the digest and (with [test] reply = yes) the thread.
 */
#ifndef PC_DAEMON_TESTER_H
#define PC_DAEMON_TESTER_H

#include <ev.h>
#include <stdint.h>
#include <sys/types.h>

#include "conf.h"
#include "store/store.h"

typedef void (*tester_done_fn)(void *arg);

struct tester {
	struct ev_loop *loop; /* borrowed */
	ev_child child;
	pid_t pid; /* 0 when idle */
	int64_t series; /* the series under test */
	tester_done_fn done;
	void *arg;
};

/*
 * When idle and c->test.apply is set, starts a child for the oldest
 * accepted series (at now) without an apply of its current version.
 * Returns 1 when a child started, 0 when there was nothing to do or a
 * child is running.
 */
int tester_maybe_start(struct tester *t, const struct conf *c,
		       struct pc_store *st, int64_t now);

/* Stops a running child (SIGTERM, then SIGKILL after 5 s) and waits. */
void tester_stop(struct tester *t);

#endif
