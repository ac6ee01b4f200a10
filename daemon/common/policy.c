// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the clock needs from the outside, for the commands that judge
 * series (status, and later digest): the tree's MAINTAINERS, the profile
 * overrides (the fallback map, then --overrides files), the release
 * dates (the releases file, then announcements in the database), and the
 * policy set built from them. Series are mapped to entries first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cliconf.h"
#include "policy.h"
#include "conf.h"
#include "datadir.h"
#include "apply/branches.h"
#include "apply/tags.h"
#include "log.h"
#include "mail/dkim.h"
#include "store/command.h"
#include "notify/plan.h"
#include "store/mapping.h"
#include "store/status.h"
#include "store/treecommits.h"
#include "util/buf.h"
#include "util/hash.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A readable file named by env, else the data directory's name, else
 * NULL. */
static char *default_file(const char *env, const char *name)
{
	const char *v = getenv(env);
	char *p;
	struct stat st;

	if (v)
		return *v ? xstrdup(v) : NULL;
	p = pc_data_path(name);
	if (stat(p, &st) == 0)
		return p;
	free(p);
	return NULL;
}

/* Adds a file's bytes to the configuration identity. */
static void mix_file(struct pc_buf *id, const char *path)
{
	FILE *f = fopen(path, "rb");
	struct pc_buf b = PC_BUF_INIT;
	unsigned char h[PC_SHA256_LEN];
	char buf[4096];
	size_t n;

	pc_buf_addf(id, "%s:", path);
	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		pc_buf_add(&b, buf, n);
	fclose(f);
	pc_sha256(h, b.buf, b.len);
	for (n = 0; n < 8; n++)
		pc_buf_addf(id, "%02x", h[n]);
	pc_buf_addch(id, ';');
	pc_buf_release(&b);
}

/* Reads "NAME YYYY-MM-DD" lines into the cycle as configuration. */
static int read_releases(struct pc_cycle *cy, const char *path)
{
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_bizclock *pacific = NULL;
	struct pc_err err = { 0 };
	char line[256];
	unsigned lineno = 0;
	FILE *f;
	int rc = 0;

	if (!(f = fopen(path, "r"))) {
		log_warnx("releases: cannot open '%s': %s", path,
			  strerror(errno));
		return -1;
	}
	h.zone = "America/Los_Angeles";
	if (pc_bizclock_new(&pacific, &h, &err) < 0) {
		log_warnx("releases: %s", err.msg);
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[64], date[32];
		struct pc_biz_date d;

		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (sscanf(line, "%63s %31s", name, date) != 2 ||
		    pc_biz_date_parse(&d, date, &err) < 0 ||
		    pc_cycle_add_name(cy, PC_CYCLE_SRC_CONFIG, name,
				      pc_bizclock_to_utc(pacific, &d,
							 14 * 3600),
				      &err) < 0) {
			log_warnx("releases: %s:%u: expected 'vX.Y[-rcN] "
				  "YYYY-MM-DD'%s%s",
				  path, lineno, err.msg[0] ? ": " : "",
				  err.msg);
			rc = -1;
			break;
		}
	}
	fclose(f);
	pc_bizclock_free(pacific);
	return rc;
}

struct tag_acc {
	struct pc_cycle *cycle;
	int added;
};

/* A tag of the tree: a release or -rc name joins the timeline. */
static int on_tag(const char *name, int64_t when, void *arg)
{
	struct tag_acc *acc = arg;

	if (pc_cycle_add_name(acc->cycle, PC_CYCLE_SRC_TAG, name, when, NULL) ==
	    1)
		acc->added++;
	return 0;
}

