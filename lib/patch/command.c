// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Commands to patchclock in a reply. See command.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patch/command.h"
#include "util/civil.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define PREFIX "patchclock:"
#define PREFIX_LEN (sizeof(PREFIX) - 1)
#define SNOOZE_MAX (26 * 7 * 86400)

const char pc_cmd_usage[] = "patchclock: applied [PATCH-RANGE] [TREE]\n"
			    "patchclock: rejected\n"
			    "patchclock: deferred until vX.Y-rcN | YYYY-MM-DD\n"
			    "patchclock: snooze Nh | Nd | Nw\n"
			    "patchclock: changes-requested\n"
			    "patchclock: not-mine\n"
			    "patchclock: opt-out\n"
			    "patchclock: opt-in\n"
			    "patchclock: resend-ok\n";

static const struct {
	const char *name;
	enum pc_cmd_verb verb;
} verbs[] = {
	{ "applied", PC_CMD_APPLIED },
	{ "rejected", PC_CMD_REJECTED },
	{ "deferred", PC_CMD_DEFERRED },
	{ "snooze", PC_CMD_SNOOZE },
	{ "changes-requested", PC_CMD_CHANGES },
	{ "not-mine", PC_CMD_NOT_MINE },
	{ "opt-out", PC_CMD_OPT_OUT },
	{ "opt-in", PC_CMD_OPT_IN },
	{ "resend-ok", PC_CMD_RESEND_OK },
};

const char *pc_cmd_verb_name(enum pc_cmd_verb v)
{
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (verbs[i].verb == v)
			return verbs[i].name;
	return "unknown";
}

int pc_cmd_is_personal(enum pc_cmd_verb v)
{
	return v == PC_CMD_OPT_OUT || v == PC_CMD_OPT_IN;
}

/* The next space-separated word of (*p, *n): its start and length. */
static size_t next_word(const char **p, size_t *n, const char **w)
{
	size_t k = 0;

	while (*n && pc_isspace((unsigned char)**p)) {
		(*p)++;
		(*n)--;
	}
	*w = *p;
	while (k < *n && !pc_isspace((unsigned char)(*p)[k]))
		k++;
	*p += k;
	*n -= k;
	return k;
}

/* A whole decimal number in [1, max], or -1. */
static long number(const char *w, size_t k, long max)
{
	long v = 0;
	size_t i;

	if (!k || k > 9)
		return -1;
	for (i = 0; i < k; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		v = v * 10 + (w[i] - '0');
	}
	return v >= 1 && v <= max ? v : -1;
}

/* "3" or "1-4" into first..last; 0 when it is not a range. */
static int parse_range(struct pc_cmd *c, const char *w, size_t k)
{
	const char *dash = memchr(w, '-', k);
	long a, b;

	if (!dash) {
		if ((a = number(w, k, 255)) < 0)
			return 0;
		c->first = c->last = (int)a;
		return 1;
	}
	a = number(w, (size_t)(dash - w), 255);
	b = number(dash + 1, k - (size_t)(dash - w) - 1, 255);
	if (a < 0 || b < 0)
		return 0;
	if (a > b) {
		c->error = xstrdup("the patch range runs backwards");
		return 1;
	}
	c->first = (int)a;
	c->last = (int)b;
	return 1;
}

/* A tree's name: letters, digits and "-_./:" only. */
static int tree_name(const char *w, size_t k)
{
	size_t i;

	if (!k || k > 100)
		return 0;
	for (i = 0; i < k; i++)
		if (!pc_isalnum((unsigned char)w[i]) && !strchr("-_./:", w[i]))
			return 0;
	return 1;
}

static void parse_applied(struct pc_cmd *c, const char *p, size_t n)
{
	const char *w;
	size_t k;
	int i;

	for (i = 0; i < 3 && (k = next_word(&p, &n, &w)); i++) {
		if (i == 2) {
			c->error = xstrdup("too many words: applied takes a "
					   "patch range and a tree");
			return;
		}
		if (!c->first && !c->tree && parse_range(c, w, k)) {
			if (c->error)
				return;
			continue;
		}
		if (c->tree || !tree_name(w, k)) {
			c->error = xasprintf("'%.*s' is neither a patch range "
					     "(3, 1-4) nor a tree's name",
					     (int)(k > 60 ? 60 : k), w);
			return;
		}
		c->tree = xmemdupz(w, k);
	}
}

/* "v6.14-rc1", "v6.14", "6.14-rc1". */
static int release_name(const char *w, size_t k)
{
	size_t i = (k && (w[0] == 'v' || w[0] == 'V')) ? 1 : 0, dots = 0;

	if (i >= k || w[i] < '0' || w[i] > '9' || k > 20)
		return 0;
	for (; i < k; i++) {
		if (w[i] == '.')
			dots++;
		else if (w[i] == '-')
			break;
		else if (w[i] < '0' || w[i] > '9')
			return 0;
	}
	if (dots < 1 || dots > 2)
		return 0;
	if (i == k)
		return 1;
	return k - i > 3 && !strncasecmp(w + i, "-rc", 3) &&
	       number(w + i + 3, k - i - 3, 99) > 0;
}

/* "YYYY-MM-DD" as days since the epoch, or -1. */
static int64_t date_day(const char *w, size_t k)
{
	long y, m, d;

	if (k != 10 || w[4] != '-' || w[7] != '-')
		return -1;
	y = number(w, 4, 9999);
	m = number(w + 5, 2, 12);
	d = number(w + 8, 2, 31);
	if (y < 1970 || m < 0 || d < 0)
		return -1;
	return pc_days_from_civil(y, (int)m, d);
}

