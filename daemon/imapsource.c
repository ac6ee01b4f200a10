// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IMAP sources: one fetcher child per source, supervised from the loop.
 * See imapsource.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "imapsource.h"
#include "instance.h"
#include "log.h"
#include "mail/imap.h"
#include "mail/source.h"
#include "store/cursor.h"
#include "store/ingest.h"
#include "store/store.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define BACKOFF_MIN 1.0
#define BACKOFF_MAX 300.0
/* RFC 2177: re-issue IDLE at least every 29 minutes. */
#define IDLE_MAX_MS (25 * 60 * 1000)
/* Messages per transaction: the cursor moves this far at a time. A batch
 * is fetched into memory before its transaction starts, and ends early
 * once it holds FETCH_BATCH_BYTES, so the write lock is never held over
 * the network and memory stays bounded. */
#define FETCH_BATCH 100
#define FETCH_BATCH_BYTES (16u << 20)
/* The child's exit status when its configuration cannot work (bad
 * password file, login refused): the parent waits longest. */
#define EXIT_CONFIG 2

struct imapsrc_set;

struct fetcher {
	struct imapsrc_set *set; /* borrowed: the owner */
	const struct conf_source *src; /* borrowed from set->conf */
	pid_t pid;
	double backoff;
	ev_child child;
	ev_timer restart;
};

struct imapsrc_set {
	struct ev_loop *loop; /* borrowed */
	const struct conf *conf; /* borrowed */
	const struct simclock *clock; /* borrowed */
	imapsrc_news_fn fn;
	void *arg;
	int pipe_r, pipe_w;
	ev_io news;
	struct fetcher *f; /* owned, one per imap source */
	size_t n;
	int stopping;
};

/* ---- the child ---- */

static volatile sig_atomic_t child_stop;
/* The child's: how raw mail is stored ([general] compress). */
static int child_compress;

static void child_on_term(int sig)
{
	(void)sig;
	child_stop = 1;
}

/* Sleeps up to secs, returning early on SIGTERM. */
static void child_sleep(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	if (!child_stop)
		nanosleep(&ts, NULL); /* EINTR on SIGTERM: fine */
}

/* The password: the file's first line. The file must be 0600 or
 * stricter (checked again here: it may have changed since the
 * configuration was read). */
