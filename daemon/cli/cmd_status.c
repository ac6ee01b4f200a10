// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock status: the clock's verdict on every open series at a given
 * "now" (default: the real now): state, flags, whose turn it is, when it
 * was posted and is due (in the maintainers' zone and in UTC), how long
 * overdue, each patch's review status, and cycle warnings.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "policy.h"
#include "cli/spool.h"
#include "cli/term.h"
#include "log.h"
#include "sla/bizclock.h"
#include "sla/state.h"
#include "mail/message.h"
#include "store/mapping.h"
#include "store/status.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char status_usage[] =
	"usage: patchclock status [--db FILE] [--now TIME] [--tree DIR]\n"
	"                         [--overrides FILE]... [--no-map]\n"
	"                         [--releases FILE] [--holidays FILE] [--bot ADDR]...\n"
	"                         [--branches GLOBS]\n"
	"                         [--dkim-keys FILE] [--require-dkim]\n"
	"                         [--attest-tags]\n"
	"                         [--entry NAME] [--mine ADDR]\n"
	"                         [--all] [--full] [--long|--json]\n"
	"                         [--no-pager] [ID]\n"
	"\n"
	"Reads the commands given by mail since the last pass (who may give\n"
	"which: patchclock(1), COMMANDS BY MAIL), then judges every series at\n"
	"TIME against the subsystem profile of the MAINTAINERS entry that\n"
	"governs it, and prints the verdicts of the open ones (not\n"
	"superseded, accepted, applied or tested): the state (new,\n"
	"acknowledged, changes-requested, reviewed, accepted, applied,\n"
	"tested, superseded), flags (overdue, too-soon, late-for-cycle,\n"
	"needs-review, off-list-review, incomplete), whose turn it is, why no\n"
	"mail may go about it (the table's HOLD, --long's 'no mail:', JSON\n"
	"'hold': not-kernel, not-a-submission, already-applied, superseded,\n"
	"already-answered, profile-forbids, steered, withdrawn (its author\n"
	"took it back), own (its author applies it); doc/mail-judgement.md),\n"
	"when it was posted and is due in the maintainers' zone and in UTC,\n"
	"how many business days it is overdue (LATE, in business days of\n"
	"the maintainers' office hours: '4.6bd'), and each patch's review\n"
	"status.\n"
	"\n"
	"The governing entry is the mapped entry that covers most of the\n"
	"changed lines across the series' versions (then the most specific);\n"
	"its profile (its P: line, or the fallback map data/profiles.ini)\n"
	"sets the cadence, counted in its office hours and zone from the\n"
	"posting, or from the author's last answer to a review. status is a\n"
	"listing and writes nothing: it judges in a transaction that it rolls\n"
	"back, each series as the listing reaches it, so the first screen\n"
	"comes at once. The verdicts the v_* views read (series_status) are\n"
	"those of the last pass that stored them: the daemon's, which judges\n"
	"every series, or 'patchclock digest', which judges those it may mail\n"
	"about and a share of the older ones. While another process holds\n"
	"the database's write lock for over 2 s (a bulk ingest), status shows\n"
	"those and says so.\n"
	"\n"
	"Options:\n"
	"  --db FILE          database (default: see patchclock --help)\n"
	"  --now TIME         judge at TIME: 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM',\n"
	"                     ISO 8601 with its zone ('2021-06-01T12:00:00Z',\n"
	"                     '2021-06-01T14:00+02:00'), '@EPOCH'\n"
	"                     (default: now)\n"
	"  --tree DIR         kernel tree (MAINTAINERS, profiles; default\n"
	"                     $PC_KERNEL_TREE, else the current directory if\n"
	"                     it has MAINTAINERS, else the configuration's)\n"
	"  --overrides FILE   profile override file (INI; may repeat)\n"
	"  --no-map           do not read the fallback map ($PATCHCLOCK_PROFILES,\n"
	"                     default: the data directory's profiles.ini)\n"
	"  --releases FILE    release dates ('vX.Y[-rcN] YYYY-MM-DD' lines;\n"
	"                     default $PATCHCLOCK_RELEASES or the data\n"
	"                     directory's kernel-releases)\n"
	"  --holidays FILE    dates ('YYYY-MM-DD' lines) that are no business\n"
	"                     days, in every profile's zone\n"
	"  --bot ADDR         mail from ADDR is a bot's and never a response\n"
	"                     (besides the kernel's robots; may repeat)\n"
	"  --branches GLOBS   when the tree is a git repository: the refs whose\n"
	"                     commits count as applied patches (matched by\n"
	"                     patch-id; default 'refs/heads/* refs/remotes/*',\n"
	"                     'none' to read none)\n"
	"  --dkim-keys FILE   commands by mail (\"patchclock: snooze 2w\";\n"
	"                     patchclock show): DKIM keys from this key table,\n"
	"                     'SELECTOR._domainkey.DOMAIN RECORD' lines, not\n"
	"                     DNS (default: the configuration's dkim_keys)\n"
	"  --require-dkim     refuse the commands of mail not DKIM-signed by\n"
	"                     its From domain (a signed mail's must verify\n"
	"                     always)\n"
	"  --attest-tags      check the DKIM signature of each reply giving\n"
	"                     Reviewed-by or Acked-by (the last 90 days), for\n"
	"                     profiles whose review_attestation is dkim: their\n"
	"                     tags by mail count only when verified\n"
	"  --entry NAME       only series mapped to this MAINTAINERS entry (its\n"
	"                     name in any case, or a start of it that names\n"
	"                     one entry; an unknown or ambiguous one is an\n"
	"                     error)\n"
	"  --mine ADDR        only series by ADDR, or maintained or reviewed by\n"
	"                     ADDR (M:/R: of a mapped entry); 'Name <addr>'\n"
	"                     is taken too\n"
	"  --all              also superseded, accepted, applied, tested series\n"
	"  --full             judge every series again\n"
	"  --long             a paragraph a series (flags, both zones' times,\n"
	"                     each patch's review), not a line a series\n"
	"  --json             one JSON object: {\"version\": 1, \"judged_at\",\n"
	"                     \"stale\", \"series\": [verdicts]} (Status in\n"
	"                     json.md, with the README)\n"
	"  --no-pager         on a terminal, do not page (the pager is\n"
	"                     $PATCHCLOCK_PAGER, else $PAGER, else less;\n"
	"                     colour unless NO_COLOR is set)\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: 0; 1 when the database, tree or a profile could not be\n"
	"read; 64 on bad usage.\n";

struct out {
	int json;
	int long_form; /* --long: a paragraph a series */
	int header_done;
	json_object *arr;
	struct cli_policy *cp;
	const struct pc_status_filter *flt;
	struct pc_store *st; /* while listing */
	size_t n;
};

/* "Thu 2021-05-27 10:00 PDT (17:00 UTC)" in the row's zone. */
static void both_times(char *buf, size_t len, const char *zone, int64_t t)
{
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_bizclock *c = NULL;
	char local[PC_BIZ_FORMAT_MAX], utc[32];

	cli_format_time(utc, sizeof(utc), t, 1);
	h.zone = zone;
	if (zone && pc_bizclock_new(&c, &h, NULL) == 0 &&
	    pc_bizclock_format(local, sizeof(local), c, t, NULL) == 0 &&
	    strcmp(zone, "UTC"))
		snprintf(buf, len, "%s (%s UTC)", local, utc);
	else
		snprintf(buf, len, "%s UTC", utc);
	pc_bizclock_free(c);
}

/* The first tag that met the review rule, as a person: its name is its
 * address when it had none (then the name is left out). */
static json_object *reviewer_json(const struct pc_status_patch *p)
{
	const char *name = p->reviewed_by;

	if (name && p->reviewed_by_addr &&
	    !strcasecmp(name, p->reviewed_by_addr))
		name = NULL;
	if (name && !p->reviewed_by_addr && strchr(name, '@'))
		/* judged before schema 11 kept the address */
		return json_person(NULL, name);
	return json_person(name, p->reviewed_by_addr);
}

/* One mapped entry as `series` and `show` give it (SeriesEntry). */
static int entry_json(const struct pc_series_entry *e, void *arg)
{
	json_object_array_add(arg, json_series_entry(e->name, e->depth,
						     e->files, e->k_hit,
						     e->k_only, e->profile));
	return 0;
}

static json_object *row_json(struct pc_store *st, const struct pc_status_row *r)
{
	json_object *o = json_object_new_object(), *a;
	struct pc_err err = { 0 };
	size_t i;

	json_object_object_add(o, "id", json_object_new_int64(r->id));
	json_object_object_add(o, "subject", json_str(r->name));
	json_object_object_add(o, "author",
			       json_person(r->author_name, r->author_addr));
	json_object_object_add(o, "revision", json_object_new_int(r->version));
	json_object_object_add(o, "anchor_message_id",
			       json_str(r->anchor_msgid));
	json_object_object_add(o, "url", json_url(r->anchor_msgid));
	json_object_object_add(o, "state", json_str(r->state));
	a = json_object_new_array();
	for (const char *p = r->flags; p && *p;) {
		size_t len = strcspn(p, " ");

		if (len)
			json_object_array_add(
				a, json_object_new_string_len(p, (int)len));
		p += len + (p[len] == ' ');
	}
	json_object_object_add(o, "flags", a);
	json_object_object_add(o, "turn", json_str(r->turn));
	json_object_object_add(o, "hold", json_str(r->hold));
	json_object_object_add(o, "hold_reason", json_str(r->hold_why));
	a = json_object_new_array();
	if (pc_series_entries(st, r->id, entry_json, a, &err) < 0)
		log_warnx("status: series %lld: %s", (long long)r->id, err.msg);
	json_object_object_add(o, "entries", a);
	json_object_object_add(o, "governing_entry", json_str(r->entry));
	json_object_object_add(o, "profile", json_str(r->profile));
	json_object_object_add(o, "zone", json_str(r->zone));
	json_object_object_add(o, "posted_at", json_time_or_0(r->posted));
	json_object_object_add(o, "due_at", json_time_or_0(r->due));
	json_object_object_add(o, "act_at", json_time_or_0(r->act_at));
	json_object_object_add(o, "first_response_at",
			       json_time_or_0(r->first_response));
	/* To two decimals: 45.12, not 45.124479166666667. */
	json_object_object_add(
		o, "overdue_business_days",
		(r->flag_bits & PC_SLA_OVERDUE) ?
			json_object_new_double(
				(double)llround(r->overdue_days * 100) / 100) :
			NULL);
	json_object_object_add(o, "lands_in", json_str(r->lands));
	json_object_object_add(o, "feature_deadline_at",
			       json_time_or_0(r->deadline));
	json_object_object_add(o, "evaluated_at",
			       json_time_or_0(r->evaluated_at));
	a = json_object_new_array();
	for (i = 0; i < r->npatch; i++) {
		const struct pc_status_patch *p = &r->patch[i];
		json_object *po = json_object_new_object();

		json_object_object_add(po, "index",
				       json_object_new_int(p->idx));
		json_object_object_add(po, "message_id", json_str(p->msgid));
		json_object_object_add(po, "url", json_url(p->msgid));
		json_object_object_add(po, "reviewed",
				       json_object_new_boolean(p->reviewed));
		json_object_object_add(po, "reviewed_by", reviewer_json(p));
		json_object_object_add(po, "off_list",
				       json_object_new_boolean(p->off_list));
		json_object_object_add(po, "own_domain_tag",
				       json_object_new_boolean(p->own_domain));
		json_object_object_add(po, "accepted_at",
				       json_time_or_0(p->accepted_at));
		json_object_array_add(a, po);
	}
	json_object_object_add(o, "patches", a);
	return o;
}

/* The colour of a state: red when the maintainers are late, yellow when
 * the author has to act, green when it is done or ready. */
static enum term_ink state_ink(const struct pc_status_row *r)
{
	if ((r->flag_bits & PC_SLA_OVERDUE))
		return TERM_RED;
	if (!strcmp(r->state, "changes-requested") ||
	    (r->turn && !strcmp(r->turn, "author")))
		return TERM_YELLOW;
	if (!strcmp(r->state, "reviewed") || !strcmp(r->state, "accepted") ||
	    !strcmp(r->state, "applied") || !strcmp(r->state, "tested"))
		return TERM_GREEN;
	return TERM_PLAIN;
}

/* Writes s in a column of w characters (UTF-8 aware), cut with '~' when
 * longer; w 0: all of it. */
static void column(const char *s, size_t w)
{
	size_t chars = 0, i;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80) {
			putchar(s[i]);
			continue;
		}
		if (w && chars + 1 == w && s[i + 1] && strlen(s + i) > 1) {
			/* More than fits: the last cell says so. */
			size_t rest = 0, j;

			for (j = i; s[j]; j++)
				rest += ((unsigned char)s[j] & 0xc0) != 0x80;
			if (rest > 1) {
				putchar('~');
				chars++;
				break;
			}
		}
		putchar(s[i]);
		chars++;
	}
	for (; w && chars < w; chars++)
		putchar(' ');
}

