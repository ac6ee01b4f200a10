/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Commands to patchclock in an ordinary reply, one per line, each line
 * the sender's own (not quoted, before the signature):
 *
 *   patchclock: applied [PATCH-RANGE] [TREE]   "1-3", "2", or the whole
 *   patchclock: rejected
 *   patchclock: deferred until v6.14-rc1       or until 2027-01-15
 *   patchclock: snooze 2w                      Nh, Nd or Nw, up to 26w
 *   patchclock: changes-requested
 *   patchclock: not-mine                       map to another entry
 *   patchclock: opt-out / opt-in               the sender's own mail
 *   patchclock: resend-ok                      lifts the holds above
 *
 * Parsing says only what a line asks; who may ask it is the store's
 * judgement (lib/store/command.h). A line that starts "patchclock:" with
 * an unknown verb or a bad argument is returned too, with an error, so
 * the sender can be told.
 */
#ifndef PC_PATCH_COMMAND_H
#define PC_PATCH_COMMAND_H

#include <stddef.h>
#include <stdint.h>

enum pc_cmd_verb {
	PC_CMD_UNKNOWN,
	PC_CMD_APPLIED,
	PC_CMD_REJECTED,
	PC_CMD_DEFERRED,
	PC_CMD_SNOOZE,
	PC_CMD_CHANGES,
	PC_CMD_NOT_MINE,
	PC_CMD_OPT_OUT,
	PC_CMD_OPT_IN,
	PC_CMD_RESEND_OK,
};

struct pc_cmd {
	enum pc_cmd_verb verb;
	int lineno; /* 1-based line of the body */
	char *text; /* owned: the line after "patchclock:", trimmed */
	char *error; /* owned: why it cannot be obeyed as written, or NULL */
	int first, last; /* applied: patches n..m of n/N; 0 0: all */
	char *tree; /* owned: applied: the tree named, or NULL */
	char *release; /* owned: deferred until a release ("v6.14-rc1") */
	int64_t until_day; /* deferred until a date: days since 1970-01-01 */
	int64_t seconds; /* snooze: how long */
};

struct pc_cmds {
	struct pc_cmd *v;
	size_t n, alloc;
};

/* The commands of (body, len), a decoded body, in order. At most
 * PC_CMDS_MAX are read (a mail of commands is a mistake or an attack). */
#define PC_CMDS_MAX 16
void pc_cmds_scan(struct pc_cmds *out, const char *body, size_t len);
void pc_cmds_release(struct pc_cmds *c);

/* Whether (body, len) holds a line a scan would read: cheap, for ingest. */
int pc_cmds_present(const char *body, size_t len);

/* Whether the mail says nothing but commands: every line of its own is
 * blank or a command (quoted lines, an attribution "... wrote:" and the
 * signature aside). Such a mail talks to patchclock, not to the author:
 * it is no answer on the thread. 0 when it holds no command. */
int pc_cmds_only(const char *body, size_t len);

/* "applied", "changes-requested"...; "unknown". */
const char *pc_cmd_verb_name(enum pc_cmd_verb v);

/* The verbs, as the reply to an unknown command lists them. */
extern const char pc_cmd_usage[];

/* Whether the verb acts on the sender's own address (opt-out, opt-in),
 * not on a series: it needs no role, only the sender's identity. */
int pc_cmd_is_personal(enum pc_cmd_verb v);

#endif
