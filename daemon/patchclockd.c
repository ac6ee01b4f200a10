// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclockd: the long-running service. One libev loop owned by main:
 * a timer reads the local spools (maildir and mbox sources), judges the
 * series and queues the mail the verdicts call for (one transaction), and
 * hands the outbox to a sender child; it then sleeps until the next poll,
 * due time or queued mail, on the real or a simulated clock. SIGHUP
 * re-reads the configuration (a bad one is refused and the old one
 * stays), MAINTAINERS and the profiles; SIGTERM and SIGINT let the
 * current work finish and exit 0.
 *
 * IMAP sources run in fetcher children (imapsource.c) that store new
 * mail themselves and wake the loop through a pipe: the loop then judges
 * at once, without waiting for the next poll.
 */
#include <errno.h>
#include <ev.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apply/branches.h"
#include "policy.h"
#include "report_model.h"
#include "sendout.h"
#include "conf.h"
#include "imapsource.h"
#include "datadir.h"
#include "instance.h"
#include "replay.h"
#include "tester.h"
#include "log.h"
#include "mail/message.h"
#include "mail/source.h"
#include "notify/plan.h"
#include "simclock.h"
#include "store/ingest.h"
#include "store/outbox.h"
#include "store/status.h"
#include "store/store.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define DEFAULT_CONF "/etc/patchclock/patchclockd.conf"

static const char usage_text[] =
	"usage: patchclockd [-dnv] [-f FILE]\n"
	"       patchclockd --help | --version\n"
	"\n"
	"Watches the mail sources of the configuration, judges every series\n"
	"against its subsystem profile, and sends the 'resend now' replies\n"
	"and maintainer digests the verdicts call for (see patchclock(1):\n"
	"status, digest, outbox, send).\n"
	"\n"
	"  -f, --config FILE  configuration (default " DEFAULT_CONF ")\n"
	"  -n, --check        check the configuration and what it names\n"
	"                     (MAINTAINERS and the profiles of the tree,\n"
	"                     the overrides, the release calendar, the\n"
	"                     holidays), then exit: 0 when all are read\n"
	"  -d, --foreground   stay in the foreground and log to stderr\n"
	"                     (else: syslog)\n"
	"  -v, --verbose      log debugging detail\n"
	"  -h, --help         this text\n"
	"  -V, --version      the version\n"
	"\n"
	"Signals: SIGHUP re-reads the configuration, MAINTAINERS and the\n"
	"profiles; SIGTERM and SIGINT finish the current work and exit 0.\n";

struct daemon {
	struct ev_loop *loop; /* borrowed: the default loop */
	const char *conf_path;
	struct conf *conf; /* owned */
	struct simclock clock;
	struct pc_store *st; /* owned */
	struct cli_policy cp; /* owned when have_policy */
	int have_policy;
	int said_past; /* logged the overdue series due before mail began */
	/* owned: the configuration's [project]s as the clock reads them
	 * (their strings borrowed from conf); outlive cp */
	struct pc_sla_project *projects;
	/* The tree's MAINTAINERS as last read: when the operator updates
	 * the tree, it is read again (with the profiles). */
	struct timespec maint_mtime;
	off_t maint_size;
	ev_timer tick;
	ev_signal hup, term, intr;
	ev_child sender;
	pid_t sender_pid;
	ev_child fetcher; /* fetch = REMOTE: the fetch child */
	pid_t fetch_pid;
	double fetched_at; /* real time the last fetch started */
	struct imapsrc_set *imap; /* owned: the IMAP fetchers */
	struct tester tester; /* [test] apply: the apply-and-boot child */
	double spools_read_at; /* real time of the last spool read */
	struct replay *replays; /* owned: one per source (replay = yes) */
	size_t n_replays;
	int64_t replay_next; /* the next Date a replay source waits for */
	int64_t last_now; /* the simulated time work was last done at */
	int64_t now_override; /* catching up: work is done at this time */
	int finishing; /* [clock] until reached: judge once more, exit 0 */
	/* [report] html: a pass judged something since the last report,
	 * which was written at this monotonic second (0: never) */
	int report_dirty;
	int64_t report_written;
};

static int64_t now_of(struct daemon *d)
{
	if (d->now_override)
		return d->now_override;
	return simclock_now(&d->clock, ev_now(d->loop));
}

/* Whether the tree's MAINTAINERS changed since the last look (and
 * notes what it is now). */
