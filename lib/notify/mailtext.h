/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing mail text, whatever the mail says: cleaning text that came
 * from mail (controls and line breaks to spaces, invisible reordering
 * characters dropped, cut at a character boundary with "..."), checks
 * of what goes into headers unchanged (addresses, Message-IDs, domains),
 * headers folded at 78 columns with RFC 2047 encoded words where a word
 * is not ASCII, mailboxes, and body paragraphs wrapped at 72 columns.
 * compose.c writes the letters with it.
 */
#ifndef PC_NOTIFY_MAILTEXT_H
#define PC_NOTIFY_MAILTEXT_H

#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

#define PC_MAIL_BODY_WIDTH 72
#define PC_MAIL_HEADER_WIDTH 78

/* Lengths in bytes after cleaning; longer text is cut and ends in "...". */
#define PC_COMPOSE_NAME_MAX 128 /* display names */
/* Longer values are refused (PC_ELIMIT). */
#define PC_COMPOSE_ADDR_MAX 254 /* an address (RFC 5321's limit) */
#define PC_COMPOSE_ID_MAX 900 /* a Message-ID without its brackets */
#define PC_COMPOSE_DOMAIN_MAX 200 /* the Message-ID domain */

/* A person: a display name and an address. */
struct pc_notify_addr {
	const char *name; /* borrowed; UTF-8; NULL or "" for none */
	/* borrowed; a plain ASCII addr-spec ("jane@example.com"); may be
	 * NULL where only a name is known (trusted reviewers) */
	const char *addr;
};

/*
 * Appends the clean form of s (NULL: nothing) to out: controls and line
 * breaks become single spaces, invisible reordering characters go,
 * invalid UTF-8 becomes U+FFFD; at most max (>= 4) bytes, a longer text
 * cut at a character boundary and ending in "...". Returns the bytes
 * appended.
 */
size_t pc_mail_clean(struct pc_buf *out, const char *s, size_t max);
/* A cleaned copy of s; caller frees. */
char *pc_mail_clean_dup(const char *s, size_t max);
/* The columns (p, len) takes in a terminal (wide characters count 2). */
size_t pc_mail_text_width(const char *p, size_t len);

/* A plain ASCII addr-spec: one '@', no spaces, quotes or brackets. */
int pc_mail_addr_ok(const char *a);
/*
 * A Message-ID with or without its brackets, as the bytes between them
 * in (*p_out, *len_out): printable ASCII with one '@', no spaces or
 * brackets, 1..PC_COMPOSE_ID_MAX bytes; else PC_EPARSE or PC_ELIMIT.
 */
int pc_mail_msgid_check(const char **p_out, size_t *len_out, const char *id);
/* A domain name for Message-IDs: letters, digits, '-' and '.'. */
int pc_mail_domain_ok(const char *d);

/*
 * Appends text (one line of single-space-separated words) wrapped at
 * PC_MAIL_BODY_WIDTH columns, the first line after `first`, the others
 * after `rest`; a word wider than a line stands alone.
 */
void pc_mail_wrap(struct pc_buf *out, const char *text, const char *first,
		  const char *rest);
/* The same, printf-style. */
void pc_mail_para(struct pc_buf *out, const char *first, const char *rest,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A header being written: words are folded at PC_MAIL_HEADER_WIDTH. */
struct pc_mail_hdr {
	struct pc_buf *out;
	size_t col; /* bytes on the current line */
	size_t words; /* words written on this header */
};

void pc_mail_hdr_start(struct pc_mail_hdr *h, struct pc_buf *out,
		       const char *name);
/* One word of printable ASCII without spaces, after a space or a fold. */
void pc_mail_hdr_word(struct pc_mail_hdr *h, const char *w, size_t len);
void pc_mail_hdr_wordz(struct pc_mail_hdr *h, const char *w);
void pc_mail_hdr_end(struct pc_mail_hdr *h);
/* A header whose value is the given space-separated ASCII words. */
void pc_mail_header(struct pc_buf *out, const char *name, const char *value);
/* (p, len), UTF-8, as RFC 2047 Q encoded words. */
void pc_mail_hdr_encoded(struct pc_mail_hdr *h, const char *p, size_t len);
/* Whether (p, len) needs encoded words (not printable ASCII, or "=?"). */
int pc_mail_needs_encoding(const char *p, size_t len);
/* Text: as words, or as encoded words where it needs them. */
void pc_mail_hdr_text(struct pc_mail_hdr *h, const char *text);
/* A mailbox, "Name <addr>" (a "," after it when comma); addr was
 * checked with pc_mail_addr_ok(). */
void pc_mail_hdr_mailbox(struct pc_mail_hdr *h, const struct pc_notify_addr *a,
			 int comma);
/* A header of n mailboxes. */
void pc_mail_header_mailboxes(struct pc_buf *out, const char *name,
			      const struct pc_notify_addr *const *a, size_t n);

#endif
