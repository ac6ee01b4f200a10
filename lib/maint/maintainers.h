/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MAINTAINERS: parsing and matching with the semantics of the kernel's
 * scripts/get_maintainer.pl (6.1), quirks included, run as
 * `get_maintainer.pl --no-git --no-git-fallback`.
 *
 * pc_maint_load() reads MAINTAINERS (every tag line, the entry names, the
 * header text before the first entry) and the tree's .mailmap, and builds
 * an index: F:/X: patterns are bucketed by their literal leading prefix
 * in a hash table, N: and K: regexes are found through literals every
 * match must contain, looked up by their first two bytes. The result is
 * one block of memory without pointers (an image), which
 * pc_maint_load_cached() keeps in a cache directory and maps again in
 * later processes. Costs:
 *  - load: linear in the size of MAINTAINERS; from the cache, a hash of
 *    MAINTAINERS, .mailmap and the image (about 2 MB for 6.1);
 *  - whether an F:/X: value names a directory of the tree (about 1,000
 *    of 6,976 in 6.1 could): one stat() the first time a path could
 *    match it, not at load;
 *  - a regex: compiled the first time it runs, not at load;
 *  - a path: O(path length) hash probes and literal lookups, plus the
 *    patterns that share a literal prefix with it (a handful), not
 *    O(all patterns);
 *  - a patch: linear in its bytes (one pass for the K: literals, a regex
 *    run only on lines that hold one of its literals), plus its paths;
 *  - a -f file: linear in its bytes, the same way.
 * A loaded struct pc_maint is immutable to its users: any number of
 * threads may map with it at once, each with its own query (what is
 * worked out lazily is worked out once, under a lock or atomically).
 *
 * Mapping follows the script step by step:
 *  - F:/X: values become Perl regexes as the script makes them ('.' is
 *    literal, '*' is ".*", '?' is "."), anchored at the start only; a
 *    value without a trailing slash must have as many slashes as the path
 *    (so "drivers/foo.c" also matches "drivers/foo.cpp", and "drivers/x*"
 *    does not reach below drivers/). A value naming a directory of the
 *    tree gets a trailing slash, tested on the converted value as the
 *    script does (so a directory name with a '.' is never resolved).
 *  - One matching X: removes the entry for that path. F: scores the
 *    slashes in the pattern (+1 without a trailing slash, -1 for a value
 *    starting with '*'); N: (a Perl /x regex, unanchored) scores 0; within
 *    an entry the last matching line sets the score.
 *  - Per path, entries come by score, highest first; ties in MAINTAINERS
 *    order (the script's order within a tie is Perl's random hash order).
 *    The paths are taken in order, an entry counting once.
 *  - K: (Perl /x regexes, run with PCRE2) are matched against each line of
 *    a patch that is not a diff header (after the first ---/+++ line only
 *    on lines starting with '+' or '-', as "^[+-].*" prefixed to the
 *    regex), or against a whole file of the tree with -f. Entries found
 *    only by K: come last, in the script's order (the string order of the
 *    K: line's position).
 *  - Addresses: M:/R: values are split and parsed as the script does
 *    (RFC 822 lists, quoting of names with non-word characters), mapped
 *    through .mailmap (case-sensitive keys), deduplicated by name or
 *    address, case-insensitively; Linus Torvalds is dropped; addresses
 *    in a mapped .yaml file of the tree are added (role "in file").
 *
 * Deviations from the script, by design:
 *  - a CR before LF in MAINTAINERS is dropped (the script keeps it in
 *    the value);
 *  - an F:/X: value containing '.' is never tested for a directory: the
 *    script tests the converted value, with "\." in it, which names a
 *    directory only if the tree has a name with a backslash;
 *  - a NUL byte in MAINTAINERS is an error (PC_EPARSE);
 *  - a pattern that PCRE2 cannot compile never matches and is reported
 *    by pc_maint_warning() (the script dies when it reaches it);
 *  - "Fixes:" tags in patches are not followed: the script asks git for
 *    the signers of the fixed commit, which needs the history;
 *  - no git: this is --no-git --no-git-fallback, and deciding whether an
 *    argument is a file or a patch is the caller's (see pc_maint_query).
 */
#ifndef PC_MAINT_MAINTAINERS_H
#define PC_MAINT_MAINTAINERS_H

#include <stddef.h>

#include "util/err.h"

