// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock apply: a stored series onto a branch of the kernel tree,
 * as git am and b4 would (lib/apply/amseries.h), the outcome stored.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "apply/amseries.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "policy.h"
#include "log.h"
#include "util/banned.h"

static const char apply_usage[] =
	"usage: patchclock apply [--db FILE] [--tree DIR] [--base REF]\n"
	"                        [--branch NAME] [--archive URL] [--now TIME]\n"
	"                        [--json] ID|MSGID|URL\n"
	"\n"
	"Applies series ID to a new branch of the kernel tree with libgit2, as\n"
	"'git am' would: one commit per patch with the mail's author, date,\n"
	"subject and message. The trailers given on the list (Reviewed-by,\n"
	"Acked-by, Tested-by, Reported-by, Suggested-by, Fixes, Closes) are\n"
	"added after the patch's own, each once, then a Link: to the archive,\n"
	"as 'b4 am' does. The base is the series' base-commit: when the tree\n"
	"has it, else --base, else the tree's HEAD. The tree's work tree,\n"
	"index and HEAD are not touched.\n"
	"\n"
	"A patch that does not apply stops the series: no branch is made, and\n"
	"the patch, file and hunk are reported. Paths outside the tree,\n"
	"absolute paths, .git paths, paths through a symbolic link of the tree\n"
	"and new or changed symbolic links are refused the same way. Either\n"
	"way the outcome is stored (table applies); 'patchclock status' shows\n"
	"an applied series as applied, and digests report a failure. The\n"
	"database is not locked while libgit2 works (seconds on a kernel\n"
	"tree); on a terminal, a line on stderr says what is being applied.\n"
	"\n"
	"Options:\n"
	"  --db FILE      database (default: see patchclock --help)\n"
	"  --tree DIR     the kernel tree (default: $PC_KERNEL_TREE, else the\n"
	"                 current directory if it has MAINTAINERS, else the\n"
	"                 configuration's)\n"
	"  --base REF     the base when the series names none the tree has\n"
	"  --branch NAME  the branch to make (default patchclock/ID-vVERSION;\n"
	"                 it must not exist)\n"
	"  --archive URL  the Link: pattern, one %s for the Message-ID\n"
	"                 (default https://lore.kernel.org/r/%s)\n"
	"  --now TIME     the commit time and the record's time (default now)\n"
	"  --json         print the outcome as one JSON object (Apply in\n"
	"                 json.md, with the README)\n"
	"  -h, --help     this text\n"
	"\n"
	"Exit status: 0 applied; 2 a patch did not apply or was refused;\n"
	"1 when the series, the tree or the database cannot be used; 64 on\n"
	"bad usage.\n";

#define APPLY_NOT_APPLIED 2

/* On a terminal: what is being done while libgit2 works (seconds on a
 * kernel tree). */
static void say_applying(void *arg, int64_t series_id, int version,
			 size_t npatches, const char *branch)
{
	(void)arg;
	fprintf(stderr,
		"apply: applying series %lld v%d (%zu patch%s) as %s...\n",
		(long long)series_id, version, npatches,
		npatches == 1 ? "" : "es", branch);
}

static void print_json(const struct pc_apply_result *r, long long id,
		       const char *branch, long long apply_id)
{
	json_object *o = json_top(), *a;
	int failed = !r->applied;
	size_t i;

	json_object_object_add(o, "id", json_object_new_int64(apply_id));
	json_object_object_add(o, "series_id", json_object_new_int64(id));
	json_object_object_add(o, "outcome",
			       json_object_new_string(r->applied ? "applied" :
								   "failed"));
	json_object_object_add(o, "base", json_text(r->base));
	json_object_object_add(o, "branch",
			       r->applied ? json_str(branch) : NULL);
	a = json_object_new_array();
	for (i = 0; i < r->ncommits; i++)
		json_object_array_add(a, json_object_new_string(r->commits[i]));
	json_object_object_add(o, "commits", a);
	json_object_object_add(
		o, "failed_patch",
		failed ? json_object_new_int64((int64_t)r->failed_patch) :
			 NULL);
	json_object_object_add(o, "file", failed ? json_text(r->file) : NULL);
	json_object_object_add(o, "hunk", failed ? json_text(r->hunk) : NULL);
	json_object_object_add(o, "reason",
			       failed ? json_text(r->reason) : NULL);
	json_print(o);
}

int cmd_apply(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tree", required_argument, NULL, 't' },
		{ "base", required_argument, NULL, 'b' },
		{ "branch", required_argument, NULL, 'B' },
		{ "archive", required_argument, NULL, 'a' },
		{ "now", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_am_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	struct pc_store *st;
	const char *db = NULL, *tree = NULL;
	char *branch = NULL;
	int64_t apply_id = 0;
	long long id;
	int c, json = 0, rc, status;

	o.now = (int64_t)time(NULL);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 't':
			tree = optarg;
			break;
		case 'b':
			o.base = optarg;
			break;
		case 'B':
			o.branch = optarg;
			break;
		case 'a':
			o.archive_url = optarg;
			break;
		case 'n':
			if (cli_time_option("apply", "--now", optarg, &o.now) <
			    0)
				return CLI_USAGE;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			return cli_usage(stdout, apply_usage, CLI_OK);
		default:
			return cli_usage(stderr, apply_usage, CLI_USAGE);
		}
	}
	if (optind + 1 != argc) {
		log_warnx("apply: give exactly one series ID");
		return cli_usage(stderr, apply_usage, CLI_USAGE);
	}
	if (!(o.tree = cli_tree_dir(tree))) {
		log_warnx(
			"apply: no kernel tree: give --tree DIR or set "
			"PC_KERNEL_TREE (kernel-test/prepare-tree makes one)");
		return CLI_USAGE;
	}
	if (!(st = cli_store(ctx, db, 0)))
		return CLI_FAIL;
	if (cli_resolve_series(st, "apply", argv[optind], &id) < 0)
		return CLI_USAGE;
	if (isatty(STDERR_FILENO))
		o.applying = say_applying;
	rc = pc_am_series(&r, &apply_id, &branch, st, id, &o, &err);
	if (rc < 0) {
		log_warnx("apply: %s", err.msg);
		pc_apply_result_release(&r);
		free(branch);
		return rc == PC_EUSAGE ? CLI_USAGE : CLI_FAIL;
	}
	if (json) {
		print_json(&r, id, branch, (long long)apply_id);
	} else if (r.applied) {
		printf("apply: series %lld applied onto %.12s as branch %s "
		       "(%zu commits, last %.12s)\n",
		       id, r.base, branch, r.ncommits,
		       r.commits[r.ncommits - 1]);
	} else {
		printf("apply: series %lld not applied: %s\n", id, r.reason);
	}
	status = r.applied ? CLI_OK : APPLY_NOT_APPLIED;
	pc_apply_result_release(&r);
	free(branch);
	return status;
}
