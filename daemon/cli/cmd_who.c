// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * patchclock who: the maintainers and lists of files or patches, the same
 * lines as `scripts/get_maintainer.pl --no-git --no-git-fallback
 * --no-rolestats`, from lib/maint.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "maint/tracked.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char who_usage[] =
	"usage: patchclock who [--tree DIR] [--json] [--roles] [-f] "
	"FILE|PATCH...\n"
	"\n"
	"Prints who to send a patch to: the maintainers, reviewers and\n"
	"mailing lists of the MAINTAINERS entries that cover each FILE, or\n"
	"every file a PATCH touches, one per line, people first. The lines\n"
	"are those of the kernel's\n"
	"  scripts/get_maintainer.pl --no-git --no-git-fallback "
	"--no-rolestats\n"
	"for the same arguments, with the script's quirks: F: patterns\n"
	"anchored at the start only, X: removing an entry, the last matching\n"
	"line setting an entry's depth, N: and K: regexes, .mailmap, and\n"
	"Linus left out. Entries are ordered by depth, deepest first; where\n"
	"the script orders ties at random, they come in MAINTAINERS order.\n"
	"Entries found only by a K: keyword come last.\n"
	"\n"
	"Without -f, an argument is taken as a path in the tree when git\n"
	"tracks it there, as the script does; anything else (and anything,\n"
	"in a tree without .git) is read as a patch: a mail or `git\n"
	"format-patch` output. With no argument, or '-', a patch is read\n"
	"from standard input.\n"
	"\n"
	"Options:\n"
	"  --tree DIR     the kernel tree: its MAINTAINERS and .mailmap are\n"
	"                 read, and paths are relative to its top (default:\n"
	"                 $PC_KERNEL_TREE, else the current directory if it\n"
	"                 has a MAINTAINERS file, else the configuration's\n"
	"                 tree)\n"
	"  -f, --file     take every argument as a path in the tree; K:\n"
	"                 keywords are then matched against the whole file\n"
	"  --roles        add each line's role in parentheses, as the\n"
	"                 script does without --no-rolestats:\n"
	"                 \"(maintainer:ENTRY)\", \"(reviewer:ENTRY)\",\n"
	"                 \"(open list:ENTRY)\", \"(in file)\"...\n"
	"  --no-keywords  leave K: keywords out (the script's --no-keywords)\n"
	"  --json         one JSON object: the paths mapped, the entries in\n"
	"                 order (name, depth, keyword_only, role, status,\n"
	"                 P: profiles, and the lines each brought) and the\n"
	"                 lines with their roles (Who in json.md, with the\n"
	"                 README)\n"
	"  -h, --help     this text\n"
	"\n"
	"Differences from get_maintainer.pl: \"Fixes:\" tags are not\n"
	"followed (the script asks git for the fixed commit's signers), and\n"
	"there are no git-based options.\n"
	"\n"
	"MAINTAINERS, once read and indexed, is kept compiled in\n"
	"$XDG_CACHE_HOME/patchclock (else ~/.cache/patchclock), one file\n"
	"per tree, and used again while MAINTAINERS and .mailmap are\n"
	"unchanged (checked against their contents on every run). In a git\n"
	"tree, a FILE is taken as a path only when git tracks it (else as a\n"
	"patch); the tracked paths are kept there too, one file per tree,\n"
	"and read again from git when its index changes. Both may be\n"
	"deleted at any time.\n"
	"\n"
	"Exit status: 0 when done, 1 when the tree or an input cannot be\n"
	"read, 64 for wrong arguments.\n";

struct who {
	const char *tree; /* borrowed from argv or the environment */
	char *tree_abs; /* owned: realpath of tree */
	int file_mode, json, roles, keywords;
	int git; /* the tree has .git */
	const char *cache; /* borrowed: the cache directory, or NULL */
};

/* File::Spec canonpath(): no "//", no "/./", no leading "./", no
 * trailing '/'. */
