// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock digest: judges the series it may mail about at a "now" (and
 * a share of the older ones), then queues the mail
 * the verdicts call for (maintainer digests, "resend now" replies,
 * too-soon notes) in the same transaction. --dry-run prints the exact
 * mail and queues nothing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/spool.h"
#include "policy.h"
#include "log.h"
#include "notify/plan.h"
#include "store/outbox.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char digest_usage[] =
	"usage: patchclock digest [--db FILE] [--now TIME] [--tree DIR]\n"
	"                         [--overrides FILE]... [--no-map] [--releases FILE]\n"
	"                         [--holidays FILE] [--bot ADDR]...\n"
	"                         [--branches GLOBS]\n"
	"                         [--dkim-keys FILE] [--require-dkim]\n"
	"                         [--attest-tags]\n"
	"                         --from ADDR [--domain NAME] [--archive URL]\n"
	"                         [--daily-limit N] [--no-replies]\n"
	"                         [--max-age DAYS] [--watching-since TIME]\n"
	"                         [--cc-maintainers]\n"
	"                         [--opt-out ADDR|@DOMAIN]...\n"
	"                         [--to ADDR] [--dry-run]\n"
	"\n"
	"Judges at TIME (as 'patchclock status' does) the series posted in the\n"
	"last --max-age days, and 500 of the older ones that are due a\n"
	"judging (an imported archive's years of history take many runs, or\n"
	"the daemon's first pass; status judges the rest as it lists them),\n"
	"and queues in the outbox, in the same transaction, the mail\n"
	"the verdicts call for, each once under its action key:\n"
	"  - one 'resend now' reply per series version whose wait on the\n"
	"    people who apply it passed the profile's cadence, at their next\n"
	"    office-hours opening, if it is still justified then: to the\n"
	"    author, naming whom to write to: those who apply it and the\n"
	"    entry's R: people active on the list (--cc-maintainers: Cc them,\n"
	"    unless the profile prefers a private reminder); none after the\n"
	"    author's own ping;\n"
	"  - a digest to each person who applies a governing entry's patches\n"
	"    (its M: people seen applying them, else seen on the list) when\n"
	"    a series newly waits on them past the cadence, at the start of\n"
	"    their office hours, listing every such series (reviewed ones as\n"
	"    ready to apply), with archive links; never one's own series.\n"
	"Nothing is mailed about a series that is not a kernel submission\n"
	"(its files are not in the tree, another project's tag such as\n"
	"[ndctl PATCH], X-Patchwork-Hint: ignore, AUTOSEL, a stable queue's\n"
	"copy, an RFC, a lone patch of a larger series, a bug report with a\n"
	"diff), that was applied (a commit with its patch-id on the tree's\n"
	"branches counts), queued, superseded or withdrawn, whose next step\n"
	"is the author's (a review or question to answer, a new version\n"
	"promised), that its own maintainer posted, whose profile asks not\n"
	"to be pinged, that was posted more than --max-age days ago, or that\n"
	"was already due before mail was first planned on this database\n"
	"('patchclock status' shows each series' hold).\n"
	"No mail goes to lists or group aliases (an M: without a name), to\n"
	"addresses or domains that opted out (a reply with the line\n"
	"'patchclock: opt-out' adds its sender), to bots, in answer to\n"
	"Auto-Submitted or bulk mail, or past the daily limit per\n"
	"recipient: such mail is kept as 'suppressed' with the reason.\n"
	"'patchclock send' delivers what is queued.\n"
	"\n"
	"Options (and those of 'patchclock status'):\n"
	"  --from ADDR        patchclock's own address (From:)\n"
	"  --domain NAME      domain of generated Message-IDs (default: the\n"
	"                     domain of --from)\n"
	"  --archive URL      archive link pattern, '%s' for the Message-ID\n"
	"                     (default https://lore.kernel.org/r/%s)\n"
	"  --daily-limit N    mails per recipient per day (default 3)\n"
	"  --no-replies       digests only\n"
	"  --max-age DAYS     say nothing about series posted longer ago\n"
	"                     (default 90)\n"
	"  --cc-maintainers   Cc the maintainers on reminders\n"
	"  --watching-since TIME\n"
	"                     on the first run over a database, treat waits\n"
	"                     due since TIME as news (default: the first\n"
	"                     run's --now: nothing about the past)\n"
	"  --opt-out ADDR     never mail ADDR, or a whole @DOMAIN (kept in the\n"
	"                     database; may repeat)\n"
	"  --to ADDR          with --dry-run: only mail to ADDR\n"
	"  --dry-run          print the mail that would be queued, queue none\n"
	"  -h, --help         this text\n";

