// SPDX-License-Identifier: GPL-2.0-or-later
/* The CLI's reading of patchclockd.conf. See cliconf.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cliconf.h"
#include "conf.h"
#include "log.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define SYSTEM_CONF "/etc/patchclock/patchclockd.conf"

/* The user's file: $XDG_CONFIG_HOME, else ~/.config. */
static char *user_conf(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		return xasprintf("%s/patchclock/patchclockd.conf", xdg);
	if (home && *home)
		return xasprintf("%s/.config/patchclock/patchclockd.conf",
				 home);
	return NULL;
}

static struct conf *load(void)
{
	const char *env = getenv("PATCHCLOCK_CONFIG");
	char *user = NULL, errbuf[512];
	const char *path = NULL;
	struct conf *c = NULL;

	if (env) {
		/* Set and empty: no configuration at all. */
		if (!*env)
			return NULL;
		path = env;
	} else if (access(SYSTEM_CONF, F_OK) == 0) {
		path = SYSTEM_CONF;
	} else if ((user = user_conf()) && access(user, F_OK) == 0) {
		path = user;
	}
	if (!path) {
		free(user);
		return NULL;
	}
	if (access(path, R_OK) < 0) {
		log_debug("configuration '%s' not read: %s", path,
			  strerror(errno));
	} else if (conf_load(&c, path, errbuf, sizeof(errbuf)) < 0) {
		log_warnx("%s; ignoring that configuration (`patchclockd -n "
			  "-f %s` checks it)",
			  errbuf, path);
		c = NULL;
	}
	free(user);
	return c;
}

const struct conf *cli_conf(void)
{
	/* The program's one configuration, read once. */
	static struct conf *conf;
	static int loaded;

	if (!loaded) {
		loaded = 1;
		conf = load();
	}
	return conf;
}
