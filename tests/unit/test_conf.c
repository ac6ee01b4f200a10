// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for daemon/conf.c: the example config loads, every class of
 * error names the file and the exact line, repeatable keys repeat, secret
 * files must be private, relative paths follow the config file, and
 * [source "NAME"] sections parse by type.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "conf.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct fix {
	char *dir; /* owned: from t_mkdtemp(), resolved */
	char *conf; /* owned: dir/t.conf */
};

static void write_file(const char *dir, const char *name, const char *text,
		       mode_t mode)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, mode), 0);
	free(path);
}

static int setup(void **state)
{
	struct fix *f = xcalloc(1, sizeof(*f));
	char *dir = t_mkdtemp();

	f->dir = realpath(dir, NULL);
	assert_non_null(f->dir);
	free(dir);
	f->conf = xasprintf("%s/t.conf", f->dir);
	write_file(f->dir, "creds", "user:secret\n", 0600);
	write_file(f->dir, "open", "user:secret\n", 0644);
	write_file(f->dir, "grp", "secret\n", 0640);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	t_rmtree(f->dir);
	free(f->dir);
	free(f->conf);
	free(f);
	return 0;
}

/* Loads text as t.conf; returns the conf (NULL on error, with err set). */
static struct conf *load(struct fix *f, const char *text, char *err,
			 size_t errlen)
{
	struct conf *c = NULL;

	write_file(f->dir, "t.conf", text, 0644);
	if (conf_load(&c, f->conf, err, errlen) < 0) {
		assert_null(c);
		return NULL;
	}
	assert_non_null(c);
	return c;
}

/* Asserts that text fails with "<dir>/t.conf:<rest>". */
static void expect_error(struct fix *f, const char *text, const char *rest)
{
	char err[512];
	char *want = xasprintf("%s:%s", f->conf, rest);

	assert_null(load(f, text, err, sizeof(err)));
	assert_string_equal(err, want);
	free(want);
}

#define MIN "[general]\ndatabase = db\n"

