// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Patch-ids of the commits on a tree's branches, and fetching the tree,
 * through libgit2 (see branches.h).
 */
#include <fnmatch.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "apply/branches.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char *const default_globs[] = { PC_BRANCHES_DEFAULT };

int pc_branch_is_repo(const char *dir)
{
	git_repository *repo = NULL;
	int ok;

	git_libgit2_init();
	ok = git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				     NULL) == 0;
	git_repository_free(repo);
	git_libgit2_shutdown();
	return ok;
}

struct tips {
	git_repository *repo;
	const char *const *globs;
	size_t nglobs;
	struct pc_tree_tip *tip;
	size_t n, alloc;
};

static int on_ref(const char *name, void *payload)
{
	struct tips *t = payload;
	git_reference *ref = NULL;
	git_object *obj = NULL;
	size_t i;
	int match = 0;

	for (i = 0; i < t->nglobs && !match; i++)
		match = fnmatch(t->globs[i], name, 0) == 0;
	if (!match || git_reference_lookup(&ref, t->repo, name) < 0)
		return 0;
	if (git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) == 0) {
		PC_ALLOC_GROW(t->tip, t->n + 1, t->alloc);
		t->tip[t->n].ref = xstrdup(name);
		git_oid_tostr(t->tip[t->n].oid, sizeof(t->tip[t->n].oid),
			      git_object_id(obj));
		t->n++;
	}
	git_object_free(obj);
	git_reference_free(ref);
	return 0;
}

/* The stable patch-id of commit c against its only parent, as hex. */
static int commit_patch_id(char out[41], git_repository *repo, git_commit *c)
{
	git_commit *parent = NULL;
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	git_oid pid;
	int rc = -1;

	if (git_commit_parent(&parent, c, 0) < 0 ||
	    git_commit_tree(&a, parent) < 0 || git_commit_tree(&b, c) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, a, b, NULL) < 0)
		goto out;
	/* format-patch detects renames (diff.renames); so does this. */
	if (git_diff_find_similar(diff, NULL) < 0 ||
	    git_diff_num_deltas(diff) == 0 ||
	    git_diff_patchid(&pid, diff, NULL) < 0)
		goto out;
	git_oid_tostr(out, 41, &pid);
	rc = 0;
out:
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	git_commit_free(parent);
	return rc;
}

static int walk_commits(git_repository *repo, const struct tips *t,
			const struct pc_branch_walk *w, pc_branch_commit_fn fn,
			void *arg, const char *dir, struct pc_err *err)
{
	git_revwalk *rw = NULL;
	git_oid oid;
	size_t i, n = 0;
	int rc = 0;

	if (git_revwalk_new(&rw, repo) < 0)
		return pc_err_git(err, PC_EGIT, "cannot walk '%s'", dir);
	git_revwalk_sorting(rw, GIT_SORT_TIME);
	for (i = 0; i < t->n; i++) {
		if (git_oid_fromstr(&oid, t->tip[i].oid) == 0 &&
		    git_revwalk_push(rw, &oid) < 0) {
			rc = pc_err_git(err, PC_EGIT, "cannot walk '%s'", dir);
			goto out;
		}
	}
	/* A seen tip that is gone (a rebased branch) hides nothing. */
	for (i = 0; i < w->nseen; i++)
		if (git_oid_fromstr(&oid, w->seen[i].oid) == 0)
			(void)git_revwalk_hide(rw, &oid);
	while (git_revwalk_next(&oid, rw) == 0) {
		git_commit *c = NULL;
		char pid[41], hex[41];
		int64_t when;

		if (w->max_commits && n >= w->max_commits)
			break;
		if (git_commit_lookup(&c, repo, &oid) < 0)
			continue;
		when = (int64_t)git_commit_time(c);
		/* Newest first: the rest is older still. */
		if (when < w->since) {
			git_commit_free(c);
			break;
		}
		n++;
		if (git_commit_parentcount(c) == 1 &&
		    commit_patch_id(pid, repo, c) == 0) {
			git_oid_tostr(hex, sizeof(hex), &oid);
			rc = fn(pid, hex, when, arg);
		}
		git_commit_free(c);
		if (rc)
			break;
	}
out:
	git_revwalk_free(rw);
	return rc;
}

int pc_branch_commits(const char *dir, const struct pc_branch_walk *walk,
		      pc_branch_commit_fn fn, void *arg,
		      struct pc_tree_tip **tips_out, size_t *ntips_out,
		      struct pc_err *err)
{
	struct tips t = { 0 };
	int rc;

