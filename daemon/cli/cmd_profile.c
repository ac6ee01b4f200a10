// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock profile: the policy a MAINTAINERS entry's subsystem profile
 * states, each field with where it came from, and what could not be read
 * (lib/profile/profile.h).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "policy.h"
#include "cli/json_out.h"
#include "log.h"
#include "maint/maintainers.h"
#include "profile/profile.h"
#include "datadir.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char profile_usage[] =
	"usage: patchclock profile [--tree DIR] [--overrides FILE]... "
	"[--no-map]\n"
	"                          [--json] ENTRY|PATH\n"
	"\n"
	"Prints the policy that a subsystem profile states: how long to wait\n"
	"before pinging, the minimum time between postings, how to remind,\n"
	"the maintainers' office hours and time zone, which review tags a\n"
	"patch needs, the last -rc for new features and to merge them,\n"
	"patches or pull requests, trusted reviewers, the test suite, the\n"
	"policies on style cleanups and off-list review, whether review tags\n"
	"by mail must be DKIM-attested, and which ISA extensions code may\n"
	"implement (RISC-V: frozen or ratified only). Each field says\n"
	"where it came from:\n"
	"  short answer   a section titled after the question whose text is\n"
	"                 the answer alone (\"Resubmit Cadence\" / \"8 business\n"
	"                 days\"), as the 2018 subsystem-profile RFC wrote them\n"
	"  prose          a sentence that states it (\"please wait up to one\n"
	"                 week before pinging\"), quoted; a section that only\n"
	"                 refers elsewhere (\"See :ref:`resend_reminders`.\")\n"
	"                 is read through the reference\n"
	"  override file  a key of an override file, with file and line\n"
	"  default        Documentation/process/submitting-patches.rst's\n"
	"                 \"a minimum of one week\", for the ping delay only\n"
	"Sections from which nothing could be read are listed with their\n"
	"text; nothing is guessed.\n"
	"\n"
	"ENTRY is the name of a MAINTAINERS entry, in any case (\"LIBNVDIMM:\n"
	"NON-VOLATILE MEMORY DEVICE SUBSYSTEM\") or the start of one entry's\n"
	"name (\"libnvdimm: non\"); its profile is the document\n"
	"its P: line names, or the one an override file attaches to it. A\n"
	"URL is never fetched: give its policy in an override file. PATH is\n"
	"a profile document (an .rst file), read on its own.\n"
	"\n"
	"Override files are INI files with one section per entry, named as\n"
	"in MAINTAINERS ([NETWORKING [GENERAL]]), and these keys, whose\n"
	"values read like short answers:\n"
	"  profile = PATH|URL        attach a profile document to the entry\n"
	"  ping_after = 8 business days\n"
	"  repost_min = 24 hours\n"
	"  reminder = private|list|none\n"
	"  office_hours = Mon-Fri 8:00am to 5:00pm Pacific Time Zone\n"
	"  review = required|not required|from R: reviewers|"
	"from trusted reviewers\n"
	"  new_features = before -rc5     (also: by -rc6, end of last -rc)\n"
	"  merge_features = by -rc6\n"
	"  submit = patches only|pull requests accepted\n"
	"  trusted_reviewers = Name <addr>, Name  (or one a line, indented)\n"
	"  test_suite = Run make check from https://github.com/pmem/ndctl\n"
	"  style_cleanups = welcome|only with other changes|not welcome\n"
	"  off_list_review = accepted|not trusted|seek internal review first\n"
	"  review_attestation = dkim|none\n"
	"  isa_extensions = ratified|any\n"
	"The fallback map (data/profiles.ini) attaches the media, netdev\n"
	"and tip profiles, which 6.1 has without a P: line, to their entries;\n"
	"it is read first, and the --overrides files after it win, field by\n"
	"field.\n"
	"\n"
	"Options:\n"
	"  --tree DIR        the kernel tree (default: $PC_KERNEL_TREE, else\n"
	"                    the current directory if it has MAINTAINERS,\n"
	"                    else the configuration's tree)\n"
	"  --overrides FILE  an override file; may be given more than once,\n"
	"                    later files win\n"
	"  --no-map          do not read the fallback map ($PATCHCLOCK_PROFILES,\n"
	"                    default: profiles.ini in the data directory,\n"
	"                    share/patchclock beside the program, or\n"
	"                    $PATCHCLOCK_DATA_DIR)\n"
	"  --json            one JSON object: the document, each field with\n"
	"                    its value, typed parts and source, the\n"
	"                    unrecognised sections and the notes (Profile in\n"
	"                    json.md, with the README)\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0 when done, 1 when the tree, the profile or an\n"
	"override file cannot be read or the entry does not exist, 64 for\n"
	"wrong arguments.\n";