/* A hold in a word of ten letters at most, for the table: why no mail
 * may go about the series (the JSON and --long say it whole). */
static const char *hold_word(const char *hold)
{
	static const struct {
		const char *hold, *word;
	} w[] = {
		{ "not-kernel", "not kernel" },
		{ "not-a-submission", "not a sub" },
		{ "already-applied", "applied" },
		{ "superseded", "superseded" },
		{ "already-answered", "answered" },
		{ "profile-forbids", "profile" },
		{ "steered", "steered" },
		{ "withdrawn", "withdrawn" },
		{ "own", "own tree" },
	};
	size_t i;

	for (i = 0; hold && i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(hold, w[i].hold))
			return w[i].word;
	return hold ? hold : "-";
}

/* One line a series: ID, state, whose turn, due date, business days
 * late, reviewed patches, why no mail may go, entry, subject (cut to the
 * terminal). */
static void print_line(struct out *o, const struct pc_status_row *r)
{
	size_t width = term_width(), fixed = 6 + 18 + 12 + 11 + 8 + 6 + 11 + 22;
	char due[32] = "-", late[16] = "", rev[16], id[16];
	const char *entry = r->entry	? r->entry :
			    r->nentries ? r->entries[0] :
					  "-";

	if (!o->header_done) {
		o->header_done = 1;
		term_paint(TERM_DIM);
		printf("%-5s %-17s %-11s %-10s %7s %5s %-10s %-21s %s", "ID",
		       "STATE", "TURN", "DUE (UTC)", "LATE", "REV", "HOLD",
		       "ENTRY", "SUBJECT");
		term_paint(TERM_PLAIN);
		putchar('\n');
	}
	if (r->due) {
		time_t t = (time_t)r->due;
		struct tm tm;

		if (gmtime_r(&t, &tm))
			strftime(due, sizeof(due), "%Y-%m-%d", &tm);
	}
	if ((r->flag_bits & PC_SLA_OVERDUE))
		snprintf(late, sizeof(late), "%.1fbd", r->overdue_days);
	snprintf(rev, sizeof(rev), "%d/%d", r->reviewed, r->patches);
	snprintf(id, sizeof(id), "%lld", (long long)r->id);
	column(id, 5);
	putchar(' ');
	term_paint(state_ink(r));
	column(r->state, 17);
	term_paint(TERM_PLAIN);
	putchar(' ');
	column(r->turn ? r->turn : "-", 11);
	putchar(' ');
	column(due, 10);
	printf(" %7s %5s ", late, rev);
	column(hold_word(r->hold), 10);
	putchar(' ');
	/* On a terminal the entry is cut to its column; piped, it is whole
	 * (a script reads "LIBNVDIMM: NON-VOLATILE MEMORY DEVICE
	 * SUBSYSTEM", not "LIBNVDIMM: NON-VOLAT~"). */
	if (width)
		column(entry, 21);
	else
		printf("%-21s", entry);
	putchar(' ');
	if (r->version > 1 || r->is_rfc)
		printf("[%sv%d] ", r->is_rfc ? "RFC " : "", r->version);
	/* On a terminal the subject fits its line; piped, it is whole. */
	column(r->name ? r->name : "", width > fixed + 10 ? width - fixed : 0);
	putchar('\n');
}

