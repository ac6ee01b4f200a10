// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock ingest: reads every SOURCE into the database in batched
 * transactions, reports unparseable messages by id and reason, and ends
 * with a summary line. A progress bar goes to stderr when stdout is a
 * terminal.
 */
#include <getopt.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "policy.h"
#include "log.h"
#include "mail/source.h"
#include "maint/maintainers.h"
#include "store/ingest.h"
#include "store/mapping.h"
#include "store/raw.h"
#include "store/store.h"
#include "util/banned.h"

static const char ingest_usage[] =
	"usage: patchclock ingest [--db FILE] [--list-id ID] [--format FORMAT]\n"
	"                         [--mbox-format mboxo|mboxrd]\n"
	"                         [--compress[=zstd|zlib|none]]\n"
	"                         [--tree DIR] [--jobs N] [--quiet] SOURCE...\n"
	"\n"
	"Reads mail into the database: each message once (a Message-ID\n"
	"already stored is skipped), its raw bytes kept, patches, cover\n"
	"letters, replies and pull requests recognised, and patches placed\n"
	"in series. Then each new or changed series is mapped to its\n"
	"MAINTAINERS entries, as scripts/get_maintainer.pl maps its patches,\n"
	"using the kernel tree's MAINTAINERS; when MAINTAINERS has changed\n"
	"since the last run, every series is mapped again.\n"
	"\n"
	"SOURCE is an mbox file (mboxo or mboxrd, LF or CRLF, optionally\n"
	"gzip-compressed), a maildir (a directory with cur/ and new/), a\n"
	"public-inbox archive (a v2 inbox directory or one git epoch, as\n"
	"lore.kernel.org mirrors are), a file holding one message, or '-'\n"
	"for standard input. Every SOURCE is opened before anything is read\n"
	"or the database is made: one that cannot be is an error (exit 1)\n"
	"and nothing is ingested.\n"
	"\n"
	"Options:\n"
	"  --db FILE          database (default: see patchclock --help)\n"
	"  --list-id ID       list to record for messages without a List-Id\n"
	"  --format FORMAT    force the source type: mbox, maildir, message,\n"
	"                     public-inbox (default: guess)\n"
	"  --mbox-format F    mboxo leaves '>From ' lines alone; mboxrd removes\n"
	"                     one '>' (default: mboxrd when the From_ line says\n"
	"                     'From mboxrd@z', else mboxo)\n"
	"  --compress=CODEC   how the raw messages are kept: zstd (the\n"
	"                     default) with a dictionary trained on the\n"
	"                     database's first 1,000 messages, about 5 KB\n"
	"                     a message on disk instead of 13 KB; zlib\n"
	"                     (what --compress alone means), 7 KB; none.\n"
	"                     zstd costs a worker ~30 us a message: the same\n"
	"                     rate with --jobs 2 or more, about 20% slower\n"
	"                     with --jobs 1\n"
	"  --tree DIR         kernel tree whose MAINTAINERS maps series to\n"
	"                     entries (default: $PC_KERNEL_TREE, else the\n"
	"                     current directory if it has MAINTAINERS, else\n"
	"                     the configuration's; without one,\n"
	"                     series are not mapped: kernel-test/prepare-tree\n"
	"                     makes a tree)\n"
	"  -j, --jobs N       threads that parse and analyse mail while one\n"
	"                     stores it, in the source's order (default: one\n"
	"                     per core; 1 does everything in one thread). The\n"
	"                     database is the same whatever N is\n"
	"  -q, --quiet        no progress bar and no per-message warnings\n"
	"  -h, --help         this text\n"
	"\n"
	"The summary counts messages read, new, duplicates and of each kind;\n"
	"'series' is the change in the number of series (a cover letter that\n"
	"arrives late can merge two series into one, so it may be negative).\n"
	"\n"
	"Other commands may read the database meanwhile. Mail is committed in\n"
	"batches; before each, ingest waits up to 10 minutes for the write\n"
	"lock, which 'patchclock status' holds while it judges.\n"
	"\n"
	"Exit status: 0 when every message was read; 3 when some could not be\n"
	"parsed (they are stored raw and listed by 'patchclock show --errors');\n"
	"1 when a source or the database could not be used; 64 on bad usage.\n";