static char *read_password(const char *path)
{
	char buf[1024];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		log_warn("cannot read password file '%s'", path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		log_warnx("password file '%s' is open to group or others: run "
			  "'chmod 600 %s'",
			  path, path);
		close(fd);
		return NULL;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		log_warnx("password file '%s' is empty: write the password "
			  "on its first line",
			  path);
		return NULL;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return xstrdup(buf);
}

/* One fetched message, held until its batch is stored. */
struct fetched {
	uint32_t uid;
	char *data; /* owned; NULL when not fetched (too large) */
	size_t len;
};

struct sync_ctx {
	const struct conf_source *src;
	struct pc_store *st;
	struct pc_ingest_options io;
	struct pc_ingest_stats stats;
	uint32_t uidvalidity;
	struct pc_err *err;
	/* the batch being fetched */
	struct fetched *batch;
	size_t nbatch, batch_alloc, batch_bytes;
};

/* pc_imap_fetch's callback: keeps the message; stops the fetch (without
 * an error) once the batch holds FETCH_BATCH_BYTES. */
static int collect_one(uint32_t uid, const char *data, size_t len, void *arg)
{
	struct sync_ctx *x = arg;
	struct fetched *f;

	PC_ALLOC_GROW(x->batch, x->nbatch + 1, x->batch_alloc);
	f = &x->batch[x->nbatch++];
	f->uid = uid;
	f->data = data ? xmemdupz(data, len) : NULL;
	f->len = data ? len : 0;
	x->batch_bytes += f->len;
	return x->batch_bytes >= FETCH_BATCH_BYTES ? 1 : 0;
}

static void batch_release(struct sync_ctx *x)
{
	size_t i;

	for (i = 0; i < x->nbatch; i++)
		free(x->batch[i].data);
	x->nbatch = 0;
	x->batch_bytes = 0;
}

/* What the batch's transaction records beside its messages: the
 * folder's cursor at the batch's last UID. */
struct batch_end {
	const struct conf_source *src;
	uint32_t uidvalidity, last_uid;
	int64_t now;
};

static int move_cursor(struct pc_store *st, void *arg, struct pc_err *err)
{
	const struct batch_end *e = arg;

	return pc_cursor_set(st, e->src->name, e->src->folder, e->uidvalidity,
			     e->last_uid, e->now, err);
}

/*
 * Stores the fetched batch through the one ingest loop, in one
 * transaction that also moves the cursor to last_uid: a crash stores
 * the batch and its cursor, or neither.
 */
static int store_batch(struct sync_ctx *x, uint32_t last_uid, int64_t now)
{
	struct batch_end end = { x->src, x->uidvalidity, last_uid, now };
	struct pc_ingest_loop loop = { .batch = UINT_MAX,
				       .finish = move_cursor,
				       .arg = &end };
	struct pc_source_msg *msgs =
		xcalloc(x->nbatch ? x->nbatch : 1, sizeof(*msgs));
	char **where = xcalloc(x->nbatch ? x->nbatch : 1, sizeof(*where));
	struct pc_source *list;
	size_t i;
	int rc;

	for (i = 0; i < x->nbatch; i++) {
		where[i] = xasprintf("imap:%s:%u:%u", x->src->name,
				     (unsigned)x->uidvalidity,
				     (unsigned)x->batch[i].uid);
		msgs[i].data = x->batch[i].data;
		msgs[i].len = x->batch[i].len;
		msgs[i].where = where[i];
	}
	pc_source_from_list(&list, msgs, x->nbatch,
			    "larger than the message size limit, or sent "
			    "without a body: not fetched");
	rc = pc_ingest_source(x->st, list, x->src->name, &x->io, &loop,
			      &x->stats, NULL, x->err);
	pc_source_free(list);
	for (i = 0; i < x->nbatch; i++)
		free(where[i]);
	free(where);
	free(msgs);
	return rc < 0 ? rc : 0;
}

static void notify_parent(int fd)
{
	char b = 'n';

	while (write(fd, &b, 1) < 0 && errno == EINTR)
		;
}

/*
 * Brings the database up to the folder: every UID above the cursor, in
 * transactions of FETCH_BATCH messages that each move the cursor.
 */
static int child_sync(struct pc_imap *im, const struct conf_source *src,
		      struct pc_store *st, const struct simclock *clock,
		      int wfd, struct pc_err *err)
{
	struct sync_ctx x = { 0 };
	struct pc_imap_cursor cur;
	uint32_t uidvalidity, uidnext, after, *uids = NULL;
	size_t n = 0, i, k;
	int rc;

	if ((rc = pc_imap_select(im, src->folder, &uidvalidity, &uidnext,
				 err)) < 0 ||
	    (rc = pc_cursor_get(&cur, st, src->name, err)) < 0)
		return rc;
	after = cur.last_uid;
	if (cur.uidvalidity && cur.uidvalidity != uidvalidity) {
		log_info("source %s: folder '%s' has a new UIDVALIDITY (%u, "
			 "was %u): reading it again from the start; known "
			 "messages are not stored twice",
			 src->name, src->folder, (unsigned)uidvalidity,
			 (unsigned)cur.uidvalidity);
		after = 0;
	} else if (!cur.uidvalidity) {
		after = 0;
	}
	if (uidnext && after + 1 >= uidnext && cur.uidvalidity == uidvalidity)
		return 0; /* nothing new: spare the search */
	if ((rc = pc_imap_uids_after(&uids, &n, im, after, err)) < 0)
		return rc;
	x.src = src;
	x.st = st;
	x.io = (struct pc_ingest_options)PC_INGEST_OPTIONS_INIT;
	x.io.list_id = src->list_id;
	x.io.commands_only = src->commands;
	x.io.compress = child_compress;
	x.uidvalidity = uidvalidity;
	x.err = err;
	for (i = 0; i < n && !child_stop; i += k) {
		uint64_t before = x.stats.added;

		k = n - i < FETCH_BATCH ? n - i : FETCH_BATCH;
		/* Over the network first, with no lock held. */
		if ((rc = pc_imap_fetch(im, uids + i, k, collect_one, &x,
					err)) < 0)
			goto out;
		/* Stopped early when full: the batch ends at its last
		 * message (UIDs are ascending). */
		if (x.nbatch && x.batch_bytes >= FETCH_BATCH_BYTES)
			while (k > 1 &&
			       uids[i + k - 1] != x.batch[x.nbatch - 1].uid)
				k--;
		if ((rc = store_batch(&x, uids[i + k - 1],
				      simclock_now(clock, ev_time()))) < 0)
			goto out;
		batch_release(&x);
		if (x.stats.added > before)
			notify_parent(wfd);
	}
	if (!n && cur.uidvalidity != uidvalidity) {
		/* An empty folder, or a new UIDVALIDITY with nothing in it:
		 * remember where we stand. */
		if ((rc = pc_store_begin(st, err)) < 0)
			goto out;
		if ((rc = pc_cursor_set(st, src->name, src->folder, uidvalidity,
					0, simclock_now(clock, ev_time()),
					err)) < 0 ||
		    (rc = pc_store_commit(st, err)) < 0) {
			pc_store_rollback(st);
			goto out;
		}
	}
	if (x.stats.added || x.stats.errors)
		log_info("source %s: %llu new messages (%llu patches, %llu "
			 "replies, %llu unreadable)",
			 src->name, (unsigned long long)x.stats.added,
			 (unsigned long long)x.stats.patches,
			 (unsigned long long)x.stats.replies,
			 (unsigned long long)x.stats.errors);
	rc = 0;
out:
	batch_release(&x);
	free(x.batch);
	free(uids);
	return rc;
}

static int child_session(const struct conf_source *src, struct pc_store *st,
			 const struct simclock *clock, int wfd,
			 const char *password, double *backoff)
{
	struct pc_imap_options o = PC_IMAP_OPTIONS_INIT;
	struct pc_imap *im = NULL;
	struct pc_err err = { 0 };
	char *host = NULL;
	int rc, idle;

	if ((rc = pc_imap_parse_url(&host, &o, src->url, &err)) < 0)
		goto out;
	if (o.security == PC_IMAP_STARTTLS && !src->starttls)
		o.security = PC_IMAP_PLAIN;
	o.ca_file = src->ca_file;
	o.user = src->user;
	o.password = password;
	if ((rc = pc_imap_connect(&im, &o, &err)) < 0)
		goto out;
	idle = src->idle && pc_imap_can_idle(im);
	log_info("source %s: connected to %s, folder '%s', %s", src->name,
		 src->url, src->folder, idle ? "waiting with IDLE" : "polling");
	while (!child_stop) {
		if ((rc = child_sync(im, src, st, clock, wfd, &err)) < 0)
			goto out;
		*backoff = BACKOFF_MIN; /* a full sync: the server is fine */
		if (child_stop)
			break;
		if (idle) {
			rc = pc_imap_idle(im, IDLE_MAX_MS, &err);
		} else {
			child_sleep(src->poll);
			rc = child_stop ? 0 : pc_imap_noop(im, &err);
		}
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	if (rc < 0 && !child_stop)
		log_warnx("source %s: %s", src->name, err.msg);
	pc_imap_free(im);
	free(host);
	return rc;
}

static void child_main(const struct conf *c, const struct conf_source *src,
		       const struct simclock *clock, int wfd)
{
	struct sigaction sa;
	struct pc_store *st = NULL;
	struct pc_err err = { 0 };
	double backoff = BACKOFF_MIN;
	char *password;
	sigset_t all;
	int rc;

	child_compress = c->compress;
	/* libev may have blocked signals for its signalfd. */
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = child_on_term; /* no SA_RESTART: waits end */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);

	if (!(password = read_password(src->password_file)))
		_exit(EXIT_CONFIG);
	if (pc_store_open(&st, c->database, &err) < 0) {
		log_warnx("source %s: %s", src->name, err.msg);
		_exit(EXIT_CONFIG);
	}
	while (!child_stop) {
		rc = child_session(src, st, clock, wfd, password, &backoff);
		if (child_stop)
			break;
		if (rc == PC_EAUTH || rc == PC_EUSAGE)
			backoff = BACKOFF_MAX; /* retrying soon will not help */
		log_info("source %s: reconnecting in %.0f s", src->name,
			 backoff);
		child_sleep(backoff);
		backoff = backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX : backoff * 2;
	}
	explicit_bzero(password, strlen(password));
	free(password);
	pc_store_close(st);
	_exit(0);
}

/* ---- the parent ---- */

static void fetcher_spawn(struct fetcher *f);

static void fetcher_on_restart(EV_P_ ev_timer *w, int revents)
{
	struct fetcher *f = w->data;

	(void)revents;
	(void)loop;
	fetcher_spawn(f);
}

static void fetcher_on_exit(EV_P_ ev_child *w, int revents)
{
	struct fetcher *f = w->data;
	int status = w->rstatus;
	double wait;

	(void)revents;
	ev_child_stop(EV_A_ w);
	f->pid = 0;
	if (f->set->stopping)
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_CONFIG)
		wait = BACKOFF_MAX;
	else
		wait = f->backoff;
	log_warnx("source %s: fetcher %s %d; restarting in %.0f s",
		  f->src->name,
		  WIFSIGNALED(status) ? "killed by signal" : "exited with",
		  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
		  wait);
	f->backoff = f->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX :
						    f->backoff * 2;
	ev_timer_set(&f->restart, wait, 0);
	ev_timer_start(EV_A_ & f->restart);
}

