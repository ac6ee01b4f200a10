/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The patchclock command line: one file per subcommand, one table. */
#ifndef PC_CLI_H
#define PC_CLI_H

#include <stdint.h>
#include <stdio.h>

struct pc_store;

/* Exit statuses shared by every subcommand. */
enum {
	CLI_OK = 0,
	CLI_FAIL = 1, /* could not do the job (bad input file, database) */
	CLI_USAGE = 64, /* EX_USAGE: wrong arguments */
	CLI_PARTIAL = 3, /* done, but some messages could not be parsed */
};

struct cli_policy;
struct cli_policy_args;

/*
 * What a command opened for its run: the database and the policy read
 * against it, each opened once, when the command first asks
 * (cli_store(), cli_policy()), and closed by patchclock.c when the
 * command returns, whatever it returns: no command closes them.
 */
struct cli_ctx {
	unsigned uses; /* the command's CLI_USES_* (its table row) */
	struct pc_store *st;
	struct cli_policy *cp; /* owned */
	/* closes what is open; NULL while nothing is (the light front
	 * opens nothing, and links none of it) */
	void (*close)(struct cli_ctx *ctx);
};

/* What a command uses: patchclock.c's table says it, and cli_store()
 * and cli_policy() refuse a command that did not. */
enum {
	CLI_USES_STORE = 1 << 0,
	CLI_USES_POLICY = 1 << 1, /* MAINTAINERS, profiles, the calendar */
};

struct cli_cmd {
	const char *name;
	int (*run)(int argc, char **argv, struct cli_ctx *ctx);
	const char *summary;
	unsigned uses;
};

int cmd_ingest(int argc, char **argv, struct cli_ctx *ctx);
int cmd_series(int argc, char **argv, struct cli_ctx *ctx);
int cmd_show(int argc, char **argv, struct cli_ctx *ctx);
int cmd_who(int argc, char **argv, struct cli_ctx *ctx);
int cmd_profile(int argc, char **argv, struct cli_ctx *ctx);
int cmd_status(int argc, char **argv, struct cli_ctx *ctx);
int cmd_accept(int argc, char **argv, struct cli_ctx *ctx);
int cmd_apply(int argc, char **argv, struct cli_ctx *ctx);
int cmd_boot_test(int argc, char **argv, struct cli_ctx *ctx);
int cmd_digest(int argc, char **argv, struct cli_ctx *ctx);
int cmd_outbox(int argc, char **argv, struct cli_ctx *ctx);
int cmd_report(int argc, char **argv, struct cli_ctx *ctx);
int cmd_send(int argc, char **argv, struct cli_ctx *ctx);
int cmd_fetch(int argc, char **argv, struct cli_ctx *ctx);

/*
 * The run's database (cli_db_path(db_opt)), opened the first time; the
 * same one after. It must exist unless create (only ingest makes one).
 * Logs why not and returns NULL when it cannot be opened.
 */
struct pc_store *cli_store(struct cli_ctx *ctx, const char *db_opt, int create);
/* The run's policy, loaded against cli_store()'s database the first
 * time (cli_policy_open()); NULL, logged, when it cannot be. */
struct cli_policy *cli_policy(struct cli_ctx *ctx,
			      const struct cli_policy_args *a, int quiet);

/* The database path: --db, else $PATCHCLOCK_DB, else ./patchclock.db. */
const char *cli_db_path(const char *opt);

/*
 * Reads a time given on the command line: "now", "@EPOCH", "YYYY-MM-DD",
 * "YYYY-MM-DD HH:MM[:SS]" or "YYYY-MM-DDTHH:MM[:SS][Z]", all UTC.
 * Returns 0, or -1 when it cannot.
 */
int cli_parse_time(const char *s, int64_t *out);

/* cli_parse_time() for option opt of command cmd: logs what to write
 * instead and returns -1 when arg cannot be read. */
int cli_time_option(const char *cmd, const char *opt, const char *arg,
		    int64_t *out);

/* A series ID argument (a positive number): logs where to find one and
 * returns -1 when arg is not. */
int cli_series_id(const char *cmd, const char *arg, long long *out);

/*
 * The Message-ID an argument names: itself, or the one in an archive
 * link (lore.kernel.org/LIST/MSGID/, lore.kernel.org/r/MSGID,
 * patch.msgid.link/MSGID, any URL whose path has a component with an
 * '@'), percent-decoded. The caller frees it.
 */
char *cli_msgid_of_arg(const char *arg);

struct pc_store;
/* The series arg names in st: its ID, or the Message-ID or archive link
 * of one of its mails. Logs why not and returns -1 when none. */
int cli_resolve_series(struct pc_store *st, const char *cmd, const char *arg,
		       long long *out);

/* "2021-05-20 10:11 UTC" (or "-" when t is 0 and !valid). */
void cli_format_time(char *out, size_t len, int64_t t, int valid);
/* ISO 8601 UTC "2021-05-20T10:11:00Z". */
void cli_format_iso(char *out, size_t len, int64_t t);

/* Threads for work that can use every core: the cores online (at
 * least 1, at most 256). */
unsigned cli_cores(void);

/* A --jobs argument, 1 to 256; -1 when arg is not one. */
int cli_parse_jobs(const char *arg, unsigned *out);

/* Prints the help text of a command and returns status. */
int cli_usage(FILE *f, const char *text, int status);

/*
 * The light `patchclock` (cli/front.c) only: keeps the command line, and
 * replaces the program with patchclock-core running it (exits 1 with a
 * message when it cannot).
 */
void cli_front_init(char **argv);
void cli_front_core(void) __attribute__((noreturn));

#endif