static int maintainers_changed(struct daemon *d)
{
	struct stat sb;
	char *path;
	int changed;

	if (!d->conf->tree)
		return 0;
	path = xasprintf("%s/MAINTAINERS", d->conf->tree);
	if (stat(path, &sb) < 0) {
		free(path);
		return 0;
	}
	free(path);
	changed = sb.st_mtim.tv_sec != d->maint_mtime.tv_sec ||
		  sb.st_mtim.tv_nsec != d->maint_mtime.tv_nsec ||
		  sb.st_size != d->maint_size;
	d->maint_mtime = sb.st_mtim;
	d->maint_size = sb.st_size;
	return changed;
}

static int open_policy(struct daemon *d)
{
	struct cli_policy_args pa = { 0 };
	const struct conf *c = d->conf;
	struct pc_err err = { 0 };
	size_t i;

	pa.tree = c->tree;
	pa.overrides = (const char *const *)c->policy.overrides;
	pa.n_overrides = c->policy.n_overrides;
	pa.no_map = c->policy.no_map;
	pa.releases = c->releases;
	pa.holidays = c->holidays;
	pa.bots = (const char *const *)c->policy.bots;
	pa.n_bots = c->policy.n_bots;
	pa.branches = c->branches;
	pa.dkim_keys = c->dkim_keys;
	pa.require_dkim = c->require_dkim;
	pa.attest_tags = c->attest_tags;
	free(d->projects);
	d->projects = xcalloc(c->n_projects + 1, sizeof(*d->projects));
	for (i = 0; i < c->n_projects; i++) {
		d->projects[i].name = c->projects[i].name;
		d->projects[i].words =
			(const char *const *)c->projects[i].subjects;
		d->projects[i].nwords = c->projects[i].n_subjects;
		d->projects[i].list_id = c->projects[i].list_id;
	}
	pa.projects = d->projects;
	pa.n_projects = c->n_projects;
	maintainers_changed(d);
	if (cli_policy_open(&d->cp, d->st, &pa, 0) < 0)
		return -1;
	d->have_policy = 1;
	if (c->policy.n_opt_outs) {
		if (pc_store_begin(d->st, &err) < 0)
			goto fail;
		for (i = 0; i < c->policy.n_opt_outs; i++)
			if (pc_optout_add(d->st, c->policy.opt_outs[i],
					  "configuration", now_of(d), &err) < 0)
				goto fail;
		if (pc_store_commit(d->st, &err) < 0)
			goto fail;
	}
	return 0;
fail:
	log_warnx("policy: %s", err.msg);
	pc_store_rollback(d->st);
	return -1;
}

/*
 * -n: the configuration parsed, then what it names read as the daemon
 * reads it (MAINTAINERS and the profiles of the tree, the overrides, the
 * release calendar, the holidays), against a scratch database: the
 * daemon would otherwise start and only then say that its policy could
 * not be read. Returns the exit status.
 */
static int check_config(struct daemon *d)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/patchclockd-check.XXXXXX",
			      tmp && *tmp ? tmp : "/tmp"),
	     *db;
	struct pc_err err = { 0 };
	int rc = 1;

	simclock_real(&d->clock);
	d->loop = EV_DEFAULT; /* now_of() reads its time */
	if (!mkdtemp(dir)) {
		log_warn("cannot make a scratch directory '%s' (set TMPDIR)",
			 dir);
		conf_free(d->conf);
		free(dir);
		return 1;
	}
	db = xasprintf("%s/check.db", dir);
	if (pc_store_open(&d->st, db, &err) < 0) {
		log_warnx("%s", err.msg);
	} else if (open_policy(d) < 0) {
		log_warnx("%s: MAINTAINERS, a profile or a file the [policy] "
			  "section names could not be read (above): fix it "
			  "and check again",
			  d->conf_path);
	} else {
		printf("patchclockd: configuration OK (%s)\n", d->conf_path);
		rc = 0;
	}
	if (d->have_policy)
		cli_policy_close(&d->cp);
	pc_store_close(d->st);
	d->st = NULL;
	free(d->projects);
	d->projects = NULL;
	conf_free(d->conf);
	{
		static const char *const ext[] = { "",	       "-wal",	"-shm",
						   "-journal", ".lock", NULL };
		size_t i;

		for (i = 0; ext[i]; i++) {
			char *f = xasprintf("%s%s", db, ext[i]);

			unlink(f);
			free(f);
		}
		rmdir(dir);
	}
	free(db);
	free(dir);
	return rc;
}

