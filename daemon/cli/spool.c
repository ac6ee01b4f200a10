// SPDX-License-Identifier: GPL-2.0-or-later
/* stdout relayed through memory while the write lock is held. See
 * spool.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/spool.h"
#include "util/buf.h"
#include "util/banned.h"

static struct relay {
	int in; /* the pipe stdout writes to */
	int out; /* the real stdout */
	pthread_t thread;
	int running;
	int broken; /* the reader went away: a write failed */
} relay = { -1, -1, 0, 0, 0 };

/* Reads the pipe into memory as fast as it fills and writes what is
 * held to the real stdout whenever that takes more, until the pipe's
 * writer is gone and all is written. */
static void *relay_main(void *arg)
{
	struct relay *r = arg;
	struct pc_buf held = PC_BUF_INIT;
	size_t off = 0;
	int eof = 0;
	char chunk[65536];

	while (!eof || off < held.len) {
		struct pollfd p[2];
		nfds_t n = 0;
		int in_at = -1, out_at = -1;

		if (!eof) {
			in_at = (int)n;
			p[n++] = (struct pollfd){ .fd = r->in,
						  .events = POLLIN };
		}
		if (off < held.len) {
			out_at = (int)n;
			p[n++] = (struct pollfd){ .fd = r->out,
						  .events = POLLOUT };
		}
		if (poll(p, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			/* Never leave the program writing into a pipe
			 * nobody reads. */
			r->broken = 1;
			break;
		}
		if (in_at >= 0 && p[in_at].revents) {
			ssize_t got = read(r->in, chunk, sizeof(chunk));

			if (got > 0)
				pc_buf_add(&held, chunk, (size_t)got);
			else if (got == 0 ||
				 (errno != EINTR && errno != EAGAIN))
				eof = 1;
		}
		if (out_at >= 0 && p[out_at].revents) {
			/* POLLOUT promises room for PIPE_BUF bytes: no more,
			 * so that reading the pipe never waits on the
			 * reader. */
			size_t want = held.len - off;
			ssize_t put = write(r->out, held.buf + off,
					    want < PIPE_BUF ? want : PIPE_BUF);

			if (put > 0) {
				off += (size_t)put;
			} else if (put < 0 && errno != EINTR &&
				   errno != EAGAIN) {
				r->broken = 1;
				break;
			}
			if (off == held.len) {
				pc_buf_reset(&held);
				off = 0;
			}
		}
	}
	pc_buf_release(&held);
	/* The reader is gone: the program's next write to the pipe fails
	 * as its write to the reader would have. */
	if (r->broken) {
		close(r->in);
		r->in = -1;
	}
	return NULL;
}

int spool_begin(void)
{
	struct stat sb;
	int fd[2], out;

	if (relay.running || fstat(STDOUT_FILENO, &sb) < 0 ||
	    S_ISREG(sb.st_mode))
		return 0;
	fflush(stdout);
	fflush(NULL);
	if (pipe2(fd, O_CLOEXEC) < 0)
		return 0;
	if ((out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0 ||
	    dup2(fd[1], STDOUT_FILENO) < 0) {
		if (out >= 0)
			close(out);
		close(fd[0]);
		close(fd[1]);
		return 0;
	}
	close(fd[1]);
	relay.in = fd[0];
	relay.out = out;
	relay.broken = 0;
	if (pthread_create(&relay.thread, NULL, relay_main, &relay)) {
		dup2(out, STDOUT_FILENO);
		close(out);
		close(fd[0]);
		relay.in = relay.out = -1;
		return 0;
	}
	relay.running = 1;
	return 1;
}

void spool_end(void)
{
	if (!relay.running)
		return;
	/* stdout first: the control-character filter (safeout.h) writes
	 * into the stream beneath it, which the second flush empties. */
	fflush(stdout);
	fflush(NULL);
	/* The real stdout back on fd 1; the pipe loses its one writer, and
	 * the relay, once it has written what it holds, sees its end. */
	dup2(relay.out, STDOUT_FILENO);
	pthread_join(relay.thread, NULL);
	relay.running = 0;
	if (relay.in >= 0)
		close(relay.in);
	close(relay.out);
	relay.in = relay.out = -1;
	if (relay.broken)
		raise(SIGPIPE);
}