struct show {
	int64_t now;
	const char *to;
	unsigned n;
};

static int show_one(const struct pc_outbox_item *it, void *arg)
{
	struct show *s = arg;

	if (it->created_at != s->now)
		return 0;
	if (s->to && !strstr(it->recipients, s->to))
		return 0;
	s->n++;
	printf("=== %s to %s (%s%s%s)\n", it->action, it->recipients,
	       it->status, it->reason ? ": " : "",
	       it->reason ? it->reason : "");
	fwrite(it->message, 1, it->message_len, stdout);
	putchar('\n');
	return 0;
}

static int show_queued(struct pc_store *st, void *arg)
{
	struct pc_err err = { 0 };

	if (pc_outbox_list(st, 0, 1, show_one, arg, &err) < 0) {
		log_warnx("digest: %s", err.msg);
		return -1;
	}
	return 0;
}

/* The summary line, and every reason why a series past its cadence got
 * no mail, so that "0 queued" never stands alone. */
static void print_summary(const struct pc_plan_stats *ps, int dry)
{
	size_t i;

	printf("digest: %s%u queued, %u held back by a rule, %u "
	       "already queued, %u new opt-outs, %u could not be "
	       "composed ('patchclock outbox --all' says why)\n",
	       dry ? "(dry run, nothing kept) " : "", ps->queued,
	       ps->suppressed, ps->already, ps->opt_outs, ps->unwritable);
	if (ps->held_first_run)
		printf("digest: %u overdue series were already due before mail "
		       "was first planned here: no mail about the past "
		       "(--watching-since TIME mails about what was due "
		       "since TIME)\n",
		       ps->held_first_run);
	for (i = 0; i < ps->nheld; i++)
		printf("digest: %u overdue series held: %s "
		       "('patchclock status --all' says why for each)\n",
		       ps->held[i].n, ps->held[i].hold);
}

