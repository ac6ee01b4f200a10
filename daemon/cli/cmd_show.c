// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock show: one series (by id, or by the Message-ID of any of its
 * mails) or one message; also the raw bytes of a message, and the list of
 * messages that could not be parsed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "log.h"
#include "store/command.h"
#include "store/query.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char show_usage[] =
	"usage: patchclock show [--db FILE] [--json] [--message] [--raw] ID|MSGID\n"
	"       patchclock show [--db FILE] [--json] --errors\n"
	"       patchclock show [--db FILE] [--json] --commands\n"
	"\n"
	"Shows series ID (a number), or the series that the message MSGID\n"
	"belongs to, with its patches, each patch's diffstat (as git prints\n"
	"it) and the trailers collected for it: its own, those given in\n"
	"replies, and those given to the cover letter. A message that\n"
	"belongs to no series (a reply, a pull request) is shown as a\n"
	"message. MSGID may be written with or without angle brackets, or\n"
	"as an archive link: https://lore.kernel.org/LIST/MSGID/ (or /r/,\n"
	"/all/, patch.msgid.link/MSGID; %40 for '@' is understood).\n"
	"A series is shown with the commands given about it by mail\n"
	"(\"patchclock: snooze 2w\" in a reply): who gave each, when,\n"
	"whether it was obeyed and why, and what DKIM said of the mail.\n"
	"\n"
	"Options:\n"
	"  --db FILE     database (default: see patchclock --help)\n"
	"  --json        one JSON object: {\"version\": 1, \"series\": {...}},\n"
	"                or \"message\", or \"errors\" (json.md, with the\n"
	"                README)\n"
	"  --message     show the message MSGID itself, not its series\n"
	"  --raw         print the message's raw bytes exactly as stored\n"
	"  --errors      list the messages that could not be parsed, with why\n"
	"  --commands    list every command given by mail, oldest first\n"
	"  -h, --help    this text\n";

/*
 * A diffstat as git prints it: path (old => new for renames), changed
 * lines and a +/- bar scaled to at most 40 columns, then the totals.
 */
static void print_diffstat(const struct pc_file_info *f, size_t n,
			   const char *indent)
{
	unsigned max = 0, ins = 0, del = 0, scale;
	size_t i, width = 0;

	for (i = 0; i < n; i++) {
		size_t w = strlen(f[i].path) +
			   (f[i].old_path ? strlen(f[i].old_path) + 4 : 0);

		if (w > width)
			width = w;
		if (f[i].added + f[i].removed > max)
			max = f[i].added + f[i].removed;
		ins += f[i].added;
		del += f[i].removed;
	}
	if (width > 60)
		width = 60;
	scale = max > 40 ? max : 40;
	for (i = 0; i < n; i++) {
		char name[512];
		unsigned a = f[i].added * 40 / scale,
			 r = f[i].removed * 40 / scale;

		if (f[i].old_path)
			snprintf(name, sizeof(name), "%s => %s", f[i].old_path,
				 f[i].path);
		else
			snprintf(name, sizeof(name), "%s", f[i].path);
		if (f[i].added && !a)
			a = 1;
		if (f[i].removed && !r)
			r = 1;
		if (f[i].binary) {
			printf("%s%-*s | Bin\n", indent, (int)width, name);
			continue;
		}
		printf("%s%-*s | %4u %.*s%.*s\n", indent, (int)width, name,
		       f[i].added + f[i].removed, (int)a,
		       "++++++++++++++++++++++++++++++++++++++++", (int)r,
		       "----------------------------------------");
	}
	if (n)
		printf("%s%zu file%s changed, %u insertion%s(+), %u deletion%s(-)\n",
		       indent, n, n == 1 ? "" : "s", ins, ins == 1 ? "" : "s",
		       del, del == 1 ? "" : "s");
}

struct show_state {
	int json, found;
	unsigned commands; /* commands listed by show_commands() */
	json_object *arr;
	struct pc_store *st;
	int failed;
};

/* One command given by mail: a line of text, or a Command object. */
static int show_command(const struct pc_command_row *r, void *arg)
{
	struct show_state *ss = arg;
	char when[32];
	int dkim;

	if (ss->json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_int64(r->id));
		json_object_object_add(o, "message_id",
				       json_msgid(r->message_id));
		json_object_object_add(o, "url", json_url(r->message_id));
		json_object_object_add(o, "series_id",
				       json_id_or_0(r->series_id));
		json_object_object_add(o, "verb", json_str(r->verb));
		json_object_object_add(o, "text", json_text(r->text));
		json_object_object_add(o, "from",
				       json_person(NULL, r->from_addr));
		json_object_object_add(o, "given_at",
				       json_time_or_0(r->given_at));
		json_object_object_add(o, "decided_at",
				       json_time_or_0(r->decided_at));
		json_object_object_add(o, "outcome", json_str(r->outcome));
		json_object_object_add(o, "reason", json_text(r->reason));
		json_object_object_add(o, "dkim", json_str(r->dkim));
		json_object_object_add(o, "dkim_why", json_text(r->dkim_why));
		json_object_array_add(ss->arr, o);
		return 0;
	}
	/* The DKIM verdict, unless the reason already is it. */
	dkim = r->dkim_why && strncmp(r->reason, "DKIM:", 5);
	ss->commands++;
	cli_format_time(when, sizeof(when), r->given_at, r->given_at != 0);
	printf("  %s  %s  \"patchclock: %s\"\n    %s: %s%s%s\n", when,
	       r->from_addr, r->text, r->outcome, r->reason,
	       dkim ? "; DKIM: " : "", dkim ? r->dkim_why : "");
	return 0;
}

