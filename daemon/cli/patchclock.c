// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock: the command line. Dispatches to one cmd_<verb>() per
 * subcommand (daemon/cli/cmd_<verb>.c); shared helpers live here.
 *
 * Built twice: as patchclock-core, the whole CLI, and with PC_CLI_FRONT
 * as the light `patchclock` (cli/front.c), which runs `who` itself and
 * hands every other command to the core.
 */
#include <assert.h>
#include <malloc.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "cli/cli.h"
#include "cliconf.h"
#include "cli/safeout.h"
#include "conf.h"
#include "datadir.h"
#include "log.h"
#include "policy.h"
#include "store/sqlprofile.h"
#include "store/query.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A command the light `patchclock` leaves to the core (NULL there). */
#ifdef PC_CLI_FRONT
#define CORE(fn) NULL
#else
#define CORE(fn) fn
#endif

#define S CLI_USES_STORE
#define P (CLI_USES_STORE | CLI_USES_POLICY)
static const struct cli_cmd commands[] = {
	{ "ingest", CORE(cmd_ingest),
	  "read mail (mbox, maildir, public-inbox...) into the database", S },
	{ "series", CORE(cmd_series), "list the patch series found", S },
	{ "show", CORE(cmd_show), "show one series or message", S },
	{ "who", cmd_who, "who to send a file or patch to (MAINTAINERS)", 0 },
	{ "profile", CORE(cmd_profile), "the policy a subsystem profile states",
	  0 },
	{ "status", CORE(cmd_status), "the clock's verdict on each open series",
	  P },
	{ "accept", CORE(cmd_accept), "mark a series accepted by a maintainer",
	  S },
	{ "digest", CORE(cmd_digest),
	  "queue digests and reminders the clock calls for", P },
	{ "report", CORE(cmd_report),
	  "write the dashboard: a static HTML site with Atom feeds", P },
	{ "outbox", CORE(cmd_outbox),
	  "the mail queued, sent, failed or held back", S },
	{ "send", CORE(cmd_send), "send the outbox's due mail over SMTP", S },
	{ "fetch", CORE(cmd_fetch), "fetch the kernel tree and fast-forward it",
	  0 },
	{ "apply", CORE(cmd_apply),
	  "apply a series to a branch of the kernel tree", S },
	{ "boot-test", CORE(cmd_boot_test),
	  "build an applied series and boot it in QEMU with NVDIMMs", S },
};
#undef S
#undef P

static const char usage_text[] =
	"usage: patchclock [--version] [--help] COMMAND [ARGS]\n"
	"\n"
	"patchclock watches a Linux kernel mailing list and holds each\n"
	"subsystem to the rules of its maintainer entry profile.\n"
	"\n"
	"Commands:\n";

static int usage(FILE *f, int status)
{
	size_t i;

	fputs(usage_text, f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\nRun 'patchclock COMMAND --help' for a command's options.\n"
	      "The database is --db FILE, else $PATCHCLOCK_DB, else the\n"
	      "configuration's database, else ./patchclock.db; only ingest\n"
	      "makes one. The configuration is patchclockd's file:\n"
	      "$PATCHCLOCK_CONFIG, else /etc/patchclock/patchclockd.conf, else\n"
	      "$XDG_CONFIG_HOME/patchclock/patchclockd.conf; it also gives the\n"
	      "kernel tree (after --tree and $PC_KERNEL_TREE) and the policy\n"
	      "settings the command line leaves unset.\n"
	      "On a terminal, the listings (status, series, outbox) go\n"
	      "through $PATCHCLOCK_PAGER, else $PAGER, else less\n"
	      "(PATCHCLOCK_PAGER=cat: none), in colour unless NO_COLOR is set.\n"
	      "PATCHCLOCK_DEBUG set: debug messages on standard error.\n"
	      "PATCHCLOCK_SQL_PROFILE set: each SQL statement's runs, time,\n"
	      "page-cache misses and writes, full-scan rows and sorts, costliest\n"
	      "first, on standard error when the command ends (for speed work:\n"
	      "doc/speed.md).\n",
	      f);
	return status;
}

/*
 * A command's usage text, whole when asked for (--help); after a mistake
 * (which getopt or the command names on the line before), its first line
 * and where the rest is.
 */
