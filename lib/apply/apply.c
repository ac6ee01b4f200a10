// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * git am with libgit2. See apply.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "apply/apply.h"
#include "apply/gitpath.h"
#include "util/xalloc.h"
#include "util/banned.h"

/*
 * Refuses a path git would refuse, or that could leave the tree or reach
 * into .git or a submodule (gitpath.h), for an entry of git file mode
 * mode; then checks every leading directory against the base tree for
 * symbolic links.
 */
static int check_path(const char *path, unsigned mode, git_tree *base,
		      struct pc_err *err)
{
	const char *slash;
	char prefix[PC_GITPATH_MAX];
	int rc;

	if ((rc = pc_gitpath_check(path, mode, err)) < 0)
		return rc;
	/* A leading directory that is a symbolic link in the tree would
	 * send the write elsewhere; one that is a gitlink would write into
	 * a submodule. pc_gitpath_check() bounds the length. */
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
		git_tree_entry *e = NULL;
		git_filemode_t m;

		memcpy(prefix, path, (size_t)(slash - path));
		prefix[slash - path] = '\0';
		if (git_tree_entry_bypath(&e, base, prefix) < 0)
			continue;
		m = git_tree_entry_filemode(e);
		git_tree_entry_free(e);
		if (m == GIT_FILEMODE_LINK)
			return pc_err_set(err, PC_EUSAGE,
					  "refusing path '%s': '%s' is a "
					  "symbolic link in the tree",
					  path, prefix);
		if (m == GIT_FILEMODE_COMMIT)
			return pc_err_set(err, PC_EUSAGE,
					  "refusing path '%s': '%s' is a "
					  "gitlink (a submodule) in the tree, "
					  "apply it by hand",
					  path, prefix);
	}
	return 0;
}

/*
 * Checks both sides of every delta: the path (check_path(), with that
 * side's mode, so a gitlink on either side is refused), and refuses to
 * add or change a symbolic link, whose target cannot be vetted here.
 */
static int check_diff(git_diff *diff, git_tree *base, struct pc_err *err)
{
	size_t i, n = git_diff_num_deltas(diff);
	int rc;

	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status != GIT_DELTA_ADDED &&
		    (rc = check_path(d->old_file.path, d->old_file.mode, base,
				     err)) < 0)
			return rc;
		if (d->status != GIT_DELTA_DELETED &&
		    (rc = check_path(d->new_file.path, d->new_file.mode, base,
				     err)) < 0)
			return rc;
		if ((d->new_file.mode == GIT_FILEMODE_LINK &&
		     d->status != GIT_DELTA_DELETED) ||
		    (d->old_file.mode == GIT_FILEMODE_LINK &&
		     d->status == GIT_DELTA_MODIFIED))
			return pc_err_set(err, PC_EUSAGE,
					  "refusing to add or change the "
					  "symbolic link '%s': apply it by "
					  "hand",
					  d->new_file.path);
	}
	return 0;
}

/* Where the apply is, for the report when a hunk fails. */
struct where {
	char file[256];
	char hunk[128];
};

static int on_delta(const git_diff_delta *delta, void *payload)
{
	struct where *w = payload;
	const char *path = delta->new_file.path ? delta->new_file.path :
						  delta->old_file.path;

	snprintf(w->file, sizeof(w->file), "%s", path ? path : "");
	w->hunk[0] = '\0';
	return 0;
}

static int on_hunk(const git_diff_hunk *hunk, void *payload)
{
	struct where *w = payload;
	size_t len = hunk->header_len;

	while (len &&
	       (hunk->header[len - 1] == '\n' || hunk->header[len - 1] == '\r'))
		len--;
	if (len >= sizeof(w->hunk))
		len = sizeof(w->hunk) - 1;
	memcpy(w->hunk, hunk->header, len);
	w->hunk[len] = '\0';
	return 0;
}

