// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The default kernel tree, as far as it is known without reading the
 * configuration (policy.h): shared by policy.c's cli_tree_dir() and the
 * light `patchclock` (cli/front.c), which hands the command to the core
 * when only the configuration can name the tree.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "policy.h"
#include "util/banned.h"

const char *cli_tree_dir_given(const char *opt)
{
	const char *env = getenv("PC_KERNEL_TREE");
	struct stat st;

	if (opt)
		return opt;
	if (env && *env)
		return env;
	if (stat("MAINTAINERS", &st) == 0 && S_ISREG(st.st_mode))
		return ".";
	return NULL;
}
