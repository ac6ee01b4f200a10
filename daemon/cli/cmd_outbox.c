// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock outbox: what patchclock has queued to send, has sent, has
 * given up on, or held back (and why).
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/term.h"
#include "cli/json_out.h"
#include "notify/compose.h"
#include "log.h"
#include "mail/kinds.h"
#include "store/outbox.h"
#include "util/buf.h"
#include "util/banned.h"

static const char outbox_usage[] =
	"usage: patchclock outbox [--db FILE] [--all] [--json]\n"
	"\n"
	"Lists the mail patchclock has queued (the kinds are below) that\n"
	"'patchclock status' decided on, each under a unique action key,\n"
	"with its kind, its recipients,\n"
	"subject, Message-ID and when it may go (the maintainers' office\n"
	"hours). By default only what is pending; --all also lists what was\n"
	"sent, what failed for good (a 5xx reply) and what a rule held back\n"
	"(opt-out, bot, list address, daily limit), with the reason.\n"
	"Every mail also says why it was asked for: the rule and the\n"
	"message that decided it (\"waiting on the maintainers since <msgid>\n"
	"(date), due date\"), one line per series of a digest.\n"
	"\n"
	"Options:\n"
	"  --db FILE   database (default: see patchclock --help)\n"
	"  --all       every mail, newest first\n"
	"  --json      one JSON object: {\"version\": 1, \"mails\": [...]},\n"
	"              each mail with its recipients and the Subject it\n"
	"              goes out with (Outbox in json.md, with the README)\n"
	"  -h, --help  this text\n";

/* The usage, then every kind of mail from the one table, its words
 * wrapped at 72 columns under a 16-column indent. */
static int help(void)
{
	int k;

	fputs(outbox_usage, stdout);
	fputs("\nKinds of mail (ACTION, JSON 'action'):\n", stdout);
	for (k = 0; k < PC_MAIL_NKINDS; k++) {
		const char *p = pc_mail_kind_about(k);
		int col = printf("  %-13s", pc_mail_kind_name(k));

		while (*p) {
			size_t n = strcspn(p, " ");

			if (col + 1 + (int)n > 72) {
				fputs("\n               ", stdout);
				col = 15;
			}
			col += printf(" %.*s", (int)n, p);
			p += n;
			p += *p == ' ';
		}
		putchar('\n');
	}
	return CLI_OK;
}

struct out {
	int json, all;
	size_t n;
	json_object *arr;
};

/* One mail as doc/json.md's Mail. */
static json_object *item_json(const struct pc_outbox_item *it,
			      const char *subject)
{
	json_object *j = json_object_new_object(), *a;
	const char *r = it->recipients;
	size_t n;

	json_object_object_add(j, "id", json_object_new_int64(it->id));
	json_object_object_add(j, "key", json_str(it->key));
	json_object_object_add(j, "action", json_str(it->action));
	json_object_object_add(j, "series_id", json_id_or_0(it->series_id));
	a = json_object_new_array();
	while (r && *r) {
		r += strspn(r, " ,");
		if ((n = strcspn(r, " ,")))
			json_object_array_add(
				a, json_object_new_string_len(r, (int)n));
		r += n;
	}
	json_object_object_add(j, "recipients", a);
	json_object_object_add(j, "subject", json_str(subject));
	json_object_object_add(j, "message_id", json_msgid(it->message_id));
	json_object_object_add(j, "state", json_str(it->status));
	json_object_object_add(j, "reason", json_str(it->reason));
	json_object_object_add(j, "why", json_str(it->why));
	json_object_object_add(j, "attempts",
			       json_object_new_int(it->attempts));
	json_object_object_add(j, "created_at", json_time_or_0(it->created_at));
	json_object_object_add(j, "due_at", json_time_or_0(it->send_after));
	json_object_object_add(j, "next_attempt_at",
			       json_time_or_0(it->next_attempt));
	json_object_object_add(j, "sent_at", json_time_or_0(it->sent_at));
	json_object_object_add(j, "last_error", json_str(it->last_error));
	json_object_object_add(j, "server_reply", json_str(it->server_reply));
	return j;
}

/* "why:" and its lines (one per digest item), indented under it. */
static void print_why(const char *why)
{
	const char *p = why, *nl;
	int first = 1;

	while (p && *p) {
		nl = strchr(p, '\n');
		printf("      %s %.*s\n", first ? "why:  " : "      ",
		       (int)(nl ? nl - p : (ptrdiff_t)strlen(p)), p);
		first = 0;
		p = nl ? nl + 1 : NULL;
	}
}

static int print_item(const struct pc_outbox_item *it, void *arg)
{
	struct out *o = arg;
	struct pc_buf subj = PC_BUF_INIT;
	const char *subject = it->subject;
	char when[32];

	if (!o->all && strcmp(it->status, "pending"))
		return 0;
	o->n++;
	/* The Subject the mail goes out with: what its readers will see. */
	if (it->message &&
	    pc_compose_subject_of(&subj, it->message, it->message_len))
		subject = subj.buf;
	if (o->json) {
		json_object_array_add(o->arr, item_json(it, subject));
		pc_buf_release(&subj);
		return 0;
	}
	cli_format_time(when, sizeof(when),
			it->sent_at ? it->sent_at : it->send_after, 1);
	printf("%-5lld %-10s %-9s %s UTC  %s\n", (long long)it->id, it->status,
	       it->action, when, it->recipients);
	printf("      %s\n      %s\n", subject, it->message_id);
	pc_buf_release(&subj);
	if (it->reason)
		printf("      reason: %s\n", it->reason);
	print_why(it->why);
	if (it->server_reply)
		printf("      server: %s\n", it->server_reply);
	if (it->last_error && strcmp(it->status, "failed"))
		printf("      last error (attempt %d): %s\n", it->attempts,
		       it->last_error);
	return 0;
}

int cmd_outbox(int argc, char **argv, struct cli_ctx *ctx)
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
			return help();
		default:
			return cli_usage(stderr, outbox_usage, CLI_USAGE);
		}
	}
	if (optind != argc)
		return cli_usage(stderr, outbox_usage, CLI_USAGE);
	if (!(st = cli_store(ctx, db, 0)))
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
		json_object *top = json_top();

		json_object_object_add(top, "mails", o.arr);
		o.arr = NULL;
		json_print(top);
	} else if (!o.n) {
		printf("outbox: %s\n", o.all ? "empty" : "nothing pending");
	}
	if (o.arr)
		json_object_put(o.arr);
	return rc;
}