/* Threads for a spool's ingest: the configuration's, or one per core.
 * (IMAP fetchers, one child per source, store in one thread each.) */
static unsigned ingest_jobs(const struct conf *c)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (c->jobs)
		return c->jobs;
	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

/* Reads one path of a local source into the store, in transactions of
 * PC_INGEST_BATCH messages or PC_INGEST_BATCH_BYTES; idempotent (known
 * Message-IDs are skipped). */
static int read_path(struct daemon *d, const struct conf_source *src,
		     const char *path, struct pc_ingest_stats *stats,
		     struct pc_err *err)
{
	struct pc_source_options so = PC_SOURCE_OPTIONS_INIT;
	struct pc_ingest_options io = PC_INGEST_OPTIONS_INIT;
	struct pc_ingest_loop loop = { .batch = PC_INGEST_BATCH,
				       .batch_bytes = PC_INGEST_BATCH_BYTES,
				       .jobs = ingest_jobs(d->conf) };
	struct pc_source *s = NULL;
	int rc;

	so.kind = src->type == CONF_SOURCE_MAILDIR ? PC_SOURCE_MAILDIR :
		  src->type == CONF_SOURCE_MBOX	   ? PC_SOURCE_MBOX :
						     PC_SOURCE_AUTO;
	io.list_id = src->list_id;
	io.commands_only = src->commands;
	io.compress = d->conf->compress;
	if ((rc = pc_source_open(&s, path, &so, err)) < 0)
		return rc;
	rc = pc_ingest_source(d->st, s, path, &io, &loop, stats, NULL, err);
	if (rc == 1) {
		/* damaged: what came before is kept, the damage recorded */
		log_warnx("source %s: %s; what came before it is kept",
			  src->name, err->msg);
		rc = 0;
	}
	pc_source_free(s);
	return rc;
}

/* Says what a read of a source stored, if anything. */
static void log_new_mail(const struct conf_source *src,
			 const struct pc_ingest_stats *stats)
{
	if (stats->added)
		log_info("source %s: %llu new messages (%llu patches, %llu "
			 "replies)",
			 src->name, (unsigned long long)stats->added,
			 (unsigned long long)stats->patches,
			 (unsigned long long)stats->replies);
}

/* Reads a local source: every path it names. */
static void read_source(struct daemon *d, const struct conf_source *src)
{
	struct pc_ingest_stats stats = { 0 };
	struct pc_err err = { 0 };
	size_t i;

	for (i = 0; i < src->n_paths; i++)
		if (read_path(d, src, src->paths[i], &stats, &err) < 0)
			log_warnx("source %s: %s", src->name, err.msg);
	log_new_mail(src, &stats);
}

/* Feeds replay source i with what has arrived by now; notes the next
 * Date it waits for. */
static void feed_replay(struct daemon *d, size_t i)
{
	const struct conf_source *src = &d->conf->sources[i];
	struct pc_ingest_stats stats = { 0 };
	struct pc_err err = { 0 };
	struct replay *r;
	int64_t next;

	if (d->n_replays < d->conf->n_sources) {
		d->replays = xreallocarray(d->replays, d->conf->n_sources,
					   sizeof(*d->replays));
		memset(d->replays + d->n_replays, 0,
		       (d->conf->n_sources - d->n_replays) *
			       sizeof(*d->replays));
		d->n_replays = d->conf->n_sources;
	}
	r = &d->replays[i];
	if (!r->loaded) {
		if (replay_load(r, src, &err) < 0)
			log_warnx("source %s: %s", src->name, err.msg);
		log_info("source %s: replaying %zu messages by their Date",
			 src->name, r->n);
	}
	if (replay_feed(r, d->st, src, now_of(d), &stats, &err) < 0)
		log_warnx("source %s: %s", src->name, err.msg);
	log_new_mail(src, &stats);
	next = replay_next_date(r);
	if (next && (!d->replay_next || next < d->replay_next))
		d->replay_next = next;
}

static void replays_release(struct daemon *d)
{
	size_t i;

	for (i = 0; i < d->n_replays; i++)
		replay_release(&d->replays[i]);
	free(d->replays);
	d->replays = NULL;
	d->n_replays = 0;
}

