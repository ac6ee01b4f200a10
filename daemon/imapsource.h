/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IMAP sources of patchclockd. libetpan blocks, so each [source] of
 * type imap gets a fetcher child process with its own database
 * connection: it logs in, reads the folder's new mail by UID into the
 * database (the cursor moves in the same transaction as the messages),
 * then waits in IDLE (or polls), and reconnects with backoff when the
 * server goes away. After each transaction that stored new mail it
 * writes one byte to a pipe; the loop in the parent reads the pipe and
 * judges the new state at once.
 *
 * The parent restarts a child that dies (backoff from 1 s to 5 min) and
 * stops them all on reload and exit: SIGTERM, then SIGKILL after 5 s.
 * Killing a child is safe: its open transaction rolls back, the cursor
 * with it, and the next child fetches those messages again.
 */
#ifndef PC_DAEMON_IMAPSOURCE_H
#define PC_DAEMON_IMAPSOURCE_H

#include <ev.h>

#include "conf.h"
#include "simclock.h"

struct imapsrc_set;

/* Called on the loop when a fetcher has stored new mail. */
typedef void (*imapsrc_news_fn)(void *arg);

/*
 * Starts a fetcher for every imap source of c (none: returns NULL).
 * c and clock must outlive the set.
 */
struct imapsrc_set *imapsrc_start(struct ev_loop *loop, const struct conf *c,
				  const struct simclock *clock,
				  imapsrc_news_fn fn, void *arg);

/* Stops every fetcher, waits for them, frees the set (NULL: no-op). */
void imapsrc_stop(struct imapsrc_set *set);

#endif
