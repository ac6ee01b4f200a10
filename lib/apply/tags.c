// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Release tags of a tree through libgit2 (see tags.h). libgit2 is
 * initialised and shut down around each call: it keeps global state, and
 * lib/ keeps none between calls.
 */
#include <git2.h>
#include <string.h>

#include "apply/tags.h"
#include "util/banned.h"

struct walk {
	git_repository *repo;
	pc_tag_fn fn;
	void *arg;
	int stop;
};

static int on_tag(const char *ref, git_oid *oid, void *payload)
{
	struct walk *w = payload;
	const char *name = ref;
	git_object *obj = NULL;
	int64_t when = 0;

	if (!strncmp(name, "refs/tags/", 10))
		name += 10;
	if (git_object_lookup(&obj, w->repo, oid, GIT_OBJECT_ANY) < 0)
		return 0;
	if (git_object_type(obj) == GIT_OBJECT_TAG) {
		const git_signature *sig = git_tag_tagger((git_tag *)obj);
		git_object *target = NULL;

		if (sig) {
			when = (int64_t)sig->when.time;
		} else if (git_tag_peel(&target, (git_tag *)obj) == 0) {
			if (git_object_type(target) == GIT_OBJECT_COMMIT)
				when = (int64_t)git_commit_time(
					(git_commit *)target);
			git_object_free(target);
		}
	} else if (git_object_type(obj) == GIT_OBJECT_COMMIT) {
		when = (int64_t)git_commit_time((git_commit *)obj);
	}
	git_object_free(obj);
	if (when && (w->stop = w->fn(name, when, w->arg)) != 0)
		return 1;
	return 0;
}

int pc_tree_tags(const char *tree_dir, pc_tag_fn fn, void *arg,
		 struct pc_err *err)
{
	struct walk w = { NULL, fn, arg, 0 };
	int rc;

	git_libgit2_init();
	if (git_repository_open(&w.repo, tree_dir) < 0) {
		const git_error *e = git_error_last();

		rc = pc_err_set(err, PC_EIO,
				"cannot open '%s' as a git repository: %s",
				tree_dir, e && e->message ? e->message : "?");
		git_libgit2_shutdown();
		return rc;
	}
	git_tag_foreach(w.repo, on_tag, &w);
	git_repository_free(w.repo);
	git_libgit2_shutdown();
	return w.stop;
}