static void test_conf__example_loads(void **state)
{
	struct fix *f = *state;
	struct pc_buf b = PC_BUF_INIT;
	struct conf *c = NULL;
	char err[512] = "";
	char *path, *want;

	/* Copied next to its secrets, as installed in /etc/patchclock/. */
	t_read_file(&b, PC_CONTRIB_DIR "/patchclockd.conf");
	write_file(f->dir, "patchclockd.conf", b.buf, 0644);
	write_file(f->dir, "smtp-credentials", "user:secret\n", 0600);
	write_file(f->dir, "nvdimm-password", "secret\n", 0400);
	pc_buf_release(&b);
	path = xasprintf("%s/patchclockd.conf", f->dir);
	assert_int_equal(conf_load(&c, path, err, sizeof(err)), 0);
	assert_string_equal(err, "");

	assert_string_equal(c->path, path);
	assert_string_equal(c->database, "/var/lib/patchclock/patchclock.db");
	assert_string_equal(c->pidfile, "/run/patchclock/patchclockd.pid");
	assert_string_equal(c->tree, "/srv/linux");
	assert_string_equal(c->from, "patchclock@example.org");
	assert_string_equal(c->domain, "patchclock.example.org");
	assert_string_equal(c->archive, "https://lore.kernel.org/r/%s");
	assert_int_equal(c->daily_limit, 3);
	/* no holidays file unless the operator keeps one */
	assert_null(c->holidays);
	assert_int_equal(c->digest, 1);
	assert_int_equal(c->replies, 1);
	assert_int_equal(c->log_level, CONF_LOG_INFO);

	assert_string_equal(c->smtp.url, "smtps://smtp.example.org:465");
	assert_string_equal(c->smtp.from, "patchclock-bounces@example.org");
	want = xasprintf("%s/smtp-credentials", f->dir);
	assert_string_equal(c->smtp.credentials, want);
	free(want);
	assert_string_equal(c->smtp.helo, "patchclock.example.org");
	assert_int_equal(c->smtp.starttls, 1);

	/* the bundled profile map only (the site's own is commented out);
	 * cmake --install writes the installed data directory here */
	assert_int_equal(c->policy.n_overrides, 1);
	assert_string_equal(c->policy.overrides[0],
			    "/usr/share/patchclock/profiles.ini");
	assert_int_equal(c->policy.no_map, 0);
	assert_int_equal(c->policy.n_bots, 2);
	assert_string_equal(c->policy.bots[1],
			    "syzbot@syzkaller.appspotmail.com");
	assert_int_equal(c->policy.n_opt_outs, 2);
	assert_string_equal(c->policy.opt_outs[1], "@example.net");

	/* A service runs on real time: the example's [clock] is all
	 * comments (it once ran a 3600x simulation). */
	assert_int_equal(c->clock.has_start, 0);
	assert_int_equal(c->clock.has_offset, 0);
	assert_int_equal(c->clock.step, 0);

	assert_null(c->dkim_keys);
	assert_int_equal(c->require_dkim, 0);
	assert_int_equal(c->attest_tags, 0);

	assert_int_equal(c->n_sources, 3);
	assert_string_equal(c->sources[0].name, "nvdimm");
	assert_int_equal(c->sources[0].type, CONF_SOURCE_IMAP);
	assert_string_equal(c->sources[0].url, "imaps://imap.example.org:993");
	assert_string_equal(c->sources[0].user, "maintainer");
	want = xasprintf("%s/nvdimm-password", f->dir);
	assert_string_equal(c->sources[0].password_file, want);
	free(want);
	assert_string_equal(c->sources[0].folder, "lists/nvdimm");
	assert_string_equal(c->sources[0].list_id, "nvdimm.lists.linux.dev");
	assert_int_equal(c->sources[0].poll, 60);
	assert_int_equal(c->sources[0].idle, 1);
	assert_int_equal(c->sources[0].commands, 0);
	assert_string_equal(c->sources[1].name, "patchclock");
	assert_int_equal(c->sources[1].type, CONF_SOURCE_MAILDIR);
	assert_int_equal(c->sources[1].commands, 1);
	assert_string_equal(c->sources[2].name, "archive");
	assert_int_equal(c->sources[2].type, CONF_SOURCE_MBOX);
	assert_string_equal(c->sources[2].path,
			    "/var/spool/patchclock/nvdimm.mbox");
	assert_int_equal(c->sources[2].poll, 300);
	assert_null(c->sources[2].url);
	conf_free(c);
	free(path);
}

static void test_conf__defaults(void **state)
{
	struct fix *f = *state;
	char err[256];
	struct conf *c =
		load(f, "# only what is required\n" MIN, err, sizeof(err));
	char *want = xasprintf("%s/db", f->dir);

	assert_non_null(c);
	assert_string_equal(c->database, want);
	assert_null(c->tree);
	assert_null(c->from);
	assert_null(c->archive);
	assert_int_equal(c->daily_limit, 3);
	assert_int_equal(c->digest, 1);
	assert_int_equal(c->replies, 1);
	assert_null(c->smtp.url);
	assert_int_equal(c->smtp.starttls, 1);
	assert_int_equal(c->policy.n_overrides, 0);
	assert_int_equal(c->clock.has_start, 0);
	assert_int_equal(c->clock.has_offset, 0);
	assert_int_equal(c->n_sources, 0);
	conf_free(c);
	free(want);
	conf_free(NULL);
}

static void test_conf__unknown(void **state)
{
	struct fix *f = *state;

	expect_error(f, MIN "bogus = 1\n",
		     "3: unknown key 'bogus' in [general]");
	expect_error(f, MIN "[smtp]\nurl = smtp://h\nfrom = a@b\nx = 1\n",
		     "6: unknown key 'x' in [smtp]");
	expect_error(f, MIN "[source \"l\"]\ntype = mbox\nhost = h\n",
		     "5: unknown key 'host' in [source \"l\"]");
	expect_error(f, MIN "\n[smpt]\nurl = smtp://h\n",
		     "4: unknown section [smpt]");
	expect_error(f, MIN "[sources]\n", "3: unknown section [sources]");
	expect_error(f, "database = db\n" MIN,
		     "1: key 'database' outside any section");
}

