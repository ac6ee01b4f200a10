/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sending one message over SMTP with libcurl: SMTPS (smtps://) or SMTP
 * with STARTTLS required (smtp:// and starttls), AUTH when a user is
 * given, the envelope sender from the options. The message is given with
 * LF line ends and sent with CRLF; libcurl dot-stuffs it.
 *
 * Outcomes are sorted for the outbox: sent (the server's 250 after DATA),
 * temporary (4xx replies, connection and TLS failures, timeouts: retry
 * with backoff), permanent (5xx replies: report, do not retry).
 *
 * A recipient the server refuses at RCPT does not stop the mail: it goes
 * to the recipients the server accepts (sent), and the refused ones are
 * named in the result; those refused for now (4xx) are listed apart, to
 * be tried again alone. Only when every recipient is refused is the mail
 * not sent (temporary or permanent by the last refusal's code).
 */
#ifndef PC_NOTIFY_SMTP_H
#define PC_NOTIFY_SMTP_H

#include <stddef.h>

#include "util/err.h"

struct pc_smtp_options {
	const char *url; /* "smtp://host:port" or "smtps://host:port" */
	int starttls; /* smtp://: require STARTTLS (default 1) */
	const char *user; /* AUTH user, or NULL for no AUTH */
	const char *password; /* borrowed; never logged */
	const char *ca_file; /* CA bundle to verify the server, or NULL */
	const char *helo; /* EHLO name, or NULL for libcurl's default */
	const char *from; /* envelope sender (MAIL FROM) */
	long timeout; /* seconds for the whole exchange */
};

#define PC_SMTP_OPTIONS_INIT                               \
	{                                                  \
		NULL, 1, NULL, NULL, NULL, NULL, NULL, 60L \
	}

enum pc_smtp_outcome {
	PC_SMTP_SENT = 0,
	PC_SMTP_TEMPORARY, /* try again later */
	PC_SMTP_PERMANENT, /* the server refused it for good */
};

struct pc_smtp_result {
	enum pc_smtp_outcome outcome;
	long code; /* the last SMTP reply code, 0 when none */
	char detail[256]; /* what went wrong, without credentials */
	/* recipients refused at RCPT, each "addr (reply)", "; "-separated
	 * (cut short with "..." when they do not fit) */
	unsigned nrejected;
	char rejected[512];
	/* of those, the ones refused for now (4xx at RCPT), space-separated:
	 * the mail goes to them again later, to them alone */
	unsigned nretry;
	char retry[512];
	/* the server's answer to the message when it took it ("250 OK
	 * id=1tJx3b-000Abc-2K": its queue id), "" when none */
	char server_reply[160];
};

/*
 * Whether the options are safe to use: a password is never sent in clear
 * text (smtp:// without STARTTLS) to a server that is not on loopback.
 * Returns 0, or PC_EUSAGE saying what to do.
 */
int pc_smtp_check(const struct pc_smtp_options *o, struct pc_err *err);

/*
 * A connection kept open across mails: one TLS handshake and login for a
 * whole run, and no QUIT between the server's 250 and the caller's "sent"
 * mark (a crash there is what can send a mail twice). Start with
 * PC_SMTP_CONN_INIT; pc_smtp_conn_close() says QUIT.
 */
struct pc_smtp_conn {
	void *handle; /* libcurl's, or NULL before the first mail */
};

#define PC_SMTP_CONN_INIT \
	{                 \
		NULL      \
	}

void pc_smtp_conn_close(struct pc_smtp_conn *c);

/*
 * Sends (msg, len) to rcpts[0..n), over conn when given (reused when the
 * server kept it open; the options must be the same each time), else over
 * a connection of its own. Returns 0 and fills *res in every case where a
 * delivery was attempted (look at res->outcome); PC_EUSAGE for bad options
 * (no URL, no sender, no recipient, pc_smtp_check()).
 */
int pc_smtp_send(struct pc_smtp_result *res, struct pc_smtp_conn *conn,
		 const struct pc_smtp_options *o, const char *const *rcpts,
		 size_t n, const char *msg, size_t len, struct pc_err *err);

#endif
