// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/patch/command.c: the commands a reply gives
 * patchclock, their arguments, and the lines that are not commands
 * (quoted, after the signature, inside a sentence).
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "patch/command.h"
#include "util/civil.h"

static const struct {
	const char *line;
	enum pc_cmd_verb verb;
	int error; /* 1: the line is read with an error */
	int first, last;
	const char *tree, *release;
	int64_t seconds;
} cases[] = {
	{ "patchclock: applied", PC_CMD_APPLIED, 0, 0, 0, NULL, NULL, 0 },
	{ "patchclock: applied 1-3", PC_CMD_APPLIED, 0, 1, 3, NULL, NULL, 0 },
	{ "patchclock: applied 2 libnvdimm-for-next", PC_CMD_APPLIED, 0, 2, 2,
	  "libnvdimm-for-next", NULL, 0 },
	{ "Patchclock: Applied nvdimm/libnvdimm-fixes", PC_CMD_APPLIED, 0, 0, 0,
	  "nvdimm/libnvdimm-fixes", NULL, 0 },
	{ "patchclock: applied 3-1", PC_CMD_APPLIED, 1, 0, 0, NULL, NULL, 0 },
	{ "patchclock: applied 3-1 widget-next", PC_CMD_APPLIED, 1, 0, 0, NULL,
	  NULL, 0 },
	{ "patchclock: applied 1 2 3", PC_CMD_APPLIED, 1, 1, 1, NULL, NULL, 0 },
	{ "patchclock: applied <script>", PC_CMD_APPLIED, 1, 0, 0, NULL, NULL,
	  0 },
	{ "patchclock: rejected", PC_CMD_REJECTED, 0, 0, 0, NULL, NULL, 0 },
	{ "patchclock: rejected because", PC_CMD_REJECTED, 1, 0, 0, NULL, NULL,
	  0 },
	{ "patchclock: deferred until v6.14-rc1", PC_CMD_DEFERRED, 0, 0, 0,
	  NULL, "v6.14-rc1", 0 },
	{ "patchclock: deferred until 6.14", PC_CMD_DEFERRED, 0, 0, 0, NULL,
	  "v6.14", 0 },
	{ "patchclock: deferred until V6.14-rc7", PC_CMD_DEFERRED, 0, 0, 0,
	  NULL, "v6.14-rc7", 0 },
	{ "patchclock: deferred until later", PC_CMD_DEFERRED, 1, 0, 0, NULL,
	  NULL, 0 },
	{ "patchclock: deferred v6.14-rc1", PC_CMD_DEFERRED, 1, 0, 0, NULL,
	  NULL, 0 },
	{ "patchclock: deferred until 2027-13-01", PC_CMD_DEFERRED, 1, 0, 0,
	  NULL, NULL, 0 },
	{ "patchclock: snooze 2w", PC_CMD_SNOOZE, 0, 0, 0, NULL, NULL,
	  14 * 86400 },
	{ "patchclock: snooze 36h", PC_CMD_SNOOZE, 0, 0, 0, NULL, NULL,
	  36 * 3600 },
	{ "patchclock:snooze 3D", PC_CMD_SNOOZE, 0, 0, 0, NULL, NULL,
	  3 * 86400 },
	{ "patchclock: snooze 27w", PC_CMD_SNOOZE, 1, 0, 0, NULL, NULL,
	  27 * 7 * 86400 },
	{ "patchclock: snooze forever", PC_CMD_SNOOZE, 1, 0, 0, NULL, NULL, 0 },
	{ "patchclock: snooze 2", PC_CMD_SNOOZE, 1, 0, 0, NULL, NULL, 0 },
	{ "patchclock: changes-requested", PC_CMD_CHANGES, 0, 0, 0, NULL, NULL,
	  0 },
	{ "patchclock: not-mine", PC_CMD_NOT_MINE, 0, 0, 0, NULL, NULL, 0 },
	{ "patchclock: opt-out", PC_CMD_OPT_OUT, 0, 0, 0, NULL, NULL, 0 },
	{ "  patchclock: opt-in  ", PC_CMD_OPT_IN, 0, 0, 0, NULL, NULL, 0 },
	{ "patchclock: resend-ok", PC_CMD_RESEND_OK, 0, 0, 0, NULL, NULL, 0 },
	{ "patchclock: merge it", PC_CMD_UNKNOWN, 1, 0, 0, NULL, NULL, 0 },
	{ "patchclock:", PC_CMD_UNKNOWN, 1, 0, 0, NULL, NULL, 0 },
};