struct pc_maint; /* opaque, immutable after load */

/* One tag line of an entry. */
struct pc_maint_value {
	const char *value; /* borrowed from the pc_maint: as written after
			    * "X:" and the blanks that follow */
	unsigned line; /* 1-based line number in MAINTAINERS */
};

/* Like pc_maint_value, with its letter: every tag line, in file order. */
struct pc_maint_tag {
	char tag; /* 'A'..'Z'; unknown letters are kept too */
	const char *value; /* borrowed from the pc_maint */
	unsigned line;
};

/*
 * An entry, borrowed from the pc_maint (so are all its arrays). The named
 * arrays hold the values of one tag each, in file order.
 */
struct pc_maint_entry {
	const char *name; /* "LIBNVDIMM PMEM AND CORE" */
	size_t index; /* order in MAINTAINERS, 0-based */
	unsigned line; /* line number of the name */
	const char *const *profiles; /* P: values, as written */
	size_t n_profiles;

	const struct pc_maint_tag *tags; /* every tag line, in order */
	size_t n_tags;
	const struct pc_maint_value *maintainers; /* M: */
	size_t n_maintainers;
	const struct pc_maint_value *reviewers; /* R: */
	size_t n_reviewers;
	const struct pc_maint_value *lists; /* L: */
	size_t n_lists;
	const struct pc_maint_value *status; /* S: */
	size_t n_status;
	const struct pc_maint_value *web; /* W: */
	size_t n_web;
	const struct pc_maint_value *patchwork; /* Q: */
	size_t n_patchwork;
	const struct pc_maint_value *bugs; /* B: */
	size_t n_bugs;
	const struct pc_maint_value *chat; /* C: */
	size_t n_chat;
	const struct pc_maint_value *profile_lines; /* P:, with lines */
	size_t n_profile_lines;
	const struct pc_maint_value *scm; /* T: */
	size_t n_scm;
	const struct pc_maint_value *files; /* F: */
	size_t n_files;
	const struct pc_maint_value *excludes; /* X: */
	size_t n_excludes;
	const struct pc_maint_value *regexes; /* N: */
	size_t n_regexes;
	const struct pc_maint_value *keywords; /* K: */
	size_t n_keywords;

	/* get_maintainer.pl's role word from the last S: ("maintainer",
	 * "supporter", "odd fixer", "orphan minder", "obsolete minder",
	 * "chief penguin", else the S: value in lower case, or "unknown"). */
	const char *role;
};

/*
 * Reads tree_dir/MAINTAINERS and tree_dir/.mailmap (if there is one) and
 * builds the index; F:/X: values are tested for directories in tree_dir.
 * Caller frees *out with pc_maint_free(). Errors: PC_EIO (cannot read
 * MAINTAINERS; the message names the file), PC_EPARSE (a NUL byte).
 */
int pc_maint_load(struct pc_maint **out, const char *tree_dir,
		  struct pc_err *err);

/*
 * Like pc_maint_load() with MAINTAINERS read from maintainers_path. With
 * tree_dir_or_NULL NULL there is no tree: no .mailmap, no directory tests,
 * and mapping reads no file.
 */
int pc_maint_load_file(struct pc_maint **out, const char *maintainers_path,
		       const char *tree_dir_or_NULL, struct pc_err *err);

/*
 * Like pc_maint_load_file() from memory: (text, len) is MAINTAINERS,
 * (mailmap, mailmap_len) .mailmap (NULL for none). Both are copied.
 */
int pc_maint_load_mem(struct pc_maint **out, const char *text, size_t len,
		      const char *mailmap, size_t mailmap_len,
		      const char *tree_dir_or_NULL, struct pc_err *err);

/*
 * Like pc_maint_load(), through a compiled image of MAINTAINERS and
 * .mailmap kept in cache_dir (one file per tree, made with the directory
 * when missing; NULL or "": no cache). The image is used only when it
 * was built from the same bytes of both files (lengths and 64-bit
 * hashes), by the same sources of lib/maint and the same PCRE2, and is
 * whole (a checksum); else the text is read and the image written again
 * (a new file renamed into place). Answers are the same either way; a
 * cache that cannot be read or written is passed over, never an error.
 * Errors as pc_maint_load().
 */
int pc_maint_load_cached(struct pc_maint **out, const char *tree_dir,
			 const char *cache_dir, struct pc_err *err);