/* The commands about series_id (0: all), after what was printed. */
static void show_commands(struct show_state *ss, int64_t series_id)
{
	struct pc_err err = { 0 };

	ss->commands = 0;
	if (pc_commands_list(ss->st, series_id, show_command, ss, &err) < 0) {
		log_warnx("show: %s", err.msg);
		ss->failed = 1;
	} else if (!ss->json && !ss->commands) {
		printf("  (none)\n");
	}
}

static int show_series_cb(const struct pc_series_info *s, void *arg)
{
	struct show_state *ss = arg;
	char when[32], *url;
	size_t i, j;

	ss->found = 1;
	if (ss->json) {
		json_object *top = json_top();

		json_object_object_add(top, "series", json_series(s));
		ss->arr = json_object_new_array();
		show_commands(ss, s->id);
		json_object_object_add(top, "commands", ss->arr);
		json_print(top);
		return 1;
	}
	cli_format_time(when, sizeof(when), s->first_posted, s->has_date);
	printf("Series %lld: %s\n", (long long)s->id, s->name);
	printf("  author:     %s <%s>\n", s->author_name, s->author_addr);
	printf("  version:    %d%s\n", s->version, s->is_rfc ? " (RFC)" : "");
	if (s->total)
		printf("  patches:    %d of %d received%s\n", s->received,
		       s->total,
		       s->received >= s->total ? "" : " (incomplete)");
	else
		printf("  patches:    %d received\n", s->received);
	printf("  posted:     %s UTC\n", when);
	if ((url = cli_url(s->anchor_msgid)) != NULL)
		printf("  link:       %s\n", url);
	free(url);
	if (s->superseded_by)
		printf("  superseded: by series %lld\n",
		       (long long)s->superseded_by);
	if (s->change_id)
		printf("  change-id:  %s\n", s->change_id);
	for (i = 0; i < s->nentries; i++) {
		const struct pc_entry_info *e = &s->entries[i];

		printf("  %s %s%s%s%s\n",
		       i ? "           " : "entries:   ", e->name,
		       e->k_only ? "  (K: only)" :
		       e->k_hit	 ? "  (also K:)" :
				   "",
		       e->profile ? "  profile: " : "",
		       e->profile ? e->profile : "");
	}
	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *p = &s->patches[i];

		printf("\n  [%s %d] %s\n    <%s>\n", p->kind, p->idx,
		       p->subject, p->msgid);
		if (strcmp(p->kind, "cover"))
			printf("    author: %s <%s>\n", p->author_name,
			       p->author_addr);
		print_diffstat(p->files, p->nfiles, "    ");
		for (j = 0; j < p->ntrailers; j++) {
			const struct pc_trailer_info *t = &p->trailers[j];

			printf("    %s: %s%s%s\n", t->name, t->value,
			       t->via_cover  ? "  (on the cover letter)" :
			       t->from_reply ? "  (on the list)" :
					       "",
			       t->suggested ? "  (suggested by a bot)" : "");
		}
	}
	printf("\nCommands by mail:\n");
	show_commands(ss, s->id);
	return 1;
}

static void show_message(const struct pc_message_info *m, int json)
{
	char when[32];
	size_t i;

	if (json) {
		json_object *top = json_top();

		json_object_object_add(top, "message", json_message(m));
		json_print(top);
		return;
	}
	cli_format_time(when, sizeof(when), m->date, m->has_date);
	printf("Message <%s>\n", m->msgid);
	printf("  kind:    %s\n", m->kind);
	printf("  subject: %s\n", m->subject ? m->subject : "");
	printf("  from:    %s <%s>\n", m->from_name ? m->from_name : "",
	       m->from_addr ? m->from_addr : "");
	printf("  date:    %s UTC\n", when);
	if (m->in_reply_to)
		printf("  reply to: <%s>\n", m->in_reply_to);
	if (m->series_id)
		printf("  series:  %lld\n", (long long)m->series_id);
	if (m->source)
		printf("  source:  %s\n", m->source);
	printf("  size:    %zu bytes\n", m->raw_size);
	if (m->parse_error)
		printf("  error:   %s\n", m->parse_error);
	print_diffstat(m->files, m->nfiles, "  ");
	for (i = 0; i < m->ntrailers; i++)
		printf("  %s: %s%s%s\n", m->trailers[i].name,
		       m->trailers[i].value,
		       m->trailers[i].suggested ? "  (suggested by a bot)" : "",
		       m->trailers[i].mismatch ?
			       "  (not given by the person it names: not applied)" :
			       "");
}