/* The sender child: its own connection, blocking SMTP, then exit. */
static void run_sender(struct daemon *d, int64_t now)
{
	const struct conf_smtp *c = &d->conf->smtp;
	struct sendout sd = { 0 };
	struct pc_smtp_options o = PC_SMTP_OPTIONS_INIT;
	struct pc_err err = { 0 };
	char *user = NULL, *pass = NULL;
	int rc;

	o.url = c->url;
	o.from = c->from;
	o.ca_file = c->ca_file;
	o.helo = c->helo;
	o.starttls = c->starttls;
	if (c->credentials &&
	    sendout_credentials(c->credentials, &user, &pass) < 0)
		_exit(1);
	o.user = user;
	o.password = pass;
	sd.o = o;
	sd.now = now;
	if (pc_store_open(&sd.st, d->conf->database, &err) < 0) {
		log_warnx("sender: %s", err.msg);
		_exit(1);
	}
	rc = sendout_run(&sd, &err);
	if (rc < 0 && err.code)
		log_warnx("sender: %s", err.msg);
	if (sd.sent || sd.retry || sd.failed)
		log_info("sender: %u sent (%u not to every recipient, %u "
			 "possibly twice), %u to retry, %u failed",
			 sd.sent, sd.partial, sd.in_doubt, sd.retry, sd.failed);
	pc_store_close(sd.st);
	_exit(sd.db_error ? 1 : 0);
}

static void daemon_on_sender(EV_P_ ev_child *w, int revents)
{
	struct daemon *d = w->data;

	(void)revents;
	ev_child_stop(EV_A_ w);
	d->sender_pid = 0;
	if (WIFEXITED(w->rstatus) && WEXITSTATUS(w->rstatus) == 0)
		log_debug("sender: done");
	else
		log_warnx("sender: exited with status %d", w->rstatus);
}

/* Whether the outbox has mail to send at now. */
static int outbox_due(struct daemon *d, int64_t now)
{
	int64_t n = 0;

	if (pc_outbox_due_count(d->st, now, &n, NULL) < 0)
		return 1; /* let the sender find out */
	return n > 0;
}

/*
 * On a simulated clock (a replay) mail goes out at the time it is due,
 * before the clock moves on: the sender runs to its end while the loop
 * waits, so a mail is never sent at a later step than the one it was
 * due at (that sent a month of due mail at once), and two replays of
 * the same archive send the same mail at the same times.
 */
static void send_in_step(struct daemon *d, int64_t now)
{
	pid_t pid, parent = getpid();
	int status;

	if (!d->conf->smtp.url || !outbox_due(d, now))
		return;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		log_warn("sender: fork");
		return;
	}
	if (pid == 0) {
		instance_child(parent);
		run_sender(d, now);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		log_warnx("sender: exited with status %d", status);
}

static void start_sender(struct daemon *d, int64_t now)
{
	pid_t pid, parent = getpid();

	if (d->clock.simulated) {
		send_in_step(d, now);
		return;
	}
	if (!d->conf->smtp.url || d->sender_pid || !outbox_due(d, now))
		return;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		log_warn("sender: fork");
		return;
	}
	if (pid == 0) {
		instance_child(parent);
		run_sender(d, now);
	}
	d->sender_pid = pid;
	ev_child_init(&d->sender, daemon_on_sender, pid, 0);
	d->sender.data = d;
	ev_child_start(d->loop, &d->sender);
}

/* The fetch child: fetches the tree's remote and fast-forwards the
 * checked-out branch to its upstream (a changed MAINTAINERS is then read
 * again, and new branch commits count as applied patches). */
static void run_fetch(struct daemon *d)
{
	const struct conf *c = d->conf;
	struct pc_err err = { 0 };
	char to[41];

	if (pc_branch_fetch(c->tree, c->fetch, &err) < 0) {
		log_warnx("fetch: %s", err.msg);
		_exit(1);
	}
	if (pc_branch_fast_forward(c->tree, to, &err) < 0) {
		log_warnx("fetch: %s (fetched; the work tree stays as it "
			  "was: clean it or update it by hand)",
			  err.msg);
		_exit(1);
	}
	if (to[0])
		log_info("fetch: %s fast-forwarded to %.12s", c->tree, to);
	else
		log_debug("fetch: %s: fetched %s", c->tree, c->fetch);
	_exit(0);
}