/* Reads "YYYY-MM-DD" lines (# comments) of a holidays file. */
static int read_holidays(struct cli_policy *cp, const char *path)
{
	struct pc_biz_date d;
	struct pc_err err = { 0 };
	char line[128];
	unsigned lineno = 0;
	size_t alloc = 0;
	FILE *f;

	if (!(f = fopen(path, "r"))) {
		log_warnx("holidays: cannot open '%s': %s", path,
			  strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char date[32];

		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (sscanf(line, "%31s", date) != 1 ||
		    pc_biz_date_parse(&d, date, &err) < 0) {
			log_warnx("holidays: %s:%u: expected a date "
				  "YYYY-MM-DD%s%s",
				  path, lineno, err.msg[0] ? ": " : "",
				  err.msg);
			fclose(f);
			return -1;
		}
		PC_ALLOC_GROW(cp->holidays, cp->n_holidays + 1, alloc);
		cp->holidays[cp->n_holidays++] = xstrdup(date);
	}
	fclose(f);
	return 0;
}

const char *cli_tree_dir(const char *opt)
{
	const char *dir = cli_tree_dir_given(opt);
	const struct conf *c;

	if (dir)
		return dir;
	c = cli_conf();
	return c ? c->tree : NULL;
}

void cli_policy_args_init(struct cli_policy_args *pa, int argc)
{
	memset(pa, 0, sizeof(*pa));
	pa->ovr_buf = xcalloc((size_t)argc + 1, sizeof(*pa->ovr_buf));
	pa->bot_buf = xcalloc((size_t)argc + 1, sizeof(*pa->bot_buf));
	pa->overrides = pa->ovr_buf;
	pa->bots = pa->bot_buf;
}

int cli_policy_option(struct cli_policy_args *pa, int c, const char *arg)
{
	switch (c) {
	case 't':
		pa->tree = arg;
		return 1;
	case 'o':
		pa->ovr_buf[pa->n_overrides++] = arg;
		return 1;
	case 'M':
		pa->no_map = 1;
		return 1;
	case 'r':
		pa->releases = arg;
		return 1;
	case 'H':
		pa->holidays = arg;
		return 1;
	case 'b':
		pa->bot_buf[pa->n_bots++] = arg;
		return 1;
	case 'B':
		pa->branches = arg;
		return 1;
	case CLI_OPT_DKIM_KEYS:
		pa->dkim_keys = arg;
		return 1;
	case CLI_OPT_REQUIRE_DKIM:
		pa->require_dkim = 1;
		return 1;
	case CLI_OPT_ATTEST_TAGS:
		pa->attest_tags = 1;
		return 1;
	default:
		return 0;
	}
}

void cli_policy_args_done(struct cli_policy_args *pa)
{
	const struct conf *c = cli_conf();
	size_t i;

	pa->tree = cli_tree_dir(pa->tree);
	if (!c)
		return;
	/* What the command line did not say, the configuration does. */
	if (!pa->n_overrides) {
		pa->overrides = (const char *const *)c->policy.overrides;
		pa->n_overrides = c->policy.n_overrides;
	}
	pa->no_map = pa->no_map || c->policy.no_map;
	if (!pa->releases)
		pa->releases = c->releases;
	if (!pa->holidays)
		pa->holidays = c->holidays;
	if (!pa->n_bots) {
		pa->bots = (const char *const *)c->policy.bots;
		pa->n_bots = c->policy.n_bots;
	}
	if (!pa->branches)
		pa->branches = c->branches;
	if (!pa->dkim_keys)
		pa->dkim_keys = c->dkim_keys;
	pa->require_dkim = pa->require_dkim || c->require_dkim;
	pa->attest_tags = pa->attest_tags || c->attest_tags;
	if (!pa->n_projects && c->n_projects) {
		pa->proj_buf = xcalloc(c->n_projects, sizeof(*pa->proj_buf));
		for (i = 0; i < c->n_projects; i++) {
			pa->proj_buf[i].name = c->projects[i].name;
			pa->proj_buf[i].words =
				(const char *const *)c->projects[i].subjects;
			pa->proj_buf[i].nwords = c->projects[i].n_subjects;
			pa->proj_buf[i].list_id = c->projects[i].list_id;
		}
		pa->projects = pa->proj_buf;
		pa->n_projects = c->n_projects;
	}
}

void cli_policy_args_release(struct cli_policy_args *pa)
{
	free(pa->ovr_buf);
	free(pa->bot_buf);
	free(pa->proj_buf);
	memset(pa, 0, sizeof(*pa));
}

/* Splits the branch globs ("none": none wanted); 1 when some are. */
static int branches_wanted(struct cli_policy *cp, const char *spec)
{
	static const char *const defaults[] = { PC_BRANCHES_DEFAULT };
	const char *p = spec;
	size_t i;

	if (!spec) {
		for (i = 0; i < PC_ARRAY_SIZE(defaults); i++) {
			cp->branch_globs = xreallocarray(
				cp->branch_globs, cp->n_branch_globs + 1,
				sizeof(*cp->branch_globs));
			cp->branch_globs[cp->n_branch_globs++] =
				xstrdup(defaults[i]);
		}
		return 1;
	}
	if (!strcmp(spec, "none") || !strcmp(spec, "no"))
		return 0;
	while (*p) {
		size_t n;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		n = strcspn(p, " \t,");
		if (n) {
			cp->branch_globs = xreallocarray(
				cp->branch_globs, cp->n_branch_globs + 1,
				sizeof(*cp->branch_globs));
			cp->branch_globs[cp->n_branch_globs++] = xmemdupz(p, n);
		}
		p += n;
	}
	return cp->n_branch_globs > 0;
}

/* How far back the tree's history is read on a first pass: the series
 * that can still get mail (90 days by default) and a margin. */
/* How long a reader waits for the write lock before it shows the stored
 * verdicts instead. */
#define STALE_WAIT_MS 2000

#define BRANCH_HISTORY (150 * 86400LL)
/* A bound on one pass, for a tree with a deep history. */
#define BRANCH_MAX_COMMITS 200000

static int on_branch_commit(const char *patch_id, const char *commit,
			    int64_t committed_at, void *arg)
{
	struct pc_store *st = arg;
	struct pc_err err = { 0 };

	if (pc_tree_commit_add(st, patch_id, commit, committed_at, &err) < 0) {
		log_warnx("%s", err.msg);
		return -1;
	}
	return 0;
}

/* Whether two lists of tips hold the same refs at the same commits. */
static int same_tips(const struct pc_tree_tip *a, size_t na,
		     const struct pc_tree_tip *b, size_t nb)
{
	size_t i, j;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++)
			if (!strcmp(a[i].ref, b[j].ref))
				break;
		if (j == nb || strcmp(a[i].oid, b[j].oid))
			return 0;
	}
	return 1;
}