static int print_error(const char *where, const char *msgid, const char *reason,
		       void *arg)
{
	struct show_state *ss = arg;

	ss->found++;
	if (ss->json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "source",
				       json_object_new_string(where));
		/* stored as it was written, brackets and all */
		json_object_object_add(o, "message_id", json_msgid(msgid));
		json_object_object_add(o, "reason",
				       json_object_new_string(reason));
		json_object_array_add(ss->arr, o);
	} else {
		printf("%s <%s>: %s\n", where, msgid, reason);
	}
	return 0;
}

int cmd_show(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "message", no_argument, NULL, 'm' },
		{ "raw", no_argument, NULL, 'r' },
		{ "errors", no_argument, NULL, 'e' },
		{ "commands", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct show_state ss = { 0 };
	struct pc_series_filter f = { .with_patches = 1 };
	struct pc_err err = { 0 };
	struct pc_message_info *m = NULL;
	const char *db = NULL, *arg;
	char *id = NULL;
	int c, rc = CLI_OK, as_message = 0, raw = 0, errors = 0, commands = 0;
	int64_t sid = 0, mid = 0;
	struct pc_store *st;
	char *end;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'j':
			ss.json = 1;
			break;
		case 'm':
			as_message = 1;
			break;
		case 'r':
			raw = 1;
			break;
		case 'e':
			errors = 1;
			break;
		case 'c':
			commands = 1;
			break;
		case 'h':
			return cli_usage(stdout, show_usage, CLI_OK);
		default:
			return cli_usage(stderr, show_usage, CLI_USAGE);
		}
	}
	if (errors && commands)
		return cli_usage(stderr, show_usage, CLI_USAGE);
	if (errors || commands ? optind != argc : optind + 1 != argc)
		return cli_usage(stderr, show_usage, CLI_USAGE);
	if (!(st = cli_store(ctx, db, 0)))
		return CLI_FAIL;
	ss.st = st;
	if (commands) {
		if (ss.json)
			ss.arr = json_object_new_array();
		show_commands(&ss, 0);
		if (ss.json) {
			json_object *top = json_top();

			json_object_object_add(top, "commands", ss.arr);
			json_print(top);
		}
		rc = ss.failed ? CLI_FAIL : CLI_OK;
		goto out;
	}
	if (errors) {
		if (ss.json)
			ss.arr = json_object_new_array();
		if (pc_ingest_errors(st, print_error, &ss, &err) < 0) {
			log_warnx("show: %s", err.msg);
			rc = CLI_FAIL;
		}
		if (ss.json) {
			json_object *top = json_top();

			json_object_object_add(top, "errors", ss.arr);
			json_print(top);
		}
		goto out;
	}
	arg = id = cli_msgid_of_arg(argv[optind]);
	sid = strtoll(arg, &end, 10);
	if (*arg && !*end && sid > 0 && !as_message && !raw) {
		f.id = sid;
	} else {
		if (pc_series_of_message(st, arg, &sid, &mid, &err) < 0) {
			log_warnx("show: %s", err.msg);
			rc = CLI_FAIL;
			goto out;
		}
		if (!mid) {
			log_warnx(
				"show: no series or message '%s' in the database: 'patchclock series' lists the series",
				arg);
			rc = CLI_FAIL;
			goto out;
		}
		f.id = as_message || raw ? 0 : sid;
	}
	if (raw) {
		char *bytes;
		size_t len;

		if (pc_message_raw(&bytes, &len, st, mid, &err) < 0) {
			log_warnx("show: %s", err.msg);
			rc = CLI_FAIL;
			goto out;
		}
		fwrite(bytes, 1, len, stdout);
		free(bytes);
		goto out;
	}
	if (f.id) {
		if (pc_series_list(st, &f, show_series_cb, &ss, &err) < 0) {
			log_warnx("show: %s", err.msg);
			rc = CLI_FAIL;
		} else if (ss.failed) {
			rc = CLI_FAIL;
		} else if (!ss.found) {
			log_warnx(
				"show: no series %lld: 'patchclock series' lists the series",
				(long long)f.id);
			rc = CLI_FAIL;
		}
		goto out;
	}
	if (pc_message_get(&m, st, arg, &err) < 0) {
		log_warnx("show: %s", err.msg);
		rc = CLI_FAIL;
		goto out;
	}
	show_message(m, ss.json);
	pc_message_info_free(m);
out:
	free(id);
	return rc;
}
