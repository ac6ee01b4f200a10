/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a path of a kernel tree is tracked by its git repository, as
 * `git ls-files -- PATH` answers it (a directory: some file below it is),
 * without a process per question. `patchclock who` asks it for every
 * argument that names an existing file of a tree with .git, to tell a
 * source file from a patch lying in the tree; maintainers call it once
 * per patch. The answers come from a file in the cache directory: the
 * 64-bit hashes of every tracked path and of each of their directories,
 * sorted, made with one `git ls-files -z` and used while the index file
 * is the same one (device, inode, size and modification time). A cache
 * that cannot be read or written is passed over: git is asked.
 */
#ifndef PC_MAINT_TRACKED_H
#define PC_MAINT_TRACKED_H

/*
 * Whether path (relative to the top of tree, no "./" or ".."; "." the
 * whole tree) is tracked by the git repository at tree. cache_dir may be
 * NULL or "" (no cache). Returns 1, 0, or -1 when git cannot tell (no
 * repository, no git).
 */
int pc_tracked(const char *tree, const char *cache_dir, const char *path);

#endif