static int print_row(const struct pc_status_row *r, void *arg)
{
	struct out *o = arg;
	char posted[160], due[160], *url;
	size_t i;

	o->n++;
	if (o->json) {
		json_object_array_add(o->arr, row_json(o->st, r));
		return 0;
	}
	if (!o->long_form) {
		print_line(o, r);
		return 0;
	}
	both_times(posted, sizeof(posted), r->zone, r->posted);
	printf("Series %lld v%d%s: %s\n", (long long)r->id, r->version,
	       r->is_rfc ? " RFC" : "", r->name ? r->name : "");
	printf("  author:  %s <%s>\n", r->author_name ? r->author_name : "",
	       r->author_addr ? r->author_addr : "");
	printf("  state:   %s%s%s%s%s\n", r->state,
	       r->flags && *r->flags ? "  [" : "", r->flags ? r->flags : "",
	       r->flags && *r->flags ? "]" : "", r->turn ? "" : "");
	if (r->turn)
		printf("  turn:    %s\n", r->turn);
	if (r->hold)
		printf("  no mail: %s (%s)\n", r->hold,
		       r->hold_why ? r->hold_why : "");
	if (r->entry)
		printf("  entry:   %s%s%s%s\n", r->entry,
		       r->profile ? " (profile " : "",
		       r->profile ? r->profile : "", r->profile ? ")" : "");
	else if (r->nentries)
		printf("  entry:   %s (no profile: default policy)\n",
		       r->entries[0]);
	else
		printf("  entry:   none mapped (default policy)\n");
	printf("  posted:  %s\n", posted);
	if ((url = cli_url(r->anchor_msgid)) != NULL)
		printf("  link:    %s\n", url);
	free(url);
	if (r->due) {
		both_times(due, sizeof(due), r->zone, r->due);
		printf("  due:     %s", due);
		if ((r->flag_bits & PC_SLA_OVERDUE))
			printf(", overdue by %.1f business days",
			       r->overdue_days);
		else if (r->first_response) {
			char fr[32];

			cli_format_time(fr, sizeof(fr), r->first_response, 1);
			printf(", first response %s UTC", fr);
		}
		putchar('\n');
	}
	if ((r->flag_bits & PC_SLA_LATE) && r->lands) {
		char dl[32];

		cli_format_time(dl, sizeof(dl), r->deadline, 1);
		printf("  cycle:   posted after the new-feature deadline (%s "
		       "UTC): targets the %s merge window\n",
		       dl, r->lands);
	}
	printf("  review:  %d of %d patches%s\n", r->reviewed, r->patches,
	       r->patches ? ":" : "");
	for (i = 0; i < r->npatch; i++) {
		const struct pc_status_patch *p = &r->patch[i];

		char acc[32] = "";

		if (p->accepted_at)
			cli_format_time(acc, sizeof(acc), p->accepted_at, 1);
		printf("    [%d] %s%s%s%s%s%s%s\n", p->idx,
		       p->reviewed ? "reviewed by " : "needs review",
		       p->reviewed && p->reviewed_by ? p->reviewed_by : "",
		       p->off_list ? "  (carries an off-list tag)" : "",
		       p->own_domain ? "  (tag from the author's domain)" : "",
		       p->accepted_at ? "  (accepted " : "", acc,
		       p->accepted_at ? " UTC)" : "");
	}
	putchar('\n');
	return 0;
}

