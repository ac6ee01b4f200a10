// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock outbox: what patchclock has queued to send, has sent, has
 * given up on, or held back (and why).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/term.h"
#include "cli/json_out.h"
#include "log.h"
#include "store/outbox.h"
#include "util/banned.h"

static const char outbox_usage[] =
	"usage: patchclock outbox [--db FILE] [--all] [--json]\n"
	"\n"
	"Lists the mail patchclock has queued: the 'resend now' replies,\n"
	"too-soon notes and maintainer digests that 'patchclock status'\n"
	"decided on, each under a unique action key, with its recipients,\n"
	"subject, Message-ID and when it may go (the maintainers' office\n"
	"hours). By default only what is pending; --all also lists what was\n"
	"sent, what failed for good (a 5xx reply) and what a rule held back\n"
	"(opt-out, bot, list address, daily limit), with the reason.\n"
	"\n"
	"Options:\n"
	"  --db FILE   database (default: see patchclock --help)\n"
	"  --all       every mail, newest first\n"
	"  --json      one JSON array\n"
	"  -h, --help  this text\n";

struct out {
	int json, all;
	size_t n;
	json_object *arr;
};

static int print_item(const struct pc_outbox_item *it, void *arg)
{
	struct out *o = arg;
	char when[32];

	if (!o->all && strcmp(it->status, "pending"))
		return 0;
	o->n++;
	if (o->json) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "id", json_object_new_int64(it->id));
		json_object_object_add(j, "key", json_str(it->key));
		json_object_object_add(j, "action", json_str(it->action));
		json_object_object_add(
			j, "series",
			it->series_id ? json_object_new_int64(it->series_id) :
					NULL);
		json_object_object_add(j, "recipients",
				       json_str(it->recipients));
		json_object_object_add(j, "subject", json_str(it->subject));
		json_object_object_add(j, "message_id",
				       json_str(it->message_id));
		json_object_object_add(j, "status", json_str(it->status));
		json_object_object_add(j, "reason", json_str(it->reason));
		json_object_object_add(j, "attempts",
				       json_object_new_int(it->attempts));
		json_object_object_add(j, "created",
				       json_time_or_0(it->created_at));
		json_object_object_add(j, "send_after",
				       json_time_or_0(it->send_after));
		json_object_object_add(j, "next_attempt",
				       json_time_or_0(it->next_attempt));
		json_object_object_add(j, "sent_at",
				       json_time_or_0(it->sent_at));
		json_object_object_add(j, "last_error",
				       json_str(it->last_error));
		json_object_array_add(o->arr, j);
		return 0;
	}
	cli_format_time(when, sizeof(when),
			it->sent_at ? it->sent_at : it->send_after, 1);
	printf("%-5lld %-10s %-9s %s UTC  %s\n", (long long)it->id, it->status,
	       it->action, when, it->recipients);
	printf("      %s\n      %s\n", it->subject, it->message_id);
	if (it->reason)
		printf("      reason: %s\n", it->reason);
	if (it->last_error && strcmp(it->status, "failed"))
		printf("      last error (attempt %d): %s\n", it->attempts,
		       it->last_error);
	return 0;
}

int cmd_outbox(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct out o = { 0 };
	struct pc_err err = { 0 };
	const char *db = NULL;
	struct pc_store *st;
	int c, rc = CLI_OK;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'a':
			o.all = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'h':
			return cli_usage(stdout, outbox_usage, CLI_OK);
		default:
			return cli_usage(stderr, outbox_usage, CLI_USAGE);
		}
	}
	if (optind != argc)
		return cli_usage(stderr, outbox_usage, CLI_USAGE);
	if (!(st = cli_open_store(cli_db_path(db))))
		return CLI_FAIL;
	/* A long listing on a terminal: paged (cli/term.h). */
	if (!o.json)
		term_pager();
	if (o.json)
		o.arr = json_object_new_array();
	if (pc_outbox_list(st, 0, 1, print_item, &o, &err) < 0) {
		log_warnx("outbox: %s", err.msg);
		rc = CLI_FAIL;
	} else if (o.json) {
		json_print(o.arr);
		o.arr = NULL;
	} else if (!o.n) {
		printf("outbox: %s\n", o.all ? "empty" : "nothing pending");
	}
	if (o.arr)
		json_object_put(o.arr);
	pc_store_close(st);
	return rc;
}
