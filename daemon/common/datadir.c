// SPDX-License-Identifier: GPL-2.0-or-later
/* The runtime data directory. See datadir.h. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define DATA_FALLBACK "/usr/share/patchclock"

/* share/patchclock beside the program's directory, when it is there. */
static char *beside_program(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash, *dir;
	struct stat st;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = '\0';
	dir = xasprintf("%s/../share/patchclock", exe);
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *real = realpath(dir, NULL);

		if (real) {
			free(dir);
			dir = real;
		}
		return dir;
	}
	free(dir);
	return NULL;
}

const char *pc_data_dir(void)
{
	/* Found once: the program's one answer for its whole run. */
	static char *dir;
	const char *env;

	if (dir)
		return dir;
	env = getenv("PATCHCLOCK_DATA_DIR");
	if (env && *env)
		dir = xstrdup(env);
	else if (!(dir = beside_program()))
		dir = xstrdup(DATA_FALLBACK);
	return dir;
}

char *pc_data_path(const char *name)
{
	return xasprintf("%s/%s", pc_data_dir(), name);
}
