/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchclockd's configuration: one INI file read with libinih into an
 * immutable struct conf. Every error names the file and the line; a
 * reload (SIGHUP) builds a new struct conf and swaps it in only when
 * conf_load() succeeded, so a bad file never replaces a good one.
 * Only daemon/ sees this: lib/ gets explicit arguments and option
 * structs built from it.
 *
 * Relative paths in the file are taken relative to the directory of the
 * file itself, so the daemon's working directory does not matter.
 */
#ifndef PC_DAEMON_CONF_H
#define PC_DAEMON_CONF_H

#include <stddef.h>
#include <stdint.h>

enum conf_log_level {
	CONF_LOG_INFO,
	CONF_LOG_DEBUG,
};

enum conf_source_type {
	CONF_SOURCE_IMAP,
	CONF_SOURCE_MAILDIR,
	CONF_SOURCE_MBOX,
	CONF_SOURCE_FILES, /* any of what 'patchclock ingest' reads */
};

/* A [source "NAME"] section. Unset optional strings are NULL. */
struct conf_source {
	char *name; /* owned: NAME from the section header */
	enum conf_source_type type;
	char *url; /* owned; imap: imap://HOST[:PORT] or imaps:// */
	char *user; /* owned; imap */
	char *password_file; /* owned; imap: mode 0600 or stricter */
	char *folder; /* owned; imap: default "INBOX" */
	char *list_id; /* owned; optional: keep only this List-Id */
	char *path; /* owned; maildir and mbox: the first path */
	char **paths; /* owned, as is each string: every path, in file
			 order; files: mboxes (gzip too), maildirs, message
			 files, public-inbox archives, in any mix */
	size_t n_paths;
	unsigned poll; /* seconds between polls, default 60 */
	int idle; /* imap: use IDLE where offered, default yes */
	char *ca_file; /* owned or NULL: imap: the CA to trust (else the
			  system store) */
	int starttls; /* imap://: require STARTTLS, default yes; "no" is
			 accepted for loopback servers only */
	int replay; /* maildir, mbox: a message arrives when the clock
		       reaches its Date (a replay on a simulated clock) */
	int commands; /* imap, maildir: patchclock's own mailbox: only mail
			 holding commands to it is stored */
	int line; /* the section header's line */
};

/*
 * A [project "NAME"]: another project whose patches share the lists
 * (ndctl on nvdimm@), recognised by a word of the subject tag
 * ("[ndctl PATCH]", "[PATCH ndctl]"), optionally only on one list. Its
 * series are not the kernel tree's: no entry, no profile, no mail.
 */
struct conf_project {
	char *name; /* owned: NAME from the section header */
	char **subjects; /* owned, as is each: tag words, compared whole */
	size_t n_subjects;
	char *list_id; /* owned or NULL: only mail of this List-Id */
	char **contacts; /* owned, as is each: its own people (shown) */
	size_t n_contacts;
	int line; /* the section header's line */
};

struct conf_smtp {
	char *url; /* owned; NULL without [smtp]: smtp:// or smtps:// */
	char *from; /* owned: envelope sender (MAIL FROM) */
	char *credentials; /* owned or NULL: "user:password", mode 0600 */
	char *ca_file; /* owned or NULL */
	char *helo; /* owned or NULL: libcurl's default */
	int starttls; /* default yes; "no" only for loopback relays */
};

struct conf_policy {
	char **overrides; /* owned, as is each string; in file order */
	size_t n_overrides;
	int no_map; /* do not read the fallback profile map */
	char **bots; /* owned, as is each string */
	size_t n_bots;
	char **opt_outs; /* owned: "user@host" or "@domain" */
	size_t n_opt_outs;
};

/*
 * The injectable clock for tests. Without [clock] the daemon runs on
 * real time. With start, simulated time begins at start when the daemon
 * starts and runs speed simulated seconds per real second; with offset,
 * it is real time plus offset seconds. start/speed and offset exclude
 * each other. With step (and start), the simulated clock does not run:
 * it jumps from one event to the next (a replayed message's Date, a due
 * time, queued mail, until), so a replay gives the same result however
 * fast the machine is.
 */
