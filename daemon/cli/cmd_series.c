// SPDX-License-Identifier: GPL-2.0-or-later
/* patchclock series: the series found, one line each, or as JSON. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/term.h"
#include "cli/json_out.h"
#include "log.h"
#include "store/query.h"
#include "store/store.h"
#include "util/banned.h"

static const char series_usage[] =
	"usage: patchclock series [--db FILE] [--current] [--patches] [--json]\n"
	"\n"
	"Lists the patch series in the database, oldest first: id, version,\n"
	"patches received / expected, first posted (UTC), author, subject,\n"
	"and the series that supersedes it. Review tags are summarised per\n"
	"series as R (Reviewed-by), A (Acked-by), T (Tested-by), counted\n"
	"over its patches; a tag given to the cover letter counts for every\n"
	"patch.\n"
	"\n"
	"Options:\n"
	"  --db FILE     database (default: see patchclock --help)\n"
	"  --current     leave out series superseded by a newer version\n"
	"  --patches     list each series' archive link, its patches and\n"
	"                their trailers\n"
	"  --json        one JSON object: {\"version\": 1, \"series\": [...]},\n"
	"                each with its patches, files and trailers\n"
	"                (SeriesList in json.md, with the README)\n"
	"  -h, --help    this text\n";

struct listing {
	int json, patches;
	json_object *arr;
	unsigned count;
};

static void tag_counts(const struct pc_series_info *s, int *r, int *a, int *t)
{
	size_t i, j;

	*r = *a = *t = 0;
	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *p = &s->patches[i];

		if (!strcmp(p->kind, "cover"))
			continue;
		for (j = 0; j < p->ntrailers; j++) {
			const struct pc_trailer_info *tr = &p->trailers[j];

			if (tr->suggested)
				continue;
			if (!strcmp(tr->name, "Reviewed-by"))
				(*r)++;
			else if (!strcmp(tr->name, "Acked-by"))
				(*a)++;
			else if (!strcmp(tr->name, "Tested-by"))
				(*t)++;
		}
	}
}

static int print_series(const struct pc_series_info *s, void *arg)
{
	struct listing *l = arg;
	char when[32], recv[32], tags[48], ver[24], *url;
	int r, a, t;
	size_t i, j;

	l->count++;
	if (l->json) {
		json_object_array_add(l->arr, json_series(s));
		return 0;
	}
	cli_format_time(when, sizeof(when), s->first_posted, s->has_date);
	if (s->total)
		snprintf(recv, sizeof(recv), "%d/%d", s->received, s->total);
	else
		snprintf(recv, sizeof(recv), "%d/?", s->received);
	snprintf(ver, sizeof(ver), "%sv%d", s->is_rfc ? "rfc-" : "",
		 s->version);
	tag_counts(s, &r, &a, &t);
	snprintf(tags, sizeof(tags), "%dR %dA %dT", r, a, t);
	printf("%-6lld %-7s %-6s %-16s %-11s %-24.24s %s", (long long)s->id,
	       ver, recv, when, tags,
	       s->author_name && *s->author_name ? s->author_name :
						   s->author_addr,
	       s->name);
	if (s->superseded_by)
		printf("  [superseded by %lld]", (long long)s->superseded_by);
	putchar('\n');
	if (!l->patches)
		return 0;
	if ((url = cli_url(s->anchor_msgid)) != NULL)
		printf("       link: %s\n", url);
	free(url);
	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *p = &s->patches[i];

		printf("       %s %d: %s <%s>\n",
		       strcmp(p->kind, "cover") ? "patch" : "cover", p->idx,
		       p->subject, p->msgid);
		for (j = 0; j < p->ntrailers; j++) {
			const struct pc_trailer_info *tr = &p->trailers[j];

			printf("         %s: %s%s%s\n", tr->name, tr->value,
			       tr->via_cover  ? "  (on the cover letter)" :
			       tr->from_reply ? "  (on the list)" :
						"",
			       tr->suggested ? "  (suggested by a bot)" : "");
		}
	}
	return 0;
}

int cmd_series(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "current", no_argument, NULL, 'c' },
		{ "patches", no_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pc_series_filter f = { .with_patches = 1 };
	struct listing l = { 0 };
	struct pc_err err = { 0 };
	const char *db = NULL;
	struct pc_store *st;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'c':
			f.current_only = 1;
			break;
		case 'p':
			l.patches = 1;
			break;
		case 'j':
			l.json = 1;
			break;
		case 'h':
			return cli_usage(stdout, series_usage, CLI_OK);
		default:
			return cli_usage(stderr, series_usage, CLI_USAGE);
		}
	}
	if (optind != argc)
		return cli_usage(stderr, series_usage, CLI_USAGE);
	if (!(st = cli_store(ctx, db, 0)))
		return CLI_FAIL;
	/* A long listing on a terminal: paged (cli/term.h). */
	if (!l.json)
		term_pager();
	if (l.json)
		l.arr = json_object_new_array();
	else
		printf("%-6s %-7s %-6s %-16s %-11s %-24s %s\n", "ID", "VERSION",
		       "PATCH", "POSTED (UTC)", "TAGS", "AUTHOR", "SUBJECT");
	rc = pc_series_list(st, &f, print_series, &l, &err);
	if (rc < 0) {
		log_warnx("series: %s", err.msg);
		if (l.arr)
			json_object_put(l.arr);
		return CLI_FAIL;
	}
	if (l.json) {
		json_object *top = json_top();

		json_object_object_add(top, "series", l.arr);
		json_print(top);
	}
	return CLI_OK;
}
