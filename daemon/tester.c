// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's apply-and-boot child. See tester.h.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apply/amseries.h"
#include "boottest.h"
#include "log.h"
#include "store/testrun.h"
#include "tester.h"
#include "instance.h"
#include "util/banned.h"

/* A series the tester could not even try (incomplete, branch taken):
 * a failed apply with err's message as the reason. */
static int record_failure(struct pc_store *st, const struct conf *c,
			  int64_t series, int64_t now, struct pc_err *err)
{
	struct pc_apply_row row = { 0 };
	struct pc_err e2 = { 0 };
	int64_t version = 0;

	row.series_id = series;
	row.tree = c->tree;
	row.reason = err->msg;
	row.at = now;
	if (pc_store_begin(st, &e2) == 0 &&
	    pc_testrun_version(st, series, &version, &e2) == 0) {
		row.version = (int)version;
		if (pc_testrun_add_apply(st, &row, NULL, &e2) == 0 &&
		    pc_store_commit(st, &e2) == 0)
			return 0;
	}
	pc_store_rollback(st);
	*err = e2;
	return -1;
}

static void child_main(const struct conf *c, int64_t series, int64_t now)
{
	struct pc_am_options o = { 0 };
	struct pc_apply_result r;
	struct pc_store *st = NULL;
	struct pc_err err = { 0 };
	struct boottest bt = { 0 };
	sigset_t none;
	char *branch = NULL;
	int64_t apply_id = 0;
	int rc;

	/* Its own process group: stopping it stops the runner and QEMU. */
	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	if (pc_store_open(&st, c->database, &err) < 0) {
		log_warnx("tester: %s", err.msg);
		_exit(1);
	}
	o.tree = c->tree;
	o.branch_prefix = c->test.branch_prefix;
	o.archive_url = c->archive;
	o.committer_email = c->from;
	o.now = now;
	/* pc_am_series holds no transaction while it applies. */
	rc = pc_am_series(&r, &apply_id, &branch, st, series, &o, &err);
	if (rc < 0 && !pc_err_is_db(rc)) {
		/* Recorded as a failed apply, so it is not tried again and
		 * the maintainers hear of it. */
		log_warnx("tester: series %lld: %s", (long long)series,
			  err.msg);
		if (record_failure(st, c, series, now, &err) < 0)
			goto fail;
	} else if (rc < 0) {
		goto fail;
	}
	if (rc == 0 && r.applied) {
		log_info("tester: series %lld applied as %s; booting it",
			 (long long)series, branch);
		bt.runner = c->test.runner;
		bt.tree = c->tree;
		bt.guest_checks = (const char *const *)c->test.guest_checks;
		bt.n_guest_checks = c->test.n_guest_checks;
		bt.quiet = 1;
		bt.now = now;
		if (boottest_run(&bt, st, series) == 0)
			log_info("tester: series %lld boot test %s%s%s",
				 (long long)series,
				 bt.passed ? "passed" : "failed",
				 bt.passed ? "" : ": ", bt.reason);
	} else if (rc == 0) {
		log_info("tester: series %lld not applied: %s",
			 (long long)series, r.reason);
	}
	pc_apply_result_release(&r);
	free(branch);
	pc_store_close(st);
	_exit(0);
fail:
	log_warnx("tester: series %lld: %s", (long long)series, err.msg);
	pc_store_close(st);
	_exit(1);
}

static void tester_on_exit(EV_P_ ev_child *w, int revents)
{
	struct tester *t = w->data;

	(void)revents;
	ev_child_stop(EV_A_ w);
	if (!WIFEXITED(w->rstatus) || WEXITSTATUS(w->rstatus) != 0)
		log_warnx("tester: the child for series %lld exited with "
			  "status %d",
			  (long long)t->series, w->rstatus);
	t->pid = 0;
	if (t->done)
		t->done(t->arg);
}

int tester_maybe_start(struct tester *t, const struct conf *c,
		       struct pc_store *st, int64_t now)
{
	struct pc_err err = { 0 };
	int64_t series = 0;
	pid_t pid, parent = getpid();

	if (!c->test.apply || !c->tree || t->pid)
		return 0;
	if (pc_testrun_next(st, now, &series, &err) < 0) {
		log_warnx("tester: %s", err.msg);
		return 0;
	}
	if (!series)
		return 0;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		log_warn("tester: fork");
		return 0;
	}
	if (pid == 0) {
		instance_child(parent);
		child_main(c, series, now);
	}
	t->pid = pid;
	t->series = series;
	ev_child_init(&t->child, tester_on_exit, pid, 0);
	t->child.data = t;
	ev_child_start(t->loop, &t->child);
	log_info("tester: applying series %lld (child %ld)", (long long)series,
		 (long)pid);
	return 1;
}

void tester_stop(struct tester *t)
{
	int status, i;

	if (!t->pid)
		return;
	kill(-t->pid, SIGTERM);
	kill(t->pid, SIGTERM);
	for (i = 0; i < 50; i++) {
		if (waitpid(t->pid, &status, WNOHANG) != 0)
			break;
		poll(NULL, 0, 100);
	}
	if (i == 50) {
		kill(-t->pid, SIGKILL);
		kill(t->pid, SIGKILL);
		waitpid(t->pid, &status, 0);
	}
	ev_child_stop(t->loop, &t->child);
	t->pid = 0;
}