int cli_usage(FILE *f, const char *text, int status)
{
	const char *cmd;

	if (status == CLI_OK) {
		fputs(text, f);
		return status;
	}
	fprintf(f, "%.*s\n", (int)strcspn(text, "\n"), text);
	cmd = strstr(text, "patchclock ");
	if (cmd) {
		cmd += strlen("patchclock ");
		fprintf(f, "Run 'patchclock %.*s --help' for the options.\n",
			(int)strcspn(cmd, " \n"), cmd);
	}
	return status;
}

/* The edit distance of a and b (optimal string alignment: a swap of two
 * neighbours is one edit), capped at 9; for "did you mean". */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int d[17][17];

	if (la > 16 || lb > 16)
		return 9;
	for (i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int c = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + c;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb] > 9 ? 9 : d[la][lb];
}

#ifndef PC_CLI_FRONT
const char *cli_db_path(const char *opt)
{
	const char *env = getenv("PATCHCLOCK_DB");
	const struct conf *c;

	if (opt)
		return opt;
	if (env && *env)
		return env;
	c = cli_conf();
	return c && c->database ? c->database : "patchclock.db";
}
#endif

int cli_time_option(const char *cmd, const char *opt, const char *arg,
		    int64_t *out)
{
	if (cli_parse_time(arg, out) == 0)
		return 0;
	log_warnx("%s: cannot read %s '%s': use YYYY-MM-DD, 'YYYY-MM-DD "
		  "HH:MM' (UTC), ISO 8601 with its zone "
		  "('2024-01-08T12:00:00+02:00') or @EPOCH",
		  cmd, opt, arg);
	return -1;
}

/*
 * The Message-ID an argument names: itself, or the one in an archive
 * link (lore.kernel.org/LIST/MSGID/, lore.kernel.org/r/MSGID,
 * patch.msgid.link/MSGID, and any URL whose path has a component with
 * an '@'), percent-decoded. The caller frees it.
 */
char *cli_msgid_of_arg(const char *arg)
{
	const char *p, *end, *q;
	struct pc_buf b = PC_BUF_INIT;

	if (strncmp(arg, "http://", 7) && strncmp(arg, "https://", 8))
		return xstrdup(arg);
	/* Past the host, component by component. */
	for (p = strchr(strstr(arg, "//") + 2, '/'); p && *p; p = end) {
		p++;
		end = p + strcspn(p, "/?#");
		pc_buf_reset(&b);
		for (q = p; q < end; q++) {
			if (*q == '%' && end - q >= 3 && pc_hexval(q[1]) >= 0 &&
			    pc_hexval(q[2]) >= 0) {
				pc_buf_addch(&b, pc_hexval(q[1]) * 16 +
							 pc_hexval(q[2]));
				q += 2;
			} else {
				pc_buf_addch(&b, *q);
			}
		}
		if (b.len && memchr(b.buf, '@', b.len))
			return pc_buf_detach(&b, NULL);
		if (*end != '/')
			break;
	}
	pc_buf_release(&b);
	return xstrdup(arg);
}

#ifndef PC_CLI_FRONT
int cli_resolve_series(struct pc_store *st, const char *cmd, const char *arg,
		       long long *out)
{
	struct pc_err err = { 0 };
	int64_t sid = 0, mid = 0;
	char *msgid, *end;
	int rc = -1;

	errno = 0;
	*out = strtoll(arg, &end, 10);
	if (*arg && !*end && !errno && *out > 0)
		return 0;
	msgid = cli_msgid_of_arg(arg);
	if (pc_series_of_message(st, msgid, &sid, &mid, &err) < 0)
		log_warnx("%s: %s", cmd, err.msg);
	else if (sid > 0)
		*out = sid, rc = 0;
	else
		log_warnx("%s: '%s' is neither a series ID nor the Message-ID "
			  "or archive link of a stored series's mail (see "
			  "'patchclock series')",
			  cmd, arg);
	free(msgid);
	return rc;
}
#endif

int cli_series_id(const char *cmd, const char *arg, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(arg, &end, 10);
	if (*arg && !*end && !errno && *out > 0)
		return 0;
	log_warnx("%s: '%s' is not a series ID (see 'patchclock series')", cmd,
		  arg);
	return -1;
}

unsigned cli_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

int cli_parse_jobs(const char *arg, unsigned *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (!*arg || *end || errno || n < 1 || n > 256)
		return -1;
	*out = (unsigned)n;
	return 0;
}

