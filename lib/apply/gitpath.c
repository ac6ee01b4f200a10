// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * git's rules for the paths of a tree, for the patches patchclock
 * applies. See gitpath.h. The rules follow git's semantics (read-cache.c
 * verify_path, fsck.c, utf8.c is_hfs_dotgit, path.c is_ntfs_dotgit and
 * kin); the code is patchclock's and works on (ptr, len) components.
 */
#include <stdio.h>
#include <string.h>

#include "apply/gitpath.h"
#include "util/banned.h"

/* ASCII only: the names compared here are ASCII, and the C library's
 * case folding would follow the locale. */
static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* s[0..n) equals the lower-case ASCII lc[0..n), ignoring case. */
static int ieq(const char *s, const char *lc, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lower((unsigned char)s[i]) != lc[i])
			return 0;
	return 1;
}

/*
 * Decodes the UTF-8 sequence at s[*i] (i < len), moves *i past it and
 * returns the code point; -1 when it is malformed: a stray continuation
 * byte, a sequence cut short, an overlong form, a surrogate or a code
 * point past U+10FFFF.
 */
static long utf8_next(const char *s, size_t len, size_t *i)
{
	const unsigned char *u = (const unsigned char *)s + *i;
	size_t n, k;
	long cp, min;

	if (u[0] < 0x80) {
		++*i;
		return u[0];
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		n = 1;
		cp = u[0] & 0x1f;
		min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		n = 2;
		cp = u[0] & 0x0f;
		min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		n = 3;
		cp = u[0] & 0x07;
		min = 0x10000;
	} else {
		return -1;
	}
	if (len - *i <= n)
		return -1;
	for (k = 1; k <= n; k++) {
		if ((u[k] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (u[k] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*i += n + 1;
	return cp;
}

static int utf8_valid(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len)
		if (utf8_next(s, len, &i) < 0)
			return 0;
	return 1;
}

/* The code points HFS+ drops when it compares names. */
static int hfs_ignored(long cp)
{
	return (cp >= 0x200c && cp <= 0x200f) ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x206a && cp <= 0x206f) || cp == 0xfeff;
}

/* The next code point of name[*i..len) HFS+ does not ignore; 0 at the
 * end, -1 when the rest is not UTF-8. */
static long hfs_next(const char *name, size_t len, size_t *i)
{
	while (*i < len) {
		long cp = utf8_next(name, len, i);

		if (cp < 0 || !hfs_ignored(cp))
			return cp;
	}
	return 0;
}

/* HFS+ would take name for "." followed by lc (lower-case ASCII): the
 * comparison ignores case and the ignorable code points. */
static int is_hfs_dot(const char *name, size_t len, const char *lc)
{
	size_t i = 0;
	long cp;

	if (hfs_next(name, len, &i) != '.')
		return 0;
	for (; *lc; lc++) {
		cp = hfs_next(name, len, &i);
		if (cp <= 0 || cp > 0x7f || lower((int)cp) != *lc)
			return 0;
	}
	return hfs_next(name, len, &i) == 0;
}

/* NTFS drops trailing spaces and dots, and a ':' starts an alternate
 * data stream of the same file: name[from..len) is only that. */
static int ntfs_tail(const char *name, size_t len, size_t from)
{
	size_t i;

	for (i = from; i < len && name[i] != ':'; i++)
		if (name[i] != ' ' && name[i] != '.')
			return 0;
	return 1;
}

/* NTFS would take name for ".git", or for its short name "git~1". */
static int is_ntfs_dotgit(const char *name, size_t len)
{
	if (len >= 4 && name[0] == '.' && ieq(name + 1, "git", 3))
		return ntfs_tail(name, len, 4);
	if (len >= 5 && ieq(name, "git~1", 5))
		return ntfs_tail(name, len, 5);
	return 0;
}

/*
 * NTFS would take name for "." followed by lc (lower-case ASCII, at
 * least six characters), for its regular short name (lc's first six
 * characters, then ~1 to ~4), or for its fallback short name: up to six
 * characters of short (git's fixed hash prefix of the name), '~', a digit
 * 1 to 9, then digits, eight characters in all.
 */
static int is_ntfs_dot(const char *name, size_t len, const char *lc,
		       const char *short_prefix)
{
	size_t n = strlen(lc), i;
	int tilde = 0;

	if (len >= n + 1 && name[0] == '.' && ieq(name + 1, lc, n))
		return ntfs_tail(name, len, n + 1);
	if (len >= 8 && ieq(name, lc, 6) && name[6] == '~' && name[7] >= '1' &&
	    name[7] <= '4')
		return ntfs_tail(name, len, 8);
	if (len < 8)
		return 0;
	for (i = 0; i < 8; i++) {
		unsigned char c = (unsigned char)name[i];

		if (tilde) {
			if (c < '0' || c > '9')
				return 0;
		} else if (c == '~') {
			/* i < 7 here: without a '~' by i == 6 the name
			 * was refused below. */
			i++;
			if (name[i] < '1' || name[i] > '9')
				return 0;
			tilde = 1;
		} else if (i >= 6 || c >= 0x80 || lower(c) != short_prefix[i]) {
			return 0;
		}
	}
	return ntfs_tail(name, len, 8);
}

static int is_dotgit(const char *name, size_t len)
{
	return is_hfs_dot(name, len, "git") || is_ntfs_dotgit(name, len);
}

/* The dotfiles git reads from the tree and fsck checks by name, with the
 * prefix of their NTFS fallback short names. */
static const struct {
	const char *lc, *short_prefix;
} DOTFILES[] = {
	{ "gitmodules", "gi7eba" },
	{ "gitattributes", "gi7d29" },
	{ "gitignore", "gi250a" },
	{ "mailmap", "maba30" },
};

/* Index in DOTFILES of the file name stands for, or -1. */
static int dotfile(const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < sizeof(DOTFILES) / sizeof(DOTFILES[0]); k++)
		if (is_hfs_dot(name, len, DOTFILES[k].lc) ||
		    is_ntfs_dot(name, len, DOTFILES[k].lc,
				DOTFILES[k].short_prefix))
			return (int)k;
	return -1;
}

/*
 * Writes s[0..len) to out[size] for a message: bytes outside printable
 * ASCII and the backslash as \ooo (as git quotes paths), cut short with
 * "..." when it does not fit, so that the reason after it still does.
 */
static void quote(char *out, size_t size, const char *s, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		int plain = c >= 0x20 && c < 0x7f && c != '\\';

		if (o + (plain ? 1 : 4) + 4 > size) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (plain)
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, size - o, "\\%03o", c);
	}
	out[o] = '\0';
}