static char *canonpath(const char *p)
{
	struct pc_buf b = PC_BUF_INIT;
	const char *s = p;

	while (*s) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == 0 && s == p) {
			pc_buf_addch(&b, '/');
		} else if (n && !(n == 1 && s[0] == '.')) {
			if (b.len && b.buf[b.len - 1] != '/')
				pc_buf_addch(&b, '/');
			pc_buf_add(&b, s, n);
		}
		s += n + (e != NULL);
	}
	if (!b.len)
		pc_buf_addstr(&b, p[0] == '/' ? "/" : ".");
	return pc_buf_detach(&b, NULL);
}

/* "a/b/../c" -> "a/c", lexically; NULL if it climbs out. */
static char *dotdot(const char *p)
{
	struct pc_buf b = PC_BUF_INIT;
	const char *s = p;

	while (*s) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == 2 && s[0] == '.' && s[1] == '.') {
			char *slash;

			if (!b.len) {
				pc_buf_release(&b);
				return NULL;
			}
			slash = strrchr(b.buf, '/');
			pc_buf_setlen(&b, slash ? (size_t)(slash - b.buf) : 0);
		} else if (n && !(n == 1 && s[0] == '.')) {
			if (b.len)
				pc_buf_addch(&b, '/');
			pc_buf_add(&b, s, n);
		}
		s += n + (e != NULL);
	}
	return pc_buf_detach(&b, NULL);
}

/*
 * The argument as a path relative to the top of the tree, or NULL when
 * it points outside (an absolute path elsewhere, or a relative one from
 * a current directory outside the tree... which the script, run at the
 * top, would read relative to the top: so does this).
 */
static char *tree_path(const struct who *w, const char *arg)
{
	char cwd[PATH_MAX], *canon = canonpath(arg), *res = NULL;
	size_t tl = strlen(w->tree_abs);

	if (canon[0] == '/') {
		if (!strncmp(canon, w->tree_abs, tl) &&
		    (canon[tl] == '/' || !canon[tl]))
			res = dotdot(canon[tl] ? canon + tl + 1 : ".");
		free(canon);
		return res;
	}
	if (getcwd(cwd, sizeof(cwd)) && !strncmp(cwd, w->tree_abs, tl) &&
	    cwd[tl] == '/') {
		char *joined = xasprintf("%s/%s", cwd + tl + 1, canon);

		res = dotdot(joined);
		free(joined);
	} else {
		res = dotdot(canon);
	}
	free(canon);
	return res;
}

/* A patch from path, or "-" for standard input; any kind of file (a
 * FIFO from a shell's process substitution) is read. */
static int read_all(struct pc_buf *out, const char *path, struct pc_err *err)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	int rc;

	if (fd < 0)
		return pc_err_set(err, PC_EIO, "cannot read '%s': %m", path);
	/* Bounded: `who /dev/zero` grew to 1.8 GB in 8 s. */
	rc = pc_read_fd(out, fd, PC_FILE_LIMIT, path, err);
	if (fd)
		close(fd);
	return rc;
}

/* One argument into the query: as a tree path or as a patch. */
static int add_arg(struct who *w, struct pc_maint_query *q, const char *arg)
{
	struct pc_err err = { 0 };
	char *tp = strcmp(arg, "-") ? tree_path(w, arg) : NULL;
	char *full = NULL;
	struct stat st;
	int rc = CLI_OK, exists = 0, is_dir = 0;

	if (tp) {
		full = xasprintf("%s/%s", w->tree, tp);
		exists = stat(full, &st) == 0;
		is_dir = exists && S_ISDIR(st.st_mode);
	}
	/* A file of the tree, unless git does not track it (a patch
	 * saved in the tree): the index's paths are cached. */
	if (w->file_mode ||
	    (tp && exists && w->git && pc_tracked(w->tree, w->cache, tp) > 0)) {
		char *p;

		if (!tp || !exists) {
			log_warnx("who: file '%s' not found in the tree '%s' "
				  "(paths are relative to the tree's top)",
				  arg, w->tree);
			rc = CLI_FAIL;
			goto out;
		}
		/* A directory gets its trailing slash, as in the script. */
		p = is_dir && *tp ? xasprintf("%s/", tp) : xstrdup(tp);
		if (pc_maint_query_add_file(q, p, &err) < 0) {
			log_warnx("who: %s", err.msg);
			rc = CLI_FAIL;
		}
		free(p);
	} else {
		struct pc_buf patch = PC_BUF_INIT;
		size_t npaths;

		if (read_all(&patch, arg, &err) < 0) {
			log_warnx("who: %s%s", err.msg,
				  err.code == PC_ELIMIT ?
					  " (a patch or series is far smaller;"
					  " give a patch file or -f PATH)" :
					  "");
			rc = CLI_FAIL;
		} else {
			pc_maint_query_add_patch(q, patch.buf, patch.len,
						 &npaths);
			if (!npaths)
				log_warnx("who: '%s' doesn't appear to be a "
					  "patch; add -f to take it as a path "
					  "in the tree",
					  arg);
		}
		pc_buf_release(&patch);
	}
out:
	free(tp);
	free(full);
	return rc;
}