static void test_conf__bad_values(void **state)
{
	struct fix *f = *state;

	expect_error(f, MIN "daily_limit = many\n",
		     "3: bad value 'many' for 'daily_limit' in [general]: "
		     "want a number from 1 to 1000");
	expect_error(f, MIN "daily_limit = 0\n",
		     "3: bad value '0' for 'daily_limit' in [general]: "
		     "want a number from 1 to 1000");
	expect_error(f, MIN "daily_limit = -1\n",
		     "3: bad value '-1' for 'daily_limit' in [general]: "
		     "want a number from 1 to 1000");
	expect_error(f, MIN "digest = maybe\n",
		     "3: bad value 'maybe' for 'digest' in [general]: "
		     "want yes or no");
	expect_error(f, MIN "log_level = trace\n",
		     "3: bad value 'trace' for 'log_level' in [general]: "
		     "want info or debug");
	expect_error(f, MIN "from = patchclock\n",
		     "3: bad value 'patchclock' for 'from' in [general]: "
		     "want an address user@host");
	expect_error(f, MIN "archive = https://lore.kernel.org/r/\n",
		     "3: bad value 'https://lore.kernel.org/r/' for "
		     "'archive' in [general]: want an http(s) URL with one "
		     "'%s' for the Message-ID");
	expect_error(f, MIN "archive = https://x/%s/%d\n",
		     "3: bad value 'https://x/%s/%d' for 'archive' in "
		     "[general]: want an http(s) URL with one '%s' for the "
		     "Message-ID");
	expect_error(f, MIN "database2 = x\n",
		     "3: unknown key 'database2' in [general]");
	expect_error(f, MIN "tree =\n",
		     "3: empty value for 'tree' in [general]");
	expect_error(f, MIN "[smtp]\nurl = http://mail.example.org\n",
		     "4: bad value 'http://mail.example.org' for 'url' in "
		     "[smtp]: want smtp://HOST[:PORT] or smtps://HOST[:PORT]");
	expect_error(f, MIN "[smtp]\nurl = smtps://h:99999\n",
		     "4: bad value 'smtps://h:99999' for 'url' in [smtp]: "
		     "want smtp://HOST[:PORT] or smtps://HOST[:PORT]");
	expect_error(f, MIN "[smtp]\nstarttls = on\n",
		     "4: bad value 'on' for 'starttls' in [smtp]: "
		     "want yes or no");
	expect_error(f, MIN "[policy]\nopt_out = nobody\n",
		     "4: bad value 'nobody' for 'opt_out' in [policy]: "
		     "want an address user@host or @domain");
	expect_error(f, MIN "[policy]\nbot = @example.org\n",
		     "4: bad value '@example.org' for 'bot' in [policy]: "
		     "want an address user@host");
	expect_error(f, MIN "[clock]\nstart = 2026-02-30 10:00\n",
		     "4: bad value '2026-02-30 10:00' for 'start' in [clock]: "
		     "want a UTC time 'YYYY-MM-DD HH:MM'");
	expect_error(f, MIN "[clock]\nstart = 2026-01-05T10:00\n",
		     "4: bad value '2026-01-05T10:00' for 'start' in [clock]: "
		     "want a UTC time 'YYYY-MM-DD HH:MM'");
	expect_error(f, MIN "[clock]\nstart = 2026-01-05 10:00\nspeed = 0\n",
		     "5: bad value '0' for 'speed' in [clock]: "
		     "want a factor above 0 (at most 1e6)");
	expect_error(f, MIN "[clock]\nstart = 2026-01-05 10:00\nspeed = -2\n",
		     "5: bad value '-2' for 'speed' in [clock]: "
		     "want a factor above 0 (at most 1e6)");
	expect_error(f, MIN "[clock]\noffset = 1d\n",
		     "4: bad value '1d' for 'offset' in [clock]: "
		     "want a number of seconds");
	expect_error(f, MIN "[source \"l\"]\ntype = nntp\n",
		     "4: bad value 'nntp' for 'type' in [source \"l\"]: "
		     "want imap, maildir, mbox or files");
	expect_error(f, MIN "[source \"l\"]\ntype = imap\nurl = smtp://h\n",
		     "5: bad value 'smtp://h' for 'url' in [source \"l\"]: "
		     "want imap://HOST[:PORT] or imaps://HOST[:PORT]");
	expect_error(f, MIN "[source \"l\"]\ntype = mbox\npoll = 0\n",
		     "5: bad value '0' for 'poll' in [source \"l\"]: "
		     "want a number from 1 to 86400");
}

