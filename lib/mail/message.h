/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One mail, parsed: identity and threading headers, decoded (UTF-8)
 * subject and addresses, date, list and auto-reply headers, the decoded
 * text of its inline text parts, and its text attachments. Header values
 * are unfolded and RFC 2047-decoded; bodies are transfer-decoded
 * (quoted-printable, base64) with libetpan and converted to UTF-8 with
 * charset.c's defined fallback.
 *
 * git-am semantics are kept for the patch author: "From:", "Subject:" and
 * "Date:" lines at the very top of the body (a mail sent on somebody
 * else's behalf) override the header values in `author`, `patch_subject`
 * and `author_date`, as `git mailinfo` does.
 */
#ifndef PC_MAIL_MESSAGE_H
#define PC_MAIL_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/err.h"

/* Limits that bound the work per message. */
#define PC_MSG_MAX_PARTS 256
#define PC_MSG_MAX_DEPTH 16
#define PC_MSG_MAX_REFS 512
#define PC_MSG_MAX_ADDRS 1024
#define PC_MSG_MAX_ID 998 /* RFC 5322's line length */

struct pc_addr {
	char *name; /* owned; decoded display name, "" when none */
	char *addr; /* owned; address as written (case kept), "" when none */
};

struct pc_attachment {
	char *filename; /* owned; decoded, "" when none */
	char *content_type; /* owned; "text/x-patch" */
	struct pc_buf text; /* decoded UTF-8, LF line ends */
};

struct pc_msg {
	/* Message-ID without angle brackets. A mail without a usable one
	 * gets "<sha256 of its bytes>@sha256.patchclock.invalid" and
	 * msgid_generated. */
	char *msgid; /* owned */
	unsigned msgid_generated : 1;
	unsigned charset_fallback : 1; /* a charset could not be honoured */
	unsigned mime_fallback : 1; /* MIME structure unreadable: raw body used */
	unsigned date_valid : 1;
	char *in_reply_to; /* owned, or NULL */
	char **refs; /* owned; References, oldest first */
	size_t nrefs;
	char *subject; /* owned; decoded, one line, "" when none */
	struct pc_addr from;
	/* To and Cc as written (unfolded, still encoded); parsed into to/cc
	 * only by pc_msg_parse_recipients(), since ingest does not need
	 * them and long Cc lists are the costliest header to parse. */
	char *to_raw, *cc_raw; /* owned, or NULL */
	struct pc_addr *to, *cc; /* owned arrays, empty until parsed */
	size_t nto, ncc;
	int64_t date; /* seconds since the epoch (UTC); 0 when invalid */
	int date_tz; /* minutes east of UTC, as written */
	char *list_id; /* owned; the id inside <>, or NULL */
	char *auto_submitted; /* owned; header value, or NULL */
	char *precedence; /* owned, or NULL */
	char *supersedes; /* owned; Message-ID from a Supersedes: header */
	char *user_agent; /* owned; X-Mailer or User-Agent, or NULL */
	char *pw_hint; /* owned; X-Patchwork-Hint ("ignore"), or NULL */
	/* a field RFC 5322 allows once, written twice ("from"), or NULL:
	 * pc_msg_duplicated_field() */
	const char *dup_field;

	/* git-am view (see above). */
	struct pc_addr author;
	char *patch_subject; /* owned; in-body Subject or the subject */
	int64_t author_date; /* in-body Date if parseable, else date */

	struct pc_buf body; /* decoded inline text, UTF-8, LF line ends */
	struct pc_attachment *att; /* owned */
	size_t natt;
};

/*
 * Parses the raw message (raw, len). On success *out is the caller's
 * (free with pc_msg_free()). Fails with PC_EPARSE only when nothing usable
 * is there (no header at all); oddities short of that are handled with
 * fallbacks and flags.
 */
int pc_msg_parse(struct pc_msg **out, const char *raw, size_t len,
		 struct pc_err *err);

void pc_msg_free(struct pc_msg *m);

/* Parses to_raw and cc_raw into to and cc (libetpan's address-list
 * parser, RFC 2047-decoded names). Idempotent. */
void pc_msg_parse_recipients(struct pc_msg *m);

/* The stable id of a message without a Message-ID (see above). Caller frees. */
char *pc_msg_hash_id(const char *raw, size_t len);

/*
 * Parses a From-style value the way `git mailinfo` does (comments, quoted
 * pairs, "<addr> (Name)", names under 3 characters replaced by the
 * address). The value must already be RFC 2047-decoded.
 */
void pc_addr_parse_git(struct pc_addr *out, const char *value, size_t len);

/*
 * A From: header's value (raw, unfolded, not yet decoded): the name is
 * decode(raw)'s, as pc_addr_parse_git() reads it, but the address is only
 * ever the one in the header's own text. An RFC 2047 encoded-word is a
 * display name and nothing else: one whose decoded text holds an address
 * ("x <may@example.org>") would otherwise stand in for the real one; then
 * the name is dropped (set to the real address). decode returns a string
 * the caller frees.
 */
void pc_addr_parse_header(struct pc_addr *out, const char *raw, size_t len,
			  char *(*decode)(const char *p, size_t len, void *arg),
			  void *arg);

void pc_addr_release(struct pc_addr *a);

/*
 * The first header field of (raw, len) that RFC 5322 allows once (From,
 * Sender, Message-ID, In-Reply-To, References, Subject, Date) and that
 * it has twice, in lower case ("from"), or NULL. A mail with one carries
 * no authority (issue 36): patchclock reads the first copy, DKIM
 * verifies the last; its commands are refused and its review tags not
 * counted, and pc_dkim_verify() fails it.
 */
const char *pc_msg_duplicated_field(const char *raw, size_t len);

/* Seconds since the epoch for a civil UTC time (no libc time zone use). */
int64_t pc_civil_to_epoch(int year, int month, int day, int hour, int min,
			  int sec);

#endif
