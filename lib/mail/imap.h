/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A blocking IMAP client for one folder, on libetpan: connect (implicit
 * TLS, STARTTLS, or plain on loopback only), log in, select a folder,
 * list the UIDs above a mark, fetch messages by UID one at a time into a
 * callback, and wait in IDLE. It blocks: the daemon runs it in a child
 * process, never on its event loop.
 *
 * TLS: libetpan (built on GnuTLS in Debian) does not verify the server's
 * certificate, so this module does: the chain the server sent is checked
 * with OpenSSL against the system's trust store or a given CA file, and
 * the certificate must name the host (DNS name or IP address). A failure
 * is PC_EAUTH and nothing, not even the user name, is sent.
 *
 * Messages come out with LF line endings, like every pc_source, so the
 * same mail read from IMAP, an mbox or a maildir has the same bytes.
 *
 * Errors: PC_ENET (connection lost, timeout, server error: try again
 * later), PC_EAUTH (login refused, certificate rejected, plain text
 * refused off loopback: retrying will not help), PC_ENOTFOUND (no such
 * folder), PC_EUSAGE (bad options), PC_ELIMIT (a message over the size
 * limit: see pc_imap_fetch()).
 */
#ifndef PC_MAIL_IMAP_H
#define PC_MAIL_IMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum pc_imap_security {
	PC_IMAP_TLS, /* imaps://: TLS from the first byte (port 993) */
	PC_IMAP_STARTTLS, /* imap://: STARTTLS required (port 143) */
	PC_IMAP_PLAIN, /* imap:// without TLS: refused unless loopback */
};

struct pc_imap_options {
	const char *host; /* name or address */
	unsigned port; /* 0: 993 for TLS, else 143 */
	enum pc_imap_security security;
	const char *ca_file; /* NULL: the system's trust store */
	const char *user;
	const char *password; /* never logged or put in a message */
	unsigned timeout; /* seconds for any network wait; 0: 60 */
	size_t max_message; /* larger messages are reported, not fetched */
};

#define PC_IMAP_OPTIONS_INIT                            \
	{                                               \
		.security = PC_IMAP_TLS, .timeout = 60, \
		.max_message = 64u << 20                \
	}

struct pc_imap;

/*
 * Parses "imap://HOST[:PORT]" or "imaps://HOST[:PORT]" (IPv6 in
 * brackets) into o->host (a copy in *host_out, caller frees), o->port and
 * o->security (imap:// means STARTTLS). Returns 0 or PC_EUSAGE.
 */
int pc_imap_parse_url(char **host_out, struct pc_imap_options *o,
		      const char *url, struct pc_err *err);

/* Whether host is a loopback name or address (localhost, 127/8, ::1). */
int pc_imap_is_loopback(const char *host);

/*
 * Connects, secures the connection as o->security says, verifies the
 * certificate, and logs in (LOGIN, or AUTHENTICATE PLAIN when the server
 * disables LOGIN). *out is freed with pc_imap_free().
 */
int pc_imap_connect(struct pc_imap **out, const struct pc_imap_options *o,
		    struct pc_err *err);

/* Selects folder read-only; UIDVALIDITY and UIDNEXT (0 when not sent). */
int pc_imap_select(struct pc_imap *im, const char *folder,
		   uint32_t *uidvalidity, uint32_t *uidnext,
		   struct pc_err *err);

/*
 * The UIDs above `after` in the selected folder, ascending, in *uids
 * (caller frees with free(); NULL when *n is 0).
 */
int pc_imap_uids_after(uint32_t **uids, size_t *n, struct pc_imap *im,
		       uint32_t after, struct pc_err *err);

/*
 * Called once per fetched message with its UID and bytes (LF line
 * endings; borrowed for the call). len 0 and data NULL mean the message
 * is larger than max_message (or the server sent no body): the callback
 * decides how to record that. A negative return stops the fetch and is
 * returned by pc_imap_fetch(); a positive one stops it without an error
 * (the caller has as much as it wants for now).
 */
typedef int (*pc_imap_msg_fn)(uint32_t uid, const char *data, size_t len,
			      void *arg);

/*
 * Fetches the messages with the given UIDs (without setting \Seen), in
 * ascending UID order, and calls fn for each: their sizes in one round
 * trip, then each body in its own. Memory holds one message at a time.
 */
int pc_imap_fetch(struct pc_imap *im, const uint32_t *uids, size_t n,
		  pc_imap_msg_fn fn, void *arg, struct pc_err *err);

/* Whether the server offers IDLE (RFC 2177). */
int pc_imap_can_idle(const struct pc_imap *im);

/*
 * Enters IDLE and waits up to timeout_ms for the server to say anything
 * (new mail, expunge, flags) or for a signal to interrupt the wait, then
 * leaves IDLE. Returns 1 when the server spoke, 0 on timeout or signal,
 * or a negative code.
 */
int pc_imap_idle(struct pc_imap *im, int timeout_ms, struct pc_err *err);

/* A NOOP, to keep the connection alive and learn of new mail. */
int pc_imap_noop(struct pc_imap *im, struct pc_err *err);

/* Logs out (best effort) and frees; pc_imap_free(NULL) is a no-op. */
void pc_imap_free(struct pc_imap *im);

#endif
