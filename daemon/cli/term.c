// SPDX-License-Identifier: GPL-2.0-or-later
/* Pager, colour and width for listings. See term.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/safeout.h"
#include "cli/term.h"
#include "util/banned.h"

/* The program's one terminal: decided once, the pager's pid kept for
 * the exit handler. */
static int colour = -1;
static size_t width;
static pid_t pager_pid;

static void pager_end(void)
{
	int status;

	if (pager_pid <= 0)
		return;
	fflush(stdout);
	fflush(NULL);
	/* EOF for the pager: our stdout is its pipe's only writer. */
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}

int term_colour(void)
{
	const char *term = getenv("TERM");

	if (colour < 0)
		colour = isatty(STDOUT_FILENO) && !getenv("NO_COLOR") &&
			 !(term && !strcmp(term, "dumb"));
	return colour;
}

size_t term_width(void)
{
	struct winsize ws;

	if (width)
		return width;
	if (isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		width = ws.ws_col;
	return width;
}

int term_pager(void)
{
	const char *pager = getenv("PATCHCLOCK_PAGER");
	int fd[2];
	pid_t pid;

	if (!isatty(STDOUT_FILENO))
		return 0;
	/* Decided on the terminal, before stdout becomes the pipe. */
	term_colour();
	term_width();
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return 0;
	if (pipe(fd) < 0)
		return 0;
	fflush(stdout);
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return 0;
	}
	if (pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
	/* A reader who quits the pager early ends the listing quietly. */
	signal(SIGPIPE, SIG_DFL);
	pager_pid = pid;
	atexit(pager_end);
	return 1;
}

void term_paint(enum term_ink ink)
{
	static const char *const sgr[] = {
		[TERM_PLAIN] = "\033[m",    [TERM_RED] = "\033[31m",
		[TERM_YELLOW] = "\033[33m", [TERM_GREEN] = "\033[32m",
		[TERM_DIM] = "\033[2m",
	};

	if (term_colour())
		safeout_raw(sgr[ink]);
}
