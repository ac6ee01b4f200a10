// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock send: delivers the outbox's due mail over SMTP, marking
 * each one sent right after the server's OK (in its own transaction),
 * retrying temporary failures later with backoff and giving up on 5xx
 * replies. --dry-run prints the exact mail instead.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "log.h"
#include "notify/smtp.h"
#include "store/outbox.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char send_usage[] =
	"usage: patchclock send [--db FILE] [--now TIME] [--dry-run]\n"
	"                       --smtp URL --from ADDR [--credentials FILE]\n"
	"                       [--ca-file FILE] [--helo NAME] [--no-starttls]\n"
	"\n"
	"Sends the outbox's mail that is due (its office-hours time has come,\n"
	"and any retry time has passed), one SMTP transaction per mail. A mail\n"
	"is marked sent right after the server accepts it; a 4xx reply or a\n"
	"connection, TLS or timeout failure is retried later (5 minutes,\n"
	"doubling up to 6 hours); a 5xx reply fails it for good, reported by\n"
	"'patchclock outbox --all'. If patchclock dies between the server's OK\n"
	"and the mark, the next run sends the same mail (same Message-ID)\n"
	"once more: receivers and lists drop such a duplicate.\n"
	"\n"
	"Options:\n"
	"  --db FILE          database (default $PATCHCLOCK_DB or ./patchclock.db)\n"
	"  --now TIME         what counts as due (default: now)\n"
	"  --dry-run          print each due mail exactly as it would go out\n"
	"  --smtp URL         smtps://host[:port] (TLS), or smtp://host[:port]\n"
	"                     with STARTTLS required\n"
	"  --from ADDR        envelope sender (MAIL FROM)\n"
	"  --credentials FILE a file holding 'user:password' for SMTP AUTH\n"
	"                     (never on the command line; keep it mode 0600)\n"
	"  --ca-file FILE     CA certificates to verify the server with\n"
	"  --helo NAME        the EHLO name (default: libcurl's)\n"
	"  --no-starttls      smtp:// without TLS (loopback relays only)\n"
	"  -h, --help         this text\n"
	"\n"
	"Exit status: 0 when every due mail was sent (or printed); 3 when some\n"
	"wait for a retry or failed; 1 when the database could not be used;\n"
	"64 on bad usage.\n";

struct sender {
	struct pc_store *st;
	struct pc_smtp_options o;
	int dry_run;
	int64_t now;
	unsigned sent, retry, failed;
	int db_error;
};

/* Reads "user:password" from path into user/pass (caller frees). */
static int read_credentials(const char *path, char **user, char **pass)
{
	struct stat st;
	char line[512], *colon;
	FILE *f;
	size_t n;

	if (!(f = fopen(path, "r"))) {
		log_warnx("send: cannot open credentials '%s': %s", path,
			  strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & 077))
		log_warnx("send: credentials file '%s' is readable by others: "
			  "chmod 600 it",
			  path);
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		log_warnx("send: credentials file '%s' is empty: write "
			  "'user:password' in it",
			  path);
		return -1;
	}
	fclose(f);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	if (!(colon = strchr(line, ':'))) {
		log_warnx("send: credentials file '%s': expected "
			  "'user:password' on its first line",
			  path);
		return -1;
	}
	*colon = '\0';
	*user = xstrdup(line);
	*pass = xstrdup(colon + 1);
	memset(line, 0, sizeof(line));
	return 0;
}

