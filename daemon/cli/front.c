// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The light `patchclock`: what runs before any command, and `who`, in a
 * program that links only what those need (libpcre2, json-c, libc), so
 * that `patchclock who` in a loop does not load the 47 shared libraries
 * the other commands bring (SQLite, libgit2, libcurl and GnuTLS,
 * libcrypto, libetpan, libopendkim, GLib...). Every other command, and
 * `who` when only the configuration can name the tree, is run by
 * patchclock-core, the whole CLI, which this program replaces itself
 * with: PREFIX/libexec/patchclock-core once installed, beside it in a
 * build tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "log.h"
#include "policy.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define CORE "patchclock-core"

/* The command line, for the core to run it again. */
static char **front_argv;

void cli_front_init(char **argv)
{
	front_argv = argv;
}

/* Where the core is: libexec beside bin, else beside this program. */
static char *core_path(void)
{
	char exe[PATH_MAX], *slash, *p;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = '\0';
	p = xasprintf("%s/../libexec/" CORE, exe);
	if (access(p, X_OK) == 0)
		return p;
	free(p);
	p = xasprintf("%s/" CORE, exe);
	if (access(p, X_OK) == 0)
		return p;
	free(p);
	return NULL;
}

void cli_front_core(void)
{
	char *core = core_path();

	fflush(stdout);
	if (core)
		execv(core, front_argv);
	log_warnx("cannot run %s%s%s (it is installed in PREFIX/libexec, or "
		  "built beside patchclock): reinstall patchclock",
		  core ? core : CORE, core ? ": " : "",
		  core ? strerror(errno) : "");
	exit(CLI_FAIL);
}

/*
 * cli_tree_dir() without the configuration: when only the configuration
 * can name the tree, the core runs the command (nothing has been done
 * yet but reading the options).
 */
const char *cli_tree_dir(const char *opt)
{
	const char *dir = cli_tree_dir_given(opt);

	if (!dir)
		cli_front_core();
	return dir;
}
