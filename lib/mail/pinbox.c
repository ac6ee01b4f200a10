// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * public-inbox archives through libgit2 (see pinbox.h): epochs in numeric
 * order, each walked oldest commit first, yielding the blob `m` of every
 * commit. The walk holds commit ids only; one blob is in memory at a time.
 *
 * Removed mail stays in history: public-inbox-learn rm (or spam) commits
 * the removed message's blob as `d` later on, possibly in a later epoch,
 * and public-inbox-purge rewrites the message's commit to an empty `m`.
 * So a first pass over every epoch collects the blob ids of all `d`
 * entries, and the walk skips an `m` whose blob is removed later, and
 * empty ones.
 */
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mail/pinbox.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A blob recorded as `d`: skip that many earlier `m` copies of it. */
struct removed {
	git_oid oid;
	unsigned pending;
};

struct pc_pinbox {
	char **epochs; /* owned paths, in order */
	size_t nepochs, cur;
	git_repository *repo; /* owned; the current epoch */
	git_revwalk *walk; /* owned */
	git_blob *blob; /* owned; the message last returned */
	struct removed *removed; /* owned, sorted by oid, unique */
	size_t nremoved;
	uint64_t done, total;
	struct pc_buf where;
	int inited; /* git_libgit2_init() was called */
};

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int is_git_dir(const char *path)
{
	char *head = xasprintf("%s/HEAD", path);
	char *objects = xasprintf("%s/objects", path);
	char *dotgit = xasprintf("%s/.git", path);
	int yes = (exists(head) && exists(objects)) || exists(dotgit);

	free(head);
	free(objects);
	free(dotgit);
	return yes;
}

static char *epoch_path(const char *top, size_t n)
{
	return xasprintf("%s/git/%zu.git", top, n);
}

int pc_pinbox_detect(const char *path)
{
	char *e0 = epoch_path(path, 0);
	int yes = is_git_dir(e0) || is_git_dir(path);

	free(e0);
	return yes;
}

static int cmp_removed(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct removed *)a)->oid,
			   &((const struct removed *)b)->oid);
}

/* The blob id of the tree entry name at commit oid, if there is one. */
static int entry_blob(git_oid *out, git_repository *repo, const git_oid *oid,
		      const char *name)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	const git_tree_entry *ent;
	int rc;

	if ((rc = git_commit_lookup(&commit, repo, oid)) < 0 ||
	    (rc = git_commit_tree(&tree, commit)) < 0)
		goto out;
	ent = git_tree_entry_byname(tree, name);
	rc = ent && git_tree_entry_type(ent) == GIT_OBJECT_BLOB;
	if (rc)
		git_oid_cpy(out, git_tree_entry_id(ent));
out:
	git_tree_free(tree);
	git_commit_free(commit);
	return rc;
}

/* Whether blob is removed later in the archive; consumes one removal. */
static int take_removed(struct pc_pinbox *pi, const git_oid *blob)
{
	struct removed key, *r;

	if (!pi->nremoved)
		return 0;
	git_oid_cpy(&key.oid, blob);
	r = bsearch(&key, pi->removed, pi->nremoved, sizeof(*pi->removed),
		    cmp_removed);
	if (!r || !r->pending)
		return 0;
	r->pending--;
	return 1;
}

/* Opens epoch pi->cur and starts a walk from its HEAD, oldest first. */
static int open_epoch(struct pc_pinbox *pi, struct pc_err *err)
{
	const char *path = pi->epochs[pi->cur];

	git_revwalk_free(pi->walk);
	pi->walk = NULL;
	git_repository_free(pi->repo);
	pi->repo = NULL;
	if (git_repository_open(&pi->repo, path) < 0)
		return pc_err_git(err, PC_EGIT,
				  "cannot open public-inbox epoch '%s'", path);
	if (git_revwalk_new(&pi->walk, pi->repo) < 0)
		return pc_err_git(err, PC_EGIT, "cannot walk '%s'", path);
	git_revwalk_sorting(pi->walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push_head(pi->walk) < 0) {
		/* An empty epoch has no HEAD commit: nothing to read. */
		git_revwalk_free(pi->walk);
		pi->walk = NULL;
		return 0;
	}
	return 0;
}

