/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a path a mailed patch names may be written into a kernel git
 * tree: git's own rules, as `git fsck` and git's index (verify_path) apply
 * them with core.protectHFS and core.protectNTFS on, plus patchclock's.
 * Pure: no git, no I/O, no allocation that outlives a call.
 *
 * A path is refused when it
 *  - is empty, absolute, PC_GITPATH_MAX bytes or longer, or not valid
 *    UTF-8 (overlong forms, surrogates and code points past U+10FFFF
 *    included);
 *  - has an empty, "." or ".." component;
 *  - has a component that is ".git" to git or to a filesystem: ".git" in
 *    any case; the same with the Unicode characters HFS+ ignores
 *    (U+200C..U+200F, U+202A..U+202E, U+206A..U+206F, U+FEFF) anywhere in
 *    it; ".git" followed by spaces and dots only, or by an NTFS alternate
 *    data stream (".git:x", ".git::$INDEX_ALLOCATION"); the NTFS short
 *    name "git~1" (any case);
 *  - has a component that is ".gitmodules" by the same HFS+ and NTFS
 *    rules, short names "gitmod~1".."gitmod~4" and the fallback short
 *    name "gi7eba~N" included: the kernel tree has no submodules, and git
 *    reads that file to find them (git itself refuses it as a symbolic
 *    link; patchclock refuses it whatever it is);
 *  - is a symbolic link whose last component is ".gitattributes",
 *    ".gitignore" or ".mailmap" by those rules (git fsck refuses them);
 *  - is a gitlink (mode 0160000, a submodule commit);
 *  - has a backslash: a directory separator on Windows. Components are
 *    split at backslashes as well as slashes for the rules above, as git
 *    does for NTFS.
 * Names that merely start like those (".github", ".gitignore" as a
 * regular file, ".git-blame-ignore-revs", "git~2") are fine, as in git.
 */
#ifndef PC_APPLY_GITPATH_H
#define PC_APPLY_GITPATH_H

#include "util/err.h"

#define PC_GITPATH_MAX 4096 /* bytes, the terminating NUL included */

/* git's file modes (the values git writes in trees and diffs). */
#define PC_GITPATH_MODE_LINK 0120000u
#define PC_GITPATH_MODE_GITLINK 0160000u

/*
 * Checks path (NUL-terminated, relative to the top of the tree) for an
 * entry of git file mode `mode` (0100644, 0100755, PC_GITPATH_MODE_LINK,
 * PC_GITPATH_MODE_GITLINK; 0 when unknown). Returns 0 when git and
 * patchclock accept it, or PC_EUSAGE with a message naming the path
 * (bytes outside printable ASCII written as \ooo) and the reason.
 */
int pc_gitpath_check(const char *path, unsigned mode, struct pc_err *err);

#endif