static void daemon_on_fetched(EV_P_ ev_child *w, int revents)
{
	struct daemon *d = w->data;

	(void)revents;
	ev_child_stop(EV_A_ w);
	d->fetch_pid = 0;
	if (!WIFEXITED(w->rstatus) || WEXITSTATUS(w->rstatus) != 0)
		log_warnx("fetch: exited with status %d", w->rstatus);
	/* Judge now: the tree may hold new commits and MAINTAINERS. */
	ev_timer_stop(d->loop, &d->tick);
	ev_timer_set(&d->tick, 0, 0);
	ev_timer_start(d->loop, &d->tick);
}

/* Starts a fetch when one is configured and fetch_every passed (real
 * time); returns the real seconds until the next, 0 without fetching. */
static double start_fetch(struct daemon *d)
{
	const struct conf *c = d->conf;
	double real = ev_now(d->loop), left;
	pid_t pid, parent = getpid();

	if (!c->fetch || !c->tree)
		return 0;
	left = d->fetched_at + c->fetch_every - real;
	if (d->fetch_pid || (d->fetched_at && left > 0))
		return left > 1 ? left : 1;
	d->fetched_at = real;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		log_warn("fetch: fork");
		return c->fetch_every;
	}
	if (pid == 0) {
		instance_child(parent);
		run_fetch(d);
	}
	d->fetch_pid = pid;
	ev_child_init(&d->fetcher, daemon_on_fetched, pid, 0);
	d->fetcher.data = d;
	ev_child_start(d->loop, &d->fetcher);
	return c->fetch_every;
}

/* The next simulated time something is due: a verdict's next check or
 * queued mail; 0 when nothing is. */
static int64_t next_due(struct daemon *d, int64_t now)
{
	int64_t a = 0, b = 0;

	pc_status_next_check(d->st, now, &a, NULL);
	pc_outbox_next_due(d->st, now, &b, NULL);
	if (!a || (b && b < a))
		a = b;
	return a;
}

/* Reads the local spools when their poll interval has passed (or when
 * forced); returns the shortest interval, 0 when there is no spool. */
static unsigned read_spools(struct daemon *d, int force)
{
	const struct conf *c = d->conf;
	unsigned poll = 0;
	double real = ev_now(d->loop);
	size_t i;

	for (i = 0; i < c->n_sources; i++)
		if (c->sources[i].type != CONF_SOURCE_IMAP &&
		    (!poll || c->sources[i].poll < poll))
			poll = c->sources[i].poll;
	/* Replays are fed whenever the loop wakes: their next Date is
	 * one of the times it wakes for. */
	d->replay_next = 0;
	for (i = 0; i < c->n_sources; i++)
		if (c->sources[i].replay)
			feed_replay(d, i);
	if (!poll || (!force && real - d->spools_read_at < poll - 0.05))
		return poll;
	d->spools_read_at = real;
	for (i = 0; i < c->n_sources; i++)
		if (c->sources[i].type != CONF_SOURCE_IMAP &&
		    !c->sources[i].replay)
			read_source(d, &c->sources[i]);
	return poll;
}

/*
 * Writes the dashboard ([report] html) with the verdicts just judged:
 * after a pass that judged something, at most every [report] every
 * seconds of real time, and always when force (the last pass). Read in
 * one read transaction, so the pages agree with each other.
 */
static void report_at(struct daemon *d, int64_t now, int judged, int force)
{
	const struct conf *c = d->conf;
	struct pc_report r = { .now = now };
	struct pc_err err = { 0 };
	struct timespec ts;
	int rc;

	/* the first pass writes one, even with nothing judged */
	d->report_dirty |= judged || !d->report_written;
	if (!c->report.html || !d->have_policy || !d->report_dirty)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (!force && d->report_written &&
	    ts.tv_sec - d->report_written < (int64_t)c->report.every)
		return;
	r.title = c->report.title ? xstrdup(c->report.title) : NULL;
	r.base_url = c->report.base_url ? xstrdup(c->report.base_url) : NULL;
	if ((rc = pc_store_begin_read(d->st, &err)) == 0) {
		rc = cli_report_series(&r, d->st, c->archive, &err);
		if (rc == 0)
			cli_report_entries(&r, &d->cp, now);
		pc_store_rollback(d->st);
	}
	if (rc == 0)
		rc = cli_report_write(c->report.html, &r, &err);
	if (rc < 0)
		log_warnx("report: %s", err.msg);
	else
		log_debug("report: %zu series written to %s", r.nseries,
			  c->report.html);
	pc_report_release(&r);
	d->report_written = ts.tv_sec ? ts.tv_sec : 1;
	d->report_dirty = 0;
}