static void test_conf__given_twice(void **state)
{
	struct fix *f = *state;

	expect_error(f, MIN "database = other\n",
		     "3: key 'database' given twice in [general] "
		     "(first at line 2)");
	expect_error(f, MIN "[smtp]\nurl = smtp://h\n[general]\n",
		     "5: section [general] given twice (first at line 1)");
	expect_error(f,
		     MIN "[source \"a\"]\ntype = mbox\npath = x\n"
			 "[source \"a\"]\ntype = mbox\n",
		     "6: source 'a' given twice (first at line 3)");
	expect_error(f, MIN "[policy]\nno_map = yes\nno_map = no\n",
		     "5: key 'no_map' given twice in [policy] "
		     "(first at line 4)");
}

static void test_conf__repeatable(void **state)
{
	struct fix *f = *state;
	char err[256];
	struct conf *c = load(f,
			      MIN "[policy]\noverrides = /a.ini\nbot = b1@x\n"
				  "overrides = b.ini\nopt_out = @spam.example\n"
				  "bot = b2@x\nopt_out = me@example.org\n"
				  "overrides = /c.ini\n",
			      err, sizeof(err));
	char *want = xasprintf("%s/b.ini", f->dir);

	assert_non_null(c);
	assert_int_equal(c->policy.n_overrides, 3);
	assert_string_equal(c->policy.overrides[0], "/a.ini");
	assert_string_equal(c->policy.overrides[1], want);
	assert_string_equal(c->policy.overrides[2], "/c.ini");
	assert_int_equal(c->policy.n_bots, 2);
	assert_string_equal(c->policy.bots[0], "b1@x");
	assert_string_equal(c->policy.bots[1], "b2@x");
	assert_int_equal(c->policy.n_opt_outs, 2);
	assert_string_equal(c->policy.opt_outs[0], "@spam.example");
	assert_string_equal(c->policy.opt_outs[1], "me@example.org");
	conf_free(c);
	free(want);
}

static void test_conf__missing(void **state)
{
	struct fix *f = *state;

	expect_error(f, "# empty\n",
		     " missing section [general] with key 'database'");
	expect_error(f, "# a\n[general]\ntree = /srv/linux\n",
		     "2: missing key 'database' in [general]");
	expect_error(f, MIN "\n[smtp]\nurl = smtp://localhost:2525\n",
		     "4: missing key 'from' in [smtp]");
	expect_error(f, MIN "[smtp]\nfrom = a@b\n",
		     "3: missing key 'url' in [smtp]");
	expect_error(f, MIN "[source \"l\"]\nlist_id = l.example\n",
		     "3: missing key 'type' in [source \"l\"]");
	expect_error(f,
		     MIN "[source \"l\"]\ntype = imap\nuser = u\n"
			 "password_file = creds\n",
		     "3: missing key 'url' in [source \"l\"]");
	expect_error(f, MIN "[source \"l\"]\ntype = imap\nurl = imap://h\n",
		     "3: missing key 'user' in [source \"l\"]");
	expect_error(f,
		     MIN "[source \"l\"]\ntype = imap\nurl = imap://h\n"
			 "user = u\n",
		     "3: missing key 'password_file' in [source \"l\"]");
	expect_error(f, MIN "[source \"s\"]\ntype = maildir\n",
		     "3: missing key 'path' in [source \"s\"]");
	/* The first of several sources with an error is the one named. */
	expect_error(f,
		     MIN "[source \"ok\"]\ntype = mbox\npath = m\n"
			 "[source \"s\"]\npoll = 5\n",
		     "6: missing key 'type' in [source \"s\"]");
}