/* What pc_maint_load_cached() did. */
enum pc_maint_cache {
	PC_MAINT_CACHE_NONE, /* not asked (the other loads) */
	PC_MAINT_CACHE_HIT, /* the image was mapped from the cache */
	PC_MAINT_CACHE_WRITTEN, /* read, and the cache written */
	PC_MAINT_CACHE_UNWRITTEN, /* read; the cache could not be written */
};

/* How m was loaded: an enum pc_maint_cache. */
int pc_maint_cache(const struct pc_maint *m);

void pc_maint_free(struct pc_maint *m);

size_t pc_maint_count(const struct pc_maint *m);
/* The i-th entry (i < pc_maint_count()), borrowed. */
const struct pc_maint_entry *pc_maint_entry_at(const struct pc_maint *m,
					       size_t i);
/*
 * The chief maintainer: M: of THE REST, whom get_maintainer.pl marks
 * "chief penguin", whose "Linux X.Y-rcN" mails are the release calendar,
 * and to whom patchclock never writes.
 */
#define PC_MAINT_CHIEF_NAME "Linus Torvalds"
#define PC_MAINT_CHIEF_ADDR "torvalds@linux-foundation.org"

/* The entry whose name is name (ASCII case-insensitive), or NULL. */
const struct pc_maint_entry *pc_maint_find(const struct pc_maint *m,
					   const char *name);

/*
 * The entry name means as a person types it: the entry of that name in
 * any case, else the one entry whose name starts with it (any case), as
 * `status --entry` reads it. NULL when none or several start with it;
 * *n_out (may be NULL) is then how many do.
 */
const struct pc_maint_entry *
pc_maint_find_prefix(const struct pc_maint *m, const char *name, size_t *n_out);

/* The tree directory given at load, or NULL. Borrowed. */
const char *pc_maint_tree(const struct pc_maint *m);

/*
 * The text of MAINTAINERS before the first entry's name (the guidelines
 * and the descriptions of the tags). Borrowed.
 */
const char *pc_maint_header(const struct pc_maint *m);
/*
 * The header's description of a tag letter ("*Mail* patches to: FullName
 * <address@domain>"), continuation lines joined with '\n' and their
 * indentation removed; NULL if the header does not describe it. Borrowed.
 */
const char *pc_maint_tag_doc(const struct pc_maint *m, char tag);

/*
 * Identity of what mapping depends on: the SHA-256, in 64 hex digits, of
 * MAINTAINERS, .mailmap and the list of F:/X: lines that named a
 * directory of the tree. Equal ids map every input the same. Borrowed.
 */
const char *pc_maint_id(const struct pc_maint *m);
/* SHA-256 of the MAINTAINERS bytes alone, 64 hex digits. Borrowed. */
const char *pc_maint_sha256(const struct pc_maint *m);

/*
 * Problems found at load that do not stop it, one line each
 * ("MAINTAINERS:123: K: pattern does not compile: ..."). Borrowed.
 */
size_t pc_maint_warning_count(const struct pc_maint *m);
const char *pc_maint_warning(const struct pc_maint *m, size_t i);

/* ---- mapping ----------------------------------------------------------- */

#define PC_MAINT_NONE ((size_t)-1)

/* An entry a query matched. */
struct pc_maint_hit {
	const struct pc_maint_entry *entry; /* borrowed from the pc_maint */
	/* The score that placed it: F: slashes, 0 for N:, -1 for a value
	 * starting with '*'; 0 when k_only. */
	int depth;
	/* Index in pc_maint_result.files of the path that placed it;
	 * PC_MAINT_NONE when k_only. */
	size_t file;
	/* How specific the match is among lines of equal depth: the
	 * literal bytes its F: pattern starts with (8 for fs/dax.c, 3 for
	 * the VFS's glob of fs/); 0 for N: and K:. */
	unsigned spec;
	unsigned k_only : 1; /* found by K: only */
	unsigned keyword : 1; /* a K: line matched (k_only or not) */
};

struct pc_maint_result {
	/* Unique entries in get_maintainer.pl's order. Owned. */
	struct pc_maint_hit *hits;
	size_t n_hits, alloc_hits;
	/* The paths mapped, in the order the script takes them (a patch's
	 * paths sorted; -f paths as given). Owned, as is each string. */
	char **files;
	size_t n_files, alloc_files;
	/* Addresses found in mapped .yaml files of the tree, cleaned as
	 * the script does, in order. Owned, as is each string. */
	char **file_emails;
	size_t n_file_emails, alloc_file_emails;
};