static void parse_deferred(struct pc_cmd *c, const char *p, size_t n)
{
	const char *w;
	size_t k = next_word(&p, &n, &w);

	if (k != 5 || strncasecmp(w, "until", 5)) {
		c->error = xstrdup("deferred needs 'until' and a release "
				   "(v6.14-rc1) or a date (2027-01-15)");
		return;
	}
	k = next_word(&p, &n, &w);
	if (release_name(w, k)) {
		size_t off = w[0] == 'v' || w[0] == 'V';

		c->release = xasprintf("v%.*s", (int)(k - off), w + off);
	} else if ((c->until_day = date_day(w, k)) < 0) {
		c->until_day = 0;
		c->error = xstrdup("deferred until what? Give a release "
				   "(v6.14-rc1) or a date (2027-01-15)");
		return;
	}
	if (next_word(&p, &n, &w))
		c->error = xstrdup("deferred takes one release or date");
}

static void parse_snooze(struct pc_cmd *c, const char *p, size_t n)
{
	const char *w;
	size_t k = next_word(&p, &n, &w);
	long v = k > 1 ? number(w, k - 1, 9999) : -1;
	int64_t unit = 0;

	if (k > 1)
		switch (pc_tolower((unsigned char)w[k - 1])) {
		case 'h':
			unit = 3600;
			break;
		case 'd':
			unit = 86400;
			break;
		case 'w':
			unit = 7 * 86400;
			break;
		default:
			break;
		}
	if (v < 0 || !unit || next_word(&p, &n, &w)) {
		c->error = xstrdup("snooze takes one duration: 12h, 3d, 2w");
		return;
	}
	c->seconds = (int64_t)v * unit;
	if (c->seconds > SNOOZE_MAX)
		c->error = xstrdup("snooze at most 26w; for longer, "
				   "'deferred until' a release");
}

/* Reads one command line (after the prefix) into c. */
static void parse_line(struct pc_cmd *c, const char *p, size_t n)
{
	const char *w;
	size_t k = next_word(&p, &n, &w), i;

	c->verb = PC_CMD_UNKNOWN;
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (strlen(verbs[i].name) == k &&
		    !strncasecmp(verbs[i].name, w, k))
			c->verb = verbs[i].verb;
	switch (c->verb) {
	case PC_CMD_UNKNOWN:
		c->error = xstrdup(k ? "unknown command" : "no command given");
		return;
	case PC_CMD_APPLIED:
		parse_applied(c, p, n);
		return;
	case PC_CMD_DEFERRED:
		parse_deferred(c, p, n);
		return;
	case PC_CMD_SNOOZE:
		parse_snooze(c, p, n);
		return;
	default:
		if (next_word(&p, &n, &w))
			c->error = xasprintf("%s takes no argument",
					     pc_cmd_verb_name(c->verb));
		return;
	}
}

/* The line at (line, n) with leading space cut, if it is a command:
 * the text after the prefix. */
static const char *command_text(const char *line, size_t n, size_t *rest)
{
	while (n && pc_isspace((unsigned char)*line)) {
		line++;
		n--;
	}
	if (n < PREFIX_LEN || strncasecmp(line, PREFIX, PREFIX_LEN))
		return NULL;
	*rest = n - PREFIX_LEN;
	return line + PREFIX_LEN;
}

void pc_cmds_scan(struct pc_cmds *out, const char *body, size_t len)
{
	size_t pos = 0;
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len && out->n < PC_CMDS_MAX) {
		const char *line = body + pos, *nl, *t;
		size_t n, rest;
		struct pc_cmd *c;

		nl = memchr(line, '\n', len - pos);
		n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n && line[n - 1] == '\r')
			n--;
		if (n == 3 && !memcmp(line, "-- ", 3))
			break; /* the signature */
		if (!(t = command_text(line, n, &rest)))
			continue;
		while (rest && pc_isspace((unsigned char)t[rest - 1]))
			rest--;
		while (rest && pc_isspace((unsigned char)*t)) {
			t++;
			rest--;
		}
		if (rest > 200)
			rest = 200;
		PC_ALLOC_GROW(out->v, out->n + 1, out->alloc);
		c = &out->v[out->n++];
		memset(c, 0, sizeof(*c));
		c->lineno = lineno;
		c->text = xmemdupz(t, rest);
		parse_line(c, t, rest);
	}
}

int pc_cmds_present(const char *body, size_t len)
{
	const char *p = body, *end = body + len;

	while (p < end && (p = pc_memimem(p, (size_t)(end - p), PREFIX))) {
		const char *s = p;

		while (s > body && s[-1] != '\n' &&
		       pc_isspace((unsigned char)s[-1]))
			s--;
		if (s == body || s[-1] == '\n')
			return 1;
		p += PREFIX_LEN;
	}
	return 0;
}

int pc_cmds_only(const char *body, size_t len)
{
	size_t pos = 0, rest;
	int commands = 0;

	while (pos < len) {
		const char *line = body + pos,
			   *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		pos += n + (nl ? 1 : 0);
		if (n && line[n - 1] == '\r')
			n--;
		if (n == 3 && !memcmp(line, "-- ", 3))
			break;
		while (n && pc_isspace((unsigned char)*line)) {
			line++;
			n--;
		}
		while (n && pc_isspace((unsigned char)line[n - 1]))
			n--;
		if (!n || *line == '>' ||
		    (n > 6 && !memcmp(line + n - 6, "wrote:", 6)))
			continue;
		if (!command_text(line, n, &rest))
			return 0;
		commands = 1;
	}
	return commands;
}

void pc_cmds_release(struct pc_cmds *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].text);
		free(c->v[i].error);
		free(c->v[i].tree);
		free(c->v[i].release);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}