/*
 * Reads the commits new on the tree's branches since the last pass
 * (inside the caller's transaction): a patch whose patch-id is there was
 * applied. A tree that cannot be read is logged and skipped.
 */
static int read_tree_branches(struct cli_policy *cp, struct pc_store *st,
			      int64_t now)
{
	struct pc_branch_walk w = { 0 };
	struct pc_tree_tip *seen = NULL, *tips = NULL;
	size_t nseen = 0, ntips = 0;
	struct pc_err err = { 0 };
	int rc;

	if (pc_tree_tips_get(st, cp->tree, &seen, &nseen, &err) < 0) {
		log_warnx("%s", err.msg);
		return -1;
	}
	w.globs = (const char *const *)cp->branch_globs;
	w.nglobs = cp->n_branch_globs;
	w.since = now - BRANCH_HISTORY;
	w.seen = seen;
	w.nseen = nseen;
	w.max_commits = BRANCH_MAX_COMMITS;
	rc = pc_branch_commits(cp->tree, &w, on_branch_commit, st, &tips,
			       &ntips, &err);
	/* Most passes find the branches as they were: write nothing. */
	if (rc == 0 && !same_tips(seen, nseen, tips, ntips) &&
	    pc_tree_tips_set(st, cp->tree, tips, ntips, now, &err) < 0)
		rc = -1;
	if (rc && err.code)
		log_warnx("reading the branches of %s: %s", cp->tree, err.msg);
	pc_tree_tips_free(seen, nseen);
	pc_tree_tips_free(tips, ntips);
	return rc ? -1 : 0;
}