int pc_gitpath_check(const char *path, unsigned mode, struct pc_err *err)
{
	char qpath[96], qname[64];
	size_t len, start, end;

	if (!path || !*path)
		return pc_err_set(err, PC_EUSAGE, "a diff names an empty path");
	len = strlen(path);
	quote(qpath, sizeof(qpath), path, len);
	if (len >= PC_GITPATH_MAX)
		return pc_err_set(err, PC_EUSAGE,
				  "refusing path '%s': it is %zu bytes long, "
				  "more than %d",
				  qpath, len, PC_GITPATH_MAX - 1);
	if (!utf8_valid(path, len))
		return pc_err_set(err, PC_EUSAGE,
				  "refusing path '%s': it is not valid UTF-8",
				  qpath);
	if (path[0] == '/')
		return pc_err_set(err, PC_EUSAGE, "refusing absolute path '%s'",
				  qpath);
	if (mode == PC_GITPATH_MODE_GITLINK)
		return pc_err_set(err, PC_EUSAGE,
				  "refusing the gitlink '%s' (a submodule "
				  "commit): the kernel tree has no submodules, "
				  "apply it by hand",
				  qpath);
	for (start = 0; start <= len; start = end + 1) {
		const char *c = path + start;
		size_t n;
		int k;

		end = start + strcspn(c, "/\\");
		n = end - start;
		quote(qname, sizeof(qname), c, n);
		if (n == 0 || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return pc_err_set(err, PC_EUSAGE,
					  "refusing path '%s': an empty, '.' "
					  "or '..' component could leave the "
					  "tree",
					  qpath);
		if (is_dotgit(c, n))
			return pc_err_set(err, PC_EUSAGE,
					  "refusing path '%s': '%s' is .git to "
					  "git or to a filesystem, it could "
					  "reach into .git",
					  qpath, qname);
		k = dotfile(c, n);
		if (k == 0)
			return pc_err_set(err, PC_EUSAGE,
					  "refusing path '%s': '%s' is "
					  ".gitmodules to git or to a "
					  "filesystem, and the kernel tree has "
					  "no submodules: apply it by hand",
					  qpath, qname);
		if (k > 0 && end == len && mode == PC_GITPATH_MODE_LINK)
			return pc_err_set(
				err, PC_EUSAGE,
				"refusing path '%s': git fsck refuses "
				"a symbolic link named .%s ('%s')",
				qpath, DOTFILES[k].lc, qname);
		if (path[end] == '\\')
			return pc_err_set(
				err, PC_EUSAGE,
				"refusing path '%s': a backslash is a "
				"directory separator on Windows",
				qpath);
	}
	return 0;
}