struct progress {
	int on;
	double start, last;
	uint64_t read0; /* messages read before this source */
	const char *name;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of the calling thread: with --jobs, the storing one. */
static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_draw(struct progress *p, uint64_t done, uint64_t total,
			  const struct pc_ingest_stats *st, int final)
{
	double t, rate, eta;
	int width = 20, fill, cols = 80, room;
	char bar[32], tail[128];
	const char *name;
	struct winsize ws;
	size_t nlen;

	if (!p->on)
		return;
	t = now_s();
	if (!final && t - p->last < 0.1)
		return;
	p->last = t;
	rate = t > p->start ? (double)(st->read - p->read0) / (t - p->start) :
			      0;
	if (total) {
		double frac = (double)done / (double)total;

		fill = (int)((double)width * frac);
		if (fill > width)
			fill = width;
		memset(bar, '#', (size_t)fill);
		memset(bar + fill, '.', (size_t)(width - fill));
		bar[width] = '\0';
		eta = frac > 0.01 ? (t - p->start) * (1 - frac) / frac : -1;
		if (eta >= 0 && !final)
			snprintf(tail, sizeof(tail),
				 " [%s] %3d%% %llu msgs, %.0f/s, %.0f s left",
				 bar, (int)(100.0 * frac),
				 (unsigned long long)st->read, rate, eta);
		else
			snprintf(tail, sizeof(tail),
				 " [%s] %3d%% %llu msgs, %.0f/s", bar,
				 (int)(100.0 * frac),
				 (unsigned long long)st->read, rate);
	} else {
		snprintf(tail, sizeof(tail), " %llu msgs, %.0f/s",
			 (unsigned long long)st->read, rate);
	}
	/* One line that fits the terminal (80 columns when unknown): the
	 * source's file name, cut at the front when it is too long. */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		cols = ws.ws_col;
	name = strrchr(p->name, '/') ? strrchr(p->name, '/') + 1 : p->name;
	nlen = strlen(name);
	room = cols - 1 - (int)strlen(tail);
	if (room < 4)
		room = 4;
	if ((int)nlen > room)
		fprintf(stderr, "\r~%s%s\033[K",
			name + nlen - (size_t)(room - 1), tail);
	else
		fprintf(stderr, "\r%s%s\033[K", name, tail);
	if (final)
		fputc('\n', stderr);
	fflush(stderr);
}

static void warn_message(const char *where, const char *msgid,
			 const char *reason, void *arg)
{
	int *quiet = arg;

	if (!*quiet)
		log_warnx("ingest: %s <%s>: %s (kept raw)", where, msgid,
			  reason);
}

static int parse_kind(const char *s, enum pc_source_kind *out)
{
	static const struct {
		const char *name;
		enum pc_source_kind kind;
	} kinds[] = {
		{ "mbox", PC_SOURCE_MBOX },
		{ "maildir", PC_SOURCE_MAILDIR },
		{ "message", PC_SOURCE_MESSAGE },
		{ "public-inbox", PC_SOURCE_PUBLIC_INBOX },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(s, kinds[i].name)) {
			*out = kinds[i].kind;
			return 0;
		}
	return -1;
}

static void on_message(uint64_t done, uint64_t total,
		       const struct pc_ingest_stats *stats, void *arg)
{
	progress_draw(arg, done, total, stats, 0);
}

static void on_skipped(const char *why, void *arg)
{
	(void)arg;
	log_warnx("ingest: %s", why);
}

/* Ingests one source; returns 0, or -1 when it (or the store) failed. */
static int ingest_one(struct pc_store *store, const char *path,
		      const struct pc_source_options *sopt,
		      const struct pc_ingest_options *iopt, unsigned jobs,
		      struct pc_ingest_stats *stats, struct progress *prog)
{
	struct pc_ingest_loop loop = { .batch = PC_INGEST_BATCH,
				       .batch_bytes = PC_INGEST_BATCH_BYTES,
				       .jobs = jobs,
				       .progress = on_message,
				       .arg = prog,
				       .skipped = on_skipped };
	struct pc_source *src;
	struct pc_err err = { 0 };
	/* The counts at the last commit: what a rollback takes back. */
	struct pc_ingest_stats committed = *stats;
	double writer0, wall0;
	int rc;