/* Lists the verdicts (a show callback of cli_policy_show()). */
static int list_rows(struct pc_store *st, void *arg)
{
	struct out *o = arg;
	struct pc_err err = { 0 };

	o->st = st;
	if (pc_status_list(st, o->flt, print_row, o, &err) < 0) {
		log_warnx("status: %s", err.msg);
		return -1;
	}
	return 0;
}

int cmd_status(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "now", required_argument, NULL, 'n' },
		CLI_POLICY_LONGOPTS,
		{ "entry", required_argument, NULL, 'e' },
		{ "mine", required_argument, NULL, 'm' },
		{ "all", no_argument, NULL, 'a' },
		{ "full", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "long", no_argument, NULL, 'l' },
		{ "no-pager", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_policy_args pa = { 0 };
	struct pc_status_filter flt = { 0 };
	struct pc_status_stats stats;
	struct cli_policy *cp;
	struct out o = { 0 };
	struct pc_addr mine = { NULL, NULL };
	int no_pager = 0;
	char *entry = NULL;
	const char *db = NULL;
	struct pc_store *st;
	int64_t now = (int64_t)time(NULL), stale = -1;
	int c, full = 0, listed, rc = CLI_OK;

	cli_policy_args_init(&pa, argc);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (cli_policy_option(&pa, c, optarg))
			continue;
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'n':
			if (cli_time_option("status", "--now", optarg, &now) <
			    0) {
				cli_policy_args_release(&pa);
				return CLI_USAGE;
			}
			break;
		case 'e':
			flt.entry = optarg;
			break;
		case 'm':
			flt.mine = optarg;
			break;
		case 'a':
			flt.all = 1;
			break;
		case 'f':
			full = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'l':
			o.long_form = 1;
			break;
		case 'P':
			no_pager = 1;
			break;
		case 'h':
			cli_policy_args_release(&pa);
			return cli_usage(stdout, status_usage, CLI_OK);
		default:
			cli_policy_args_release(&pa);
			return cli_usage(stderr, status_usage, CLI_USAGE);
		}
	}
	if (optind < argc) {
		char *end;

		flt.id = strtoll(argv[optind], &end, 10);
		if (*end || flt.id <= 0 || optind + 1 < argc) {
			log_warnx("status: expected one series ID, got '%s'",
				  argv[optind]);
			cli_policy_args_release(&pa);
			return CLI_USAGE;
		}
	}
	cli_policy_args_done(&pa);
	if (!(st = cli_store(ctx, db, 0))) {
		cli_policy_args_release(&pa);
		return CLI_FAIL;
	}
	/* --entry as a person types it: any case, or a unique start. */
	if (flt.entry) {
		struct pc_err err = { 0 };

		if (pc_status_find_entry(&entry, st, flt.entry, &err) < 0) {
			log_warnx("status: %s", err.msg);
			cli_policy_args_release(&pa);
			return err.code == PC_EUSAGE ? CLI_USAGE : CLI_FAIL;
		}
		flt.entry = entry;
	}
	/* --mine "Name <addr>", as MAINTAINERS and mail write it. */
	if (flt.mine && strchr(flt.mine, '<')) {
		pc_addr_parse_git(&mine, flt.mine, strlen(flt.mine));
		flt.mine = mine.addr;
	}
	if (!(cp = cli_policy(ctx, &pa, o.json))) {
		cli_policy_args_release(&pa);
		free(entry);
		pc_addr_release(&mine);
		return CLI_FAIL;
	}
	o.cp = cp;
	o.flt = &flt;
	if (!o.json && !no_pager)
		term_pager();
	if (o.json)
		o.arr = json_object_new_array();
	/* Judged in a transaction that is rolled back: status writes
	 * nothing. The rows are printed inside it: spooled, so that a
	 * reader who stops at the first screen does not hold the lock. */
	if (!o.json)
		spool_begin();
	listed = cli_policy_list(cp, st, now, full, &stats, list_rows, &o,
				 &stale);
	spool_end();
	if (listed < 0) {
		rc = CLI_FAIL;
		goto out;
	}
	if (stale >= 0) {
		char then[32];

		cli_format_time(then, sizeof(then), stale, stale > 0);
		log_warnx("status: another process (an ingest, the daemon) is "
			  "writing to '%s'; showing the verdicts of the last "
			  "judging pass, at %s UTC, without judging again: run "
			  "status again when it is done",
			  cli_db_path(db), then);
	}
	log_debug("status: judged %llu series (%s; %llu by new mail or "
		  "changes, %llu by due times)",
		  (unsigned long long)stats.judged,
		  stats.full ? "all" : "incremental",
		  (unsigned long long)stats.touched,
		  (unsigned long long)stats.scheduled);
	if (stale >= 0 && list_rows(st, &o) < 0) {
		rc = CLI_FAIL;
		goto out;
	}
	if (o.json) {
		json_object *top = json_top();

		json_object_object_add(top, "judged_at",
				       json_time(stale >= 0 ? stale : now,
						 stale != 0));
		json_object_object_add(top, "stale",
				       json_object_new_boolean(stale >= 0));
		json_object_object_add(top, "series", o.arr);
		o.arr = NULL;
		json_print(top);
	} else {
		char when[32];

		if (stale >= 0) {
			cli_format_time(when, sizeof(when), stale, stale > 0);
			printf("%zu series shown, judged at %s UTC (not judged "
			       "now: the database is busy)\n",
			       o.n, when);
		} else {
			cli_format_time(when, sizeof(when), now, 1);
			printf("%zu series shown, judged at %s UTC (%llu "
			       "judged now, %s)\n",
			       o.n, when, (unsigned long long)stats.judged,
			       stats.full ? "all again" : "incrementally");
		}
	}
out:
	if (o.arr)
		json_object_put(o.arr);
	if (!o.n && (flt.entry || flt.mine || flt.id))
		log_warnx("status: no %sseries%s%s%s%s%s",
			  flt.all ? "" : "open ",
			  flt.entry ? " mapped to " : "",
			  flt.entry ? flt.entry : "",
			  flt.mine ? " by or for " : "",
			  flt.mine ? flt.mine : "",
			  flt.all ? "" : " (--all shows the others)");
	cli_policy_args_release(&pa);
	free(entry);
	pc_addr_release(&mine);
	return rc;
}