struct prof {
	const char *tree; /* borrowed: argv or the environment */
	const char **ovr; /* owned array of borrowed strings */
	size_t n_ovr;
	int json, no_map;
};

static json_object *str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static const char *source_key(enum pc_prof_source s)
{
	switch (s) {
	case PC_PROF_SRC_SHORT:
		return "short-answer";
	case PC_PROF_SRC_PROSE:
		return "prose";
	case PC_PROF_SRC_OVERRIDE:
		return "override";
	case PC_PROF_SRC_DEFAULT:
		return "default";
	case PC_PROF_SRC_MAINTAINERS:
		return "maintainers";
	case PC_PROF_SRC_NONE:
		break;
	}
	return "none";
}

static json_object *json_origin(const struct pc_prof_origin *o)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "kind", str(source_key(o->kind)));
	json_object_object_add(j, "file", str(o->file));
	json_object_object_add(j, "heading", str(o->heading));
	json_object_object_add(
		j, "line", o->line ? json_object_new_int((int)o->line) : NULL);
	json_object_object_add(j, "quote", str(o->quote));
	json_object_object_add(j, "via", str(o->via));
	return j;
}

static json_object *json_duration(const struct pc_prof_duration *d)
{
	json_object *j = json_object_new_object();

	const char *unit = pc_profile_unit_name(d->unit);

	json_object_object_add(j, "count", json_object_new_int((int)d->count));
	/* a word of doc/json.md: "business-days" */
	json_object_object_add(j, "unit",
			       unit && !strcmp(unit, "business days") ?
				       str("business-days") :
				       str(unit));
	return j;
}

static void json_deadline(json_object *j, const struct pc_prof_deadline *d)
{
	static const char *const kinds[] = { NULL, "rc", "last-rc",
					     "merge-window" };

	json_object_object_add(j, "kind", str(kinds[d->kind]));
	json_object_object_add(j, "rc",
			       d->kind == PC_PROF_DL_RC ?
				       json_object_new_int((int)d->rc) :
				       NULL);
	json_object_object_add(j, "inclusive",
			       d->kind == PC_PROF_DL_RC ?
				       json_object_new_boolean(d->inclusive) :
				       NULL);
	json_object_object_add(j, "lead",
			       d->kind == PC_PROF_DL_MERGE_WINDOW ?
				       json_duration(&d->lead) :
				       NULL);
}

static json_object *json_days(unsigned days)
{
	static const char *const names[] = { "sun", "mon", "tue", "wed",
					     "thu", "fri", "sat" };
	json_object *a = json_object_new_array();
	int d;

	for (d = 1; d <= 7; d++)
		if (days & PC_PROF_DAY(d % 7))
			json_object_array_add(a, str(names[d % 7]));
	return a;
}

static json_object *json_hours(json_object *j, const struct pc_prof_hours *h,
			       int set)
{
	char hm[24];

	json_object_object_add(j, "days",
			       set && h->days ? json_days(h->days) : NULL);
	snprintf(hm, sizeof(hm), "%02d:%02d", h->start / 60, h->start % 60);
	json_object_object_add(j, "start", set ? str(hm) : NULL);
	snprintf(hm, sizeof(hm), "%02d:%02d", h->end / 60, h->end % 60);
	json_object_object_add(j, "end", set ? str(hm) : NULL);
	json_object_object_add(j, "zone",
			       set && h->zone[0] ? str(h->zone) : NULL);
	return j;
}