static void test_conf__source_keys_by_type(void **state)
{
	struct fix *f = *state;

	expect_error(f,
		     MIN "[source \"s\"]\nurl = imaps://h\ntype = maildir\n"
			 "path = /m\n",
		     "4: key 'url' is for imap sources, not maildir, in "
		     "[source \"s\"]");
	expect_error(f,
		     MIN "[source \"s\"]\ntype = mbox\npath = m\nidle = no\n",
		     "6: key 'idle' is for imap sources, not mbox, in "
		     "[source \"s\"]");
	expect_error(f,
		     MIN "[source \"s\"]\ntype = imap\nurl = imap://h\n"
			 "user = u\npassword_file = creds\npath = /m\n",
		     "8: key 'path' is for maildir and mbox sources, not "
		     "imap, in [source \"s\"]");
	expect_error(f, MIN "[source \"s\"]\ntype = mbox\npath = m\npath = n\n",
		     "5: key 'path' given twice in [source \"s\"] (type files "
		     "takes several)");
	expect_error(f,
		     MIN "[source \"s\"]\ntype = imap\nurl = imaps://h\n"
			 "user = u\npassword_file = creds\nreplay = yes\n",
		     "8: key 'replay' is for maildir and mbox sources, not "
		     "imap, in [source \"s\"]");
	expect_error(f,
		     MIN "[source \"s\"]\ntype = mbox\npath = m\n"
			 "ca_file = ca.pem\n",
		     "6: key 'ca_file' is for imap sources, not mbox, in "
		     "[source \"s\"]");
	expect_error(f,
		     MIN "[source \"s\"]\ntype = mbox\npath = m\n"
			 "commands = yes\n",
		     "6: 'commands = yes' is for patchclock's own mailbox, an "
		     "imap or maildir source, not mbox, in [source \"s\"]");
	/* A password in clear text: only to a loopback server. */
	expect_error(f,
		     MIN "[source \"s\"]\ntype = imap\nurl = imap://h.example\n"
			 "user = u\npassword_file = creds\nstarttls = no\n",
		     "8: 'starttls = no' would send the password in clear "
		     "text: it is allowed for loopback servers only, in "
		     "[source \"s\"]");
	expect_error(f,
		     MIN "[source \"s\"]\ntype = imap\nurl = imaps://h\n"
			 "user = u\npassword_file = creds\nstarttls = no\n",
		     "8: 'starttls = no' is for imap:// urls, not imaps://, "
		     "in [source \"s\"]");
}