static void test_command__table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pc_cmds c;
		char body[256];

		snprintf(body, sizeof(body), "Thanks.\n\n%s\n", cases[i].line);
		pc_cmds_scan(&c, body, strlen(body));
		if (c.n != 1 || c.v[0].verb != cases[i].verb ||
		    !!c.v[0].error != cases[i].error)
			fail_msg("case %zu '%s': n %zu verb %s error %s", i,
				 cases[i].line, c.n,
				 c.n ? pc_cmd_verb_name(c.v[0].verb) : "-",
				 c.n && c.v[0].error ? c.v[0].error : "none");
		assert_int_equal(c.v[0].lineno, 3);
		if (!cases[i].error || cases[i].first) {
			assert_int_equal(c.v[0].first, cases[i].first);
			assert_int_equal(c.v[0].last, cases[i].last);
		}
		if (!cases[i].error) {
			if (cases[i].tree)
				assert_string_equal(c.v[0].tree, cases[i].tree);
			else
				assert_null(c.v[0].tree);
			if (cases[i].release)
				assert_string_equal(c.v[0].release,
						    cases[i].release);
			else
				assert_null(c.v[0].release);
			assert_int_equal(c.v[0].seconds, cases[i].seconds);
		}
		pc_cmds_release(&c);
	}
}

static void test_command__date(void **state)
{
	static const char body[] = "patchclock: deferred until 2027-01-15\n";
	struct pc_cmds c;

	(void)state;
	pc_cmds_scan(&c, body, strlen(body));
	assert_int_equal(c.n, 1);
	assert_null(c.v[0].error);
	assert_int_equal(c.v[0].until_day, pc_days_from_civil(2027, 1, 15));
	pc_cmds_release(&c);
}

/* Quoted lines, the signature and prose mentioning a command are not
 * commands; several commands are read in order; at most PC_CMDS_MAX. */
static void test_command__not_commands(void **state)
{
	static const char body[] =
		"> patchclock: rejected\n"
		"I told patchclock: snooze 2w is not what I want.\n"
		"patchclock: snooze 1w\r\n"
		"| patchclock: rejected\n"
		"patchclock: opt-out\n"
		"-- \n"
		"patchclock: rejected\n";
	struct pc_cmds c;
	char many[2048] = "";
	int i;

	(void)state;
	assert_true(pc_cmds_present(body, strlen(body)));
	assert_false(pc_cmds_present("see patchclock: x\n", 18));
	pc_cmds_scan(&c, body, strlen(body));
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[0].verb, PC_CMD_SNOOZE);
	assert_null(c.v[0].error);
	assert_int_equal(c.v[0].lineno, 3);
	assert_int_equal(c.v[1].verb, PC_CMD_OPT_OUT);
	pc_cmds_release(&c);
	for (i = 0; i < 40; i++)
		strcat(many, "patchclock: opt-out\n");
	pc_cmds_scan(&c, many, strlen(many));
	assert_int_equal(c.n, PC_CMDS_MAX);
	pc_cmds_release(&c);
	assert_true(pc_cmd_is_personal(PC_CMD_OPT_IN));
	/* A mail of commands only talks to patchclock; with prose it is an
	 * answer on the thread too. */
	assert_true(pc_cmds_only("On Mon, Jane wrote:\n> spin\n\n"
				 "patchclock: snooze 2w\n\n-- \nMay\n",
				 59));
	assert_false(pc_cmds_only("Please fix the typo.\n"
				  "patchclock: changes-requested\n",
				  51));
	assert_false(pc_cmds_only("> patchclock: rejected\n", 23));
	assert_false(pc_cmd_is_personal(PC_CMD_REJECTED));
	assert_non_null(strstr(pc_cmd_usage, "resend-ok"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command__table),
		cmocka_unit_test(test_command__date),
		cmocka_unit_test(test_command__not_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