	if (pc_source_open(&src, path, sopt, &err) < 0) {
		log_warnx("ingest: %s", err.msg);
		return -1;
	}
	prog->name = strcmp(path, "-") ? path : "stdin";
	prog->start = now_s();
	prog->read0 = stats->read;
	writer0 = thread_cpu_s();
	wall0 = now_s();
	rc = pc_ingest_source(store, src, path, iopt, &loop, stats, &committed,
			      &err);
	/* The storing thread bounds the rate whatever the number of
	 * workers: its CPU per message is the figure to watch. */
	if (stats->read > prog->read0)
		log_debug("ingest: %s: %llu messages in %.2f s with %u "
			  "thread%s; storing thread %.1f us CPU per message",
			  path, (unsigned long long)(stats->read - prog->read0),
			  now_s() - wall0, jobs, jobs == 1 ? "" : "s",
			  1e6 * (thread_cpu_s() - writer0) /
				  (double)(stats->read - prog->read0));
	if (rc >= 0) {
		uint64_t done, total;

		pc_source_progress(src, &done, &total);
		progress_draw(prog, done, total, stats, 1);
		/* A damaged source: what was read before the damage is
		 * kept, the damage recorded as an error (exit 3). */
		if (rc == 1)
			log_warnx("ingest: %s; the %llu messages before it "
				  "are kept",
				  err.msg,
				  (unsigned long long)(stats->read -
						       prog->read0));
		log_debug("ingest: %s read as %s", path,
			  pc_source_kind_name(pc_source_kind(src)));
		if (stats->read == prog->read0 && rc == 0)
			log_warnx("ingest: %s: no message in it (an empty "
				  "file? patchclock reads mboxes, maildirs, "
				  "public-inbox archives and single messages)",
				  path);
		pc_source_free(src);
		return 0;
	}
	if (prog->on)
		fputc('\n', stderr);
	log_warnx("ingest: %s", err.msg);
	if (stats->read > committed.read)
		log_warnx("ingest: the %llu messages read from '%s' since the "
			  "last commit were not stored (rolled back); fix the "
			  "cause and run ingest again: it stores only what is "
			  "missing",
			  (unsigned long long)(stats->read - committed.read),
			  path);
	/* The summary counts what is stored: nothing of the rolled-back
	 * batch. */
	*stats = committed;
	pc_source_free(src);
	return -1;
}

/* Maps new and changed series to MAINTAINERS entries; 0 or -1. */
static int map_series(struct pc_store *store, const char *tree, int quiet)
{
	struct pc_maint *m = NULL;
	struct pc_map_stats ms;
	struct pc_err err = { 0 };
	double t0 = now_s();

	if (!tree) {
		if (!quiet)
			log_warnx(
				"ingest: series not mapped to MAINTAINERS entries: no kernel tree (give --tree DIR or set PC_KERNEL_TREE; kernel-test/prepare-tree makes one)");
		return 0;
	}
	if (pc_maint_load(&m, tree, &err) < 0) {
		log_warnx("ingest: %s", err.msg);
		return -1;
	}
	if (pc_store_begin(store, &err) < 0 ||
	    pc_map_series(store, m, tree, (int64_t)time(NULL), &ms, &err) < 0 ||
	    pc_store_commit(store, &err) < 0) {
		log_warnx("ingest: %s", err.msg);
		pc_store_rollback(store);
		pc_maint_free(m);
		return -1;
	}
	pc_maint_free(m);
	if (!quiet)
		printf("map: %llu series mapped to MAINTAINERS entries (%llu "
		       "patches, %llu matching no entry)%s in %.2f s\n",
		       (unsigned long long)ms.series,
		       (unsigned long long)ms.patches,
		       (unsigned long long)ms.unmapped,
		       ms.maintainers_changed ? ", MAINTAINERS (re)loaded" : "",
		       now_s() - t0);
	return 0;
}

int cmd_ingest(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "list-id", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "mbox-format", required_argument, NULL, 'm' },
		{ "compress", optional_argument, NULL, 'z' },
		{ "tree", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned jobs = cli_cores();
	struct pc_source_options sopt = PC_SOURCE_OPTIONS_INIT;
	struct pc_ingest_options iopt = { .compress = PC_RAW_ZSTD };
	struct pc_ingest_stats stats = { 0 };
	struct progress prog = { 0 };
	const char *db = NULL, *tree = NULL;
	struct pc_store *store;
	struct pc_err err = { 0 };
	int c, quiet = 0, failed = 0, i;

	while ((c = getopt_long(argc, argv, "j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'l':
			iopt.list_id = optarg;
			break;
		case 'f':
			if (parse_kind(optarg, &sopt.kind) < 0) {
				log_warnx(
					"ingest: unknown --format '%s': use mbox, maildir, message or public-inbox",
					optarg);
				return CLI_USAGE;
			}
			break;
		case 'm':
			if (!strcmp(optarg, "mboxo"))
				sopt.mbox_format = PC_MBOX_MBOXO;
			else if (!strcmp(optarg, "mboxrd"))
				sopt.mbox_format = PC_MBOX_MBOXRD;
			else {
				log_warnx(
					"ingest: unknown --mbox-format '%s': use mboxo or mboxrd",
					optarg);
				return CLI_USAGE;
			}
			break;
		case 'z': {
			enum pc_raw_codec codec = PC_RAW_ZLIB;

			if (optarg && pc_raw_codec_parse(optarg, &codec) < 0) {
				log_warnx("ingest: unknown --compress '%s': "
					  "use none, zlib or zstd",
					  optarg);
				return CLI_USAGE;
			}
			iopt.compress = (int)codec;
			break;
		}
		case 't':
			tree = optarg;
			break;
		case 'j':
			if (cli_parse_jobs(optarg, &jobs) < 0) {
				log_warnx("ingest: --jobs wants a number of "
					  "threads from 1 to 256, not '%s'",
					  optarg);
				return CLI_USAGE;
			}
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			return cli_usage(stdout, ingest_usage, CLI_OK);
		default:
			return cli_usage(stderr, ingest_usage, CLI_USAGE);
		}
	}
	if (optind >= argc) {
		log_warnx("ingest: no SOURCE given");
		return cli_usage(stderr, ingest_usage, CLI_USAGE);
	}
	iopt.warn = warn_message;
	iopt.warn_arg = &quiet;
	prog.on = !quiet && isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
	/* Every source opens before the database is made: a typo in a
	 * path leaves nothing behind. (Standard input is read once.) */
	for (i = optind; i < argc; i++) {
		struct pc_source *src;

		if (!strcmp(argv[i], "-"))
			continue;
		if (pc_source_open(&src, argv[i], &sopt, &err) < 0) {
			log_warnx("ingest: %s; nothing was ingested (fix the "
				  "path or drop it, and run ingest again)",
				  err.msg);
			return CLI_FAIL;
		}
		pc_source_free(src);
	}
	if (!(store = cli_store(ctx, db, 1)))
		return CLI_FAIL;
	/* Bulk mode: fewer, larger checkpoints; readers keep working. */
	if (pc_store_bulk(store, 1, &err) < 0)
		log_warnx("ingest: %s", err.msg);
	for (i = optind; i < argc; i++)
		if (ingest_one(store, argv[i], &sopt, &iopt, jobs, &stats,
			       &prog) < 0)
			failed = 1;
	printf("ingest: read %llu, new %llu, duplicates %llu, patches %llu, "
	       "covers %llu, replies %llu, pulls %llu, other %llu, "
	       "series %lld, errors %llu\n",
	       (unsigned long long)stats.read, (unsigned long long)stats.added,
	       (unsigned long long)stats.duplicates,
	       (unsigned long long)stats.patches,
	       (unsigned long long)stats.covers,
	       (unsigned long long)stats.replies,
	       (unsigned long long)stats.pulls, (unsigned long long)stats.other,
	       (long long)stats.series, (unsigned long long)stats.errors);
	if (map_series(store, cli_tree_dir(tree), quiet) < 0)
		failed = 1;
	if (pc_store_bulk(store, 0, &err) < 0)
		log_warnx("ingest: %s", err.msg);
	if (failed)
		return CLI_FAIL;
	return stats.errors ? CLI_PARTIAL : CLI_OK;
}