int cli_policy_open(struct cli_policy *cp, struct pc_store *st,
		    const struct cli_policy_args *a, int quiet)
{
	struct pc_policyset_opts o = { 0 };
	struct pc_err err = { 0 };
	struct pc_buf id = PC_BUF_INIT;
	char *map = NULL, *releases = NULL;
	int added = 0;
	size_t i;

	memset(cp, 0, sizeof(*cp));
	cp->overrides = pc_overrides_new();
	cp->require_dkim = a->require_dkim;
	cp->attest_tags = a->attest_tags;
	if (pc_dkim_new(&cp->dkim, a->dkim_keys, &err) < 0) {
		log_warnx("%s (fix dkim_keys in the configuration)", err.msg);
		goto fail;
	}
	if (pc_cycle_new(&cp->cycle, NULL, &err) < 0)
		goto fail_err;
	if (a->tree) {
		if (pc_maint_load(&cp->maint, a->tree, &err) < 0) {
			log_warnx("%s (is '%s' a kernel tree?)", err.msg,
				  a->tree);
			goto fail;
		}
	} else if (!quiet) {
		log_warnx(
			"no kernel tree: series are not mapped to "
			"MAINTAINERS entries and every series gets the "
			"default policy (give --tree DIR or set "
			"PC_KERNEL_TREE; kernel-test/prepare-tree makes one)");
	}
	if (!a->no_map &&
	    (map = default_file("PATCHCLOCK_PROFILES", "profiles.ini"))) {
		if (pc_overrides_read(cp->overrides, map, &err) < 0) {
			log_warnx("%s (fix the file, or give --no-map)",
				  err.msg);
			goto fail;
		}
		mix_file(&id, map);
	}
	for (i = 0; i < a->n_overrides; i++) {
		if (pc_overrides_read(cp->overrides, a->overrides[i], &err) < 0)
			goto fail_err;
		mix_file(&id, a->overrides[i]);
	}
	releases = a->releases ? xstrdup(a->releases) :
				 default_file("PATCHCLOCK_RELEASES",
					      "kernel-releases");
	if (releases) {
		if (read_releases(cp->cycle, releases) < 0)
			goto fail;
		mix_file(&id, releases);
	}
	if (a->tree) {
		struct tag_acc acc = { cp->cycle, 0 };

		if (pc_tree_tags(a->tree, on_tag, &acc, &err) < 0)
			log_debug("releases: no tags: %s", err.msg);
		pc_buf_addf(&id, "tags=%d;", acc.added);
		err.code = 0;
	}
	if (pc_status_announcements(st, cp->cycle, &added, &err) < 0)
		goto fail_err;
	pc_buf_addf(&id, "mail=%d", added);
	if (a->holidays) {
		if (read_holidays(cp, a->holidays) < 0)
			goto fail;
		mix_file(&id, a->holidays);
	}
	if (a->n_bots) {
		cp->bots = xcalloc(a->n_bots, sizeof(*cp->bots));
		for (i = 0; i < a->n_bots; i++) {
			char *b = xstrdup(a->bots[i]);

			for (char *p = b; *p; p++)
				*p = (char)pc_tolower((unsigned char)*p);
			cp->bots[cp->n_bots++] = b;
			pc_buf_addf(&id, "bot=%s;", b);
		}
	}
	for (i = 0; i < a->n_projects; i++) {
		const struct pc_sla_project *pr = &a->projects[i];

		pc_buf_addf(&id, "project=%s@%s:", pr->name,
			    pr->list_id ? pr->list_id : "");
		for (size_t w = 0; w < pr->nwords; w++)
			pc_buf_addf(&id, "%s,", pr->words[w]);
	}
	cp->tree = a->tree;
	if (a->tree && branches_wanted(cp, a->branches))
		cp->read_branches = pc_branch_is_repo(a->tree);
	cp->config_id = pc_buf_detach(&id, NULL);
	o.maint = cp->maint;
	o.tree_dir = a->tree;
	o.overrides = cp->overrides;
	o.cycle = cp->cycle;
	o.config_id = cp->config_id;
	o.holidays = (const char *const *)cp->holidays;
	o.nholidays = cp->n_holidays;
	o.bots = (const char *const *)cp->bots;
	o.nbots = cp->n_bots;
	o.projects = a->projects;
	o.nprojects = a->n_projects;
	cp->set = pc_policyset_new(&o);
	free(map);
	free(releases);
	return 0;
fail_err:
	log_warnx("%s", err.msg);
fail:
	pc_buf_release(&id);
	free(map);
	free(releases);
	cli_policy_close(cp);
	return -1;
}

