// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock send: delivers the outbox's due mail over SMTP, marking
 * each one sent right after the server's OK (in its own transaction),
 * retrying temporary failures later with backoff and giving up on 5xx
 * replies. --dry-run prints the exact mail instead.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "sendout.h"
#include "log.h"
#include "notify/smtp.h"
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
	"  --db FILE          database (default: see patchclock --help)\n"
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

int cmd_send(int argc, char **argv, struct cli_ctx *ctx)
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
	struct sendout sd = { 0 };
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
			if (cli_time_option("send", "--now", optarg, &sd.now) <
			    0) {
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
		if (sendout_credentials(creds, &user, &pass) < 0)
			return CLI_USAGE;
		o.user = user;
		o.password = pass;
	}
	if (pc_smtp_check(&o, &err) < 0) {
		log_warnx("send: %s", err.msg);
		rc = CLI_USAGE;
		goto out;
	}
	sd.o = o;
	if (!(sd.st = cli_store(ctx, db, 0))) {
		rc = CLI_FAIL;
		goto out;
	}
	rc = sendout_run(&sd, &err);
	if (rc < 0 && err.code)
		log_warnx("send: %s", err.msg);
	if (!sd.dry_run) {
		char part[64] = "";

		if (sd.partial)
			snprintf(part, sizeof(part),
				 " (%u not to every recipient)", sd.partial);
		/* a sender had stopped while sending them (the log says
		 * which): they may have arrived twice */
		if (sd.in_doubt)
			snprintf(part + strlen(part),
				 sizeof(part) - strlen(part),
				 " (%u possibly twice)", sd.in_doubt);
		printf("send: %u sent%s, %u to retry, %u failed\n", sd.sent,
		       part, sd.retry, sd.failed);
	}
	rc = sd.db_error || (rc < 0 && err.code) ? CLI_FAIL :
	     sd.retry || sd.failed || sd.partial ? CLI_PARTIAL :
						   CLI_OK;
out:
	if (pass)
		memset(pass, 0, strlen(pass));
	free(user);
	free(pass);
	return rc;
}
