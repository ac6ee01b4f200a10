// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel-test/run on an applied series, its JSON verdict stored. See
 * boottest.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "boottest.h"
#include "log.h"
#include "store/testrun.h"
#include "util/buf.h"
#include "datadir.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* The runner: the caller's, $PATCHCLOCK_KERNEL_TEST_RUN, or the data
 * directory's kernel-test/run. The caller frees it. */
static char *runner_path(const struct boottest *bt)
{
	const char *env = getenv("PATCHCLOCK_KERNEL_TEST_RUN");

	if (bt->runner)
		return xstrdup(bt->runner);
	return env && *env ? xstrdup(env) : pc_data_path("kernel-test/run");
}

/* Runs the runner; returns its exit status, or -1. */
static int spawn(const struct boottest *bt, const char *commit,
		 const char *json)
{
	char *runner = runner_path(bt);
	char **argv = xcalloc(8 + 2 * bt->n_guest_checks, sizeof(*argv));
	size_t n = 0, i;
	int status;
	pid_t pid;

	argv[n++] = runner;
	argv[n++] = (char *)"--tree";
	argv[n++] = (char *)bt->tree;
	argv[n++] = (char *)"--commit";
	argv[n++] = (char *)commit;
	argv[n++] = (char *)"--json";
	argv[n++] = (char *)json;
	for (i = 0; i < bt->n_guest_checks; i++) {
		argv[n++] = (char *)"--guest-check";
		argv[n++] = (char *)bt->guest_checks[i];
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		log_warn("boot-test: fork");
		free(argv);
		free(runner);
		return -1;
	}
	if (pid == 0) {
		if (bt->quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
		} else {
			dup2(2, 1); /* progress on stderr, like the runner's */
		}
		execv(runner, argv);
		fprintf(stderr, "boot-test: cannot run '%s': %s\n", runner,
			strerror(errno));
		_exit(127);
	}
	free(argv);
	free(runner);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			log_warn("boot-test: waiting for the runner");
			return -1;
		}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
			       json_object_is_type(v, json_type_string) ?
		       json_object_get_string(v) :
		       NULL;
}

static const char *jraw(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ?
		       json_object_to_json_string_ext(v,
						      JSON_C_TO_STRING_PLAIN) :
		       NULL;
}

/* One "result  name  detail" line per check, for mail. */
static char *summary_of(json_object *checks)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i, n;

	if (!checks || !json_object_is_type(checks, json_type_array))
		return NULL;
	n = json_object_array_length(checks);
	for (i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(checks, i);
		const char *name = jstr(c, "name"), *result = jstr(c, "result");
		const char *detail = jstr(c, "detail");

		pc_buf_addf(&b, "%-4s  %-14s %s\n", result ? result : "?",
			    name ? name : "?", detail ? detail : "");
	}
	return pc_buf_detach(&b, NULL);
}

int boottest_run(struct boottest *bt, struct pc_store *st, int64_t series_id)
{
	struct pc_boot_row row = { 0 };
	struct pc_err err = { 0 };
	json_object *root = NULL, *checks;
	char *branch = NULL, *commit = NULL, *summary = NULL, *json = NULL;
	const char *tmpdir = getenv("TMPDIR");
	const char *verdict;
	int64_t apply_id = 0;
	int rc = -1, fd, status;

	if ((rc = pc_testrun_last_apply(&apply_id, &branch, &commit, st,
					series_id, &err)) <= 0) {
		if (rc < 0)
			log_warnx("boot-test: %s", err.msg);
		else
			log_warnx("boot-test: series %lld was never applied: "
				  "run 'patchclock apply %lld' first",
				  (long long)series_id, (long long)series_id);
		rc = -1;
		goto out;
	}
	rc = -1;
	json = xasprintf("%s/patchclock-boot.XXXXXX",
			 tmpdir && *tmpdir ? tmpdir : "/tmp");
	if ((fd = mkstemp(json)) < 0) {
		log_warn("boot-test: cannot make a temporary file like '%s'",
			 json);
		goto out;
	}
	close(fd);
	status = spawn(bt, commit, json);
	if (status != 0 && status != 1) {
		log_warnx("boot-test: '%s' exited with status %d before a "
			  "verdict (setup or usage error; its messages are "
			  "above)",
			  runner_path(bt), status);
		goto out_unlink;
	}
	if (!(root = json_object_from_file(json))) {
		log_warnx("boot-test: '%s' wrote no readable verdict",
			  runner_path(bt));
		goto out_unlink;
	}
	verdict = jstr(root, "verdict");
	if (!verdict || (strcmp(verdict, "pass") && strcmp(verdict, "fail"))) {
		log_warnx("boot-test: the runner's verdict is missing");
		goto out_unlink;
	}
	bt->passed = !strcmp(verdict, "pass");
	snprintf(bt->reason, sizeof(bt->reason), "%s",
		 jstr(root, "reason") ? jstr(root, "reason") : "");
	snprintf(bt->commit, sizeof(bt->commit), "%s", commit);
	if (!json_object_object_get_ex(root, "checks", &checks) ||
	    !json_object_is_type(checks, json_type_array))
		checks = NULL;
	bt->nchecks = checks ? (int)json_object_array_length(checks) : 0;
	summary = summary_of(checks);
	row.series_id = series_id;
	row.apply_id = apply_id;
	row.commit_id = commit;
	row.passed = bt->passed;
	row.reason = bt->reason[0] ? bt->reason : NULL;
	row.checks = jraw(root, "checks");
	row.summary = summary;
	row.timings = jraw(root, "timings");
	row.console = jstr(root, "console");
	row.at = bt->now;
	if (pc_store_begin(st, &err) < 0 ||
	    pc_testrun_add_boot(st, &row, &bt->boot_id, &err) < 0 ||
	    pc_store_commit(st, &err) < 0) {
		log_warnx("boot-test: %s", err.msg);
		pc_store_rollback(st);
		goto out_unlink;
	}
	rc = 0;
out_unlink:
	unlink(json);
out:
	json_object_put(root);
	free(summary);
	free(json);
	free(branch);
	free(commit);
	return rc;
}