/* Splits "a b c" into an array (caller frees both). */
static size_t split_rcpts(char *s, const char ***out)
{
	size_t n = 0, alloc = 0;
	char *p = s;

	*out = NULL;
	while (*p) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		PC_ALLOC_GROW(*out, n + 1, alloc);
		(*out)[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	return n;
}

static int64_t backoff(int attempts)
{
	int64_t d = 300;

	while (attempts-- > 0 && d < 6 * 3600)
		d *= 2;
	return d > 6 * 3600 ? 6 * 3600 : d;
}

static int send_one(const struct pc_outbox_item *it, void *arg)
{
	struct sender *sd = arg;
	struct pc_smtp_result res;
	struct pc_err err = { 0 };
	const char **rcpts = NULL;
	char *r;
	size_t n;
	int rc;

	if (sd->dry_run) {
		printf("=== outbox %lld: %s, to %s\n", (long long)it->id,
		       it->action, it->recipients);
		fwrite(it->message, 1, it->message_len, stdout);
		if (it->message_len && it->message[it->message_len - 1] != '\n')
			putchar('\n');
		sd->sent++;
		return 0;
	}
	r = xstrdup(it->recipients);
	n = split_rcpts(r, &rcpts);
	rc = pc_smtp_send(&res, &sd->o, rcpts, n, it->message, it->message_len,
			  &err);
	free(rcpts);
	free(r);
	if (rc < 0) {
		log_warnx("send: %s", err.msg);
		return rc;
	}
	if (pc_store_begin(sd->st, &err) < 0)
		goto db_fail;
	switch (res.outcome) {
	case PC_SMTP_SENT:
		rc = pc_outbox_sent(sd->st, it->id, sd->now, &err);
		sd->sent++;
		log_info("send: %s %s to %s: sent", it->action, it->message_id,
			 it->recipients);
		break;
	case PC_SMTP_TEMPORARY:
		rc = pc_outbox_retry(sd->st, it->id,
				     sd->now + backoff(it->attempts),
				     res.detail, &err);
		sd->retry++;
		log_warnx("send: %s %s to %s: %s; will retry", it->action,
			  it->message_id, it->recipients, res.detail);
		break;
	case PC_SMTP_PERMANENT:
		rc = pc_outbox_failed(sd->st, it->id, res.detail, &err);
		sd->failed++;
		log_warnx("send: %s %s to %s: refused for good: %s", it->action,
			  it->message_id, it->recipients, res.detail);
		break;
	}
	if (rc < 0 || pc_store_commit(sd->st, &err) < 0)
		goto db_fail;
	/* A server that is down stays down for this run. */
	return res.outcome == PC_SMTP_TEMPORARY && res.code == 0 ? 1 : 0;
db_fail:
	log_warnx("send: %s", err.msg);
	pc_store_rollback(sd->st);
	sd->db_error = 1;
	return -1;
}

int cmd_send(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "now", required_argument, NULL, 'n' },
		{ "dry-run", no_argument, NULL, 'D' },
		{ "smtp", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'f' },
		{ "credentials", required_argument, NULL, 'c' },
		{ "ca-file", required_argument, NULL, 'C' },
		{ "helo", required_argument, NULL, 'H' },
		{ "no-starttls", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sender sd = { 0 };
	struct pc_smtp_options o = PC_SMTP_OPTIONS_INIT;
	struct pc_err err = { 0 };
	const char *db = NULL, *creds = NULL;
	char *user = NULL, *pass = NULL;
	int c, rc;

	sd.now = (int64_t)time(NULL);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'n':
			if (cli_parse_time(optarg, &sd.now) < 0) {
				log_warnx("send: cannot read --now '%s'",
					  optarg);
				return CLI_USAGE;
			}
			break;
		case 'D':
			sd.dry_run = 1;
			break;
		case 's':
			o.url = optarg;
			break;
		case 'f':
			o.from = optarg;
			break;
		case 'c':
			creds = optarg;
			break;
		case 'C':
			o.ca_file = optarg;
			break;
		case 'H':
			o.helo = optarg;
			break;
		case 'T':
			o.starttls = 0;
			break;
		case 'h':
			return cli_usage(stdout, send_usage, CLI_OK);
		default:
			return cli_usage(stderr, send_usage, CLI_USAGE);
		}
	}
	if (optind != argc)
		return cli_usage(stderr, send_usage, CLI_USAGE);
	if (!sd.dry_run && (!o.url || !o.from)) {
		log_warnx("send: give --smtp URL and --from ADDR (or --dry-run "
			  "to see what would go out)");
		return CLI_USAGE;
	}
	if (o.url && strncmp(o.url, "smtp://", 7) &&
	    strncmp(o.url, "smtps://", 8)) {
		log_warnx("send: --smtp '%s' is not smtp:// or smtps://",
			  o.url);
		return CLI_USAGE;
	}
	if (creds) {
		if (read_credentials(creds, &user, &pass) < 0)
			return CLI_USAGE;
		o.user = user;
		o.password = pass;
	}
	sd.o = o;
	if (!(sd.st = cli_open_store(cli_db_path(db)))) {
		rc = CLI_FAIL;
		goto out;
	}
	rc = pc_outbox_list(sd.st, sd.now, 0, send_one, &sd, &err);
	if (rc < 0 && err.code)
		log_warnx("send: %s", err.msg);
	pc_store_close(sd.st);
	if (!sd.dry_run)
		printf("send: %u sent, %u to retry, %u failed\n", sd.sent,
		       sd.retry, sd.failed);
	rc = sd.db_error || (rc < 0 && err.code) ? CLI_FAIL :
	     sd.retry || sd.failed		 ? CLI_PARTIAL :
						   CLI_OK;
out:
	if (pass)
		memset(pass, 0, strlen(pass));
	free(user);
	free(pass);
	return rc;
}
