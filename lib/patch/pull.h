/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pull requests as `git request-pull` writes them: repository URL and ref. */
#ifndef PC_PATCH_PULL_H
#define PC_PATCH_PULL_H

#include <stddef.h>

struct pc_pull {
	char *url; /* owned; NULL when none was found */
	char *ref; /* owned; branch or tags/<name>, or NULL */
	char *head; /* owned; "for you to fetch changes up to <sha>", or NULL */
};

void pc_pull_release(struct pc_pull *p);

/*
 * Finds "are available in the Git repository at:" and the URL (and ref on
 * the same or the next line, trailing whitespace ignored). Returns 1 when a
 * URL was found, 0 when not.
 */
int pc_pull_parse(struct pc_pull *out, const char *text, size_t len);

/*
 * Calls fn for each commit title of the shortlog in a pull request ("Dan
 * Williams (5):" then one indented title a line, up to a blank line),
 * trimmed; (title, len) is borrowed for the call. A non-zero return of fn
 * stops and is returned; else the number of titles.
 */
typedef int (*pc_pull_title_fn)(const char *title, size_t len, void *arg);
int pc_pull_titles(const char *text, size_t len, pc_pull_title_fn fn,
		   void *arg);

/*
 * Calls fn for the title of each "branch HEAD: <commit> <title>" line, as
 * the kernel test robot's build reports of a maintainer's branch write it
 * ("branch HEAD: 27fea302952d...  hwmon: (nct6775) add ASUS ..."): that
 * commit is in the branch. (title, len) is borrowed for the call. A
 * non-zero return of fn stops and is returned; else the number of titles.
 */
int pc_pull_branch_head(const char *text, size_t len, pc_pull_title_fn fn,
			void *arg);

#endif