int cli_parse_time(const char *s, int64_t *out)
{
	struct tm tm = { 0 };
	int y, mo, d, h = 0, mi = 0, se = 0, n = 0, off = 0;
	char *end;

	if (!strcmp(s, "now")) {
		*out = (int64_t)time(NULL);
		return 0;
	}
	if (s[0] == '@') {
		long long v = strtoll(s + 1, &end, 10);

		if (end == s + 1 || *end)
			return -1;
		*out = v;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3)
		return -1;
	s += n;
	if (*s == 'T' || *s == ' ') {
		if (sscanf(s + 1, "%2d:%2d%n", &h, &mi, &n) != 2)
			return -1;
		s += 1 + n;
		if (*s == ':') {
			if (sscanf(s + 1, "%2d%n", &se, &n) != 1)
				return -1;
			s += 1 + n;
			/* Fractions of a second: dropped. */
			if (*s == '.' || *s == ',')
				for (s++; *s >= '0' && *s <= '9'; s++)
					;
		}
		/* ISO 8601's zone: Z, or an offset +HH, +HHMM, +HH:MM. */
		if (*s == 'Z') {
			s++;
		} else if (*s == '+' || *s == '-') {
			int sign = *s == '-' ? -1 : 1, oh = 0, om = 0;

			if (sscanf(s + 1, "%2d%n", &oh, &n) != 1 || n != 2)
				return -1;
			s += 1 + n;
			if (*s == ':')
				s++;
			if (*s && (sscanf(s, "%2d%n", &om, &n) != 1 || n != 2))
				return -1;
			if (*s)
				s += n;
			if (oh > 23 || om > 59)
				return -1;
			off = sign * (oh * 3600 + om * 60);
		}
	}
	if (*s || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    se > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	*out = (int64_t)timegm(&tm) - off;
	return 0;
}

#ifndef PC_CLI_FRONT
static struct pc_store *cli_create_store(const char *path);

/* Opens the database or logs why not; NULL on failure. It must exist:
 * only ingest makes one (cli_create_store()). */
static struct pc_store *cli_open_store(const char *path)
{
	struct stat sb;

	/* Only ingest makes a database: a typo in --db is no new one. */
	if (stat(path, &sb) < 0) {
		log_warnx("no database at '%s': give the right one with --db "
			  "FILE or $PATCHCLOCK_DB (or the configuration's "
			  "database =), or make it with 'patchclock ingest "
			  "--db %s SOURCE'",
			  path, path);
		return NULL;
	}
	return cli_create_store(path);
}

/* One line per statement for PATCHCLOCK_SQL_PROFILE: the figures, then
 * the SQL on one line, shortened. */
static void print_cost(const struct pc_store_stmt_cost *c, void *arg)
{
	char sql[161];
	size_t i = 0;
	const char *p;
	int space = 0;

	(void)arg;
	for (p = c->sql; *p && i < sizeof(sql) - 1; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			space = i > 0;
			continue;
		}
		if (space && i < sizeof(sql) - 2)
			sql[i++] = ' ';
		space = 0;
		sql[i++] = *p;
	}
	sql[i] = '\0';
	fprintf(stderr,
		"sql-profile: %9.1f ms %8llu runs %8.1f us/run %9llu miss "
		"%9llu write %10llu scan %6llu sort %11llu steps | %s\n",
		(double)c->ns / 1e6, (unsigned long long)c->runs,
		c->runs ? (double)c->ns / 1e3 / (double)c->runs : 0.0,
		(unsigned long long)c->cache_misses,
		(unsigned long long)c->cache_writes,
		(unsigned long long)c->fullscan_steps,
		(unsigned long long)c->sorts, (unsigned long long)c->vm_steps,
		sql);
}

/* The same, making the database when there is none. */
static struct pc_store *cli_create_store(const char *path)
{
	struct pc_err err = { 0 };
	struct pc_store *st;

	if (pc_store_open(&st, path, &err) < 0) {
		if (err.code == PC_EUSAGE)
			log_warnx("%s", err.msg);
		else if (err.code == PC_EBUSY)
			log_warnx("%s (another process held it too long: "
				  "try again when it is done)",
				  err.msg);
		else
			log_warnx("%s (is the directory there and writable? "
				  "choose the database with --db FILE or "
				  "$PATCHCLOCK_DB)",
				  err.msg);
		return NULL;
	}
	if (getenv("PATCHCLOCK_SQL_PROFILE"))
		pc_store_profile(st, print_cost, NULL);
	return st;
}

