// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock accept: records that a maintainer accepted a series (for
 * trees whose maintainers do not reply "Applied"). The next status run
 * judges it accepted.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"
#include "log.h"
#include "store/status.h"
#include "util/banned.h"

static const char accept_usage[] =
	"usage: patchclock accept [--db FILE] [--at TIME] [--by ADDR]\n"
	"                         [--note TEXT] ID|MSGID|URL\n"
	"\n"
	"Marks series ID accepted (at TIME, default now), as a maintainer's\n"
	"\"Applied, thanks\" reply would: its clock stops, it leaves the\n"
	"open listings of 'patchclock status', and its state becomes\n"
	"'accepted'. The series\n"
	"is its ID, or the Message-ID of one of its mails, or that mail's\n"
	"archive link (https://lore.kernel.org/LIST/MSGID/).\n"
	"\n"
	"Options:\n"
	"  --db FILE     database (default: see patchclock --help)\n"
	"  --at TIME     when ('YYYY-MM-DD[ HH:MM]' UTC or @EPOCH; for\n"
	"                replays at an earlier 'status --now')\n"
	"  --by ADDR     who accepted it (recorded)\n"
	"  --note TEXT   why, or where it was applied (recorded)\n"
	"  -h, --help    this text\n"
	"\n"
	"Exit status: 0; 1 when there is no such series or the database\n"
	"failed; 64 on bad usage.\n";

int cmd_accept(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "by", required_argument, NULL, 'b' },
		{ "at", required_argument, NULL, 'a' },
		{ "note", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *by = NULL, *note = NULL;
	struct pc_err err = { 0 };
	struct pc_store *st;
	int64_t at = (int64_t)time(NULL);
	long long id;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'b':
			by = optarg;
			break;
		case 'a':
			if (cli_time_option("accept", "--at", optarg, &at) < 0)
				return CLI_USAGE;
			break;
		case 'n':
			note = optarg;
			break;
		case 'h':
			return cli_usage(stdout, accept_usage, CLI_OK);
		default:
			return cli_usage(stderr, accept_usage, CLI_USAGE);
		}
	}
	if (optind + 1 != argc) {
		log_warnx("accept: give exactly one series ID");
		return cli_usage(stderr, accept_usage, CLI_USAGE);
	}
	if (!(st = cli_store(ctx, db, 0)))
		return CLI_FAIL;
	if (cli_resolve_series(st, "accept", argv[optind], &id) < 0)
		return CLI_USAGE;
	if (pc_store_begin(st, &err) < 0 ||
	    pc_status_accept(st, id, at, by, note, &err) < 0 ||
	    pc_store_commit(st, &err) < 0) {
		log_warnx("accept: %s", err.msg);
		pc_store_rollback(st);
		return CLI_FAIL;
	}
	printf("accept: series %lld accepted\n", id);
	return CLI_OK;
}