static void test_conf__sources(void **state)
{
	struct fix *f = *state;
	char err[256];
	struct conf *c = load(
		f,
		MIN "[source \"nvdimm\"]\ntype = imap\n"
		    "url = imap://127.0.0.1:10143\nuser = test\n"
		    "password_file = creds\nidle = no\npoll = 5\n"
		    "starttls = no\nca_file = ca.pem\n"
		    "[source \"spool\"]\ntype = maildir\npath = Maildir\n"
		    "[source   \"x.y_z-1\"]\ntype = mbox\npath = /a.mbox\n",
		err, sizeof(err));
	char *want;

	assert_non_null(c);
	assert_int_equal(c->n_sources, 3);
	assert_string_equal(c->sources[0].name, "nvdimm");
	assert_int_equal(c->sources[0].line, 3);
	assert_int_equal(c->sources[0].type, CONF_SOURCE_IMAP);
	assert_string_equal(c->sources[0].url, "imap://127.0.0.1:10143");
	assert_string_equal(c->sources[0].user, "test");
	want = xasprintf("%s/creds", f->dir);
	assert_string_equal(c->sources[0].password_file, want);
	free(want);
	assert_string_equal(c->sources[0].folder, "INBOX");
	assert_null(c->sources[0].list_id);
	assert_int_equal(c->sources[0].idle, 0);
	assert_int_equal(c->sources[0].poll, 5);
	assert_int_equal(c->sources[0].starttls, 0);
	want = xasprintf("%s/ca.pem", f->dir);
	assert_string_equal(c->sources[0].ca_file, want);
	free(want);
	assert_string_equal(c->sources[1].name, "spool");
	assert_int_equal(c->sources[1].type, CONF_SOURCE_MAILDIR);
	want = xasprintf("%s/Maildir", f->dir);
	assert_string_equal(c->sources[1].path, want);
	free(want);
	assert_int_equal(c->sources[1].poll, 60);
	assert_int_equal(c->sources[1].n_paths, 1);
	assert_string_equal(c->sources[2].name, "x.y_z-1");
	assert_int_equal(c->sources[2].type, CONF_SOURCE_MBOX);
	assert_int_equal(c->sources[2].line, 15);
	conf_free(c);

	expect_error(f, MIN "[source nvdimm]\n",
		     "3: bad section header [source nvdimm]: "
		     "want [source \"NAME\"]");
	expect_error(f, MIN "[source \"a b\"]\n",
		     "3: bad source name 'a b': want 1 to 32 letters, "
		     "digits, '.', '_' or '-'");
	expect_error(f, MIN "[source \"\"]\n",
		     "3: bad source name '': want 1 to 32 letters, "
		     "digits, '.', '_' or '-'");
}

static void test_conf__secret_files(void **state)
{
	struct fix *f = *state;
	char err[256];
	struct conf *c;
	char *rest;

	c = load(f,
		 MIN
		 "[smtp]\nurl = smtp://h\nfrom = a@b\ncredentials = creds\n",
		 err, sizeof(err));
	assert_non_null(c);
	conf_free(c);

	rest = xasprintf("6: credentials file '%s/open' is open to group or "
			 "others (mode 0644): run 'chmod 600 %s/open'",
			 f->dir, f->dir);
	expect_error(f,
		     MIN
		     "[smtp]\nurl = smtp://h\nfrom = a@b\ncredentials = open\n",
		     rest);
	free(rest);

	rest = xasprintf("5: password file '%s/grp' is open to group or "
			 "others (mode 0640): run 'chmod 600 %s/grp'",
			 f->dir, f->dir);
	expect_error(f,
		     MIN "[source \"l\"]\ntype = imap\npassword_file = grp\n",
		     rest);
	free(rest);

	rest = xasprintf("4: cannot read credentials file '%s/none': %s",
			 f->dir, strerror(ENOENT));
	expect_error(f, MIN "[smtp]\ncredentials = none\n", rest);
	free(rest);

	rest = xasprintf("4: credentials file '%s/.' is not a regular file",
			 f->dir);
	expect_error(f, MIN "[smtp]\ncredentials = .\n", rest);
	free(rest);

	/* Tightening the mode makes the same file acceptable. */
	write_file(f->dir, "open", "user:secret\n", 0600);
	c = load(f,
		 MIN "[smtp]\nurl = smtp://h\nfrom = a@b\ncredentials = open\n",
		 err, sizeof(err));
	assert_non_null(c);
	conf_free(c);
}