static json_object *str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *values(const struct pc_maint_value *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i].value));
	return a;
}

/* A get_maintainer.pl output line and the entry that gave it. */
static json_object *line_obj(const struct pc_maint_line *l,
			     const struct pc_maint_result *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "text", str(l->text));
	json_object_object_add(o, "role", str(l->role));
	json_object_object_add(o, "list", json_object_new_boolean(l->list));
	json_object_object_add(o, "entry",
			       l->hit == PC_MAINT_NONE ?
				       NULL :
				       str(r->hits[l->hit].entry->name));
	return o;
}

static void print_json(const struct pc_maint *m,
		       const struct pc_maint_result *r,
		       const struct pc_maint_lines *lines)
{
	json_object *root = json_top(), *a;
	size_t i, j;

	json_object_object_add(root, "tree", str(pc_maint_tree(m)));
	json_object_object_add(root, "maintainers_sha256", str(pc_maint_id(m)));
	a = json_object_new_array();
	for (i = 0; i < r->n_files; i++)
		/* get_maintainer.pl reads "--- /dev/null" of a new file as
		 * the file "dev/null": it matches nothing but THE REST,
		 * which the patch's real path matches too. Not a file the
		 * patch touches. */
		if (strcmp(r->files[i], "dev/null"))
			json_object_array_add(
				a, json_object_new_string(r->files[i]));
	json_object_object_add(root, "files", a);
	a = json_object_new_array();
	for (i = 0; i < r->n_hits; i++) {
		const struct pc_maint_hit *h = &r->hits[i];
		const struct pc_maint_entry *e = h->entry;
		json_object *o = json_object_new_object(), *ls, *pr;

		json_object_object_add(o, "name", str(e->name));
		json_object_object_add(
			o, "index", json_object_new_int64((int64_t)e->index));
		json_object_object_add(o, "line",
				       json_object_new_int64(e->line));
		json_object_object_add(
			o, "depth",
			h->k_only ? NULL : json_object_new_int(h->depth));
		json_object_object_add(o, "keyword",
				       json_object_new_boolean(h->keyword));
		json_object_object_add(o, "keyword_only",
				       json_object_new_boolean(h->k_only));
		json_object_object_add(o, "file",
				       h->file == PC_MAINT_NONE ?
					       NULL :
					       str(r->files[h->file]));
		json_object_object_add(o, "role", str(e->role));
		json_object_object_add(o, "status",
				       values(e->status, e->n_status));
		pr = json_object_new_array();
		for (j = 0; j < e->n_profiles; j++)
			json_object_array_add(
				pr, json_object_new_string(e->profiles[j]));
		json_object_object_add(o, "profiles", pr);
		ls = json_object_new_array();
		for (j = 0; j < lines->n; j++)
			if (lines->v[j].hit == i)
				json_object_array_add(ls, line_obj(&lines->v[j],
								   r));
		json_object_object_add(o, "lines", ls);
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "entries", a);
	a = json_object_new_array();
	for (i = 0; i < lines->n; i++) {
		json_object_array_add(a, line_obj(&lines->v[i], r));
	}
	json_object_object_add(root, "lines", a);
	json_print(root);
}

/* Where the compiled MAINTAINERS is kept; NULL for nowhere. Owned. */
static char *cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		return xasprintf("%s/patchclock", xdg);
	if (home && *home)
		return xasprintf("%s/.cache/patchclock", home);
	return NULL;
}