	*tips_out = NULL;
	*ntips_out = 0;
	git_libgit2_init();
	if (git_repository_open_ext(&t.repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		rc = pc_err_git(err, PC_EGIT,
				"cannot open as a git repository '%s'", dir);
		git_libgit2_shutdown();
		return rc;
	}
	t.globs = walk->globs ? walk->globs : default_globs;
	t.nglobs = walk->globs ? walk->nglobs : PC_ARRAY_SIZE(default_globs);
	if (git_reference_foreach_name(t.repo, on_ref, &t) < 0) {
		rc = pc_err_git(err, PC_EGIT,
				"cannot list the branches of '%s'", dir);
		goto out;
	}
	rc = walk_commits(t.repo, &t, walk, fn, arg, dir, err);
out:
	git_repository_free(t.repo);
	git_libgit2_shutdown();
	if (rc) {
		pc_tree_tips_free(t.tip, t.n);
		return rc;
	}
	*tips_out = t.tip;
	*ntips_out = t.n;
	return 0;
}

int pc_branch_fetch(const char *dir, const char *remote, struct pc_err *err)
{
	git_repository *repo = NULL;
	git_remote *r = NULL;
	git_fetch_options opts;
	int rc = 0, grc;

	git_libgit2_init();
	git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
	if (git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		rc = pc_err_git(err, PC_EGIT,
				"cannot open as a git repository '%s'", dir);
		goto out;
	}
	if ((grc = git_remote_lookup(&r, repo, remote)) < 0) {
		rc = grc == GIT_ENOTFOUND ?
			     pc_err_set(err, PC_ENOTFOUND,
					"'%s' has no remote '%s' (add one with "
					"git remote add %s URL)",
					dir, remote, remote) :
			     pc_err_git(err, PC_EGIT,
					"cannot read the remotes of '%s'", dir);
		goto out;
	}
	opts.prune = GIT_FETCH_PRUNE;
	if (git_remote_fetch(r, NULL, &opts, "patchclock: fetch") < 0)
		rc = pc_err_git(err, PC_EGIT, "cannot fetch into '%s'", dir);
out:
	git_remote_free(r);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

/* The upstream commit of the checked-out branch when it is a fast-forward
 * from HEAD; 1 with *head (the branch ref) and *to set, else 0. */
static int upstream_ahead(git_repository *repo, git_reference **head,
			  git_oid *to)
{
	git_reference *up = NULL;
	git_annotated_commit *ac = NULL;
	git_merge_analysis_t an;
	git_merge_preference_t pref;
	int ok = 0;

	*head = NULL;
	if (git_repository_head(head, repo) < 0 ||
	    !git_reference_is_branch(*head))
		goto out;
	if (git_branch_upstream(&up, *head) < 0 ||
	    git_reference_name_to_id(to, repo, git_reference_name(up)) < 0 ||
	    git_annotated_commit_lookup(&ac, repo, to) < 0)
		goto out;
	if (git_merge_analysis(&an, &pref, repo,
			       (const git_annotated_commit **)&ac, 1) < 0)
		goto out;
	ok = (an & GIT_MERGE_ANALYSIS_FASTFORWARD) &&
	     !(an & GIT_MERGE_ANALYSIS_UP_TO_DATE);
out:
	git_annotated_commit_free(ac);
	git_reference_free(up);
	if (!ok) {
		git_reference_free(*head);
		*head = NULL;
	}
	return ok;
}

int pc_branch_fast_forward(const char *dir, char moved_to[41],
			   struct pc_err *err)
{
	git_repository *repo = NULL;
	git_reference *head = NULL, *moved = NULL;
	git_object *target = NULL;
	git_checkout_options co;
	git_oid to;
	int rc = 0;

	moved_to[0] = '\0';
	git_libgit2_init();
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_SAFE;
	if (git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		rc = pc_err_git(err, PC_EGIT,
				"cannot open as a git repository '%s'", dir);
		goto out;
	}
	if (!upstream_ahead(repo, &head, &to))
		goto out;
	if (git_object_lookup(&target, repo, &to, GIT_OBJECT_COMMIT) < 0 ||
	    git_checkout_tree(repo, target, &co) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot fast-forward '%s'", dir);
		goto out;
	}
	if (git_reference_set_target(&moved, head, &to,
				     "patchclock: fast-forward") < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot move the branch of '%s'",
				dir);
		goto out;
	}
	git_oid_tostr(moved_to, 41, &to);
out:
	git_reference_free(moved);
	git_reference_free(head);
	git_object_free(target);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}