static void test_conf__clock(void **state)
{
	struct fix *f = *state;
	char err[256];
	struct conf *c =
		load(f, MIN "[clock]\noffset = -86400\n", err, sizeof(err));

	assert_non_null(c);
	assert_int_equal(c->clock.has_offset, 1);
	assert_int_equal(c->clock.offset, -86400);
	assert_int_equal(c->clock.has_start, 0);
	conf_free(c);

	c = load(f, MIN "[clock]\nstart = 2024-02-29 23:59\nspeed = 0.5\n", err,
		 sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->clock.start, 1709251140);
	assert_true(c->clock.speed == 0.5);
	assert_int_equal(c->clock.has_until, 0);
	conf_free(c);

	/* A replay: files in any mix, read when the clock reaches their
	 * Date, and an end. */
	c = load(f,
		 MIN "[clock]\nstart = 2018-11-14 00:00\nspeed = 86400\n"
		     "until = 2018-12-01 00:00\n"
		     "[source \"demo\"]\ntype = files\npath = a.mbox.gz\n"
		     "path = seeds\nreplay = yes\n",
		 err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->clock.has_until, 1);
	assert_int_equal(c->clock.until, 1543622400);
	assert_int_equal(c->sources[0].type, CONF_SOURCE_FILES);
	assert_int_equal(c->sources[0].n_paths, 2);
	assert_int_equal(c->sources[0].replay, 1);
	conf_free(c);

	expect_error(f, MIN "[clock]\nstart = 2026-01-05 08:00\noffset = 60\n",
		     "5: key 'offset' excludes 'start' and 'speed' in [clock]");
	expect_error(f, MIN "[clock]\nspeed = 60\n",
		     "4: key 'speed' needs 'start' in [clock]");
	/* Projects. */
	c = load(f,
		 MIN "[project \"ndctl\"]\nsubject = ndctl\n"
		     "subject = daxctl\nlist_id = nvdimm.lists.linux.dev\n"
		     "tree = none\ncontact = V V <vv@example.com>\n",
		 err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->n_projects, 1);
	assert_string_equal(c->projects[0].name, "ndctl");
	assert_int_equal(c->projects[0].n_subjects, 2);
	assert_string_equal(c->projects[0].subjects[1], "daxctl");
	assert_string_equal(c->projects[0].list_id, "nvdimm.lists.linux.dev");
	assert_int_equal(c->projects[0].n_contacts, 1);
	conf_free(c);
	expect_error(
		f, MIN "[project \"x\"]\ntree = /srv/x\n",
		"4: bad value '/srv/x' for 'tree' in [project \"x\"]: want "
		"none (a project with its own tree runs its own "
		"patchclockd with that tree)");
	expect_error(f, MIN "[project \"x\"]\nsubject = [ndctl]\n",
		     "4: bad value '[ndctl]' for 'subject' in [project \"x\"]: "
		     "want one word of the subject tag, such as ndctl for "
		     "[ndctl PATCH]");
	expect_error(f, MIN "[project x]\nsubject = x\n",
		     "3: bad section header [project x]: want [project "
		     "\"NAME\"]");
	expect_error(f, MIN "[project \"x\"]\nlist_id = a.b\n",
		     "3: [project \"x\"] needs 'subject': a word of its "
		     "subject tag, such as ndctl");
	expect_error(f, MIN "[clock]\nstep = yes\n",
		     "4: 'step = yes' needs 'start' in [clock]");
	expect_error(f,
		     MIN "[clock]\nstart = 2026-01-05 08:00\nspeed = 60\n"
			 "step = yes\n",
		     "6: 'step = yes' excludes 'speed' in [clock]: a "
		     "stepped clock has no speed");
}

static void test_conf__test_section(void **state)
{
	struct fix *f = *state;
	char err[256], *want;
	struct conf *c = load(f,
			      MIN "tree = linux\n[test]\napply = yes\n"
				  "reply = yes\nguest_check = a.check\n"
				  "guest_check = b.check\n"
				  "branch_prefix = pc/\n",
			      err, sizeof(err));

	assert_non_null(c);
	assert_int_equal(c->test.apply, 1);
	assert_int_equal(c->test.reply, 1);
	assert_int_equal(c->test.n_guest_checks, 2);
	want = xasprintf("%s/b.check", f->dir);
	assert_string_equal(c->test.guest_checks[1], want);
	free(want);
	assert_string_equal(c->test.branch_prefix, "pc/");
	assert_null(c->test.runner);
	conf_free(c);

	c = load(f, MIN, err, sizeof(err));
	assert_non_null(c);
	assert_int_equal(c->test.apply, 0);
	assert_int_equal(c->test.reply, 0);
	conf_free(c);

	expect_error(f, MIN "[test]\napply = yes\n",
		     "4: 'apply = yes' in [test] needs 'tree' in [general]: "
		     "the kernel tree to apply series to");
	expect_error(f, MIN "[test]\nboot = yes\n",
		     "4: unknown key 'boot' in [test]");
}