static int resolve(git_commit **out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL;
	int rc = git_revparse_single(&obj, repo, rev ? rev : "HEAD");

	if (rc == 0) {
		rc = git_object_peel((git_object **)out, obj,
				     GIT_OBJECT_COMMIT);
		git_object_free(obj);
	}
	return rc;
}

int pc_apply_has_commit(const char *tree, const char *rev, struct pc_err *err)
{
	git_repository *repo = NULL;
	git_commit *c = NULL;
	int rc;

	git_libgit2_init();
	if (git_repository_open(&repo, tree) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot open the kernel tree");
		goto out;
	}
	rc = resolve(&c, repo, rev) == 0;
	git_commit_free(c);
out:
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

int pc_apply_delete_branch(const char *tree, const char *branch,
			   struct pc_err *err)
{
	git_repository *repo = NULL;
	git_reference *ref = NULL;
	char *name = xasprintf("refs/heads/%s", branch);
	int rc = 0;

	git_libgit2_init();
	if (git_repository_open(&repo, tree) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot open the kernel tree");
		goto out;
	}
	/* The ref alone: patchclock never writes branch.<name>.* config,
	 * and git_branch_delete's search for it leaks pcre2 match data in
	 * libgit2 1.5 (fixed upstream in 1.6, libgit2 PR 6382). */
	if (git_reference_lookup(&ref, repo, name) == 0 &&
	    git_reference_delete(ref) < 0)
		rc = pc_err_git(err, PC_EGIT, "cannot delete the branch");
	git_reference_free(ref);
out:
	free(name);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

/* Applies one patch onto parent; *out is the new commit (NULL and
 * res->reason set when it does not apply). */
static int apply_one(git_commit **out, struct pc_apply_result *res,
		     git_repository *repo, git_commit *parent,
		     const struct pc_apply_patch *p, size_t k,
		     const git_signature *committer, struct pc_err *err)
{
	git_apply_options ao;
	git_signature *author = NULL;
	git_tree *base = NULL, *tree = NULL;
	git_index *index = NULL;
	git_diff *diff = NULL;
	git_oid tree_oid, oid;
	struct where w = { "", "" };
	const git_commit *parents[1] = { parent };
	int rc;

	*out = NULL;
	git_apply_options_init(&ao, GIT_APPLY_OPTIONS_VERSION);
	if (git_commit_tree(&base, parent) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot read the base tree");
		goto out;
	}
	/* A diff that cannot be read or is refused is the series' outcome,
	 * like one that does not apply. */
	if (git_diff_from_buffer(&diff, p->diff, p->diff_len) < 0) {
		pc_err_git(err, PC_EPARSE, "cannot read the diff");
		goto refused;
	}
	if (git_diff_num_deltas(diff) == 0) {
		pc_err_set(err, PC_EPARSE, "the mail has no diff");
		goto refused;
	}
	if (check_diff(diff, base, err) < 0)
		goto refused;
	ao.delta_cb = on_delta;
	ao.hunk_cb = on_hunk;
	ao.payload = &w;
	if (git_apply_to_tree(&index, repo, base, diff, &ao) < 0) {
		const git_error *e = git_error_last();

		res->failed_patch = k;
		snprintf(res->file, sizeof(res->file), "%s", w.file);
		snprintf(res->hunk, sizeof(res->hunk), "%s", w.hunk);
		snprintf(res->reason, sizeof(res->reason),
			 "patch %zu does not apply: %s%s%s%s (%s)", k,
			 w.file[0] ? w.file : "?", w.hunk[0] ? ", hunk '" : "",
			 w.hunk, w.hunk[0] ? "'" : "",
			 e && e->message ? e->message : "libgit2 error");
		rc = 0;
		goto out;
	}
	if (git_index_write_tree_to(&tree_oid, index, repo) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_oid) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot write the tree");
		goto out;
	}
	if (git_signature_new(&author, p->author_name, p->author_email,
			      (git_time_t)p->author_time, p->author_tz) < 0) {
		rc = pc_err_git(err, PC_EUSAGE, "bad author");
		pc_err_prefix(err, "patch %zu", k);
		goto out;
	}
	if (git_commit_create(&oid, repo, NULL, author, committer, "UTF-8",
			      p->message, tree, 1, parents) < 0 ||
	    git_commit_lookup(out, repo, &oid) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot make the commit");
		goto out;
	}
	rc = 0;
	goto out;
refused:
	res->failed_patch = k;
	snprintf(res->reason, sizeof(res->reason), "patch %zu: %s", k,
		 err ? err->msg : "refused");
	rc = 0;
out:
	git_signature_free(author);
	git_tree_free(tree);
	git_tree_free(base);
	git_index_free(index);
	git_diff_free(diff);
	return rc;
}

int pc_apply_series(struct pc_apply_result *res,
		    const struct pc_apply_options *o,
		    const struct pc_apply_patch *patches, size_t n,
		    struct pc_err *err)
{
	git_repository *repo = NULL;
	git_reference *ref = NULL;
	git_signature *committer = NULL;
	git_commit *head = NULL, *next = NULL;
	size_t k;
	int rc;

	memset(res, 0, sizeof(*res));
	if (!o->branch || !*o->branch || !n)
		return pc_err_set(err, PC_EUSAGE,
				  "applying needs a branch name and patches");
	git_libgit2_init();
	if (git_repository_open(&repo, o->tree) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot open the kernel tree");
		pc_err_prefix(err, "'%s'", o->tree);
		goto out;
	}
	if (git_branch_name_is_valid(&rc, o->branch) < 0 || !rc) {
		rc = pc_err_set(err, PC_EUSAGE,
				"'%s' is not a valid branch name", o->branch);
		goto out;
	}
	if (git_branch_lookup(&ref, repo, o->branch, GIT_BRANCH_LOCAL) == 0) {
		rc = pc_err_set(err, PC_EUSAGE,
				"branch '%s' exists already in '%s': choose "
				"another name or delete it",
				o->branch, o->tree);
		goto out;
	}
	if (resolve(&head, repo, o->base) < 0) {
		rc = pc_err_set(err, PC_ENOTFOUND,
				"base '%s' is not in the tree '%s'",
				o->base ? o->base : "HEAD", o->tree);
		goto out;
	}
	git_oid_tostr(res->base, sizeof(res->base), git_commit_id(head));
	if (git_signature_new(&committer,
			      o->committer_name ? o->committer_name :
						  "patchclock",
			      o->committer_email ? o->committer_email :
						   "patchclock@localhost",
			      (git_time_t)o->now, 0) < 0) {
		rc = pc_err_git(err, PC_EUSAGE, "bad committer");
		goto out;
	}
	res->commits = xcalloc(n, sizeof(*res->commits));
	for (k = 0; k < n; k++) {
		if ((rc = apply_one(&next, res, repo, head, &patches[k], k + 1,
				    committer, err)) < 0)
			goto out;
		if (!next)
			goto out; /* does not apply: res says why */
		res->commits[res->ncommits] = xmalloc(GIT_OID_HEXSZ + 1);
		git_oid_tostr(res->commits[res->ncommits++], GIT_OID_HEXSZ + 1,
			      git_commit_id(next));
		git_commit_free(head);
		head = next;
		next = NULL;
	}
	git_reference_free(ref);
	ref = NULL;
	if (git_branch_create(&ref, repo, o->branch, head, 0) < 0) {
		rc = pc_err_git(err, PC_EGIT, "cannot make the branch");
		goto out;
	}
	res->applied = 1;
	rc = 0;
out:
	git_reference_free(ref);
	git_commit_free(head);
	git_commit_free(next);
	git_signature_free(committer);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

void pc_apply_result_release(struct pc_apply_result *res)
{
	size_t i;

	for (i = 0; i < res->ncommits; i++)
		free(res->commits[i]);
	free(res->commits);
	memset(res, 0, sizeof(*res));
}