#define PC_MAINT_RESULT_INIT \
	{                    \
		0            \
	}

void pc_maint_result_release(struct pc_maint_result *r);

/* Query flags. */
enum {
	/* Match K: (get_maintainer.pl's default, --keywords). */
	PC_MAINT_KEYWORDS = 1 << 0,
	/* Read mapped files from the tree: K: against a -f file's content,
	 * addresses in .yaml files. Needs a tree. */
	PC_MAINT_TREE_FILES = 1 << 1,
	/* What get_maintainer.pl does. */
	PC_MAINT_DEFAULT = PC_MAINT_KEYWORDS | PC_MAINT_TREE_FILES,
};

/*
 * A query collects inputs the way get_maintainer.pl takes its arguments,
 * then maps them all at once (an entry counts once; K:-only entries come
 * after every path's entries). It borrows m, which must outlive it.
 * Caller frees with pc_maint_query_free().
 */
struct pc_maint_query;

struct pc_maint_query *pc_maint_query_new(const struct pc_maint *m,
					  unsigned flags);
void pc_maint_query_free(struct pc_maint_query *q);

/*
 * Adds a path of the tree, like `get_maintainer.pl -f path`: relative to
 * the tree's top (a directory should end in '/', as the script makes it).
 * With PC_MAINT_TREE_FILES and PC_MAINT_KEYWORDS, a regular file of the
 * tree other than MAINTAINERS is read and K: matched against its whole
 * content. Errors: PC_EIO when it exists but cannot be read.
 */
int pc_maint_query_add_file(struct pc_maint_query *q, const char *path,
			    struct pc_err *err);

/*
 * Adds a patch (a mail or `git format-patch` output, bytes as they are):
 * its paths come from "diff --git", "+++"/"---", "rename from/to" and
 * "mode change" lines, taken as the script takes them, and K: runs on
 * its other lines. Sets *n_paths_out (may be NULL) to the number of path
 * lines found: 0 is the script's "doesn't appear to be a patch".
 */
void pc_maint_query_add_patch(struct pc_maint_query *q, const char *p,
			      size_t len, size_t *n_paths_out);

/*
 * Maps what was added into *out (initialised with PC_MAINT_RESULT_INIT;
 * caller releases it). The query may be run again, or freed. Errors:
 * PC_EIO when a .yaml file of the tree cannot be read.
 */
int pc_maint_query_run(struct pc_maint_result *out, struct pc_maint_query *q,
		       struct pc_err *err);

/* One path, -f style, with flags as for pc_maint_query_new(). */
int pc_maint_map_file(struct pc_maint_result *out, const struct pc_maint *m,
		      const char *path, unsigned flags, struct pc_err *err);
/* One patch, with flags as for pc_maint_query_new(). */
int pc_maint_map_patch(struct pc_maint_result *out, const struct pc_maint *m,
		       const char *p, size_t len, unsigned flags,
		       struct pc_err *err);

/* ---- get_maintainer.pl's output ----------------------------------------- */

struct pc_maint_line {
	/* "Name <addr>", "addr", or a list address, as the script prints
	 * it. Owned. */
	char *text;
	/* What --roles adds in parentheses: "maintainer:NAME",
	 * "reviewer:NAME", "open list:NAME", "moderated list:NAME",
	 * "open list" (THE REST), "in file"... Owned. */
	char *role;
	/* Index in the result's hits of the entry that brought it, or
	 * PC_MAINT_NONE for an address from a .yaml file. */
	size_t hit;
	unsigned list : 1; /* a mailing list (printed after the people) */
};

struct pc_maint_lines {
	struct pc_maint_line *v; /* owned */
	size_t n, alloc;
};

#define PC_MAINT_LINES_INIT \
	{                   \
		0           \
	}

void pc_maint_lines_release(struct pc_maint_lines *l);

/*
 * The lines `get_maintainer.pl --no-git --no-git-fallback` prints for
 * the result r of m: people (maintainers, reviewers, .yaml addresses)
 * then lists, subscriber-only lists left out, each once. Appends to out.
 */
void pc_maint_lines(struct pc_maint_lines *out, const struct pc_maint *m,
		    const struct pc_maint_result *r);

#endif