int pc_pinbox_open(struct pc_pinbox **out, const char *path, struct pc_err *err)
{
	struct pc_pinbox *pi = xcalloc(1, sizeof(*pi));
	size_t alloc = 0, n;
	int rc = 0;

	git_libgit2_init();
	pi->inited = 1;
	pc_buf_init(&pi->where, 0);
	for (n = 0;; n++) {
		char *e = epoch_path(path, n);

		if (!is_git_dir(e)) {
			free(e);
			break;
		}
		PC_ALLOC_GROW(pi->epochs, pi->nepochs + 1, alloc);
		pi->epochs[pi->nepochs++] = e;
	}
	if (!pi->nepochs) {
		PC_ALLOC_GROW(pi->epochs, 1, alloc);
		pi->epochs[pi->nepochs++] = xstrdup(path);
	}
	/* Count messages up front so progress has a total, and collect
	 * the removals. */
	alloc = 0;
	for (n = 0; n < pi->nepochs; n++) {
		git_oid oid, blob;
		int r;

		pi->cur = n;
		if ((rc = open_epoch(pi, err)) < 0)
			goto out;
		while (pi->walk && git_revwalk_next(&oid, pi->walk) == 0) {
			pi->total++;
			r = entry_blob(&blob, pi->repo, &oid, "d");
			if (r < 0) {
				rc = pc_err_git(err, PC_EGIT,
						"cannot read commit in '%s'",
						pi->epochs[n]);
				goto out;
			}
			if (!r)
				continue;
			PC_ALLOC_GROW(pi->removed, pi->nremoved + 1, alloc);
			pi->removed[pi->nremoved].oid = blob;
			pi->removed[pi->nremoved++].pending = 1;
		}
	}
	if (pi->nremoved) {
		size_t i, j;

		qsort(pi->removed, pi->nremoved, sizeof(*pi->removed),
		      cmp_removed);
		for (i = 0, j = 1; j < pi->nremoved; j++) {
			if (!git_oid_cmp(&pi->removed[i].oid,
					 &pi->removed[j].oid))
				pi->removed[i].pending++;
			else
				pi->removed[++i] = pi->removed[j];
		}
		pi->nremoved = i + 1;
	}
	pi->cur = 0;
	rc = open_epoch(pi, err);
out:
	if (rc < 0) {
		pc_pinbox_free(pi);
		return rc;
	}
	*out = pi;
	return 0;
}

int pc_pinbox_next(struct pc_pinbox *pi, const char **data, size_t *len,
		   const char **where, struct pc_err *err)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	const git_tree_entry *ent;
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];
	int rc;

	git_blob_free(pi->blob);
	pi->blob = NULL;
	for (;;) {
		if (!pi->walk || git_revwalk_next(&oid, pi->walk) != 0) {
			/* The commit skipped last is still held: free it
			 * on the way out. */
			rc = 0;
			if (pi->cur + 1 >= pi->nepochs)
				goto out;
			pi->cur++;
			if ((rc = open_epoch(pi, err)) < 0)
				goto out;
			continue;
		}
		pi->done++;
		git_commit_free(commit);
		git_tree_free(tree);
		commit = NULL;
		tree = NULL;
		if (git_commit_lookup(&commit, pi->repo, &oid) < 0 ||
		    git_commit_tree(&tree, commit) < 0) {
			rc = pc_err_git(err, PC_EGIT,
					"cannot read commit in '%s'",
					pi->epochs[pi->cur]);
			goto out;
		}
		ent = git_tree_entry_byname(tree, "m");
		if (!ent || git_tree_entry_type(ent) != GIT_OBJECT_BLOB)
			continue; /* a deletion ("d") or an odd commit */
		if (take_removed(pi, git_tree_entry_id(ent)))
			continue; /* removed later on */
		if (git_blob_lookup(&pi->blob, pi->repo,
				    git_tree_entry_id(ent)) < 0) {
			rc = pc_err_git(err, PC_EGIT,
					"cannot read message blob in '%s'",
					pi->epochs[pi->cur]);
			goto out;
		}
		if (git_blob_rawsize(pi->blob) == 0) {
			/* Purged: public-inbox-purge leaves an empty m. */
			git_blob_free(pi->blob);
			pi->blob = NULL;
			continue;
		}
		break;
	}
	git_oid_tostr(hex, sizeof(hex), &oid);
	pc_buf_reset(&pi->where);
	pc_buf_addf(&pi->where, "%s:%s", pi->epochs[pi->cur], hex);
	*data = git_blob_rawcontent(pi->blob);
	*len = (size_t)git_blob_rawsize(pi->blob);
	*where = pi->where.buf;
	rc = 1;
out:
	git_tree_free(tree);
	git_commit_free(commit);
	return rc;
}

void pc_pinbox_progress(const struct pc_pinbox *pi, uint64_t *done,
			uint64_t *total)
{
	*done = pi->done;
	*total = pi->total;
}

void pc_pinbox_free(struct pc_pinbox *pi)
{
	size_t i;

	if (!pi)
		return;
	git_blob_free(pi->blob);
	git_revwalk_free(pi->walk);
	git_repository_free(pi->repo);
	free(pi->removed);
	for (i = 0; i < pi->nepochs; i++)
		free(pi->epochs[i]);
	free(pi->epochs);
	pc_buf_release(&pi->where);
	if (pi->inited)
		git_libgit2_shutdown();
	free(pi);
}