int cmd_digest(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "now", required_argument, NULL, 'n' },
		CLI_POLICY_LONGOPTS,
		{ "from", required_argument, NULL, 'f' },
		{ "domain", required_argument, NULL, 'D' },
		{ "archive", required_argument, NULL, 'A' },
		{ "daily-limit", required_argument, NULL, 'L' },
		{ "no-replies", no_argument, NULL, 'R' },
		{ "max-age", required_argument, NULL, 'a' },
		{ "watching-since", required_argument, NULL, 'W' },
		{ "cc-maintainers", no_argument, NULL, 'C' },
		{ "to", required_argument, NULL, 'T' },
		{ "opt-out", required_argument, NULL, 'O' },
		{ "dry-run", no_argument, NULL, 'y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_plan_options po = PC_PLAN_OPTIONS_INIT;
	struct cli_policy_args pa = { 0 };
	struct pc_status_stats stats;
	struct pc_plan_stats ps;
	struct cli_policy *cp;
	struct show sh = { 0 };
	const char *db = NULL;
	const char **optouts;
	size_t n_optouts = 0, i;
	struct pc_store *st;
	int64_t now = (int64_t)time(NULL);
	int c, dry = 0, planned, rc = CLI_OK;
	char *end;

	cli_policy_args_init(&pa, argc);
	optouts = xcalloc((size_t)argc + 1, sizeof(*optouts));
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (cli_policy_option(&pa, c, optarg))
			continue;
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'n':
			if (cli_time_option("digest", "--now", optarg, &now) <
			    0) {
				rc = CLI_USAGE;
				goto out_args;
			}
			break;
		case 'f':
			po.from_addr = optarg;
			break;
		case 'D':
			po.domain = optarg;
			break;
		case 'A':
			po.archive_url = optarg;
			break;
		case 'L':
			po.daily_limit = (unsigned)strtoul(optarg, &end, 10);
			if (*end || !po.daily_limit) {
				log_warnx("digest: --daily-limit wants a "
					  "positive number");
				rc = CLI_USAGE;
				goto out_args;
			}
			break;
		case 'R':
			po.replies = 0;
			break;
		case 'a': {
			unsigned long d = strtoul(optarg, &end, 10);

			if (*end || !d || d > 36500) {
				log_warnx("digest: --max-age wants a number of "
					  "days (1 to 36500)");
				rc = CLI_USAGE;
				goto out_args;
			}
			po.max_age = (int64_t)d * 86400;
			break;
		}
		case 'C':
			po.cc_maintainers = 1;
			break;
		case 'W':
			if (cli_time_option("digest", "--watching-since",
					    optarg, &po.watching_since) < 0) {
				rc = CLI_USAGE;
				goto out_args;
			}
			break;
		case 'T':
			sh.to = optarg;
			break;
		case 'O':
			if (!strchr(optarg, '@')) {
				log_warnx("digest: --opt-out '%s' is neither "
					  "an address nor @domain",
					  optarg);
				rc = CLI_USAGE;
				goto out_args;
			}
			optouts[n_optouts++] = optarg;
			break;
		case 'y':
			dry = 1;
			break;
		case 'h':
			rc = cli_usage(stdout, digest_usage, CLI_OK);
			goto out_args;
		default:
			rc = cli_usage(stderr, digest_usage, CLI_USAGE);
			goto out_args;
		}
	}
	if (optind != argc || !po.from_addr || !strchr(po.from_addr, '@')) {
		log_warnx(
			"digest: give --from ADDR (patchclock's own address)");
		rc = cli_usage(stderr, digest_usage, CLI_USAGE);
		goto out_args;
	}
	if (!po.domain)
		po.domain = strchr(po.from_addr, '@') + 1;
	cli_policy_args_done(&pa);
	if (!(st = cli_store(ctx, db, 0))) {
		rc = CLI_FAIL;
		goto out_args;
	}
	if (n_optouts) {
		struct pc_err err = { 0 };

		if (pc_store_begin(st, &err) < 0)
			goto optout_fail;
		for (i = 0; i < n_optouts; i++)
			if (pc_optout_add(st, optouts[i], "configuration",
					  (int64_t)time(NULL), &err) < 0)
				goto optout_fail;
		if (pc_store_commit(st, &err) < 0) {
optout_fail:
			log_warnx("digest: %s", err.msg);
			pc_store_rollback(st);
			rc = CLI_FAIL;
			goto out_args;
		}
	}
	if (!(cp = cli_policy(ctx, &pa, 0))) {
		rc = CLI_FAIL;
		goto out_args;
	}
	sh.now = now;
	/* A dry run prints the mail inside the judging transaction:
	 * spooled, so that a paused reader does not hold the lock. */
	if (dry)
		spool_begin();
	planned = cli_policy_plan(cp, st, now, &po, 1, &stats, &ps, dry,
				  dry ? show_queued : NULL, &sh);
	spool_end();
	if (planned < 0)
		rc = CLI_FAIL;
	else
		print_summary(&ps, dry);
out_args:
	cli_policy_args_release(&pa);
	free(optouts);
	return rc;
}
