/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Logging for the daemon and the CLI, in OpenSMTPD's shape: stderr in the
 * foreground and in tests, syslog when detached.
 */
#ifndef PC_DAEMON_LOG_H
#define PC_DAEMON_LOG_H

#include <stdarg.h>

/* foreground: log to stderr; else syslog. verbose: show log_debug(). */
void log_init(const char *ident, int foreground, int verbose);
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void fatalx(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

#endif
