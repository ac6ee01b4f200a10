// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Logging (see log.h). The only mutable file-scope state in the project
 * lives here, in daemon/, as the style allows: the log destination is a
 * process-wide property.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "log.h"
#include "util/banned.h"

static const char *log_ident = "patchclock";
static int log_foreground = 1;
static int log_verbose;

void log_init(const char *ident, int foreground, int verbose)
{
	log_ident = ident;
	log_foreground = foreground;
	log_verbose = verbose;
	if (!foreground)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

static void vlog(int pri, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vlog(int pri, const char *fmt, va_list ap)
{
	if (log_foreground) {
		fprintf(stderr, "%s: ", log_ident);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		fflush(stderr);
	} else {
		vsyslog(pri, fmt, ap);
	}
}

static void vlog_errno(int pri, int saved, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void vlog_errno(int pri, int saved, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (log_foreground)
		fprintf(stderr, "%s: %s: %s\n", log_ident, buf,
			strerror(saved));
	else
		syslog(pri, "%s: %s", buf, strerror(saved));
}

void log_warn(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vlog_errno(LOG_WARNING, saved, fmt, ap);
	va_end(ap);
}

void log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_WARNING, fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, fmt, ap);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vlog(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

void fatal(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vlog_errno(LOG_CRIT, saved, fmt, ap);
	va_end(ap);
	exit(1);
}

void fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}
