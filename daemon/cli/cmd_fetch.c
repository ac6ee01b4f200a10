// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock fetch: keeps the kernel tree current, as the daemon's
 * `fetch = REMOTE` does on its own: fetches the remote and fast-forwards
 * the checked-out branch to its upstream. For a tree updated from cron.
 */
#include <getopt.h>
#include <stdio.h>

#include "apply/branches.h"
#include "cli/cli.h"
#include "policy.h"
#include "log.h"
#include "util/banned.h"

static const char fetch_usage[] =
	"usage: patchclock fetch [--tree DIR] [--remote NAME] [--no-ff]\n"
	"\n"
	"Fetches the remote NAME (default origin) into the kernel tree DIR\n"
	"(a git repository), as 'git fetch --prune NAME' does, then moves the\n"
	"checked-out branch to its upstream when that is a fast-forward, as\n"
	"'git merge --ff-only @{upstream}' does: a file with local changes in\n"
	"the way stops it and nothing is changed. The next 'status', 'digest'\n"
	"or daemon pass then reads the new MAINTAINERS and profiles, and a\n"
	"patch whose patch-id is on one of the tree's branches counts as\n"
	"applied. patchclockd does the same every fetch_every seconds with\n"
	"'fetch = NAME' in its configuration.\n"
	"\n"
	"Options:\n"
	"  --tree DIR     the kernel tree (default: $PC_KERNEL_TREE, else the\n"
	"                 current directory if it has MAINTAINERS, else the\n"
	"                 configuration's)\n"
	"  --remote NAME  the remote to fetch (default origin)\n"
	"  --no-ff        fetch only; leave the work tree as it is\n"
	"  -h, --help     this text\n"
	"\n"
	"Exit status: 0; 1 when the tree is no git repository, has no such\n"
	"remote, or the fetch or the fast-forward failed; 64 on bad usage.\n";

int cmd_fetch(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "remote", required_argument, NULL, 'r' },
		{ "no-ff", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *tree = NULL, *remote = "origin";
	struct pc_err err = { 0 };
	char to[41];
	int c, ff = 1;

	(void)ctx; /* opens neither store nor policy */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			tree = optarg;
			break;
		case 'r':
			remote = optarg;
			break;
		case 'n':
			ff = 0;
			break;
		case 'h':
			return cli_usage(stdout, fetch_usage, CLI_OK);
		default:
			return cli_usage(stderr, fetch_usage, CLI_USAGE);
		}
	}
	if (optind != argc) {
		log_warnx("fetch: unexpected argument '%s'", argv[optind]);
		return cli_usage(stderr, fetch_usage, CLI_USAGE);
	}
	if (!(tree = cli_tree_dir(tree))) {
		log_warnx("fetch: no kernel tree (give --tree DIR or set "
			  "PC_KERNEL_TREE)");
		return CLI_USAGE;
	}
	if (pc_branch_fetch(tree, remote, &err) < 0) {
		log_warnx("fetch: %s", err.msg);
		return CLI_FAIL;
	}
	if (!ff) {
		printf("fetched %s into %s\n", remote, tree);
		return CLI_OK;
	}
	if (pc_branch_fast_forward(tree, to, &err) < 0) {
		log_warnx("fetch: %s (the fetch itself succeeded; commit or "
			  "stash the local changes, or give --no-ff)",
			  err.msg);
		return CLI_FAIL;
	}
	if (to[0])
		printf("fetched %s into %s; fast-forwarded to %.12s\n", remote,
		       tree, to);
	else
		printf("fetched %s into %s; the checked-out branch is as it "
		       "was (up to date, no upstream, or diverged)\n",
		       remote, tree);
	return CLI_OK;
}