struct conf_clock {
	int has_start;
	int64_t start; /* Unix time, from "YYYY-MM-DD HH:MM" UTC */
	double speed; /* > 0, default 1 */
	int has_offset;
	int64_t offset; /* seconds, may be negative */
	int has_until;
	int64_t until; /* exit 0 when the clock shows this (replays) */
	int step; /* jump from event to event; needs start */
};

/*
 * [test]: applying accepted series to the tree and boot-testing them
 * (kernel-test/run) in a child process, one at a time.
 */
struct conf_test {
	int apply; /* apply and boot accepted series; default no */
	int reply; /* report each verdict in the thread; default no */
	char *runner; /* owned or NULL: the source tree's kernel-test/run */
	char **guest_checks; /* owned, as is each: --guest-check scripts */
	size_t n_guest_checks;
	char *branch_prefix; /* owned or NULL: "patchclock/" */
};

/*
 * [report]: the dashboard (`patchclock report`), written after judging
 * passes that judged something, at most every `every` seconds of real
 * time (default 60), and once more when the daemon stops.
 */
struct conf_report {
	char *html; /* owned or NULL: no report */
	char *title; /* owned or NULL */
	/* where the site is served: the feeds' links are absolute under it
	 * (owned or NULL: relative) */
	char *base_url;
	unsigned every; /* seconds */
};

struct conf {
	char *path; /* owned: the file this came from */

	/* [general] */
	char *database; /* owned; required */
	char *pidfile; /* owned or NULL */
	char *tree; /* owned or NULL: no MAINTAINERS, default policy */
	char *from; /* owned or NULL: patchclock's own From: address */
	char *domain; /* owned or NULL: the domain of from */
	char *archive; /* owned or NULL: lore; URL pattern with one %s */
	unsigned daily_limit; /* mails per recipient per day, default 3 */
	unsigned max_age_days; /* nothing about older series; default 90 */
	/* First run over a database: waits due since then are news (0: the
	 * first run's now, so nothing about the past). */
	int64_t watching_since;
	int cc_maintainers; /* Cc maintainers on reminders; default no */
	/* the tree's branches whose commits count as applied (ref globs, or
	 * "none"); owned or NULL for the default */
	char *branches;
	char *fetch; /* owned or NULL: the tree's remote to fetch */
	unsigned fetch_every; /* seconds between fetches; default 3600 */
	char *releases; /* owned or NULL: the bundled list */
	char *holidays; /* owned or NULL */
	int digest; /* send maintainer digests, default yes */
	int replies; /* send "resend now" replies, default yes */
	/* Commands by mail (lib/store/command.h): DKIM keys from this key
	 * table instead of DNS (owned or NULL), and whether unsigned mail's
	 * commands are refused (default no) */
	char *dkim_keys;
	int require_dkim;
	/* check the DKIM of replies giving review tags (pc_attest_tags()),
	 * for profiles with review_attestation = dkim; default no */
	int attest_tags;
	/* threads that parse mail while one stores it (struct
	 * pc_ingest_loop's jobs); 0, the default, for one per core */
	unsigned jobs;
	/* how raw mail is stored (enum pc_raw_codec): 0 none, 1 zlib, 2
	 * zstd with a dictionary, the default */
	int compress;
	enum conf_log_level log_level; /* default info */

	struct conf_smtp smtp;
	struct conf_policy policy;
	struct conf_clock clock;
	struct conf_test test;
	struct conf_report report;

	struct conf_source *sources; /* owned, in file order */
	size_t n_sources;
	struct conf_project *projects; /* owned, in file order */
	size_t n_projects;
};

/*
 * Reads the INI file at path into a new struct conf (*out, caller frees
 * with conf_free()). Returns 0, or -1 with one line in errbuf:
 * "FILE:LINE: what is wrong" (or "FILE: ..." when no line applies).
 * Unknown sections and keys, bad values, keys given twice where they
 * may not repeat, and missing required keys are all errors.
 */
int conf_load(struct conf **out, const char *path, char *errbuf, size_t errlen);

/* Frees c and everything it owns; conf_free(NULL) is a no-op. */
void conf_free(struct conf *c);

#endif
