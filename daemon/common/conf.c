// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reads patchclockd's INI file into a struct conf (see conf.h).
 *
 * libinih calls a handler for each "key = value" but, as Debian builds
 * it (INI_HANDLER_LINENO off, INI_CALL_HANDLER_ON_NEW_SECTION off), tells
 * it neither the line number nor where a section starts. So the file is
 * fed through ini_parse_stream() with our own reader: it counts lines,
 * sees each "[section]" header before inih does, refuses lines inih would
 * silently split, and stops the parse at the first error by returning
 * NULL. Checks that need the whole file (required keys, keys that depend
 * on a source's type) run after the parse and name the line of the key
 * or of the section header.
 */
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "conf.h"
#include "notify/smtp.h"
#include "mail/imap.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/file.h"
#include "util/iniline.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Longest source NAME; inih cuts section names at 49 bytes. */
#define CONF_NAME_MAX 32
/* A configuration is a few kilobytes: this is far above any real one. */
#define CONF_FILE_MAX ((size_t)1 << 20)

enum conf_sec {
	CONF_SEC_NONE,
	CONF_SEC_GENERAL,
	CONF_SEC_SMTP,
	CONF_SEC_POLICY,
	CONF_SEC_CLOCK,
	CONF_SEC_TEST,
	CONF_SEC_REPORT,
	CONF_SEC_SOURCE,
	CONF_SEC_PROJECT,
	CONF_SEC_N,
};

enum conf_jkey {
	J_SUBJECT,
	J_LIST_ID,
	J_TREE,
	J_CONTACT,
	J_N,
};

enum conf_rkey {
	R_HTML,
	R_TITLE,
	R_EVERY,
	R_BASE_URL,
	R_N,
};

enum conf_tkey {
	T_APPLY,
	T_REPLY,
	T_RUNNER,
	T_GUEST_CHECK,
	T_BRANCH_PREFIX,
	T_N,
};

enum conf_gkey {
	G_DATABASE,
	G_PIDFILE,
	G_TREE,
	G_FROM,
	G_DOMAIN,
	G_ARCHIVE,
	G_DAILY_LIMIT,
	G_RELEASES,
	G_HOLIDAYS,
	G_DIGEST,
	G_REPLIES,
	G_DKIM_KEYS,
	G_REQUIRE_DKIM,
	G_ATTEST_TAGS,
	G_JOBS,
	G_COMPRESS,
	G_LOG_LEVEL,
	G_MAX_AGE,
	G_WATCHING_SINCE,
	G_CC_MAINTAINERS,
	G_BRANCHES,
	G_FETCH,
	G_FETCH_EVERY,
	G_N,
};

enum conf_mkey {
	M_URL,
	M_FROM,
	M_CREDENTIALS,
	M_CA_FILE,
	M_HELO,
	M_STARTTLS,
	M_N,
};

enum conf_pkey {
	P_OVERRIDES,
	P_NO_MAP,
	P_BOT,
	P_OPT_OUT,
	P_N,
};

enum conf_ckey {
	C_START,
	C_SPEED,
	C_OFFSET,
	C_UNTIL,
	C_STEP,
	C_N,
};

enum conf_skey {
	S_TYPE,
	S_URL,
	S_USER,
	S_PASSWORD_FILE,
	S_FOLDER,
	S_LIST_ID,
	S_PATH,
	S_POLL,
	S_IDLE,
	S_CA_FILE,
	S_STARTTLS,
	S_REPLAY,
	S_COMMANDS,
	S_N,
};

#define CONF_KEYS_MAX 24

struct conf_key {
	const char *name;
	int repeat; /* may be given more than once */
};

static const struct conf_key conf_general_keys[G_N] = {
	[G_DATABASE] = { "database", 0 },
	[G_PIDFILE] = { "pidfile", 0 },
	[G_TREE] = { "tree", 0 },
	[G_FROM] = { "from", 0 },
	[G_DOMAIN] = { "domain", 0 },
	[G_ARCHIVE] = { "archive", 0 },
	[G_DAILY_LIMIT] = { "daily_limit", 0 },
	[G_MAX_AGE] = { "max_age", 0 },
	[G_WATCHING_SINCE] = { "watching_since", 0 },
	[G_CC_MAINTAINERS] = { "cc_maintainers", 0 },
	[G_RELEASES] = { "releases", 0 },
	[G_HOLIDAYS] = { "holidays", 0 },
	[G_DIGEST] = { "digest", 0 },
	[G_REPLIES] = { "replies", 0 },
	[G_DKIM_KEYS] = { "dkim_keys", 0 },
	[G_REQUIRE_DKIM] = { "require_dkim", 0 },
	[G_ATTEST_TAGS] = { "attest_tags", 0 },
	[G_JOBS] = { "jobs", 0 },
	[G_COMPRESS] = { "compress", 0 },
	[G_LOG_LEVEL] = { "log_level", 0 },
	[G_BRANCHES] = { "branches", 0 },
	[G_FETCH] = { "fetch", 0 },
	[G_FETCH_EVERY] = { "fetch_every", 0 },
};

static const struct conf_key conf_smtp_keys[M_N] = {
	[M_URL] = { "url", 0 },
	[M_FROM] = { "from", 0 },
	[M_CREDENTIALS] = { "credentials", 0 },
	[M_CA_FILE] = { "ca_file", 0 },
	[M_HELO] = { "helo", 0 },
	[M_STARTTLS] = { "starttls", 0 },
};

static const struct conf_key conf_policy_keys[P_N] = {
	[P_OVERRIDES] = { "overrides", 1 },
	[P_NO_MAP] = { "no_map", 0 },
	[P_BOT] = { "bot", 1 },
	[P_OPT_OUT] = { "opt_out", 1 },
};

static const struct conf_key conf_clock_keys[C_N] = {
	[C_START] = { "start", 0 },   [C_SPEED] = { "speed", 0 },
	[C_OFFSET] = { "offset", 0 }, [C_UNTIL] = { "until", 0 },
	[C_STEP] = { "step", 0 },
};

static const struct conf_key conf_report_keys[R_N] = {
	[R_HTML] = { "html", 0 },
	[R_TITLE] = { "title", 0 },
	[R_EVERY] = { "every", 0 },
	[R_BASE_URL] = { "base_url", 0 },
};

static const struct conf_key conf_test_keys[T_N] = {
	[T_APPLY] = { "apply", 0 },
	[T_REPLY] = { "reply", 0 },
	[T_RUNNER] = { "runner", 0 },
	[T_GUEST_CHECK] = { "guest_check", 1 },
	[T_BRANCH_PREFIX] = { "branch_prefix", 0 },
};

static const struct conf_key conf_source_keys[S_N] = {
	[S_TYPE] = { "type", 0 },
	[S_URL] = { "url", 0 },
	[S_USER] = { "user", 0 },
	[S_PASSWORD_FILE] = { "password_file", 0 },
	[S_FOLDER] = { "folder", 0 },
	[S_LIST_ID] = { "list_id", 0 },
	[S_PATH] = { "path", 1 }, /* several for type files only */
	[S_POLL] = { "poll", 0 },
	[S_IDLE] = { "idle", 0 },
	[S_CA_FILE] = { "ca_file", 0 },
	[S_STARTTLS] = { "starttls", 0 },
	[S_REPLAY] = { "replay", 0 },
	[S_COMMANDS] = { "commands", 0 },
};

static const struct conf_key conf_project_keys[J_N] = {
	[J_SUBJECT] = { "subject", 1 },
	[J_LIST_ID] = { "list_id", 0 },
	[J_TREE] = { "tree", 0 },
	[J_CONTACT] = { "contact", 1 },
};

static const char *const conf_sec_names[CONF_SEC_N] = {
	[CONF_SEC_GENERAL] = "general", [CONF_SEC_SMTP] = "smtp",
	[CONF_SEC_POLICY] = "policy",	[CONF_SEC_CLOCK] = "clock",
	[CONF_SEC_TEST] = "test",	[CONF_SEC_REPORT] = "report",
	[CONF_SEC_SOURCE] = "source",
};

/* The state of one conf_load(). */
struct conf_ctx {
	struct conf *c; /* borrowed: being built */
	const char *path; /* borrowed: as the caller named it */
	char *dir; /* owned: absolute directory of path */
	struct pc_buf text; /* owned: the file */
	struct pc_ini_lines in; /* the line reader over text */
	int lineno;

	char *errbuf; /* borrowed: the caller's */
	size_t errlen;
	int err_line; /* line of the error, 0 for none */
	int failed;

	enum conf_sec sec; /* the section being read */
	char *sec_raw; /* owned: as inih reports it, e.g. source "x" */
	char *sec_label; /* owned: for messages, e.g. [source "x"] */
	int sec_line[CONF_SEC_N]; /* header lines of the singletons */
	int key_line[CONF_SEC_N][CONF_KEYS_MAX]; /* first line of each key */
	int (*src_lines)[CONF_KEYS_MAX]; /* owned: key lines per source */
	int (*prj_lines)[CONF_KEYS_MAX]; /* owned: key lines per project */
};

static void conf_fail(struct conf_ctx *x, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Keeps the first error only: later ones often follow from it. line > 0
 * is the line it is on, 0 the whole file, -1 a message that names the
 * file itself. */
static void conf_fail(struct conf_ctx *x, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (x->failed)
		return;
	x->failed = 1;
	x->err_line = line;
	if (!x->errlen)
		return;
	if (line > 0)
		n = snprintf(x->errbuf, x->errlen, "%s:%d: ", x->path, line);
	else if (line == 0)
		n = snprintf(x->errbuf, x->errlen, "%s: ", x->path);
	else
		n = 0; /* the message names the file itself */
	if (n < 0 || (size_t)n >= x->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(x->errbuf + n, x->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void conf_bad(struct conf_ctx *x, const char *name, const char *value,
		     const char *want)
{
	conf_fail(x, x->lineno, "bad value '%s' for '%s' in %s: want %s", value,
		  name, x->sec_label, want);
}

/* ---- values ---- */

static void conf_set_str(char **dst, const char *value)
{
	free(*dst);
	*dst = xstrdup(value);
}

/* A path relative to the config file's directory. */
static void conf_set_path(struct conf_ctx *x, char **dst, const char *value)
{
	free(*dst);
	if (value[0] == '/')
		*dst = xstrdup(value);
	else
		*dst = xasprintf("%s/%s", x->dir, value);
}

static int conf_bool(struct conf_ctx *x, int *dst, const char *name,
		     const char *value)
{
	if (!strcmp(value, "yes"))
		*dst = 1;
	else if (!strcmp(value, "no"))
		*dst = 0;
	else {
		conf_bad(x, name, value, "yes or no");
		return -1;
	}
	return 0;
}

static int conf_uint(struct conf_ctx *x, unsigned *dst, const char *name,
		     const char *value, unsigned long min, unsigned long max)
{
	char want[64];
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno || v < min ||
	    v > max) {
		snprintf(want, sizeof(want), "a number from %lu to %lu", min,
			 max);
		conf_bad(x, name, value, want);
		return -1;
	}
	*dst = (unsigned)v;
	return 0;
}

/* scheme://HOST[:PORT] with nothing after, for each scheme in schemes. */
static int conf_url(struct conf_ctx *x, char **dst, const char *name,
		    const char *value, const char *const *schemes,
		    const char *want)
{
	const char *host = NULL, *p;
	size_t i;

	for (i = 0; schemes[i]; i++) {
		size_t n = strlen(schemes[i]);

		if (!strncmp(value, schemes[i], n) &&
		    !strncmp(value + n, "://", 3)) {
			host = value + n + 3;
			break;
		}
	}
	if (!host || !*host || *host == ':' || *host == '/')
		goto bad;
	for (p = host; *p && *p != ':' && *p != '/'; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
			goto bad;
	if (*p == ':') {
		const char *port = ++p;
		unsigned long v;

		for (; *p >= '0' && *p <= '9'; p++)
			;
		v = p > port && p - port <= 5 ? strtoul(port, NULL, 10) : 0;
		if (!v || v > 65535)
			goto bad;
	}
	if (*p == '/')
		p++;
	if (*p)
		goto bad;
	conf_set_str(dst, value);
	return 0;
bad:
	conf_bad(x, name, value, want);
	return -1;
}

/* An address user@host, or with at_domain also @domain. */
static int conf_addr(struct conf_ctx *x, const char *name, const char *value,
		     int at_domain)
{
	const char *at = strchr(value, '@');
	const char *p;

	for (p = value; *p; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f ||
		    *p == '<' || *p == '>' || *p == ',')
			at = NULL;
	if (!at || strchr(at + 1, '@') || !at[1] ||
	    (at == value && !at_domain)) {
		conf_bad(x, name, value,
			 at_domain ? "an address user@host or @domain" :
				     "an address user@host");
		return -1;
	}
	return 0;
}

static void conf_push(char ***arr, size_t *n, char *s)
{
	*arr = xreallocarray(*arr, *n + 1, sizeof(**arr));
	(*arr)[(*n)++] = s;
}

/*
 * A file holding a secret: it must be a regular file we can open, and
 * neither group nor others may have any access to it.
 */
static int conf_secret(struct conf_ctx *x, char **dst, const char *what,
		       const char *value)
{
	char *path = NULL;
	struct stat st;
	int fd, rc = -1;

	conf_set_path(x, &path, value);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		conf_fail(x, x->lineno, "cannot read %s '%s': %s", what, path,
			  strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		conf_fail(x, x->lineno, "%s '%s' is not a regular file", what,
			  path);
		goto out;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		conf_fail(x, x->lineno,
			  "%s '%s' is open to group or others (mode %04o): "
			  "run 'chmod 600 %s'",
			  what, path, (unsigned)(st.st_mode & 07777), path);
		goto out;
	}
	free(*dst);
	*dst = path;
	path = NULL;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

/* "YYYY-MM-DD HH:MM", UTC. */
static int conf_time(struct conf_ctx *x, int64_t *dst, const char *name,
		     const char *value)
{
	static const char shape[] = "dddd-dd-dd dd:dd";
	struct tm tm = { 0 }, back;
	time_t t;
	size_t i;

	if (strlen(value) != sizeof(shape) - 1)
		goto bad;
	for (i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? value[i] < '0' || value[i] > '9' :
				      value[i] != shape[i])
			goto bad;
	tm.tm_year = atoi(value) - 1900;
	tm.tm_mon = atoi(value + 5) - 1;
	tm.tm_mday = atoi(value + 8);
	tm.tm_hour = atoi(value + 11);
	tm.tm_min = atoi(value + 14);
	back = tm;
	t = timegm(&tm);
	/* timegm() normalises 02-30 to 03-02: refuse what moved. */
	if (t == (time_t)-1 || tm.tm_year != back.tm_year ||
	    tm.tm_mon != back.tm_mon || tm.tm_mday != back.tm_mday ||
	    tm.tm_hour != back.tm_hour || tm.tm_min != back.tm_min)
		goto bad;
	*dst = (int64_t)t;
	return 0;
bad:
	conf_bad(x, name, value, "a UTC time 'YYYY-MM-DD HH:MM'");
	return -1;
}

/* ---- sections ---- */

static int conf_set_general(struct conf_ctx *x, int k, const char *name,
			    const char *v)
{
	struct conf *c = x->c;

	switch (k) {
	case G_DATABASE:
		conf_set_path(x, &c->database, v);
		break;
	case G_PIDFILE:
		conf_set_path(x, &c->pidfile, v);
		break;
	case G_TREE:
		conf_set_path(x, &c->tree, v);
		break;
	case G_FROM:
		if (conf_addr(x, name, v, 0) < 0)
			return -1;
		conf_set_str(&c->from, v);
		break;
	case G_DOMAIN:
		if (strchr(v, '@') || strchr(v, ' ') || strchr(v, '>')) {
			conf_bad(x, name, v, "a domain name");
			return -1;
		}
		conf_set_str(&c->domain, v);
		break;
	case G_ARCHIVE: {
		const char *s = strstr(v, "%s"), *p;
		int ok = s && !strstr(s + 2, "%s") &&
			 (!strncmp(v, "https://", 8) ||
			  !strncmp(v, "http://", 7));

		for (p = v; ok && *p; p++)
			if ((unsigned char)*p <= 0x20 ||
			    (unsigned char)*p >= 0x7f || (*p == '%' && p != s))
				ok = 0;
		if (!ok) {
			conf_bad(x, name, v,
				 "an http(s) URL with one '%s' for the "
				 "Message-ID");
			return -1;
		}
		conf_set_str(&c->archive, v);
		break;
	}
	case G_DAILY_LIMIT:
		return conf_uint(x, &c->daily_limit, name, v, 1, 1000);
	case G_MAX_AGE:
		return conf_uint(x, &c->max_age_days, name, v, 1, 36500);
	case G_WATCHING_SINCE:
		return conf_time(x, &c->watching_since, name, v);
	case G_CC_MAINTAINERS:
		return conf_bool(x, &c->cc_maintainers, name, v);
	case G_RELEASES:
		conf_set_path(x, &c->releases, v);
		break;
	case G_HOLIDAYS:
		conf_set_path(x, &c->holidays, v);
		break;
	case G_DIGEST:
		return conf_bool(x, &c->digest, name, v);
	case G_REPLIES:
		return conf_bool(x, &c->replies, name, v);
	case G_DKIM_KEYS:
		conf_set_path(x, &c->dkim_keys, v);
		break;
	case G_REQUIRE_DKIM:
		return conf_bool(x, &c->require_dkim, name, v);
	case G_ATTEST_TAGS:
		return conf_bool(x, &c->attest_tags, name, v);
	case G_JOBS:
		return conf_uint(x, &c->jobs, name, v, 0, 256);
	case G_COMPRESS:
		if (!strcmp(v, "none"))
			c->compress = 0;
		else if (!strcmp(v, "zlib"))
			c->compress = 1;
		else if (!strcmp(v, "zstd"))
			c->compress = 2;
		else {
			conf_bad(x, name, v, "zstd, zlib or none");
			return -1;
		}
		break;
	case G_BRANCHES:
		conf_set_str(&c->branches, v);
		break;
	case G_FETCH:
		if (!strcmp(v, "no")) {
			free(c->fetch);
			c->fetch = NULL;
			break;
		}
		if (!*v || strpbrk(v, " \t/\\") || *v == '-') {
			conf_bad(x, name, v,
				 "the name of a remote of the tree ('origin'), "
				 "or 'no'");
			return -1;
		}
		conf_set_str(&c->fetch, v);
		break;
	case G_FETCH_EVERY:
		return conf_uint(x, &c->fetch_every, name, v, 60, 604800);
	case G_LOG_LEVEL:
		if (!strcmp(v, "info"))
			c->log_level = CONF_LOG_INFO;
		else if (!strcmp(v, "debug"))
			c->log_level = CONF_LOG_DEBUG;
		else {
			conf_bad(x, name, v, "info or debug");
			return -1;
		}
		break;
	}
	return 0;
}

static int conf_set_smtp(struct conf_ctx *x, int k, const char *name,
			 const char *v)
{
	static const char *const schemes[] = { "smtp", "smtps", NULL };
	struct conf_smtp *m = &x->c->smtp;

	switch (k) {
	case M_URL:
		return conf_url(x, &m->url, name, v, schemes,
				"smtp://HOST[:PORT] or smtps://HOST[:PORT]");
	case M_FROM:
		if (conf_addr(x, name, v, 0) < 0)
			return -1;
		conf_set_str(&m->from, v);
		break;
	case M_CREDENTIALS:
		return conf_secret(x, &m->credentials, "credentials file", v);
	case M_CA_FILE:
		conf_set_path(x, &m->ca_file, v);
		break;
	case M_HELO:
		if (strchr(v, ' ') || strchr(v, '@')) {
			conf_bad(x, name, v, "a host name");
			return -1;
		}
		conf_set_str(&m->helo, v);
		break;
	case M_STARTTLS:
		return conf_bool(x, &m->starttls, name, v);
	}
	return 0;
}

static int conf_set_policy(struct conf_ctx *x, int k, const char *name,
			   const char *v)
{
	struct conf_policy *p = &x->c->policy;
	char *s = NULL;

	switch (k) {
	case P_OVERRIDES:
		conf_set_path(x, &s, v);
		conf_push(&p->overrides, &p->n_overrides, s);
		break;
	case P_NO_MAP:
		return conf_bool(x, &p->no_map, name, v);
	case P_BOT:
		if (conf_addr(x, name, v, 0) < 0)
			return -1;
		conf_push(&p->bots, &p->n_bots, xstrdup(v));
		break;
	case P_OPT_OUT:
		if (conf_addr(x, name, v, 1) < 0)
			return -1;
		conf_push(&p->opt_outs, &p->n_opt_outs, xstrdup(v));
		break;
	}
	return 0;
}

static int conf_set_test(struct conf_ctx *x, int k, const char *name,
			 const char *v)
{
	struct conf_test *t = &x->c->test;
	char *path = NULL;

	switch (k) {
	case T_APPLY:
		return conf_bool(x, &t->apply, name, v);
	case T_REPLY:
		return conf_bool(x, &t->reply, name, v);
	case T_RUNNER:
		conf_set_path(x, &t->runner, v);
		break;
	case T_GUEST_CHECK:
		conf_set_path(x, &path, v);
		conf_push(&t->guest_checks, &t->n_guest_checks, path);
		break;
	case T_BRANCH_PREFIX:
		conf_set_str(&t->branch_prefix, v);
		break;
	}
	return 0;
}

static int conf_set_report(struct conf_ctx *x, int k, const char *name,
			   const char *v)
{
	struct conf_report *r = &x->c->report;
	char *end;
	unsigned long n;

	switch (k) {
	case R_HTML:
		conf_set_path(x, &r->html, v);
		break;
	case R_TITLE:
		conf_set_str(&r->title, v);
		break;
	case R_BASE_URL:
		if (strncmp(v, "https://", 8) && strncmp(v, "http://", 7)) {
			conf_fail(
				x, x->lineno,
				"'%s' in [report] is where the site is "
				"served, an http:// or https:// URL, not '%s'",
				name, v);
			return 0;
		}
		conf_set_str(&r->base_url, v);
		break;
	case R_EVERY:
		n = strtoul(v, &end, 10);
		if (*end || end == v || n > 86400 || v[0] == '-') {
			conf_fail(x, x->lineno,
				  "'%s' in [report] is seconds between two "
				  "reports, 0 to 86400, not '%s'",
				  name, v);
			return 0;
		}
		r->every = (unsigned)n;
		break;
	}
	return 0;
}

static int conf_set_clock(struct conf_ctx *x, int k, const char *name,
			  const char *v)
{
	struct conf_clock *ck = &x->c->clock;
	char *end;

	switch (k) {
	case C_STEP:
		return conf_bool(x, &ck->step, name, v);
	case C_UNTIL:
		if (conf_time(x, &ck->until, name, v) < 0)
			return -1;
		ck->has_until = 1;
		break;
	case C_START:
		if (conf_time(x, &ck->start, name, v) < 0)
			return -1;
		ck->has_start = 1;
		break;
	case C_SPEED:
		errno = 0;
		ck->speed = strtod(v, &end);
		if (*end || errno || !isfinite(ck->speed) || ck->speed <= 0 ||
		    ck->speed > 1e6 ||
		    (v[0] != '.' && (v[0] < '0' || v[0] > '9'))) {
			conf_bad(x, name, v, "a factor above 0 (at most 1e6)");
			return -1;
		}
		break;
	case C_OFFSET: {
		long long o;
		const char *d = v + (v[0] == '-' || v[0] == '+');

		errno = 0;
		o = strtoll(v, &end, 10);
		if (*d < '0' || *d > '9' || *end || errno) {
			conf_bad(x, name, v, "a number of seconds");
			return -1;
		}
		ck->offset = o;
		ck->has_offset = 1;
		break;
	}
	}
	return 0;
}

static int conf_set_source(struct conf_ctx *x, int k, const char *name,
			   const char *v)
{
	static const char *const schemes[] = { "imap", "imaps", NULL };
	struct conf_source *s = &x->c->sources[x->c->n_sources - 1];

	switch (k) {
	case S_TYPE:
		if (!strcmp(v, "imap"))
			s->type = CONF_SOURCE_IMAP;
		else if (!strcmp(v, "maildir"))
			s->type = CONF_SOURCE_MAILDIR;
		else if (!strcmp(v, "mbox"))
			s->type = CONF_SOURCE_MBOX;
		else if (!strcmp(v, "files"))
			s->type = CONF_SOURCE_FILES;
		else {
			conf_bad(x, name, v, "imap, maildir, mbox or files");
			return -1;
		}
		break;
	case S_URL:
		return conf_url(x, &s->url, name, v, schemes,
				"imap://HOST[:PORT] or imaps://HOST[:PORT]");
	case S_USER:
		conf_set_str(&s->user, v);
		break;
	case S_PASSWORD_FILE:
		return conf_secret(x, &s->password_file, "password file", v);
	case S_FOLDER:
		conf_set_str(&s->folder, v);
		break;
	case S_LIST_ID:
		conf_set_str(&s->list_id, v);
		break;
	case S_PATH: {
		char *path = NULL;

		conf_set_path(x, &path, v);
		if (!s->path)
			s->path = xstrdup(path);
		conf_push(&s->paths, &s->n_paths, path);
		break;
	}
	case S_POLL:
		return conf_uint(x, &s->poll, name, v, 1, 86400);
	case S_IDLE:
		return conf_bool(x, &s->idle, name, v);
	case S_CA_FILE:
		conf_set_path(x, &s->ca_file, v);
		break;
	case S_STARTTLS:
		return conf_bool(x, &s->starttls, name, v);
	case S_REPLAY:
		return conf_bool(x, &s->replay, name, v);
	case S_COMMANDS:
		return conf_bool(x, &s->commands, name, v);
	}
	return 0;
}

static void conf_strv_add(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static int conf_set_project(struct conf_ctx *x, int k, const char *name,
			    const char *v)
{
	struct conf_project *p = &x->c->projects[x->c->n_projects - 1];
	const char *c;

	switch (k) {
	case J_SUBJECT:
		for (c = v; *c; c++)
			if (*c == ' ' || *c == '\t' || *c == '[' || *c == ']') {
				conf_bad(x, name, v,
					 "one word of the subject tag, such as "
					 "ndctl for [ndctl PATCH]");
				return -1;
			}
		conf_strv_add(&p->subjects, &p->n_subjects, v);
		break;
	case J_LIST_ID:
		conf_set_str(&p->list_id, v);
		break;
	case J_TREE:
		if (strcmp(v, "none")) {
			conf_bad(x, name, v,
				 "none (a project with its own tree runs its "
				 "own patchclockd with that tree)");
			return -1;
		}
		break;
	case J_CONTACT:
		if (!strchr(v, '@')) {
			conf_bad(x, name, v, "an address, or Name <address>");
			return -1;
		}
		conf_strv_add(&p->contacts, &p->n_contacts, v);
		break;
	}
	return 0;
}

static void conf_keys(const struct conf_key **keys, size_t *n,
		      enum conf_sec sec)
{
	switch (sec) {
	case CONF_SEC_GENERAL:
		*keys = conf_general_keys;
		*n = G_N;
		break;
	case CONF_SEC_SMTP:
		*keys = conf_smtp_keys;
		*n = M_N;
		break;
	case CONF_SEC_POLICY:
		*keys = conf_policy_keys;
		*n = P_N;
		break;
	case CONF_SEC_CLOCK:
		*keys = conf_clock_keys;
		*n = C_N;
		break;
	case CONF_SEC_TEST:
		*keys = conf_test_keys;
		*n = T_N;
		break;
	case CONF_SEC_REPORT:
		*keys = conf_report_keys;
		*n = R_N;
		break;
	case CONF_SEC_SOURCE:
		*keys = conf_source_keys;
		*n = S_N;
		break;
	case CONF_SEC_PROJECT:
		*keys = conf_project_keys;
		*n = J_N;
		break;
	default:
		*keys = NULL;
		*n = 0;
	}
}

/* The ini_handler: one "name = value" of the current section. */
static int conf_on_key(void *user, const char *section, const char *name,
		       const char *value)
{
	struct conf_ctx *x = user;
	const struct conf_key *keys;
	int *lines;
	size_t i, n;
	int rc = -1;

	if (x->failed)
		return 0;
	if (x->sec == CONF_SEC_NONE) {
		conf_fail(x, x->lineno, "key '%s' outside any section", name);
		return 0;
	}
	/* inih and our reader must agree on where the section starts. */
	if (strcmp(section, x->sec_raw)) {
		conf_fail(x, x->lineno, "cannot tell the section of key '%s'",
			  name);
		return 0;
	}
	conf_keys(&keys, &n, x->sec);
	for (i = 0; i < n && strcmp(keys[i].name, name); i++)
		;
	if (i == n) {
		conf_fail(x, x->lineno, "unknown key '%s' in %s", name,
			  x->sec_label);
		return 0;
	}
	lines = x->sec == CONF_SEC_SOURCE ? x->src_lines[x->c->n_sources - 1] :
		x->sec == CONF_SEC_PROJECT ?
					    x->prj_lines[x->c->n_projects - 1] :
					    x->key_line[x->sec];
	if (lines[i] && !keys[i].repeat) {
		conf_fail(x, x->lineno,
			  "key '%s' given twice in %s (first at line %d)", name,
			  x->sec_label, lines[i]);
		return 0;
	}
	if (!lines[i])
		lines[i] = x->lineno;
	if (!*value) {
		conf_fail(x, x->lineno, "empty value for '%s' in %s", name,
			  x->sec_label);
		return 0;
	}
	switch (x->sec) {
	case CONF_SEC_GENERAL:
		rc = conf_set_general(x, (int)i, name, value);
		break;
	case CONF_SEC_SMTP:
		rc = conf_set_smtp(x, (int)i, name, value);
		break;
	case CONF_SEC_POLICY:
		rc = conf_set_policy(x, (int)i, name, value);
		break;
	case CONF_SEC_TEST:
		rc = conf_set_test(x, (int)i, name, value);
		break;
	case CONF_SEC_REPORT:
		rc = conf_set_report(x, (int)i, name, value);
		break;
	case CONF_SEC_CLOCK:
		rc = conf_set_clock(x, (int)i, name, value);
		break;
	case CONF_SEC_SOURCE:
		rc = conf_set_source(x, (int)i, name, value);
		break;
	case CONF_SEC_PROJECT:
		rc = conf_set_project(x, (int)i, name, value);
		break;
	default:
		break;
	}
	return rc == 0 && !x->failed;
}

/* [source "NAME"] (or [project "NAME"]: kind is the first word):
 * returns NAME (caller frees) or NULL if malformed. */
static char *conf_source_name(const char *raw, const char *kind)
{
	const char *p = raw + strlen(kind), *q;

	if (*p != ' ' && *p != '\t')
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '"' || !(q = strchr(p, '"')) || q[1])
		return NULL;
	return xstrndup(p, (size_t)(q - p));
}

static int conf_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > CONF_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '.' && *s != '_' &&
		    *s != '-')
			return 0;
	return 1;
}

/* The NAME of a [KIND "NAME"] header, checked (caller frees), or NULL
 * with the error recorded. */
static char *conf_section_name(struct conf_ctx *x, const char *raw,
			       const char *kind)
{
	char *name = conf_source_name(raw, kind);

	if (!name) {
		conf_fail(x, x->lineno,
			  "bad section header %s: want [%s \"NAME\"]",
			  x->sec_label, kind);
		return NULL;
	}
	if (!conf_name_ok(name)) {
		conf_fail(x, x->lineno,
			  "bad %s name '%s': want 1 to %d letters, "
			  "digits, '.', '_' or '-'",
			  kind, name, CONF_NAME_MAX);
		free(name);
		return NULL;
	}
	return name;
}

/* A [project "NAME"] header. */
static void conf_on_project(struct conf_ctx *x, const char *raw)
{
	struct conf *c = x->c;
	struct conf_project *p;
	char *name = conf_section_name(x, raw, "project");

	if (!name)
		return;
	for (size_t k = 0; k < c->n_projects; k++) {
		if (!strcmp(c->projects[k].name, name)) {
			conf_fail(x, x->lineno,
				  "project '%s' given twice (first at line %d)",
				  name, c->projects[k].line);
			free(name);
			return;
		}
	}
	c->projects = xreallocarray(c->projects, c->n_projects + 1,
				    sizeof(*c->projects));
	x->prj_lines = xreallocarray(x->prj_lines, c->n_projects + 1,
				     sizeof(*x->prj_lines));
	memset(x->prj_lines[c->n_projects], 0, sizeof(*x->prj_lines));
	p = &c->projects[c->n_projects++];
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->line = x->lineno;
	x->sec = CONF_SEC_PROJECT;
}

/* A "[...]" line: raw is what lies between the brackets. */
static void conf_on_section(struct conf_ctx *x, const char *raw)
{
	struct conf *c = x->c;
	struct conf_source *s;
	char *name;
	int i;

	free(x->sec_raw);
	free(x->sec_label);
	x->sec_raw = xstrdup(raw);
	x->sec_label = xasprintf("[%s]", raw);
	x->sec = CONF_SEC_NONE;
	for (i = CONF_SEC_GENERAL; i < CONF_SEC_SOURCE; i++) {
		if (strcmp(raw, conf_sec_names[i]))
			continue;
		if (x->sec_line[i]) {
			conf_fail(x, x->lineno,
				  "section %s given twice (first at line %d)",
				  x->sec_label, x->sec_line[i]);
			return;
		}
		x->sec_line[i] = x->lineno;
		x->sec = (enum conf_sec)i;
		return;
	}
	if (!strncmp(raw, "project", 7) &&
	    (raw[7] == ' ' || raw[7] == '\t' || raw[7] == '"')) {
		conf_on_project(x, raw);
		return;
	}
	if (strncmp(raw, "source", 6) ||
	    (raw[6] && raw[6] != ' ' && raw[6] != '\t' && raw[6] != '"')) {
		conf_fail(x, x->lineno, "unknown section %s", x->sec_label);
		return;
	}
	if (!(name = conf_section_name(x, raw, "source")))
		return;
	for (size_t k = 0; k < c->n_sources; k++) {
		if (!strcmp(c->sources[k].name, name)) {
			conf_fail(x, x->lineno,
				  "source '%s' given twice (first at line %d)",
				  name, c->sources[k].line);
			free(name);
			return;
		}
	}
	c->sources = xreallocarray(c->sources, c->n_sources + 1,
				   sizeof(*c->sources));
	x->src_lines = xreallocarray(x->src_lines, c->n_sources + 1,
				     sizeof(*x->src_lines));
	memset(x->src_lines[c->n_sources], 0, sizeof(*x->src_lines));
	s = &c->sources[c->n_sources++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->poll = 60;
	s->idle = 1;
	s->starttls = 1;
	s->line = x->lineno;
	x->sec = CONF_SEC_SOURCE;
}

/*
 * The ini_reader: hands inih one whole line at a time (lib/util/iniline.h),
 * counting lines and noting section headers first. Returns NULL (the
 * end, for inih) once an error is recorded.
 */
static char *conf_read_line(char *str, int num, void *stream)
{
	struct conf_ctx *x = stream;
	const char *p, *name, *why = NULL;
	size_t n, name_len;
	int rc;

	if (x->failed || num < 3)
		return NULL;
	rc = pc_ini_next(&x->in, (size_t)num - 3, &p, &n, &why);
	x->lineno = (int)x->in.lineno;
	if (!rc)
		return NULL;
	if (rc == PC_ELIMIT) {
		conf_fail(x, x->lineno, "line longer than %d bytes", num - 3);
		return NULL;
	}
	if (rc < 0) {
		conf_fail(x, x->lineno, "%s", why);
		return NULL;
	}
	rc = pc_ini_section(p, n, &name, &name_len, &why);
	if (rc < 0) {
		conf_fail(x, x->lineno, "syntax error: %s", why);
		return NULL;
	}
	if (rc) {
		char *raw = xmemdupz(name, name_len);

		conf_on_section(x, raw);
		free(raw);
		if (x->failed)
			return NULL;
	}
	memcpy(str, p, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

/* ---- whole-file checks ---- */

static void conf_missing(struct conf_ctx *x, int line, const char *key,
			 const char *label)
{
	conf_fail(x, line, "missing key '%s' in %s", key, label);
}

/* Whether the host of an imap url is loopback. */
static int conf_url_loopback(const char *url)
{
	struct pc_imap_options o = PC_IMAP_OPTIONS_INIT;
	char *host = NULL;
	int yes;

	if (pc_imap_parse_url(&host, &o, url, NULL) < 0)
		return 0;
	yes = pc_imap_is_loopback(host);
	free(host);
	return yes;
}

/* No password in clear text to a remote SMTP server (as for IMAP). */
static void conf_check_smtp_tls(struct conf_ctx *x)
{
	const struct conf_smtp *m = &x->c->smtp;
	struct pc_smtp_options o = PC_SMTP_OPTIONS_INIT;
	struct pc_err err = { 0 };

	o.url = m->url;
	o.starttls = m->starttls;
	o.user = m->credentials ? "(credentials)" : NULL;
	if (pc_smtp_check(&o, &err) < 0)
		conf_fail(x,
			  x->key_line[CONF_SEC_SMTP][M_STARTTLS] ?
				  x->key_line[CONF_SEC_SMTP][M_STARTTLS] :
				  x->sec_line[CONF_SEC_SMTP],
			  "%s, in [smtp]", err.msg);
}

static void conf_check_source(struct conf_ctx *x, size_t i)
{
	struct conf_source *s = &x->c->sources[i];
	const int *lines = x->src_lines[i];
	char *label = xasprintf("[source \"%s\"]", s->name);
	static const int imap_only[] = { S_URL,	    S_USER, S_PASSWORD_FILE,
					 S_FOLDER,  S_IDLE, S_CA_FILE,
					 S_STARTTLS };
	size_t k;

	if (!lines[S_TYPE]) {
		conf_missing(x, s->line, "type", label);
		goto out;
	}
	if (s->type == CONF_SOURCE_IMAP) {
		if (lines[S_PATH] || lines[S_REPLAY])
			conf_fail(x,
				  lines[S_PATH] ? lines[S_PATH] :
						  lines[S_REPLAY],
				  "key '%s' is for maildir and mbox "
				  "sources, not imap, in %s",
				  lines[S_PATH] ? "path" : "replay", label);
		else if (!s->url)
			conf_missing(x, s->line, "url", label);
		else if (!s->user)
			conf_missing(x, s->line, "user", label);
		else if (!s->password_file)
			conf_missing(x, s->line, "password_file", label);
		else if (!s->starttls && strncmp(s->url, "imap://", 7))
			conf_fail(x, lines[S_STARTTLS],
				  "'starttls = no' is for imap:// urls, not "
				  "imaps://, in %s",
				  label);
		else if (!s->starttls && !conf_url_loopback(s->url))
			conf_fail(x, lines[S_STARTTLS],
				  "'starttls = no' would send the password in "
				  "clear text: it is allowed for loopback "
				  "servers only, in %s",
				  label);
		else if (!s->folder)
			s->folder = xstrdup("INBOX");
		goto out;
	}
	for (k = 0; k < sizeof(imap_only) / sizeof(imap_only[0]); k++) {
		if (lines[imap_only[k]]) {
			conf_fail(x, lines[imap_only[k]],
				  "key '%s' is for imap sources, not %s, in %s",
				  conf_source_keys[imap_only[k]].name,
				  s->type == CONF_SOURCE_MBOX  ? "mbox" :
				  s->type == CONF_SOURCE_FILES ? "files" :
								 "maildir",
				  label);
			goto out;
		}
	}
	if (s->commands && s->type != CONF_SOURCE_MAILDIR)
		conf_fail(x, lines[S_COMMANDS],
			  "'commands = yes' is for patchclock's own mailbox, "
			  "an imap or maildir source, not %s, in %s",
			  s->type == CONF_SOURCE_FILES ? "files" : "mbox",
			  label);
	else if (!s->path)
		conf_missing(x, s->line, "path", label);
	else if (s->n_paths > 1 && s->type != CONF_SOURCE_FILES)
		conf_fail(x, lines[S_PATH],
			  "key 'path' given twice in %s (type files takes "
			  "several)",
			  label);
out:
	free(label);
}

static void conf_check(struct conf_ctx *x)
{
	struct conf *c = x->c;
	size_t i;

	if (!x->sec_line[CONF_SEC_GENERAL])
		conf_fail(x, 0,
			  "missing section [general] with key 'database'");
	else if (!c->database)
		conf_missing(x, x->sec_line[CONF_SEC_GENERAL], "database",
			     "[general]");
	if (c->test.apply && !c->tree)
		conf_fail(x, x->key_line[CONF_SEC_TEST][T_APPLY],
			  "'apply = yes' in [test] needs 'tree' in [general]: "
			  "the kernel tree to apply series to");
	if (x->sec_line[CONF_SEC_SMTP]) {
		if (!c->smtp.url)
			conf_missing(x, x->sec_line[CONF_SEC_SMTP], "url",
				     "[smtp]");
		else if (!c->smtp.from)
			conf_missing(x, x->sec_line[CONF_SEC_SMTP], "from",
				     "[smtp]");
		else
			conf_check_smtp_tls(x);
	}
	if (c->clock.has_offset &&
	    (c->clock.has_start || x->key_line[CONF_SEC_CLOCK][C_SPEED]))
		conf_fail(x, x->key_line[CONF_SEC_CLOCK][C_OFFSET],
			  "key 'offset' excludes 'start' and 'speed' in "
			  "[clock]");
	else if (x->key_line[CONF_SEC_CLOCK][C_SPEED] && !c->clock.has_start)
		conf_fail(x, x->key_line[CONF_SEC_CLOCK][C_SPEED],
			  "key 'speed' needs 'start' in [clock]");
	else if (c->clock.step && !c->clock.has_start)
		conf_fail(x, x->key_line[CONF_SEC_CLOCK][C_STEP],
			  "'step = yes' needs 'start' in [clock]");
	else if (c->clock.step && x->key_line[CONF_SEC_CLOCK][C_SPEED])
		conf_fail(x, x->key_line[CONF_SEC_CLOCK][C_STEP],
			  "'step = yes' excludes 'speed' in [clock]: a "
			  "stepped clock has no speed");
	for (i = 0; i < c->n_sources && !x->failed; i++)
		conf_check_source(x, i);
	for (i = 0; i < c->n_projects && !x->failed; i++)
		if (!c->projects[i].n_subjects)
			conf_fail(x, c->projects[i].line,
				  "[project \"%s\"] needs 'subject': a word "
				  "of its subject tag, such as ndctl",
				  c->projects[i].name);
}

static char *conf_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *abs;

	if (!slash)
		dir = xstrdup(".");
	else if (slash == path)
		dir = xstrdup("/");
	else
		dir = xstrndup(path, (size_t)(slash - path));
	abs = realpath(dir, NULL);
	free(dir);
	return abs;
}

int conf_load(struct conf **out, const char *path, char *errbuf, size_t errlen)
{
	struct conf_ctx x = { 0 };
	struct conf *c = xcalloc(1, sizeof(*c));
	struct pc_err err = { 0 };
	int rc;

	x.c = c;
	x.path = path;
	x.errbuf = errbuf;
	x.errlen = errlen;
	if (errlen)
		errbuf[0] = '\0';
	c->path = xstrdup(path);
	c->daily_limit = 3;
	c->max_age_days = 90;
	c->fetch_every = 3600;
	c->report.every = 60;
	c->digest = 1;
	c->replies = 1;
	c->compress = 2; /* zstd: PC_RAW_ZSTD */
	c->log_level = CONF_LOG_INFO;
	c->smtp.starttls = 1;
	c->clock.speed = 1.0;

	if (pc_read_file(&x.text, path, CONF_FILE_MAX, 0, NULL, &err) < 0) {
		conf_fail(&x, -1, "%s", err.msg);
		goto out;
	}
	x.in.text = x.text.buf;
	x.in.len = x.text.len;
	if (!(x.dir = conf_dir(path))) {
		conf_fail(&x, 0, "cannot resolve the config's directory: %s",
			  strerror(errno));
		goto out;
	}
	rc = ini_parse_stream(conf_read_line, &x, conf_on_key, &x);
	if (rc == -2)
		abort(); /* inih's line buffer: out of memory aborts. */
	if (rc > 0 && (!x.failed || rc < x.err_line)) {
		/* inih found a line it cannot parse before our first error. */
		x.failed = 0;
		conf_fail(&x, rc,
			  "syntax error: want 'key = value', '[section]' or "
			  "a comment");
	}
	if (!x.failed)
		conf_check(&x);
out:
	pc_buf_release(&x.text);
	free(x.dir);
	free(x.sec_raw);
	free(x.sec_label);
	free(x.src_lines);
	free(x.prj_lines);
	if (x.failed) {
		conf_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

static void conf_free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void conf_free(struct conf *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n_sources; i++) {
		struct conf_source *s = &c->sources[i];

		free(s->name);
		free(s->url);
		free(s->user);
		free(s->password_file);
		free(s->folder);
		free(s->ca_file);
		free(s->list_id);
		free(s->path);
		conf_free_strv(s->paths, s->n_paths);
	}
	free(c->sources);
	for (i = 0; i < c->n_projects; i++) {
		struct conf_project *p = &c->projects[i];

		free(p->name);
		free(p->list_id);
		conf_free_strv(p->subjects, p->n_subjects);
		conf_free_strv(p->contacts, p->n_contacts);
	}
	free(c->projects);
	conf_free_strv(c->policy.overrides, c->policy.n_overrides);
	conf_free_strv(c->policy.bots, c->policy.n_bots);
	free(c->report.html);
	free(c->dkim_keys);
	free(c->report.title);
	free(c->report.base_url);
	free(c->test.runner);
	free(c->test.branch_prefix);
	conf_free_strv(c->test.guest_checks, c->test.n_guest_checks);
	conf_free_strv(c->policy.opt_outs, c->policy.n_opt_outs);
	free(c->smtp.url);
	free(c->smtp.from);
	free(c->smtp.credentials);
	free(c->smtp.ca_file);
	free(c->smtp.helo);
	free(c->path);
	free(c->database);
	free(c->pidfile);
	free(c->tree);
	free(c->from);
	free(c->domain);
	free(c->archive);
	free(c->releases);
	free(c->holidays);
	free(c->branches);
	free(c->fetch);
	free(c);
}