static int find_tree(struct who *w)
{
	char rp[PATH_MAX];
	struct stat st;

	w->tree = cli_tree_dir(w->tree);
	if (!w->tree) {
		log_warnx("who: no kernel tree: give --tree DIR, set "
			  "$PC_KERNEL_TREE, run it at the top of a kernel "
			  "tree, or name one in patchclockd.conf ([general] "
			  "tree)");
		return CLI_USAGE;
	}
	if (!realpath(w->tree, rp)) {
		log_warn("who: cannot open the tree '%s'", w->tree);
		return CLI_FAIL;
	}
	w->tree_abs = xstrdup(rp);
	{
		char *g = xasprintf("%s/.git", w->tree);

		w->git = stat(g, &st) == 0;
		free(g);
	}
	return CLI_OK;
}

int cmd_who(int argc, char **argv, struct cli_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "file", no_argument, NULL, 'f' },
		{ "roles", no_argument, NULL, 'r' },
		{ "no-keywords", no_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct who w = { .keywords = 1 };
	struct pc_maint_result res = PC_MAINT_RESULT_INIT;
	struct pc_maint_lines lines = PC_MAINT_LINES_INIT;
	struct pc_err err = { 0 };
	struct pc_maint_query *q = NULL;
	struct pc_maint *m = NULL;
	char *cache = NULL;
	int c, rc, i;
	size_t k;

	(void)ctx; /* MAINTAINERS only: the light front runs it */
	while ((c = getopt_long(argc, argv, "fh", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			w.tree = optarg;
			break;
		case 'f':
			w.file_mode = 1;
			break;
		case 'r':
			w.roles = 1;
			break;
		case 'k':
			w.keywords = 0;
			break;
		case 'j':
			w.json = 1;
			break;
		case 'h':
			return cli_usage(stdout, who_usage, CLI_OK);
		default:
			return cli_usage(stderr, who_usage, CLI_USAGE);
		}
	}
	if (optind == argc && (w.file_mode || isatty(0))) {
		log_warnx("who: give FILE or PATCH arguments, or a patch on "
			  "standard input");
		return cli_usage(stderr, who_usage, CLI_USAGE);
	}
	if ((rc = find_tree(&w)) != CLI_OK)
		goto out;
	w.cache = cache = cache_dir();
	if (pc_maint_load_cached(&m, w.tree, cache, &err) < 0) {
		log_warnx("who: %s", err.msg);
		rc = CLI_FAIL;
		goto out;
	}
	log_debug("who: MAINTAINERS %s",
		  pc_maint_cache(m) == PC_MAINT_CACHE_HIT ?
			  "from the cache" :
		  pc_maint_cache(m) == PC_MAINT_CACHE_WRITTEN ?
			  "read, cache written" :
			  "read, no cache");
	for (k = 0; k < pc_maint_warning_count(m); k++)
		log_warnx("who: %s", pc_maint_warning(m, k));
	q = pc_maint_query_new(m, w.keywords ? PC_MAINT_DEFAULT :
					       PC_MAINT_TREE_FILES);
	if (optind == argc)
		rc = add_arg(&w, q, "-");
	for (i = optind; i < argc && rc == CLI_OK; i++)
		rc = add_arg(&w, q, argv[i]);
	if (rc != CLI_OK)
		goto out;
	if (pc_maint_query_run(&res, q, &err) < 0) {
		log_warnx("who: %s", err.msg);
		rc = CLI_FAIL;
		goto out;
	}
	pc_maint_lines(&lines, m, &res);
	if (w.json) {
		print_json(m, &res, &lines);
	} else {
		for (k = 0; k < lines.n; k++) {
			if (w.roles)
				printf("%s (%s)\n", lines.v[k].text,
				       lines.v[k].role);
			else
				printf("%s\n", lines.v[k].text);
		}
	}
	if (fflush(stdout) != 0) {
		log_warn("who: cannot write the output");
		rc = CLI_FAIL;
	}
out:
	pc_maint_lines_release(&lines);
	pc_maint_result_release(&res);
	pc_maint_query_free(q);
	pc_maint_free(m);
	free(cache);
	free(w.tree_abs);
	return rc;
}
