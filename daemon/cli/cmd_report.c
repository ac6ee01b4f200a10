// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock report --html DIR: the dashboard, a static site judged at
 * --now like `status`, written into place as a whole.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cliconf.h"
#include "policy.h"
#include "report_model.h"
#include "conf.h"
#include "log.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char report_usage[] =
	"usage: patchclock report [--db FILE] [--now TIME] [--tree DIR]\n"
	"                         [--overrides FILE]... [--no-map]\n"
	"                         [--releases FILE] [--holidays FILE]\n"
	"                         [--bot ADDR]... [--branches GLOBS]\n"
	"                         [--dkim-keys FILE] [--require-dkim]\n"
	"                         [--attest-tags]\n"
	"                         [--archive URL] [--title TEXT]\n"
	"                         [--base-url URL] --html DIR\n"
	"\n"
	"Judges every series at TIME, as 'patchclock status --all' does\n"
	"(nothing is written to the database), and writes the dashboard into\n"
	"DIR: static HTML and Atom files that any web server, or a browser\n"
	"on file://, shows; no script, nothing fetched from the network.\n"
	"  index.html          every MAINTAINERS entry with open series: open,\n"
	"                      overdue, ready to apply and needs-review counts,\n"
	"                      the median and 90th percentile time to a first\n"
	"                      response, the share answered by the profile's\n"
	"                      due time, the oldest overdue series\n"
	"  entries/*.html      an entry: its profile field by field with the\n"
	"                      words each came from, its maintainers and\n"
	"                      reviewers, its open series by whose turn it is,\n"
	"                      their ages, the cycle's dates and deadlines\n"
	"  people/ADDR.html    a person's series and queue\n"
	"  series/ID.html      a series: verdict, versions, patches and their\n"
	"                      tags, the mail patchclock sent or will send,\n"
	"                      apply and boot results, archive links\n"
	"  entries/*.atom,     feeds of the series that became overdue or\n"
	"  people/*.atom       ready to apply, each item named by the series'\n"
	"                      Message-ID (the same after a rebuild)\n"
	"  overdue.atom        every series that became overdue\n"
	"  views/*.html        filters: overdue, ready, needs-review,\n"
	"                      waiting-author, waiting-maintainers, held,\n"
	"                      open; people.html (by submitter, maintainer)\n"
	"DIR is replaced as a whole (the new site is written beside it and\n"
	"swapped in with one rename): a reader never sees half of each. DIR\n"
	"must be new, empty, or an earlier report. patchclockd writes it\n"
	"after each judging pass when [report] html = DIR is set.\n"
	"\n"
	"Options:\n"
	"  --db FILE          the database (default: $PATCHCLOCK_DB, else the\n"
	"                     configuration's, else ./patchclock.db)\n"
	"  --now TIME         judge at TIME (default: now), as for status\n"
	"  --tree DIR ...     the kernel tree and policy options, as for\n"
	"                     status\n"
	"  --archive URL      archive link pattern, '%s' for the Message-ID\n"
	"                     (default: the configuration's, else\n"
	"                     https://lore.kernel.org/r/%s)\n"
	"  --title TEXT       a name for the site (a list, a subsystem)\n"
	"  --base-url URL     where the site is served: the feeds' links are\n"
	"                     absolute under it (default: the configuration's\n"
	"                     [report] base_url, else relative)\n"
	"  --html DIR         where the site goes\n"
	"  -h, --help         this text\n";

struct job {
	struct cli_policy *cp;
	struct pc_report *r;
	const char *archive;
	int64_t now;
};

/* Reads the model inside the judging transaction (cli_policy_show). */
static int build(struct pc_store *st, void *arg)
{
	struct job *j = arg;
	struct pc_err err = { 0 };

	if (cli_report_series(j->r, st, j->archive, &err) < 0) {
		log_warnx("report: %s", err.msg);
		return -1;
	}
	cli_report_entries(j->r, j->cp, j->now);
	return 0;
}

static int run(struct pc_store *st, struct cli_policy *cp, int64_t now,
	       const char *html, const char *archive, const char *title,
	       const char *base_url)
{
	struct pc_report r = { .now = now };
	struct job j = { .cp = cp, .r = &r, .archive = archive, .now = now };
	struct pc_status_stats stats;
	struct pc_err err = { 0 };
	struct timespec t0, t1;
	int rc = CLI_OK;

	r.title = title ? xstrdup(title) : NULL;
	r.base_url = base_url ? xstrdup(base_url) : NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (cli_policy_show(cp, st, now, 0, &stats, build, &j, NULL) < 0) {
		pc_report_release(&r);
		return CLI_FAIL;
	}
	if (cli_report_write(html, &r, &err) < 0) {
		log_warnx("report: %s", err.msg);
		rc = CLI_FAIL;
	} else {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("report: %zu series, %zu entries, written to %s in "
		       "%.2f s\n",
		       r.nseries, r.nentries, html,
		       (double)(t1.tv_sec - t0.tv_sec) +
			       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}
	pc_report_release(&r);
	return rc;
}

int cmd_report(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "now", required_argument, NULL, 'n' },
		CLI_POLICY_LONGOPTS,
		{ "archive", required_argument, NULL, 'A' },
		{ "title", required_argument, NULL, 'T' },
		{ "base-url", required_argument, NULL, 'B' + 256 },
		{ "html", required_argument, NULL, 'H' + 256 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_policy_args pa = { 0 };
	struct cli_policy *cp;
	const char *db = NULL, *html = NULL, *archive = NULL, *title = NULL,
		   *base_url = NULL;
	const struct conf *conf = cli_conf();
	struct pc_store *st;
	int64_t now = (int64_t)time(NULL);
	int c, rc;

	cli_policy_args_init(&pa, argc);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (cli_policy_option(&pa, c, optarg))
			continue;
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'n':
			if (cli_time_option("report", "--now", optarg, &now) <
			    0) {
				cli_policy_args_release(&pa);
				return CLI_USAGE;
			}
			break;
		case 'A':
			archive = optarg;
			break;
		case 'T':
			title = optarg;
			break;
		case 'H' + 256:
			html = optarg;
			break;
		case 'B' + 256:
			if (strncmp(optarg, "https://", 8) &&
			    strncmp(optarg, "http://", 7)) {
				log_warnx(
					"report: --base-url is where the site "
					"is served, an http:// or https:// "
					"URL, not '%s'",
					optarg);
				cli_policy_args_release(&pa);
				return CLI_USAGE;
			}
			base_url = optarg;
			break;
		case 'h':
			cli_policy_args_release(&pa);
			return cli_usage(stdout, report_usage, CLI_OK);
		default:
			cli_policy_args_release(&pa);
			return cli_usage(stderr, report_usage, CLI_USAGE);
		}
	}
	if (optind != argc || !html) {
		cli_policy_args_release(&pa);
		if (!html)
			log_warnx(
				"report: give --html DIR, where the site goes");
		return cli_usage(stderr, report_usage, CLI_USAGE);
	}
	cli_policy_args_done(&pa);
	if (!archive && conf)
		archive = conf->archive;
	if (!base_url && conf)
		base_url = conf->report.base_url;
	if (!(st = cli_store(ctx, db, 0)) || !(cp = cli_policy(ctx, &pa, 0))) {
		cli_policy_args_release(&pa);
		return CLI_FAIL;
	}
	rc = run(st, cp, now, html, archive, title, base_url);
	cli_policy_args_release(&pa);
	return rc;
}