static void test_conf__report_section(void **state)
{
	struct fix *f = *state;
	char err[256], *want;
	struct conf *c = load(f,
			      MIN
			      "[report]\nhtml = site\ntitle = nvdimm list\n"
			      "every = 5\nbase_url = https://example.org/pc/\n",
			      err, sizeof(err));

	assert_non_null(c);
	want = xasprintf("%s/site", f->dir);
	assert_string_equal(c->report.html, want);
	free(want);
	assert_string_equal(c->report.title, "nvdimm list");
	assert_string_equal(c->report.base_url, "https://example.org/pc/");
	assert_int_equal(c->report.every, 5);
	conf_free(c);

	c = load(f, MIN, err, sizeof(err));
	assert_non_null(c);
	assert_null(c->report.html);
	assert_int_equal(c->report.every, 60);
	conf_free(c);

	expect_error(f, MIN "[report]\nevery = -1\n",
		     "4: 'every' in [report] is seconds between two reports, "
		     "0 to 86400, not '-1'");
	expect_error(f, MIN "[report]\nevery = 2d\n",
		     "4: 'every' in [report] is seconds between two reports, "
		     "0 to 86400, not '2d'");
	expect_error(
		f, MIN "[report]\nbase_url = /srv/www\n",
		"4: 'base_url' in [report] is where the site is served, an "
		"http:// or https:// URL, not '/srv/www'");
	expect_error(f, MIN "[report]\nhtml = a\n[report]\n",
		     "5: section [report] given twice (first at line 3)");
}

static void test_conf__syntax(void **state)
{
	struct fix *f = *state;
	char line[400];

	expect_error(f, MIN "just words\n",
		     "3: syntax error: want 'key = value', '[section]' or a "
		     "comment");
	expect_error(f, MIN "[smtp\n",
		     "3: syntax error: section line without a closing ']'");
	memset(line, 'a', sizeof(line));
	memcpy(line, "tree = ", 7);
	line[sizeof(line) - 2] = '\n';
	line[sizeof(line) - 1] = '\0';
	{
		char *text = xasprintf(MIN "%s", line);

		expect_error(f, text, "3: line longer than 197 bytes");
		free(text);
	}
	/* A long comment is only a comment; ';' starts inline comments. */
	line[0] = '#';
	{
		char *text = xasprintf(MIN "%sdigest = no ; quiet\n", line);
		char err[256];
		struct conf *c = load(f, text, err, sizeof(err));

		assert_non_null(c);
		assert_int_equal(c->digest, 0);
		conf_free(c);
		free(text);
	}
	/* A syntax error before a bad value is the one reported. */
	expect_error(f, MIN "oops\ndigest = maybe\n",
		     "3: syntax error: want 'key = value', '[section]' or a "
		     "comment");
}

static void test_conf__open_and_short_buffer(void **state)
{
	struct fix *f = *state;
	struct conf *c = NULL;
	char err[256], tiny[8];
	char *path = xasprintf("%s/absent.conf", f->dir);
	char *want = xasprintf("cannot open '%s': %s", path, strerror(ENOENT));

	assert_int_equal(conf_load(&c, path, err, sizeof(err)), -1);
	assert_null(c);
	assert_string_equal(err, want);
	/* A short buffer is cut, never overrun; none at all is fine too. */
	assert_int_equal(conf_load(&c, path, tiny, sizeof(tiny)), -1);
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	assert_int_equal(conf_load(&c, path, NULL, 0), -1);
	free(want);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_conf__example_loads, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__defaults, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__unknown, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__bad_values, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__given_twice, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__repeatable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__missing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__source_keys_by_type,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_conf__sources, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__secret_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__report_section,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_conf__test_section, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__clock, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_conf__syntax, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_conf__open_and_short_buffer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