static json_object *json_trusted(const struct pc_policy *pol)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < pol->n_trusted; i++)
		json_object_array_add(a, json_person(pol->trusted[i].name,
						     pol->trusted[i].addr));
	return a;
}

/* A field's own keys, by kind: the cases come from the field table
 * (profile/policy.h); doc/json.md's *Field objects. */
#define JSON_DURATION(m)                      \
	json_object_object_add(j, "duration", \
			       set ? json_duration(&pol->m) : NULL)
#define JSON_DEADLINE(m) json_deadline(j, set ? &pol->m : &none)
#define JSON_HOURS(m) json_hours(j, &pol->m, set)
#define JSON_PEOPLE(m) json_object_object_add(j, "people", json_trusted(pol))
#define JSON_TEST(m) \
	json_object_object_add(j, "url", set ? str(pol->test_url) : NULL)
#define JSON_ENUM(m) (void)0
#define JSON_FIELD(f, key, label, kind, member) \
	case f:                                 \
		JSON_##kind(member);            \
		break;

/* One policy field: its value in words, the field's own keys (null when
 * the profile does not say), its source. */
static json_object *json_field(const struct pc_policy *pol,
			       enum pc_prof_field f)
{
	static const struct pc_prof_deadline none = { 0 };
	json_object *j = json_object_new_object();
	struct pc_buf b = PC_BUF_INIT;
	int set = pol->from[f].kind != PC_PROF_SRC_NONE;

	pc_profile_format(&b, pol, f);
	json_object_object_add(j, "value", set ? str(b.buf) : NULL);
	pc_buf_release(&b);
	switch (f) {
		PC_PROF_FIELDS(JSON_FIELD)
	case PC_PROF_NFIELDS:
		break;
	}
	json_object_object_add(j, "source", json_origin(&pol->from[f]));
	return j;
}

static void print_json(const struct pc_profile *p, const char *tree,
		       const char *const *users, size_t n_users)
{
	json_object *root = json_top();
	json_object *doc = json_object_new_object();
	json_object *pol = json_object_new_object();
	json_object *a;
	size_t i;
	int f;

	json_object_object_add(root, "entry", str(p->entry));
	json_object_object_add(root, "tree", str(tree));
	json_object_object_add(doc, "path", p->doc_is_url ? NULL : str(p->doc));
	json_object_object_add(doc, "url", p->doc_is_url ? str(p->doc) : NULL);
	json_object_object_add(doc, "from", json_origin(&p->doc_from));
	a = json_object_new_array();
	for (i = 0; i < n_users; i++)
		json_object_array_add(a, str(users[i]));
	json_object_object_add(doc, "entries", a);
	json_object_object_add(root, "document", doc);
	for (f = 0; f < PC_PROF_NFIELDS; f++)
		json_object_object_add(
			pol, pc_profile_field_key((enum pc_prof_field)f),
			json_field(&p->policy, (enum pc_prof_field)f));
	json_object_object_add(root, "policy", pol);
	a = json_object_new_array();
	for (i = 0; i < p->n_unread; i++) {
		const struct pc_prof_unread *u = &p->unread[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "file", str(u->file));
		json_object_object_add(o, "line",
				       json_object_new_int((int)u->line));
		json_object_object_add(o, "heading", str(u->heading));
		json_object_object_add(o, "reason", str(u->why));
		json_object_object_add(o, "text", str(u->text));
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "unrecognised", a);
	a = json_object_new_array();
	for (i = 0; i < p->n_notes; i++)
		json_object_array_add(a, str(p->notes[i]));
	json_object_object_add(root, "notes", a);
	json_print(root);
}

/* "file:line, \"heading\"" for an origin. */
static void where(struct pc_buf *b, const struct pc_prof_origin *o)
{
	pc_buf_addstr(b, o->file ? o->file : "?");
	if (o->line)
		pc_buf_addf(b, ":%u", o->line);
	if (o->heading)
		pc_buf_addf(b,
			    o->kind == PC_PROF_SRC_OVERRIDE ? " [%s]" :
							      " \"%s\"",
			    o->heading);
}