static void ctx_close(struct cli_ctx *ctx)
{
	if (ctx->cp) {
		cli_policy_close(ctx->cp);
		free(ctx->cp);
		ctx->cp = NULL;
	}
	if (ctx->st) {
		pc_store_rollback(ctx->st);
		pc_store_close(ctx->st);
		ctx->st = NULL;
	}
}

struct pc_store *cli_store(struct cli_ctx *ctx, const char *db_opt, int create)
{
	assert(ctx->uses & CLI_USES_STORE);
	if (!ctx->st) {
		const char *path = cli_db_path(db_opt);

		ctx->st = create ? cli_create_store(path) :
				   cli_open_store(path);
		ctx->close = ctx_close;
	}
	return ctx->st;
}

struct cli_policy *cli_policy(struct cli_ctx *ctx,
			      const struct cli_policy_args *a, int quiet)
{
	assert((ctx->uses & CLI_USES_POLICY) && ctx->st);
	if (!ctx->cp) {
		struct cli_policy *cp = xcalloc(1, sizeof(*cp));

		if (cli_policy_open(cp, ctx->st, a, quiet) < 0) {
			free(cp);
			return NULL;
		}
		ctx->cp = cp;
		ctx->close = ctx_close;
	}
	return ctx->cp;
}
#endif

void cli_format_time(char *out, size_t len, int64_t t, int valid)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (!valid || !gmtime_r(&tt, &tm)) {
		snprintf(out, len, "-");
		return;
	}
	strftime(out, len, "%Y-%m-%d %H:%M", &tm);
}

void cli_format_iso(char *out, size_t len, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (!gmtime_r(&tt, &tm)) {
		snprintf(out, len, "?");
		return;
	}
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Whether the command prints mail text that must not reach a terminal
 * as is: every command but `show --raw` (the bytes asked for) and the
 * mail that `--dry-run` prints. */
static int wants_filter(int argc, char **argv)
{
	int i;

	for (i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--raw") || !strcmp(argv[i], "--dry-run"))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = { 0 };
	const char *guess = NULL;
	size_t i;
	int best;

	log_init("patchclock", 1, getenv("PATCHCLOCK_DEBUG") != NULL);
	/* Ingest allocates and frees a message's worth of buffers per
	 * message: keep freed memory instead of returning it to the kernel
	 * and faulting it back in each time. */
	mallopt(M_TRIM_THRESHOLD, 32 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	if (argc < 2)
		return usage(stderr, CLI_USAGE);
	/* Global options before the command, as git takes them
	 * (patchclock --db x status): --db is every database command's. */
	if (argc >= 4 && !strcmp(argv[1], "--db")) {
		static char db_opt[] = "--db";
		char *db = argv[2];

		argv[1] = argv[3];
		argv[2] = db_opt;
		argv[3] = db;
	} else if (argc >= 3 && !strncmp(argv[1], "--db=", 5)) {
		char *db = argv[1];

		argv[1] = argv[2];
		argv[2] = db;
	}
	/* patchclock help COMMAND: the command's own --help. */
	if (!strcmp(argv[1], "help") && argc >= 3) {
		static char help_opt[] = "--help";

		argv[1] = argv[2];
		argv[2] = help_opt;
		argc = 3;
		argv[3] = NULL;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return usage(stdout, CLI_OK);
	if (!strcmp(argv[1], "--version")) {
		printf("patchclock %s (data: %s)\n", PC_VERSION, pc_data_dir());
		return CLI_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			int rc;

#ifdef PC_CLI_FRONT
			cli_front_init(argv);
			if (!commands[i].run)
				cli_front_core();
#endif
			if (wants_filter(argc, argv))
				safeout_install();
			ctx.uses = commands[i].uses;
			rc = commands[i].run(argc - 1, argv + 1, &ctx);
			if (ctx.close)
				ctx.close(&ctx);
			/* Flushes the filter (and the real stdout under it). */
			if (fflush(stdout) != 0 && rc == CLI_OK)
				rc = CLI_FAIL;
			return rc;
		}
	best = 3; /* more than two edits away: no guess */
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		int d = distance(argv[1], commands[i].name);

		if (d < best && strlen(argv[1]) > 2) {
			best = d;
			guess = commands[i].name;
		}
	}
	if (guess)
		log_warnx("unknown command '%s': did you mean '%s'? "
			  "('patchclock --help' lists them)",
			  argv[1], guess);
	else
		log_warnx("unknown command '%s': run 'patchclock --help' for "
			  "the list",
			  argv[1]);
	return CLI_USAGE;
}
