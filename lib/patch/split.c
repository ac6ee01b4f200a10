// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a cover letter asks each subsystem to apply its own part. See
 * split.h.
 */
#include <string.h>

#include "patch/split.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/banned.h"

int pc_split_by_tree(const char *text, size_t len)
{
	/* Several trees, each maintainer's own, or patches that stand
	 * alone; never one tree ("via your tree"). */
	static const char *const phrases[] = {
		"via their tree",
		"via their own tree",
		"through their tree",
		"through their own tree",
		"via their respective",
		"through their respective",
		"via the respective",
		"through the respective",
		"respective trees",
		"respective subsystem trees",
		"via the subsystem trees",
		"through the subsystem trees",
		"via the individual subsystem",
		"through the individual subsystem",
		"each subsystem maintainer",
		"can be applied independently",
		"can be applied individually",
		"can be applied separately",
		"can be picked up independently",
		"can be picked up individually",
		"can be picked up separately",
		"can be taken independently",
		"can be taken individually",
		"can be taken separately",
		NULL,
	};
	const char *p = text, *end = text ? text + len : NULL;
	struct pc_buf prose = PC_BUF_INIT;
	int found = 0;
	size_t k;

	/* The author's lines joined by spaces, so that a phrase wrapped
	 * over two lines ("apply via their\ntree") reads whole. */
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		/* The diffstat or a patch ends the prose; a quote is
		 * someone else's. */
		if (n >= 3 && !memcmp(p, "---", 3))
			break;
		if (n && *p != '>') {
			const char *a = p, *z = p + n;

			while (a < z && pc_isspace((unsigned char)*a))
				a++;
			while (z > a && pc_isspace((unsigned char)z[-1]))
				z--;
			pc_buf_add(&prose, a, (size_t)(z - a));
			pc_buf_addch(&prose, ' ');
		}
		p = nl ? nl + 1 : end;
	}
	for (k = 0; !found && phrases[k]; k++)
		found = pc_memimem(prose.buf, prose.len, phrases[k]) != NULL;
	pc_buf_release(&prose);
	return found;
}