/* Prints s wrapped at about 72 columns, each line after indent. */
static void wrapped(const char *indent, const char *s)
{
	size_t col = 0, ind = strlen(indent);

	fputs(indent, stdout);
	while (*s) {
		size_t w = strcspn(s, " ");

		if (col && col + 1 + w + ind > 76) {
			printf("\n%s", indent);
			col = 0;
		} else if (col) {
			putchar(' ');
			col++;
		}
		fwrite(s, 1, w, stdout);
		col += w;
		s += w;
		while (*s == ' ')
			s++;
	}
	putchar('\n');
}

static void print_text(const struct pc_profile *p, const char *const *users,
		       size_t n_users)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;
	int f;

	if (p->entry)
		printf("entry:    %s\n", p->entry);
	if (p->doc) {
		printf("profile:  %s%s\n", p->doc,
		       p->doc_is_url ? "  (a URL: not fetched)" : "");
		if (p->doc_from.kind != PC_PROF_SRC_NONE) {
			where(&b, &p->doc_from);
			printf("          from %s: %s\n", b.buf,
			       p->doc_from.quote ? p->doc_from.quote : "");
			pc_buf_reset(&b);
		}
	} else {
		printf("profile:  none\n");
	}
	for (i = 0; i < n_users; i++)
		printf("%s%s\n", i ? "          " : "used by:  ", users[i]);
	putchar('\n');
	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		const struct pc_prof_origin *o = &p->policy.from[f];

		pc_buf_reset(&b);
		pc_profile_format(&b, &p->policy, (enum pc_prof_field)f);
		printf("%-27s %s\n",
		       pc_profile_field_label((enum pc_prof_field)f),
		       o->kind == PC_PROF_SRC_NONE ? "(not stated)" : b.buf);
		if (o->kind == PC_PROF_SRC_NONE)
			continue;
		pc_buf_reset(&b);
		pc_buf_addf(&b, "%s, ", pc_profile_source_name(o->kind));
		where(&b, o);
		if (o->quote)
			pc_buf_addf(&b, ": \"%s\"", o->quote);
		if (o->via)
			pc_buf_addf(&b, " (reached from %s)", o->via);
		wrapped("    ", b.buf);
	}
	if (p->n_notes) {
		printf("\nnotes:\n");
		for (i = 0; i < p->n_notes; i++)
			wrapped("  ", p->notes[i]);
	}
	if (p->n_unread) {
		printf("\nunrecognised sections (kept as text):\n");
		for (i = 0; i < p->n_unread; i++) {
			const struct pc_prof_unread *u = &p->unread[i];
			char *flat = xstrdup(u->text);
			size_t k;

			for (k = 0; flat[k]; k++)
				if (flat[k] == '\n' || flat[k] == '\t')
					flat[k] = ' ';
			if (k > 160) {
				k = 157;
				while (k &&
				       ((unsigned char)flat[k] & 0xc0) == 0x80)
					k--;
				flat[k] = '\0';
			}
			printf("  %s:%u \"%s\"\n", u->file, u->line,
			       u->heading ? u->heading : "");
			wrapped("      ", u->why);
			wrapped("      | ", flat);
			free(flat);
		}
	}
	pc_buf_release(&b);
}

/* Names of entries close to name: all its words in theirs, else its
 * first word. */
static void suggest(const struct pc_maint *m, const char *name)
{
	char *words = xstrdup(name), *w[16];
	size_t nw = 0, i, k, shown = 0, pass;
	char *p = words;

	while (*p && nw < PC_ARRAY_SIZE(w)) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		w[nw++] = p;
		while (*p && *p != ' ')
			p++;
	}
	for (pass = 0; pass < 2 && !shown && nw; pass++) {
		for (i = 0; i < pc_maint_count(m) && shown < 8; i++) {
			const char *e = pc_maint_entry_at(m, i)->name;
			size_t need = pass ? 1 : nw;

			for (k = 0; k < need; k++)
				if (!pc_memimem(e, strlen(e), w[k]))
					break;
			if (k < need)
				continue;
			if (!shown)
				fprintf(stderr,
					"entries with similar names:\n");
			fprintf(stderr, "  %s\n", e);
			shown++;
		}
	}
	free(words);
}

