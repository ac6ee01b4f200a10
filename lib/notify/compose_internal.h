/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parts of compose.c the letters (compose_*.c) share: only those
 * files include this. Times are formatted in UTC or in the maintainers'
 * zone (the head's zone_time); text from mail is cleaned as compose.h
 * says before it reaches a buffer.
 */
#ifndef PC_NOTIFY_COMPOSE_INTERNAL_H
#define PC_NOTIFY_COMPOSE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mail/kinds.h"
#include "notify/compose.h"
#include "notify/mailtext.h"
#include "util/buf.h"
#include "util/err.h"

/* A body line longer than this (in bytes) is left out: SMTP allows 998. */
#define BODY_LINE_BYTES_MAX 990
#define LOCAL_TIME_MAX 64

/* "-- ", a line naming patchclock, the opt-out line. */
extern const char pc_compose__signature[];

/* ---- times: in UTC, or the maintainers' zone through the head ---- */

/* "Mon 2021-05-03 16:30 UTC (Mon 2021-05-03 09:30 PDT, the maintainers'
 * time)"; without the head's zone, or when it is UTC, the first part
 * only. The _local form: the maintainers' time alone. */
int pc_compose__add_when(struct pc_buf *out, const struct pc_notify_head *h,
			 int64_t t, struct pc_err *err);
int pc_compose__add_when_local(struct pc_buf *out,
			       const struct pc_notify_head *h, int64_t t,
			       struct pc_err *err);
/* From `from` to `to`: "2 days 3 hours", "5 hours 12 minutes". */
void pc_compose__add_elapsed(struct pc_buf *out, int64_t from, int64_t to);
void pc_compose__add_business_days(struct pc_buf *out, double days);
/* "3,4,5" as "3, 4 and 5" (numbers only; anything else is dropped);
 * *n_out: how many. Caller frees. */
char *pc_compose__and_list(const char *csv, size_t *n_out);
/* "1 patch", "2 patches". */
void pc_compose__add_plural(struct pc_buf *out, long long n, const char *what);
/* Office hours for people: "8:00am-5:00pm America/Los_Angeles", the
 * days in front unless they are Monday to Friday. */
void pc_compose__add_hours(struct pc_buf *out, const struct pc_prof_hours *hr);

/* ---- provenance: where a rule was read ---- */

int pc_compose__has_origin(const struct pc_notify_origin *o);
int pc_compose__add_origin(struct pc_buf *out,
			   const struct pc_notify_origin *o);
void pc_compose__add_origin_paren(struct pc_buf *out,
				  const struct pc_notify_origin *o);
/* The source line and its quote, indented, below a paragraph. */
void pc_compose__add_source_block(struct pc_buf *body,
				  const struct pc_notify_origin *o);
/* Who says so, to start a sentence. */
const char *pc_compose__who_asks(enum pc_prof_source kind);

/* ---- the body ---- */

void pc_compose__heading(struct pc_buf *out, const char *title);
void pc_compose__greeting(struct pc_buf *out, const struct pc_notify_addr *a);
/* A display name in the order it is spoken, for prose: "Winkler, Tomas"
 * (a corporate directory's order, one comma) is "Tomas Winkler";
 * anything else is as it is. Free it. */
char *pc_compose__spoken_name(const char *name);
void pc_compose__add_person(struct pc_buf *out, const struct pc_notify_addr *a);
/* The archive link of msgid, on its own line (left out when longer
 * than a body line may be). */
void pc_compose__link_line(struct pc_buf *out, const struct pc_notify_head *h,
			   const char *msgid, const char *indent);

/* ---- headers ---- */

/* Checks the head and writes the kind's Message-ID into msgid. */
int pc_compose__head_check(const struct pc_notify_head *h,
			   enum pc_mail_kind kind, char *msgid, size_t len,
			   struct pc_err *err);
/* From, To, Cc, Subject ("Re: ..."), Date, Message-ID, In-Reply-To,
 * References and the tail of a reply in the series' thread. */
int pc_compose__reply_headers(struct pc_buf *m, const struct pc_notify_head *h,
			      const struct pc_notify_reply_opts *ro,
			      const struct pc_notify_series *s,
			      enum pc_mail_kind kind, const char *msgid,
			      struct pc_err *err);
void pc_compose__subject_header(struct pc_buf *m, const char *subject);
void pc_compose__headers_id(struct pc_buf *m, const struct pc_notify_head *h,
			    const char *msgid);
void pc_compose__references_header(struct pc_buf *m,
				   const struct pc_notify_series *s,
				   const char *id, size_t idlen);
/* MIME and patchclock headers and the empty line after them; series
 * NULL: the mail is about none. */
void pc_compose__headers_tail(struct pc_buf *m, const char *series,
			      enum pc_mail_kind kind);
/* Past any "Re:" prefixes. */
const char *pc_compose__skip_re(const char *p);
/* A short, clean form of hostile text for error messages. */
void pc_compose__err_quote(char *buf, size_t len, const char *s);

#endif