static void fetcher_spawn(struct fetcher *f)
{
	struct imapsrc_set *set = f->set;
	pid_t pid, parent = getpid();

	fflush(NULL);
	if ((pid = fork()) < 0) {
		log_warn("source %s: fork", f->src->name);
		ev_timer_set(&f->restart, f->backoff, 0);
		ev_timer_start(set->loop, &f->restart);
		return;
	}
	if (pid == 0) {
		instance_child(parent);
		close(set->pipe_r);
		child_main(set->conf, f->src, set->clock, set->pipe_w);
	}
	f->pid = pid;
	ev_child_init(&f->child, fetcher_on_exit, pid, 0);
	f->child.data = f;
	ev_child_start(set->loop, &f->child);
	log_debug("source %s: fetcher %ld started", f->src->name, (long)pid);
}

static void set_on_news(EV_P_ ev_io *w, int revents)
{
	struct imapsrc_set *set = w->data;
	char buf[256];
	ssize_t n;
	int any = 0;

	(void)loop;
	(void)revents;
	while ((n = read(set->pipe_r, buf, sizeof(buf))) > 0)
		any = 1;
	if (any)
		set->fn(set->arg);
}

struct imapsrc_set *imapsrc_start(struct ev_loop *loop, const struct conf *c,
				  const struct simclock *clock,
				  imapsrc_news_fn fn, void *arg)
{
	struct imapsrc_set *set;
	int fds[2];
	size_t i, n = 0;

	for (i = 0; i < c->n_sources; i++)
		n += c->sources[i].type == CONF_SOURCE_IMAP;
	if (!n)
		return NULL;
	if (pipe(fds) < 0) {
		log_warn("imap sources: pipe");
		return NULL;
	}
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	set = xcalloc(1, sizeof(*set));
	set->loop = loop;
	set->conf = c;
	set->clock = clock;
	set->fn = fn;
	set->arg = arg;
	set->pipe_r = fds[0];
	set->pipe_w = fds[1];
	ev_io_init(&set->news, set_on_news, set->pipe_r, EV_READ);
	set->news.data = set;
	ev_io_start(loop, &set->news);
	set->f = xcalloc(n, sizeof(*set->f));
	for (i = 0; i < c->n_sources; i++) {
		struct fetcher *f;

		if (c->sources[i].type != CONF_SOURCE_IMAP)
			continue;
		f = &set->f[set->n++];
		f->set = set;
		f->src = &c->sources[i];
		f->backoff = BACKOFF_MIN;
		ev_timer_init(&f->restart, fetcher_on_restart, 0, 0);
		f->restart.data = f;
		fetcher_spawn(f);
	}
	return set;
}

void imapsrc_stop(struct imapsrc_set *set)
{
	size_t i;
	int status, waited = 0;

	if (!set)
		return;
	set->stopping = 1;
	for (i = 0; i < set->n; i++) {
		ev_timer_stop(set->loop, &set->f[i].restart);
		if (set->f[i].pid)
			kill(set->f[i].pid, SIGTERM);
	}
	/* Up to 5 s for a clean exit (the open transaction commits), then
	 * SIGKILL: the transaction rolls back, which loses nothing. */
	for (i = 0; i < set->n; i++) {
		struct fetcher *f = &set->f[i];

		if (!f->pid)
			continue;
		while (waitpid(f->pid, &status, WNOHANG) == 0) {
			if (waited >= 50) {
				log_warnx("source %s: fetcher does not stop; "
					  "killing it",
					  f->src->name);
				kill(f->pid, SIGKILL);
				waitpid(f->pid, &status, 0);
				break;
			}
			poll(NULL, 0, 100);
			waited++;
		}
		ev_child_stop(set->loop, &f->child);
		f->pid = 0;
	}
	ev_io_stop(set->loop, &set->news);
	close(set->pipe_r);
	close(set->pipe_w);
	free(set->f);
	free(set);
}