static int load_overrides(struct pc_overrides *ov, const struct prof *pr)
{
	struct pc_err err = { 0 };
	const char *map = getenv("PATCHCLOCK_PROFILES");
	char *dflt = NULL;
	struct stat st;
	size_t i;
	int rc = CLI_OK;

	if (!pr->no_map && !map) {
		dflt = pc_data_path("profiles.ini");
		if (stat(dflt, &st) == 0)
			map = dflt;
		else
			log_debug("profile: no fallback map at %s", dflt);
	}
	if (!pr->no_map && map && *map &&
	    pc_overrides_read(ov, map, &err) < 0) {
		log_warnx("profile: fallback map: %s (fix the file, or give "
			  "--no-map)",
			  err.msg);
		rc = CLI_FAIL;
		goto out;
	}
	for (i = 0; i < pr->n_ovr; i++)
		if (pc_overrides_read(ov, pr->ovr[i], &err) < 0) {
			log_warnx("profile: %s", err.msg);
			rc = CLI_FAIL;
			goto out;
		}
out:
	free(dflt);
	return rc;
}

/* The entries whose P: names doc (tree-relative). */
static size_t users_of(const char ***out, const struct pc_maint *m,
		       const char *doc)
{
	size_t i, k, n = 0;

	*out = NULL;
	for (i = 0; m && doc && i < pc_maint_count(m); i++) {
		const struct pc_maint_entry *e = pc_maint_entry_at(m, i);

		for (k = 0; k < e->n_profiles; k++)
			if (!strcmp(e->profiles[k], doc)) {
				*out = xreallocarray(*out, n + 1,
						     sizeof(**out));
				(*out)[n++] = e->name;
				break;
			}
	}
	return n;
}

/* Whether a document given by path is a profile at all: some field came
 * from it, or it has sections patchclock could not read. */
static int reads_as_profile(const struct pc_profile *p)
{
	size_t i;

	if (p->n_unread)
		return 1;
	for (i = 0; i < PC_PROF_NFIELDS; i++)
		if (p->policy.from[i].kind == PC_PROF_SRC_SHORT ||
		    p->policy.from[i].kind == PC_PROF_SRC_PROSE)
			return 1;
	return 0;
}

