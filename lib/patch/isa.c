// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a posting implements a draft specification. See isa.h.
 */
#include <string.h>

#include "patch/isa.h"
#include "util/util.h"
#include "util/banned.h"

#define SENTENCE_MAX 512

/* Whether the lower-case sentence s holds w as a word: "draft" is not
 * "drafted"; a trailing '*' takes any ending ("specification*"). */
static int has_word(const char *s, const char *w)
{
	size_t wl = strlen(w), i;
	int prefix = wl && w[wl - 1] == '*';

	if (prefix)
		wl--;
	for (i = 0; s[i]; i++)
		if ((!i || !pc_isalnum((unsigned char)s[i - 1])) &&
		    !strncmp(s + i, w, wl) &&
		    (prefix || !pc_isalnum((unsigned char)s[i + wl])))
			return 1;
	return 0;
}

static int has_any(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (has_word(s, *words))
			return 1;
	return 0;
}

static int sentence_says_draft(const char *s)
{
	static const char *const not_yet[] = {
		"not yet ratified",    "not ratified",
		"not been ratified",   "isn't ratified",
		"unratified",	       "yet to be ratified",
		"not yet frozen",      "not frozen",
		"not been frozen",     "pre-ratification",
		"before ratification", "still in draft",
		"still a draft",       "draft state",
		"draft stage",	       NULL,
	};
	static const char *const spec[] = {
		"spec", "specs",    "specification*", "extension*", "version",
		"isa",	"proposal", "release",	      NULL,
	};
	static const char *const settled[] = {
		"no longer",
		"has been ratified",
		"have been ratified",
		"was ratified",
		"were ratified",
		"is ratified",
		"are ratified",
		"now ratified",
		"got ratified",
		"has been frozen",
		"is frozen",
		"now frozen",
		"had yet",
		"was not yet",
		"were not yet",
		"was a draft",
		"draft of the patch",
		"draft of this patch",
		NULL,
	};

	if (has_any(s, settled))
		return 0;
	if (has_any(s, not_yet))
		return 1;
	return has_word(s, "draft") && has_any(s, spec);
}

/* Whether line (p, l) is quoted. */
static int is_quote(const char *p, size_t l)
{
	while (l && (*p == ' ' || *p == '\t')) {
		p++;
		l--;
	}
	return l && *p == '>';
}

int pc_isa_draft(const char *text, size_t len)
{
	char s[SENTENCE_MAX + 1];
	size_t n = 0;
	const char *p = text, *end;

	/* Most postings name neither: one pass over the text, no sentences. */
	if (!text || !len ||
	    (!pc_memimem(text, len, "draft") &&
	     !pc_memimem(text, len, "ratif") &&
	     !pc_memimem(text, len, "frozen")))
		return 0;
	end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p), i;
		int blank = 1;

		for (i = 0; i < l; i++)
			if (!pc_isspace((unsigned char)p[i]))
				blank = 0;
		if (l >= 3 && !memcmp(p, "---", 3))
			break; /* the diffstat or the diff: not prose */
		if (!is_quote(p, l)) {
			for (i = 0; i <= l; i++) {
				char c = i < l ? p[i] : ' ';
				int stop =
					(c == '.' || c == '!' || c == '?' ||
					 c == ';') &&
					(i + 1 >= l ||
					 pc_isspace((unsigned char)p[i + 1]));

				if (pc_isspace((unsigned char)c))
					c = ' ';
				if (n < SENTENCE_MAX)
					s[n++] = (char)pc_tolower(
						(unsigned char)c);
				if (stop) {
					s[n] = '\0';
					if (sentence_says_draft(s))
						return 1;
					n = 0;
				}
			}
		}
		if (blank && n) {
			s[n] = '\0';
			if (sentence_says_draft(s))
				return 1;
			n = 0;
		}
		p = nl ? nl + 1 : end;
	}
	s[n] = '\0';
	return n && sentence_says_draft(s);
}