void cli_policy_close(struct cli_policy *cp)
{
	pc_dkim_free(cp->dkim);
	pc_policyset_free(cp->set);
	pc_overrides_free(cp->overrides);
	pc_cycle_free(cp->cycle);
	pc_maint_free(cp->maint);
	free(cp->config_id);
	for (size_t i = 0; i < cp->n_holidays; i++)
		free(cp->holidays[i]);
	free(cp->holidays);
	for (size_t i = 0; i < cp->n_bots; i++)
		free(cp->bots[i]);
	free(cp->bots);
	for (size_t i = 0; i < cp->n_branch_globs; i++)
		free(cp->branch_globs[i]);
	free(cp->branch_globs);
	memset(cp, 0, sizeof(*cp));
}

int cli_policy_pick(struct pc_status_policy *out, const char *const *entries,
		    const int *files, size_t n, void *arg, struct pc_err *err)
{
	struct cli_policy *cp = arg;

	out->ctx = pc_policyset_pick(cp->set, entries, files, n, &out->entry,
				     &out->profile, err);
	return out->ctx ? 0 : (err && err->code ? err->code : PC_EIO);
}

/* A one-line progress bar on stderr while many series are judged. */
static void show_progress(uint64_t done, uint64_t total, void *arg)
{
	(void)arg;
	if (total < 2000)
		return;
	fprintf(stderr, "\rjudging series: %llu of %llu (%d%%)  ",
		(unsigned long long)done, (unsigned long long)total,
		(int)(100 * done / total));
	fflush(stderr);
}

static int want_progress(void)
{
	return isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
}

static void end_progress(const struct pc_status_stats *stats)
{
	if (want_progress() && stats->judged >= 2000)
		fprintf(stderr, "\rjudging series: %llu done%20s\n",
			(unsigned long long)stats->judged, "");
}

/*
 * One transaction: map series to entries, judge them at now and, with po,
 * queue the mail the verdicts call for. With dry_run it is rolled back
 * after show() has printed what it holds.
 */
/* For the log: what was done with each command given by mail. */
static void log_command(const char *msgid, const char *from, const char *text,
			const char *outcome, const char *reason, void *arg)
{
	(void)arg;
	log_info("command 'patchclock: %s' from %s in <%s>: %s (%s)", text,
		 from, msgid, outcome, reason);
}

/* The commands that arrived since the last pass (lib/store/command.h). */
static int read_commands(struct cli_policy *cp, struct pc_store *st,
			 int64_t now, struct pc_command_stats *cs,
			 struct pc_err *err)
{
	struct pc_command_options o = { 0 };
	int rc;

	o.dkim = cp->dkim;
	o.require_dkim = cp->require_dkim;
	o.dkim_now = (int64_t)time(NULL);
	o.decided = log_command;
	if ((rc = pc_commands_process(st, &o, now, cs, err)) < 0)
		return rc;
	/* Review tags by mail posted within the planner's age limit: the
	 * older ones decide no mail. */
	return cp->attest_tags ?
		       pc_attest_tags(st, &o, now, PC_PLAN_MAX_AGE, NULL, err) :
		       0;
}

/* How judge_and_plan() judges: all it must (0), or */
enum {
	/* nothing yet: the listing show() makes judges each series as it
	 * reaches it (pc_status_options.lazy) */
	JUDGE_LAZY = 1,
	/* only what the planner may mail about: posted within its age
	 * limit; the older series wait for the daemon or a listing */
	JUDGE_MAILABLE = 2,
};
/* With JUDGE_MAILABLE, how many older series a pass judges still (0.3
 * to 2 s at a million generated messages, whose old series have the
 * longest version chains): an imported archive's backlog shrinks with
 * every digest, and goes at once in the daemon's first pass. */
#define JUDGE_OLD_PER_PASS 500u