static int run(const struct prof *pr, const char *arg)
{
	struct pc_profile_opts opts = PC_PROFILE_OPTS_INIT;
	struct pc_overrides *ov = pc_overrides_new();
	struct pc_profile *p = NULL;
	struct pc_maint *m = NULL;
	struct pc_err err = { 0 };
	const char **users = NULL;
	size_t n_users = 0;
	struct stat st;
	char *mpath = NULL;
	int rc;

	opts.tree_dir = cli_tree_dir(pr->tree);
	if ((rc = load_overrides(ov, pr)) != CLI_OK)
		goto out;
	if (opts.tree_dir) {
		mpath = xasprintf("%s/MAINTAINERS", opts.tree_dir);
		if (stat(opts.tree_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			log_warnx("profile: the tree '%s' is not a directory "
				  "(check --tree or $PC_KERNEL_TREE)",
				  opts.tree_dir);
			rc = CLI_FAIL;
			goto out;
		}
	}
	if (stat(arg, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		/* A FIFO or a device: never opened (a FIFO would wait). */
		log_warnx("profile: '%s' is not a regular file (a profile is "
			  "an .rst file; an entry is named by its MAINTAINERS "
			  "title)",
			  arg);
		rc = CLI_FAIL;
		goto out;
	}
	if (stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
		/* A profile document. */
		if (pc_profile_read(&p, arg, &opts, &err) < 0) {
			log_warnx("profile: %s", err.msg);
			rc = CLI_FAIL;
			goto out;
		}
		if (!reads_as_profile(p)) {
			log_warnx(
				"profile: '%s' does not read as a subsystem "
				"profile: it has no reST section and states "
				"no policy (a profile is a document like "
				"Documentation/process/maintainer-netdev.rst; "
				"an entry is named by its MAINTAINERS title)",
				arg);
			rc = CLI_FAIL;
			goto out;
		}
		if (mpath && stat(mpath, &st) == 0 &&
		    pc_maint_load(&m, opts.tree_dir, &err) == 0)
			n_users = users_of(&users, m, p->doc);
	} else {
		const struct pc_maint_entry *e;
		unsigned *lines;
		size_t i;

		if (!opts.tree_dir) {
			log_warnx(
				"profile: '%s' is not a file, and there is no "
				"kernel tree to look it up in MAINTAINERS: "
				"give --tree DIR, set $PC_KERNEL_TREE, or run "
				"it at the top of a kernel tree",
				arg);
			rc = CLI_USAGE;
			goto out;
		}
		if (pc_maint_load(&m, opts.tree_dir, &err) < 0) {
			log_warnx("profile: %s (is '%s' a kernel tree?)",
				  err.msg, opts.tree_dir);
			rc = CLI_FAIL;
			goto out;
		}
		if (!(e = pc_maint_find_prefix(m, arg, NULL))) {
			char *in_tree = xasprintf("%s/%s", opts.tree_dir, arg);
			int is_file = stat(in_tree, &st) == 0 &&
				      S_ISREG(st.st_mode);

			free(in_tree);
			if (is_file) {
				/* A document, relative to the tree. */
				if (pc_profile_read(&p, arg, &opts, &err) < 0) {
					log_warnx("profile: %s", err.msg);
					rc = CLI_FAIL;
					goto out;
				}
				n_users = users_of(&users, m, p->doc);
				goto print;
			}
			log_warnx("profile: no MAINTAINERS entry is named '%s' "
				  "and no file has that path; give an entry's "
				  "name as MAINTAINERS writes it (any case) or "
				  "a profile document's path",
				  arg);
			suggest(m, arg);
			rc = CLI_FAIL;
			goto out;
		}
		lines = xcalloc(e->n_profiles + 1, sizeof(*lines));
		for (i = 0; i < e->n_profiles && i < e->n_profile_lines; i++)
			lines[i] = e->profile_lines[i].line;
		rc = pc_profile_for_entry(&p, e->name, e->profiles, lines,
					  e->n_profiles, ov, &opts, &err);
		free(lines);
		if (rc < 0) {
			log_warnx("profile: %s: %s", e->name, err.msg);
			rc = CLI_FAIL;
			goto out;
		}
		if (!p->doc_is_url)
			n_users = users_of(&users, m, p->doc);
	}
print:
	if (pr->json)
		print_json(p, opts.tree_dir, users, n_users);
	else
		print_text(p, users, n_users);
	rc = CLI_OK;
out:
	free(users);
	free(mpath);
	pc_profile_free(p);
	pc_maint_free(m);
	pc_overrides_free(ov);
	return rc;
}

int cmd_profile(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "overrides", required_argument, NULL, 'o' },
		{ "no-map", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct prof pr = { 0 };
	int c, rc;

	(void)ctx; /* reads profiles, not the database */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			pr.tree = optarg;
			break;
		case 'o':
			pr.ovr = xreallocarray(pr.ovr, pr.n_ovr + 1,
					       sizeof(*pr.ovr));
			pr.ovr[pr.n_ovr++] = optarg;
			break;
		case 'n':
			pr.no_map = 1;
			break;
		case 'j':
			pr.json = 1;
			break;
		case 'h':
			free(pr.ovr);
			return cli_usage(stdout, profile_usage, CLI_OK);
		default:
			free(pr.ovr);
			return cli_usage(stderr, profile_usage, CLI_USAGE);
		}
	}
	if (optind + 1 != argc) {
		log_warnx("profile: give one ENTRY name or profile PATH");
		free(pr.ovr);
		return cli_usage(stderr, profile_usage, CLI_USAGE);
	}
	rc = run(&pr, argv[optind]);
	free(pr.ovr);
	return rc;
}