/* Reads due spools, judges, queues and sends, then sleeps until the next
 * spool poll or due time. IMAP mail wakes it early (daemon_on_news). */
/* Judges at now and queues the mail the verdicts call for. */
static void plan_at(struct daemon *d, int64_t now)
{
	struct pc_plan_options po = PC_PLAN_OPTIONS_INIT;
	struct pc_status_stats ss;
	struct pc_plan_stats ps;
	const struct conf *c = d->conf;
	struct timespec t0, t1;

	po.from_addr = c->from;
	po.domain = c->domain			    ? c->domain :
		    c->from && strchr(c->from, '@') ? strchr(c->from, '@') + 1 :
						      NULL;
	po.archive_url = c->archive;
	po.daily_limit = c->daily_limit;
	po.max_age = (int64_t)c->max_age_days * 86400;
	po.watching_since = c->watching_since;
	po.cc_maintainers = c->cc_maintainers;
	po.digests = c->digest;
	po.replies = c->replies;
	po.boot_reports = c->test.reply;
	memset(&ss, 0, sizeof(ss));
	memset(&ps, 0, sizeof(ps));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (c->from && d->have_policy) {
		if (cli_policy_plan(&d->cp, d->st, now, &po, 0, &ss, &ps, 0,
				    NULL, NULL) == 0 &&
		    (ps.queued || ps.suppressed))
			log_info("clock: %llu series judged; %u mails queued, "
				 "%u held back (%u could not be composed: see "
				 "'patchclock outbox --all')",
				 (unsigned long long)ss.judged, ps.queued,
				 ps.suppressed, ps.unwritable);
		/* Once: why an archive's overdue series get no mail. */
		if (ps.held_first_run && !d->said_past) {
			d->said_past = 1;
			log_info(
				"clock: %u overdue series were due before mail "
				"was first planned here: no mail about the "
				"past (watching_since in [general] mails about "
				"what was due since then)",
				ps.held_first_run);
		}
	} else if (d->have_policy) {
		cli_policy_refresh(&d->cp, d->st, now, 0, &ss);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* How long a pass takes on a large database (tests/bench/
	 * daemon-bench reads it): it judges only what changed. */
	if (ss.judged || ps.queued)
		log_debug("clock: pass: %llu series judged, %u mails queued, "
			  "in %.1f ms",
			  (unsigned long long)ss.judged, ps.queued,
			  (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
				  (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	report_at(d, now, ss.judged || ps.queued, d->finishing);
}

/*
 * On a running simulated clock a wake can come late (timers are coarse
 * at high speeds, and a busy machine is slow): each replayed message's
 * Date, due time and queued mail that fell in between is handled at its
 * own time, in order, before the present. A replay then queues the same
 * mail at the same times however fast it runs or the machine is.
 */
static void catch_up(struct daemon *d)
{
	const struct conf *c = d->conf;
	int64_t real = now_of(d);
	unsigned guard = 0;
	size_t i;

	if (!d->clock.simulated || d->clock.stepped || !d->last_now)
		return;
	while (guard++ < 100000) {
		int64_t t = next_due(d, d->last_now);

		if (d->replay_next && (!t || d->replay_next < t))
			t = d->replay_next;
		if (!t || t >= real || t <= d->last_now ||
		    (c->clock.has_until && t >= c->clock.until))
			break;
		d->now_override = t;
		d->replay_next = 0;
		for (i = 0; i < c->n_sources; i++)
			if (c->sources[i].replay)
				feed_replay(d, i);
		plan_at(d, t);
		send_in_step(d, t);
		d->last_now = t;
		d->now_override = 0;
	}
	d->now_override = 0;
}

static void work(struct daemon *d, int force_spools)
{
	const struct conf *c = d->conf;
	unsigned poll;
	int64_t now, next;
	double fetch_in;

	/* A tree the operator keeps current: MAINTAINERS (and with it the
	 * profiles) read again when it changed. */
	if (maintainers_changed(d)) {
		log_info("policy: %s/MAINTAINERS changed; reading it and the "
			 "profiles again",
			 c->tree);
		if (d->have_policy)
			cli_policy_close(&d->cp);
		d->have_policy = 0;
		if (open_policy(d) < 0)
			log_warnx("policy: MAINTAINERS or profiles could not "
				  "be read; fix the tree and send SIGHUP");
	}
	catch_up(d);
	poll = read_spools(d, force_spools);
	if (c->clock.has_until && now_of(d) >= c->clock.until)
		d->finishing = 1;
	now = now_of(d);
	/* A late wake on a fast clock overshoots the end by weeks: the
	 * last pass is at the end, as on a stepped clock. */
	if (d->finishing && d->clock.simulated && now > c->clock.until)
		now = c->clock.until;
	plan_at(d, now);
	d->last_now = now;
	start_sender(d, now);
	fetch_in = start_fetch(d);
	tester_maybe_start(&d->tester, c, d->st, now);
	if (d->finishing) {
		log_info("clock: reached the configured end of the replay; "
			 "exiting");
		ev_break(d->loop, EVBREAK_ALL);
		return;
	}

	/* Sleep until the next spool poll (real seconds) or the next due
	 * time (simulated), whichever comes first; without spools, at most
	 * an hour (IMAP mail and signals wake the loop anyway). */
	{
		double delay =
			poll ? d->spools_read_at + poll - ev_now(d->loop) :
			       3600;

		if (fetch_in > 0 && fetch_in < delay)
			delay = fetch_in;
		next = next_due(d, now);
		if (d->replay_next && (!next || d->replay_next < next))
			next = d->replay_next;
		if (c->clock.has_until && (!next || c->clock.until < next))
			next = c->clock.until;
		if (next) {
			double until = simclock_delay(&d->clock, next,
						      ev_now(d->loop));

			if (until < delay)
				delay = until;
		}
		if (d->clock.stepped) {
			/* Jump to the next event; with none left, wait
			 * for a signal or the next spool poll. */
			if (next > now) {
				simclock_advance(&d->clock, next);
				delay = 0;
			}
		} else if (delay < 0.2) {
			delay = 0.2;
		}
		ev_timer_set(&d->tick, delay, 0);
		ev_timer_start(d->loop, &d->tick);
		log_debug("clock: now %lld, next wake in %.1f s",
			  (long long)now, delay);
	}
}

static void daemon_on_tick(EV_P_ ev_timer *w, int revents)
{
	struct daemon *d = w->data;

	(void)revents;
	(void)loop;
	work(d, 0);
}

/* The tester finished: judge now (its verdict changes the state). */
static void daemon_on_tested(void *arg)
{
	struct daemon *d = arg;

	ev_timer_stop(d->loop, &d->tick);
	ev_timer_set(&d->tick, 0, 0);
	ev_timer_start(d->loop, &d->tick);
}

/* A fetcher stored new IMAP mail: judge now. */
static void daemon_on_news(void *arg)
{
	struct daemon *d = arg;

	ev_timer_stop(d->loop, &d->tick);
	work(d, 0);
}

static void daemon_on_hup(EV_P_ ev_signal *w, int revents)
{
	struct daemon *d = w->data;
	struct conf *fresh = NULL;
	char errbuf[512];

	(void)revents;
	if (conf_load(&fresh, d->conf_path, errbuf, sizeof(errbuf)) < 0) {
		log_warnx("reload refused, keeping the running configuration: "
			  "%s",
			  errbuf);
		return;
	}
	if (strcmp(fresh->database, d->conf->database))
		log_warnx("reload: a new database takes a restart; keeping "
			  "'%s'",
			  d->conf->database);
	free(fresh->database);
	fresh->database = xstrdup(d->conf->database);
	if (d->have_policy)
		cli_policy_close(&d->cp);
	d->have_policy = 0;
	imapsrc_stop(d->imap);
	replays_release(d);
	conf_free(d->conf);
	d->conf = fresh;
	d->imap = imapsrc_start(d->loop, d->conf, &d->clock, daemon_on_news, d);
	if (open_policy(d) < 0)
		log_warnx("reload: MAINTAINERS or profiles could not be read; "
			  "series keep their last verdicts");
	log_info("reloaded %s", d->conf_path);
	ev_timer_stop(EV_A_ & d->tick);
	d->spools_read_at = 0;
	ev_timer_set(&d->tick, 0, 0);
	ev_timer_start(EV_A_ & d->tick);
}

static void daemon_on_term(EV_P_ ev_signal *w, int revents)
{
	(void)w;
	(void)revents;
	log_info("exiting on signal");
	ev_break(EV_A_ EVBREAK_ALL);
}

int main(int argc, char **argv)
{
	struct daemon d = { 0 };
	struct pc_err err = { 0 };
	char errbuf[512];
	int c, check = 0, foreground = 0, verbose = 0, status;

	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'f' },
		{ "check", no_argument, NULL, 'n' },
		{ "foreground", no_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};

	d.conf_path = DEFAULT_CONF;
	while ((c = getopt_long(argc, argv, "df:hnvV", longopts, NULL)) != -1) {
		switch (c) {
		case 'V':
			printf("patchclockd %s (data: %s)\n", PC_VERSION,
			       pc_data_dir());
			return 0;
		case 'd':
			foreground = 1;
			break;
		case 'f':
			d.conf_path = optarg;
			break;
		case 'n':
			check = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 64;
		}
	}
	if (optind != argc) {
		fputs(usage_text, stderr);
		return 64;
	}
	log_init("patchclockd", foreground || check, verbose);
	if (conf_load(&d.conf, d.conf_path, errbuf, sizeof(errbuf)) < 0) {
		log_warnx("%s", errbuf);
		return 1;
	}
	if (check)
		return check_config(&d);
	if (d.conf->log_level == CONF_LOG_DEBUG && !verbose)
		log_init("patchclockd", foreground, 1);
	/* One daemon per database: a second one would send every mail
	 * twice. Taken before daemon(3) so that the refusal is seen. */
	if (instance_lock(d.conf->database, errbuf, sizeof(errbuf)) < 0) {
		log_warnx("%s", errbuf);
		conf_free(d.conf);
		return 1;
	}
	if (!foreground && daemon(0, 0) < 0)
		fatal("daemon");
	instance_note_pid();
	if (d.conf->pidfile &&
	    instance_pidfile(d.conf->pidfile, errbuf, sizeof(errbuf)) < 0) {
		log_warnx("%s", errbuf);
		conf_free(d.conf);
		return 1;
	}
	d.loop = EV_DEFAULT;
	if (d.conf->clock.step)
		simclock_step(&d.clock, d.conf->clock.start);
	else if (d.conf->clock.has_start)
		simclock_sim(&d.clock, d.conf->clock.start, d.conf->clock.speed,
			     ev_time());
	else if (d.conf->clock.has_offset)
		simclock_sim(&d.clock,
			     (int64_t)ev_time() + d.conf->clock.offset, 1,
			     ev_time());
	else
		simclock_real(&d.clock);
	if (pc_store_open(&d.st, d.conf->database, &err) < 0) {
		log_warnx("%s", err.msg);
		conf_free(d.conf);
		return 1;
	}
	if (open_policy(&d) < 0)
		log_warnx("policy: MAINTAINERS or profiles could not be read; "
			  "fix the configuration and send SIGHUP");
	log_info("started: %zu sources, clock %s", d.conf->n_sources,
		 d.clock.simulated ? "simulated" : "real");
	ev_timer_init(&d.tick, daemon_on_tick, 0, 0);
	d.tick.data = &d;
	ev_timer_start(d.loop, &d.tick);
	ev_signal_init(&d.hup, daemon_on_hup, SIGHUP);
	d.hup.data = &d;
	ev_signal_start(d.loop, &d.hup);
	ev_signal_init(&d.term, daemon_on_term, SIGTERM);
	ev_signal_start(d.loop, &d.term);
	ev_signal_init(&d.intr, daemon_on_term, SIGINT);
	ev_signal_start(d.loop, &d.intr);
	d.imap = imapsrc_start(d.loop, d.conf, &d.clock, daemon_on_news, &d);
	d.tester.loop = d.loop;
	d.tester.done = daemon_on_tested;
	d.tester.arg = &d;
	ev_run(d.loop, 0);

	imapsrc_stop(d.imap);
	tester_stop(&d.tester);

	if (d.sender_pid && waitpid(d.sender_pid, &status, 0) < 0 &&
	    errno != ECHILD)
		log_warn("waiting for the sender");
	if (d.have_policy)
		cli_policy_close(&d.cp);
	free(d.projects);
	replays_release(&d);
	pc_store_close(d.st);
	if (d.conf->pidfile)
		unlink(d.conf->pidfile);
	conf_free(d.conf);
	return 0;
}
