/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kinds of mail patchclock sends: the one table that the letters
 * (lib/notify/compose.c), the planner (lib/notify/plan.c), the outbox
 * (lib/store/outbox.c: its action column refers to the mail_kinds
 * table, whose rows come from here) and the CLI read. A new kind is a
 * row here, its letter in compose and its rule in plan: no migration.
 *
 * X(KIND, name, about): name is the outbox action, the
 * X-Patchclock-Action header and the Message-ID's word; about says what
 * the mail is, for people (`patchclock outbox --help`, the
 * mail_kinds table).
 */
#ifndef PC_MAIL_KINDS_H
#define PC_MAIL_KINDS_H

#define PC_MAIL_KINDS(X)                                                     \
	X(PC_MAIL_RESEND, "resend",                                          \
	  "a 'resend now' reply to the author of a series overdue on its "   \
	  "maintainers")                                                     \
	X(PC_MAIL_TOO_SOON, "too-soon",                                      \
	  "a note to an author who reposted before the profile's minimum "   \
	  "interval")                                                        \
	X(PC_MAIL_DIGEST, "digest",                                          \
	  "a maintainer's digest of overdue, ready, late and tested series") \
	X(PC_MAIL_BOOT_REPORT, "boot-report",                                \
	  "a boot test's verdict, in the series' thread")                    \
	X(PC_MAIL_COMMAND_HELP, "command-help",                              \
	  "the one answer to a sender whose commands were not understood")

#define PC_MAIL_KIND_ENUM(k, name, about) k,
enum pc_mail_kind { PC_MAIL_KINDS(PC_MAIL_KIND_ENUM) PC_MAIL_NKINDS };
#undef PC_MAIL_KIND_ENUM

/* The kind's name ("resend"), or NULL for no kind. */
const char *pc_mail_kind_name(enum pc_mail_kind k);
/* What the kind's mail is, or NULL for no kind. */
const char *pc_mail_kind_about(enum pc_mail_kind k);
/* The kind named name, or -1. */
int pc_mail_kind_of(const char *name);

#endif