static int judge_and_plan(struct cli_policy *cp, struct pc_store *st,
			  int64_t now, int full, unsigned how,
			  const struct pc_plan_options *po,
			  struct pc_status_stats *stats,
			  struct pc_plan_stats *ps, int dry_run,
			  int (*show)(struct pc_store *st, void *arg),
			  void *arg, int64_t *stale)
{
	struct pc_status_options so = { 0 };
	struct pc_command_stats cs = { 0 };
	struct pc_map_stats ms;
	struct pc_err err = { 0 };
	int rc;

	if (stale) {
		/* A reader: when a writer (a bulk ingest) holds the database,
		 * show the last pass's verdicts rather than wait or fail. */
		*stale = -1;
		rc = pc_store_try_begin(st, STALE_WAIT_MS, &err);
		if (rc == PC_EBUSY) {
			memset(stats, 0, sizeof(*stats));
			*stale = 0;
			if (pc_status_last_judged(st, stale, &err) < 0)
				goto fail;
			return 0;
		}
	} else {
		rc = pc_store_begin(st, &err);
	}
	if (rc < 0)
		goto fail;
	if (cp->read_branches && read_tree_branches(cp, st, now) < 0) {
		pc_store_rollback(st);
		return -1;
	}
	/* MAINTAINERS is "loaded" at the judging's now: a replay's
	 * simulated time, a listing's --now. */
	if (cp->maint &&
	    pc_map_series(st, cp->maint, cp->tree, now, &ms, &err) < 0)
		goto fail;
	so.policy = cli_policy_pick;
	so.policy_arg = cp;
	so.policy_id = pc_policyset_id(cp->set);
	so.full = full;
	so.lazy = !!(how & JUDGE_LAZY);
	if ((how & JUDGE_MAILABLE) && po) {
		so.min_posted =
			now - (po->max_age ? po->max_age : PC_PLAN_MAX_AGE);
		so.max_old = JUDGE_OLD_PER_PASS;
	}
	if (want_progress() && !so.lazy)
		so.progress = show_progress;
	if (read_commands(cp, st, now, &cs, &err) < 0 ||
	    pc_status_refresh(st, &so, now, stats, &err) < 0 ||
	    (po && pc_plan_actions(st, cp->set, po, now, ps, &err) < 0))
		goto fail;
	/* Opt-outs by command count with the planner's own. */
	if (ps)
		ps->opt_outs += cs.opt_outs;
	end_progress(stats);
	if (show && show(st, arg) < 0) {
		pc_store_rollback(st);
		return -1;
	}
	/* After show(): a lazy listing judges as it goes. */
	if (stats->no_cycle && !cp->warned_no_cycle) {
		/* Once per policy: each pass would say it again. */
		log_warnx("releases: %llu series were posted before the first "
			  "release or -rc the calendar knows: their cycle "
			  "deadlines are not judged (update the releases "
			  "file, or give a tree with tags)",
			  (unsigned long long)stats->no_cycle);
		cp->warned_no_cycle = 1;
	}
	if (dry_run) {
		pc_store_rollback(st);
		return 0;
	}
	if (pc_store_commit(st, &err) < 0)
		goto fail;
	return 0;
fail:
	log_warnx("%s", err.msg);
	pc_store_rollback(st);
	return -1;
}

int cli_policy_refresh(struct cli_policy *cp, struct pc_store *st, int64_t now,
		       int full, struct pc_status_stats *stats)
{
	return judge_and_plan(cp, st, now, full, 0, NULL, stats, NULL, 0, NULL,
			      NULL, NULL);
}

int cli_policy_show(struct cli_policy *cp, struct pc_store *st, int64_t now,
		    int full, struct pc_status_stats *stats,
		    int (*show)(struct pc_store *st, void *arg), void *arg,
		    int64_t *stale)
{
	return judge_and_plan(cp, st, now, full, 0, NULL, stats, NULL, 1, show,
			      arg, stale);
}

int cli_policy_list(struct cli_policy *cp, struct pc_store *st, int64_t now,
		    int full, struct pc_status_stats *stats,
		    int (*show)(struct pc_store *st, void *arg), void *arg,
		    int64_t *stale)
{
	return judge_and_plan(cp, st, now, full, JUDGE_LAZY, NULL, stats, NULL,
			      1, show, arg, stale);
}

int cli_policy_plan(struct cli_policy *cp, struct pc_store *st, int64_t now,
		    const struct pc_plan_options *po, int mailable_only,
		    struct pc_status_stats *stats, struct pc_plan_stats *ps,
		    int dry_run, int (*show)(struct pc_store *st, void *arg),
		    void *arg)
{
	return judge_and_plan(cp, st, now, 0,
			      mailable_only ? JUDGE_MAILABLE : 0, po, stats, ps,
			      dry_run, show, arg, NULL);
}
