// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock boot-test: builds the latest applied commit of a series and
 * boots it in QEMU with two NVDIMMs (kernel-test/run), the verdict
 * stored for the state and the digests.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <json-c/json.h>

#include "boottest.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "policy.h"
#include "log.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char boot_usage[] =
	"usage: patchclock boot-test [--db FILE] [--tree DIR] [--runner PATH]\n"
	"                            [--guest-check SCRIPT]... [--now TIME]\n"
	"                            [--quiet] [--json] ID|MSGID|URL\n"
	"\n"
	"Builds the commit 'patchclock apply ID' made last (tinyconfig plus\n"
	"the NVDIMM options, in the cache) and boots it in QEMU with two\n"
	"emulated NVDIMMs: the bus, DIMMs and regions must be there, fsdax and\n"
	"sector namespaces must be created and destroyed, data written to\n"
	"/dev/pmem* must read back, each --guest-check script must exit 0 in\n"
	"the guest, and the kernel log must have no WARNING, BUG or Oops. The\n"
	"verdict, its checks and the console log are stored (table\n"
	"boot_tests): 'patchclock status' shows the series tested, or flags\n"
	"boot-test-failed, and the maintainers' next digest reports it.\n"
	"\n"
	"Options:\n"
	"  --db FILE            database (default $PATCHCLOCK_DB or\n"
	"                       ./patchclock.db)\n"
	"  --tree DIR           the kernel tree (default: $PC_KERNEL_TREE,\n"
	"                       else the current directory if it has\n"
	"                       MAINTAINERS, else the configuration's)\n"
	"  --runner PATH        the test runner (default\n"
	"                       $PATCHCLOCK_KERNEL_TEST_RUN or kernel-test/run)\n"
	"  --guest-check SCRIPT a shell script to run in the guest as well\n"
	"  --now TIME           the verdict's time (default now)\n"
	"  --quiet              hide the runner's progress\n"
	"  --json               print the verdict as one JSON object\n"
	"                       (BootTest in json.md, with the README)\n"
	"  -h, --help           this text\n"
	"\n"
	"A cold build takes about 5 minutes on 2 cores; later ones reuse the\n"
	"build directory and ccache (seconds to a minute), and a boot takes\n"
	"5-10 s.\n"
	"\n"
	"Exit status: 0 the boot test passed; 2 it failed (the reason names\n"
	"the check, the build error or the timeout); 1 when there is no\n"
	"verdict (never applied, no runner, database); 64 on bad usage.\n";

int cmd_boot_test(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "tree", required_argument, NULL, 't' },
		{ "runner", required_argument, NULL, 'r' },
		{ "guest-check", required_argument, NULL, 'g' },
		{ "now", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct boottest bt = { 0 };
	const char **checks = xcalloc((size_t)argc + 1, sizeof(*checks));
	const char *db = NULL, *tree = NULL;
	struct pc_store *st;

	long long id;
	int c, json = 0, rc = CLI_USAGE;

	bt.now = (int64_t)time(NULL);
	while ((c = getopt_long(argc, argv, "hq", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 't':
			tree = optarg;
			break;
		case 'r':
			bt.runner = optarg;
			break;
		case 'g':
			checks[bt.n_guest_checks++] = optarg;
			break;
		case 'n':
			if (cli_time_option("boot-test", "--now", optarg,
					    &bt.now) < 0) {
				goto out;
			}
			break;
		case 'q':
			bt.quiet = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			rc = cli_usage(stdout, boot_usage, CLI_OK);
			goto out;
		default:
			rc = cli_usage(stderr, boot_usage, CLI_USAGE);
			goto out;
		}
	}
	if (optind + 1 != argc) {
		log_warnx("boot-test: give exactly one series ID");
		rc = cli_usage(stderr, boot_usage, CLI_USAGE);
		goto out;
	}
	if (!(bt.tree = cli_tree_dir(tree))) {
		log_warnx(
			"boot-test: no kernel tree: give --tree DIR or set "
			"PC_KERNEL_TREE (kernel-test/prepare-tree makes one)");
		goto out;
	}
	bt.guest_checks = checks;
	rc = CLI_FAIL;
	if (!(st = cli_store(ctx, db, 0)))
		goto out;
	if (cli_resolve_series(st, "boot-test", argv[optind], &id) < 0) {
		rc = CLI_USAGE;
		goto out;
	}
	if (boottest_run(&bt, st, id) < 0)
		goto out;
	if (json) {
		json_object *o = json_top();

		json_object_object_add(o, "id",
				       json_object_new_int64(bt.boot_id));
		json_object_object_add(o, "series_id",
				       json_object_new_int64(id));
		json_object_object_add(o, "commit", json_text(bt.commit));
		json_object_object_add(
			o, "verdict",
			json_object_new_string(bt.passed ? "pass" : "fail"));
		json_object_object_add(o, "reason", json_text(bt.reason));
		json_object_object_add(o, "checks",
				       json_object_new_int(bt.nchecks));
		json_print(o);
	} else if (bt.passed) {
		printf("boot-test: series %lld (commit %.12s) passed %d "
		       "checks\n",
		       id, bt.commit, bt.nchecks);
	} else {
		printf("boot-test: series %lld (commit %.12s) failed: %s\n", id,
		       bt.commit, bt.reason);
	}
	rc = bt.passed ? CLI_OK : 2;
out:
	free(checks);
	return rc;
}
