/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output written while the program holds the database's write lock.
 *
 * A listing that judges (status, digest --dry-run) writes its rows from
 * inside a transaction that holds the write lock; on a pipe or a
 * terminal a write blocks as soon as the reader stops reading (a pager
 * showing its first screen), and the lock would be held for as long as
 * the person reads: the daemon's ingest and judging would wait on them.
 * spool_begin() puts a pipe in front of stdout with a thread that relays
 * it to the real stdout, keeping in memory what the reader has not
 * taken yet: the program's writes never wait on the reader, the first
 * screen still shows at once, and the lock goes when the judging ends.
 * Regular files need none of this and are left alone.
 */
#ifndef PC_CLI_SPOOL_H
#define PC_CLI_SPOOL_H

/* Starts relaying stdout when it is not a regular file; returns 1 when
 * it does, 0 when it need not or cannot (stdout unchanged). */
int spool_begin(void);

/* Flushes stdout, hands the real stdout back and waits until the relay
 * has written all it holds (now with no lock held). A reader who quit
 * ends the program as a write to them would have (SIGPIPE). */
void spool_end(void);

#endif
