/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One configuration for both programs: the CLI reads patchclockd's file
 * for its defaults, so that `patchclock status` on the daemon's database
 * uses the daemon's tree and settings. The file is $PATCHCLOCK_CONFIG,
 * else /etc/patchclock/patchclockd.conf, else
 * $XDG_CONFIG_HOME/patchclock/patchclockd.conf (~/.config when unset),
 * the first that exists. A file this user may not read is passed over
 * (the daemon's may be readable by its group only); one with an error is
 * named with the error, once, and ignored. What it gives: the database,
 * the tree, and the policy ([policy] overrides, no_map, bots; releases,
 * holidays, branches; the [project]s). Options and the environment
 * ($PATCHCLOCK_DB, $PC_KERNEL_TREE) still win.
 */
#ifndef PC_CLI_CLICONF_H
#define PC_CLI_CLICONF_H

struct conf;

/* The configuration, loaded on first use; NULL when there is none. It
 * lives as long as the program. */
const struct conf *cli_conf(void);

#endif
