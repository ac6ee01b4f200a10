// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reply intent: applied / changes wanted / opt-out, from the sender's own
 * lines of a reply. See intent.h for what is read and what is skipped.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patch/intent.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/*
 * The paragraph being read, lower-cased once (scan_paragraph()): the
 * rules search every sentence of it for dozens of phrases, and one
 * case-insensitive pass per phrase and position was a third of ingest's
 * CPU. A search inside the sentence being read runs on the lower-cased
 * copy (find_low()); other text (a single line) takes the slow path.
 * Per thread: ingest reads mail in worker threads.
 */
/* A sentence makes the sender's remarks optional (says_optional()): a
 * bit of the scan's own, above the PC_INTENT_* ones, never returned. */
#define OPTIONAL (1u << 31)
/* A paragraph ends in a suggestion asked as a question (SUGGESTS_LAST),
 * or holds a question put by name to someone other than the author it
 * answers (DEFERS): what scan_paragraph() notes of it besides its bits. */
#define SUGGESTS_LAST 1u
#define DEFERS 2u
/* What a comment put to someone else asks of the author: nothing. */
#define ASKS_AUTHOR (PC_INTENT_COMMENT | PC_INTENT_REQUEST | PC_INTENT_QUESTION)

static _Thread_local const char *low_base;
static _Thread_local const char *low_text;
static _Thread_local size_t low_len;

/* The sentence the rules read now, sent_lo to sent_hi in the lower-cased
 * copy, and which pairs of adjacent bytes it holds, hashed into 4,096
 * bits: a phrase one of whose pairs is not there is not either, and most
 * of the hundreds of phrases are ruled out so, with a bit test or two
 * instead of a search. By the sentence, not the paragraph: a phrase
 * found in one sentence is ruled out in the others. */
static _Thread_local uint64_t sent_pairs[64];
static _Thread_local const char *sent_lo, *sent_hi;

static unsigned pair_hash(unsigned char a, unsigned char b)
{
	return ((unsigned)a << 5 ^ b) & 4095u;
}

/* Starts reading the sentence from lo to hi in the lower-cased copy. */
static void read_sentence(const char *lo, const char *hi)
{
	const char *c;

	sent_lo = lo;
	sent_hi = hi;
	memset(sent_pairs, 0, sizeof(sent_pairs));
	for (c = lo; c + 1 < hi; c++) {
		unsigned h =
			pair_hash((unsigned char)c[0], (unsigned char)c[1]);

		sent_pairs[h >> 6] |= (uint64_t)1 << (h & 63);
	}
}

static int has_pair(unsigned char a, unsigned char b)
{
	unsigned h = pair_hash(a, b);

	return (sent_pairs[h >> 6] >> (h & 63)) & 1;
}

#ifndef NDEBUG
static int is_lower(const char *s)
{
	for (; *s; s++)
		if (pc_tolower((unsigned char)*s) != (unsigned char)*s)
			return 0;
	return 1;
}
#endif

/* Whether phrase cannot be in the sentence being read; else its length
 * in *n. The phrase tables are written in lower case, as the sentence
 * is searched: no phrase is copied to lower-case it, and most are ruled
 * out on their first pairs of bytes, before their length is known. */
static int ruled_out(const char *phrase, size_t *n)
{
	const unsigned char *u = (const unsigned char *)phrase;
	size_t i;

	assert(is_lower(phrase));
	/* Every pair of the phrase, up to the first the text lacks: its
	 * length on the way. */
	for (i = 0; u[i] && u[i + 1]; i++)
		if (!has_pair(u[i], u[i + 1]))
			return 1;
	*n = u[i] ? i + 1 : i;
	return 0;
}

/* The lower-cased copy of (p, len), or NULL when it is not inside the
 * sentence being read. */
static const char *lowered(const char *p, size_t len)
{
	const char *low;

	if (!p || !low_text || p < low_base ||
	    (size_t)(p - low_base) + len > low_len)
		return NULL;
	low = low_text + (p - low_base);
	return low >= sent_lo && low + len <= sent_hi ? low : NULL;
}

/* needle (n > 0 bytes) in (hay, len), both lower-cased; NULL when it is
 * not there. A sentence is short: memchr() to each place the needle's
 * first byte is beats memmem()'s set-up for every phrase. */
static const char *find_low(const char *hay, size_t len, const char *needle,
			    size_t n)
{
	const char *p = hay, *end = hay + len;

	while ((size_t)(end - p) >= n &&
	       (p = memchr(p, needle[0], (size_t)(end - p) - n + 1))) {
		if (!memcmp(p, needle, n))
			return p;
		p++;
	}
	return NULL;
}

/* Where needle (lower case) is in p (len) from offset from on, or len. */
static size_t next_at(const char *p, size_t len, size_t from,
		      const char *needle)
{
	const char *low = lowered(p, len), *at;
	size_t n = strlen(needle);

	if (from >= len)
		return len;
	if (low)
		at = find_low(low + from, len - from, needle, n);
	else
		at = pc_memimem(p + from, len - from, needle);
	if (!at)
		return len;
	return (size_t)(at - (low ? low : p));
}

#define MAX_WORDS 12
#define WORD_MAX 24

struct words {
	char w[MAX_WORDS][WORD_MAX];
	size_t n;
};

/* The first max (at most MAX_WORDS) words of a line, lower-cased,
 * punctuation cut. */
static void split_words(struct words *ws, const char *p, size_t len, size_t max)
{
	size_t i = 0;

	ws->n = 0;
	while (i < len && ws->n < max) {
		size_t k = 0;

		while (i < len && !pc_isalnum((unsigned char)p[i]) &&
		       p[i] != '\'')
			i++;
		while (i < len && (pc_isalnum((unsigned char)p[i]) ||
				   p[i] == '\'' || p[i] == '-')) {
			if (k + 1 < WORD_MAX)
				ws->w[ws->n][k++] =
					(char)pc_tolower((unsigned char)p[i]);
			i++;
		}
		if (k) {
			ws->w[ws->n][k] = '\0';
			ws->n++;
		}
	}
}

static int is_word(const char *w, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(w, *set))
			return 1;
	return 0;
}

/* A small number: "6", "six". 0 when w is none. */
static unsigned number_of(const char *w)
{
	static const char *const names[] = { "one",  "two", "three", "four",
					     "five", "six", "seven", "eight",
					     "nine", "ten", NULL };
	unsigned v = 0;
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(w, names[i]))
			return (unsigned)i + 1;
	for (i = 0; w[i]; i++) {
		if (!pc_isdigit((unsigned char)w[i]) || i == 3)
			return 0;
		v = v * 10 + (unsigned)(w[i] - '0');
	}
	return v <= 255 ? v : 0;
}

/*
 * What an applied sentence's words say it applied: PC_INTENT_SERIES, or a
 * range ("top 6", "first 3", "patches 2-4", "patch 3", "1-3"), or 0.
 */
static unsigned applied_what(const struct words *ws)
{
	static const char *const whole[] = { "series", "all",	"whole", "them",
					     "both",   "these", "set",	 NULL };
	size_t i;

	for (i = 0; i < ws->n; i++) {
		const char *w = ws->w[i], *dash = strchr(w, '-');
		const char *next = i + 1 < ws->n ? ws->w[i + 1] : "";
		unsigned a, b;

		if ((!strcmp(w, "top") || !strcmp(w, "first")) &&
		    (a = number_of(next)))
			return PC_INTENT_RANGE(1, a);
		if (dash && dash != w) {
			char lo[WORD_MAX];

			memcpy(lo, w, (size_t)(dash - w));
			lo[dash - w] = '\0';
			a = number_of(lo);
			b = number_of(dash + 1);
			if (a && b && a <= b)
				return PC_INTENT_RANGE(a, b);
		}
		if (!strcmp(w, "patch") && (a = number_of(next)))
			return PC_INTENT_RANGE(a, a);
		if (is_word(w, whole))
			return PC_INTENT_SERIES;
	}
	return 0;
}

static int has_any(const char *p, size_t len, const char *const *phrases);

/* Whether the verb at ws->w[verb] is "added to" a tree or branch:
 * "Added to the i2c tree, thanks." */
static int added_to_a_tree(const struct words *ws, size_t verb)
{
	static const char *const places[] = { "tree", "branch", NULL };
	size_t i;

	if (verb + 1 >= ws->n || strcmp(ws->w[verb + 1], "to"))
		return 0;
	for (i = verb + 2; i < ws->n; i++)
		if (is_word(ws->w[i], places))
			return 1;
	return 0;
}

/* "Applied, thanks!", "Thanks, applied to X.", "Queued for 5.14",
 * "I've applied patches 1-3", "Picked up, thanks", "Top 6 patches
 * applied to cxl/next", "Thanks, I added that". Returns
 * PC_INTENT_APPLIED with what it names (applied_what()), or 0. */
static unsigned says_applied(const char *p, size_t len)
{
	static const char *const verbs[] = { "applied", "queued", "pushed",
					     "merged",	"picked", "taken",
					     "added",	NULL };
	/* "added" only with the patch as its object: "I added that". */
	static const char *const objects[] = { "it",	"that",	 "this", "them",
					       "these", "those", "both", NULL };
	/* Words that make the verb hypothetical, negated, a test report or
	 * a question. */
	static const char *const vetoes[] = {
		"not", "isn't", "wasn't", "doesn't", "didn't", "don't", "can't",
		"cannot", "won't", "if", "will", "would", "could", "should",
		"can", "fails", "failed", "fail", "cleanly", "conflict",
		"conflicts", "against", "tested", "build", "please", "why",
		"how", "whether", "unless", "without", "plan", "planning",
		"hope", "want", "eventually", "later", "soon", "tomorrow",
		"may", "might",
		/* "taken into account", "taken it into consideration" */
		"account", "consideration", NULL
	};
	/* ... before the verb: "once this is applied", "after it gets
	 * merged"; after it, how it was done ("Applied after fixing up the
	 * subject line", "Applied to my for-next branch (once I push it
	 * out)"). */
	static const char *const conditions[] = { "when", "once", "after",
						  "before", NULL };
	static const char *const infinitive[] = { "to",	  "be",	     "get",
						  "gets", "getting", NULL };
	/* Greg Kroah-Hartman's note of each patch he takes ("This is a
	 * note to let you know that I've just added the patch titled ...
	 * to my usb git tree"), and of each stable backport. */
	static const char *const notes[] = { "just added the patch titled",
					     NULL };
	struct words ws;
	size_t i, verb = MAX_WORDS;

	if (memchr(p, '?', len))
		return 0;
	if (has_any(p, len, notes))
		return PC_INTENT_APPLIED;
	/* The verb is among the first six words; most sentences have none,
	 * and only those that do need the rest for the vetoes. */
	split_words(&ws, p, len, 6);
	for (i = 0; i < ws.n; i++)
		if (is_word(ws.w[i], verbs)) {
			verb = i;
			break;
		}
	if (verb == MAX_WORDS)
		return 0;
	split_words(&ws, p, len, MAX_WORDS);
	/* "picked" only as "picked up"; "taken" only as "taken (in)to",
	 * or with the patch between ("I've taken this into my tree"). */
	if (!strcmp(ws.w[verb], "picked")) {
		size_t up = verb + 1;

		/* "I picked this up for 6.3" */
		if (up < ws.n && is_word(ws.w[up], objects))
			up++;
		if (up >= ws.n || strcmp(ws.w[up], "up"))
			return 0;
	}
	if (!strcmp(ws.w[verb], "taken")) {
		size_t to = verb + 1;

		if (to < ws.n && is_word(ws.w[to], objects))
			to++;
		/* "taken to my tree", not "care was taken to add one" */
		if (to >= ws.n ||
		    (strcmp(ws.w[to], "into") && !added_to_a_tree(&ws, to - 1)))
			return 0;
	}
	if (!strcmp(ws.w[verb], "added") && !added_to_a_tree(&ws, verb) &&
	    (verb + 1 >= ws.n || !is_word(ws.w[verb + 1], objects) ||
	     (verb + 2 < ws.n && strcmp(ws.w[verb + 2], "to") &&
	      strcmp(ws.w[verb + 2], "for"))))
		return 0;
	for (i = 0; i < ws.n; i++)
		if (is_word(ws.w[i], vetoes) ||
		    (i < verb && is_word(ws.w[i], conditions)))
			return 0;
	/* "applied on top of -rc3" is a test report. */
	for (i = 0; i + 1 < ws.n; i++)
		if (!strcmp(ws.w[i], "on") && !strcmp(ws.w[i + 1], "top"))
			return 0;
	/* "to be applied", "get this queued", "gets applied": not done. */
	if (verb > 0 && is_word(ws.w[verb - 1], infinitive))
		return 0;
	return PC_INTENT_APPLIED | applied_what(&ws);
}

/* A line that NAKs: "NAK", "Nacked-by:". */
static int says_nak(const char *p, size_t len)
{
	if (len >= 10 && !strncasecmp(p, "nacked-by:", 10))
		return 1;
	return len >= 3 && !strncasecmp(p, "nak", 3) &&
	       (len == 3 || !pc_isalnum((unsigned char)p[3]));
}

/* "please respin", "needs another version", ... in a sentence. */
static int says_changes(const char *p, size_t len)
{
	static const char *const phrases[] = {
		"please respin",	"please resend",
		"please rework",	"please send a v",
		"please send v",	"please split",
		"please address",	"please drop",
		"needs a respin",	"needs another version",
		"needs to be reworked", "changes requested",
		"needs some rework",	"needs more work",
		"not acceptable",	NULL
	};
	return has_any(p, len, phrases);
}

/* Whether one of phrases starts p (len) at a word boundary. */
static int starts_with_any(const char *p, size_t len,
			   const char *const *phrases)
{
	size_t k;
	int c;

	while (len && !pc_isalnum((unsigned char)*p)) {
		p++;
		len--;
	}
	if (!len)
		return 0;
	c = pc_tolower((unsigned char)*p);
	for (k = 0; phrases[k]; k++) {
		size_t n;

		/* Most phrases differ in their first byte. */
		if (pc_tolower((unsigned char)phrases[k][0]) != c ||
		    !pc_mem_istarts(p, len, phrases[k]))
			continue;
		n = strlen(phrases[k]);
		if (n == len || !pc_isalnum((unsigned char)p[n]))
			return 1;
	}
	return 0;
}

/* Whether one of phrases is anywhere in p (len). */
static int has_any(const char *p, size_t len, const char *const *phrases)
{
	const char *low = lowered(p, len);
	size_t k, n;

	for (k = 0; phrases[k]; k++) {
		if (!low) {
			if (pc_memimem(p, len, phrases[k]))
				return 1;
		} else if (!ruled_out(phrases[k], &n) && n &&
			   find_low(low, len, phrases[k], n)) {
			return 1;
		}
	}
	return 0;
}

/* Whether one of phrases is in p (len) as whole words ("nit", not the
 * "nit" of "initial"). */
static int has_word(const char *p, size_t len, const char *const *phrases)
{
	const char *low = lowered(p, len);
	size_t k;

	for (k = 0; phrases[k]; k++) {
		const char *ph = phrases[k], *at;
		size_t n, i;

		if (low && ruled_out(ph, &n))
			continue;
		if (!low)
			n = strlen(ph);
		if (low && n) {
			/* Each place the phrase is, then its word edges. */
			for (at = low;
			     (at = find_low(at, len - (size_t)(at - low), ph,
					    n));
			     at++) {
				i = (size_t)(at - low);
				if ((!i ||
				     !pc_isalnum((unsigned char)p[i - 1])) &&
				    !(i + n < len &&
				      pc_isalnum((unsigned char)p[i + n]) &&
				      pc_isalnum((unsigned char)ph[n - 1])))
					return 1;
			}
			continue;
		}
		for (i = 0; i + n <= len; i++) {
			int before = i && pc_isalnum((unsigned char)p[i - 1]);
			int after =
				i + n < len &&
				pc_isalnum((unsigned char)p[i + n]) &&
				pc_isalnum((unsigned char)phrases[k][n - 1]);

			if (!before && !after &&
			    !strncasecmp(p + i, phrases[k], n))
				return 1;
		}
	}
	return 0;
}

/* "could you take a look", "please have a look": a look asked for. */
static int asks_for_a_look(const char *p, size_t len)
{
	static const char *const asks[] = {
		"could you take a look",	"can you take a look",
		"could someone take a look",	"can someone take a look",
		"could anyone take a look",	"could you have a look",
		"can you have a look",		"could you please have a look",
		"could you please take a look", "please have a look",
		"please take a look",		NULL
	};

	return has_any(p, len, asks);
}

/* A look at one patch by its number or at a commit ("take a look at
 * patch 4", "have a look at commit 86da9f736740"): where the answer
 * is, not a request to review the series. */
static int looks_elsewhere(const char *p, size_t len)
{
	static const char *const at[] = { "look at patch ", "look at patch #",
					  "look at commit ", NULL };
	size_t k, n;

	for (k = 0; at[k]; k++) {
		const char *q = pc_memimem(p, len, at[k]);

		n = strlen(at[k]);
		if (!q)
			continue;
		q += n;
		if (!strcmp(at[k], "look at commit ") ||
		    (q < p + len && pc_isdigit((unsigned char)*q)))
			return 1;
	}
	return 0;
}

/* "Gentle ping", "Ping?", "Any comments on this series?", "Could this
 * be picked up?": a sentence asking for attention. The bare words only
 * open a sentence ("ping" is also a network tool). */
static int says_ping(const char *p, size_t len)
{
	static const char *const openers[] = { "ping",
					       "pinging",
					       "bump",
					       "reminder",
					       "kind reminder",
					       "friendly reminder",
					       "gentle reminder",
					       "just a reminder",
					       "a gentle reminder",
					       "a friendly reminder",
					       "any comments",
					       "any comment",
					       "any feedback",
					       "any update",
					       "any updates",
					       "any news",
					       "any thoughts",
					       "any objections",
					       "any chance",
					       "any progress",
					       "hello, any",
					       "hi, any",
					       NULL };
	/* The last three follow a new version: "Just posted the final v6
	 * with your suggestions. Let me know if anything needs to be
	 * changed" (linux-hwmon 2022-11-07). */
	static const char *const phrases[] = {
		"gentle ping", "friendly ping", "kind ping", "kindly ping",
		"soft ping", "polite ping", "just pinging", "ping on this",
		"ping for this", "ping for review", "ping this",
		"any comments on this", "any comments on the",
		"any feedback on", "any update on", "any updates on",
		"be picked up", "could you pick", "can you pick",
		"could you please pick", "can you please pick",
		"what is the status of", "what's the status of",
		"is there anything else i need", "is there anything i need",
		"is there anything else needed", "are there any other comments",
		"gentle reminder", "friendly reminder", "kind reminder",
		"kindly reminder", "did you have a chance",
		"have you had a chance", "had a chance to look",
		"are there any concerns", "any concerns from your side",
		"any further comments", "any more comments",
		"any other comments", "what about this patch",
		"what about this series", "what about the rest",
		"can this be merged", "could this be merged", "can this go in",
		"could this go in", "will you take", "would you take",
		"are you ok with this", "are you fine with this",
		"is this ok to be merged", "is there any update",
		"is there any progress", "let me know if anything needs",
		"let me know if anything else needs",
		"let me know if there is anything else",
		/* "@Thierry, it seems this is stuck on some opinion from
		 * you" (linux-pwm 2022-12-05) */
		"this is stuck on", "this seems stuck",
		"this seems to be stuck", "series is stuck", "patch is stuck",
		"is stuck waiting", NULL
	};

	/* "Please take a look" asks for a review; "Please take a look at
	 * patch 4 in the series" answers a reviewer's question with where
	 * to look (lore nvdimm 2021-05-21, Christoph Hellwig to Coly Li). */
	return starts_with_any(p, len, openers) || has_any(p, len, phrases) ||
	       (asks_for_a_look(p, len) && !looks_elsewhere(p, len));
}

/* "Who's tree can this land in?", "Who would pick this up?": a question
 * of routing, asked of whoever applies it, not of the author (linux-
 * integrity 2022-10-28, Kees Cook on "tpm: Avoid function type cast";
 * linux-pwm 2022-12-02, Uwe Kleine-Koenig). */
static int says_routing(const char *p, size_t len)
{
	static const char *const phrases[] = {
		"which tree should", "which tree will", "which tree would",
		"which tree can", "which tree does this go",
		"which tree is this going", "whose tree", "who's tree",
		"whos tree", "who will pick", "who would pick", "who picks",
		"who is picking", "who's picking", "who should pick",
		"who will take", "who would take", "who takes", "who is taking",
		"who's taking", "who should take", "who will merge",
		"who would merge", "who should merge", "who is going to",
		"who's going to", "who will apply", "who should apply",
		"who would apply", "through which", "via which",
		/* "Who will pick this patch up? ... Who volunteers?"
		 * (linux-pwm 2022-11-09, Uwe Kleine-König to Thierry
		 * Reding and Rob Herring) */
		"who volunteers", "any volunteers", "anyone volunteering",
		"where should this go", "can this land", "should this land",
		"should this go through", "should this go via",
		"go through your tree", "go via your tree", "take this through",
		"take it through", "take this via", "take it via",
		/* an applier asking the others:
						* "any concerns with me taking
						* this through the dax tree?" */
		"me taking this", "me taking it", "me taking these",
		"me taking them", "me picking this up", "me picking it up",
		"taking this through", "taking it through", "taking this via",
		"taking it via",
		/* the author asking a reviewer: "Can you help me on how to
		 * take these patches to linus tree or can you take it?" */
		"how to take these", "how to take this", "how to take them",
		"can you take it", "can you take this", "can you take these",
		"can you take them", "could you take it", "could you take this",
		"could you take these", "could you take them",
		"would you take it", "would you take this", "will you take it",
		"will you take this", "can you pick it up",
		"can you pick this up", "could you pick it up",
		"could you pick this up", NULL
	};
	/* "Could you take this into account?" asks for a change */
	static const char *const not_routing[] = {
		"into account", "into consideration",
		"a look",	"a closer",
		"care",		NULL
	};

	return has_any(p, len, phrases) && !has_any(p, len, not_routing);
}

/* A question about the author's work after this series: "May I ask
 * what else you have in the pipe for the next steps?" above Ulf
 * Hansson's Reviewed-by for the whole series (lore nvdimm 2021-05-25,
 * "simplify gendisk and request_queue allocation for bio based
 * drivers"). Curiosity about what comes next; the series waits on no
 * answer to it. */
static int says_beyond(const char *p, size_t len)
{
	/* Not "in the pipe" alone, nor "what's next": a review of pipe
	 * or display pipeline code asks "is the data in the pipe ...?" */
	static const char *const phrases[] = { "have in the pipe",
					       "in the pipe for",
					       "in the pipeline for",
					       "next steps",
					       "future plans",
					       "plans for the future",
					       NULL };

	return has_any(p, len, phrases);
}

/* A suggestion put as a question ("but would be nice for
 * consistency?", "Would it make sense to ...?", "What about ...?"):
 * one a question by name right after it hands to someone else. */
static int says_suggestion(const char *p, size_t len)
{
	static const char *const phrases[] = {
		"would be nice", "would be good",      "would be better",
		"would it make", "does it make sense", "would make sense",
		"should we",	 "shall we",	       "wouldn't it be",
		"what about",	 "how about",	       "maybe",
		"perhaps",	 "might be",	       "could be",
		"nicer",	 "better to",	       NULL
	};

	return has_any(p, len, phrases);
}

/* A question about the posting, not the patches: why it was re-sent,
 * what changed since the last submission ("You resending your v5
 * series ? Is there any news since your submittion last month ...?",
 * Christophe Leroy on "[RESEND PATCH v5 0/4] Add perf interface to
 * expose nvdimm", lore nvdimm 2021-11-16). The author's answer ("There
 * is no code side changes") changes nothing: the series waits as it
 * did. */
static int says_about_posting(const char *p, size_t len)
{
	static const char *const phrases[] = { "you resending",
					       "resending your",
					       "why resend",
					       "why the resend",
					       "why did you resend",
					       "why are you resending",
					       "any news since",
					       "since your submission",
					       "since your last submission",
					       "since the last submission",
					       "since your last posting",
					       "since the last posting",
					       "what changed since",
					       "what has changed since",
					       "what's changed since",
					       "anything changed since",
					       NULL };

	return has_any(p, len, phrases);
}

/* The sender would apply it, given someone else's ack: "I can take it
 * but would need Acks from nvdimm folks" (Michael Ellerman on "[PATCH v3
 * 0/4] Add perf interface to expose nvdimm", lore nvdimm 2021-06-23:
 * the series then waited 40 days on Dan Williams), "I can take this with
 * an XFS ack", "Once Rob acks the binding I'll queue it". The sender's
 * own taking ("I can", "I'll"), an ack that is not there yet, a
 * condition: "If you take it, you have my ack" gives one. */
static int says_needs_ack(const char *p, size_t len)
{
	static const char *const selves[] = { "i can",	  "i could", "i'll",
					      "i will",	  "i'd",     "i would",
					      "happy to", "glad to", "we can",
					      "we'll",	  NULL };
	static const char *const takes[] = {
		"take it",    "take this", "take them",	 "take these",
		"take the",   "pick it",   "pick this",	 "apply it",
		"apply this", "apply the", "queue it",	 "queue this",
		"queue the",  "carry it",  "carry this", "merge it",
		"merge this", NULL
	};
	static const char *const acks[] = { "ack", "acks", "acked-by", NULL };
	static const char *const conds[] = {
		"need",	 "with an", "with a",	"once",	      "after", "if ",
		"given", "pending", "provided", "as soon as", NULL
	};

	return has_word(p, len, acks) && has_any(p, len, takes) &&
	       has_any(p, len, selves) && has_any(p, len, conds);
}

/* The attribution lines of the mail being read ("On Wed, Jun 23, 2021
 * at 01:40:38PM +0530, kajoljain wrote:"), lower-cased: whom the reply
 * quotes, so whom it answers. */
static _Thread_local char attrib[512];
static _Thread_local size_t attrib_len;

static void note_attribution(const char *line, size_t n)
{
	size_t i;

	for (i = 0; i < n && attrib_len + 1 < sizeof(attrib); i++)
		attrib[attrib_len++] = (char)pc_tolower((unsigned char)line[i]);
	if (attrib_len + 1 < sizeof(attrib))
		attrib[attrib_len++] = '\n';
}

/* Words that open a sentence with a comma and are no one's name. */
static int not_a_name(const char *w, size_t n)
{
	static const char *const words[] = {
		"again",      "agreed",	     "ah",	    "also",
		"although",   "and",	     "anyhow",	    "anyone",
		"anyway",     "apologies",   "because",	    "besides",
		"better",     "btw",	     "but",	    "cheers",
		"closer",     "comments",    "cool",	    "correct",
		"dear",	      "everyone",    "fine",	    "first",
		"folks",      "furthermore", "fwiw",	    "fyi",
		"good",	      "great",	     "guys",	    "hello",
		"hence",      "hey",	     "hi",	    "hm",
		"hmm",	      "hmmm",	     "however",	    "huh",
		"ideas",      "indeed",	     "instead",	    "interesting",
		"last",	      "likewise",    "maintainers", "meanwhile",
		"moreover",   "next",	     "nice",	    "nit",
		"nitpick",    "nonetheless", "nope",	    "note",
		"objections", "oh",	     "ok",	    "okay",
		"opinions",   "otherwise",   "overall",	    "ping",
		"please",     "plus",	     "question",    "regardless",
		"regards",    "right",	     "second",	    "since",
		"sorry",      "still",	     "suggestions", "sure",
		"thanks",     "then",	     "therefore",   "third",
		"though",     "thoughts",    "thus",	    "true",
		"uh",	      "um",	     "understood",  "unless",
		"wait",	      "well",	     "what",	    "when",
		"where",      "which",	     "while",	    "who",
		"why",	      "yeah",	     "yep",	    "yes",
		"yet",	      "yup",	     "how",	    "now",
		"so",	      "here",	     "there",	    "this",
		"that",	      "all",	     NULL
	};
	char low[32];
	size_t i;

	if (n < 3 || n >= sizeof(low))
		return 1;
	for (i = 0; i < n; i++)
		low[i] = (char)pc_tolower((unsigned char)w[i]);
	/* "Honestly, ...", "Ideally, ..." */
	if (low[n - 2] == 'l' && low[n - 1] == 'y')
		return 1;
	for (i = 0; words[i]; i++)
		if (strlen(words[i]) == n && !memcmp(words[i], low, n))
			return 1;
	return 0;
}

/* A name: an upper-case letter, then lower-case ones (or a name's non-
 * ASCII letters, a hyphen: "Mickaël", "Jean-Philippe"); its length. */
static size_t name_at(const char *p, size_t len)
{
	size_t i = 1;

	if (!len || !pc_isupper((unsigned char)p[0]))
		return 0;
	while (i < len && (pc_islower((unsigned char)p[i]) ||
			   (unsigned char)p[i] >= 0x80 ||
			   (p[i] == '-' && i + 1 < len &&
			    pc_isupper((unsigned char)p[i + 1]))))
		i += p[i] == '-' ? 2 : 1;
	return i < len && pc_isalnum((unsigned char)p[i]) ? 0 : i;
}

/* A name at p that is no common word, and nobody the reply quotes
 * (ok 1); its length, or 0 when it is no name. */
static size_t vocative_name(const char *p, size_t len, int *quoted)
{
	char low[32];
	size_t n = name_at(p, len), k;

	if (!n || not_a_name(p, n))
		return 0;
	for (k = 0; k < n; k++)
		low[k] = (char)pc_tolower((unsigned char)p[k]);
	if (find_low(attrib, attrib_len, low, n))
		*quoted = 1;
	return n;
}

/* A question addressed by name to someone the mail does not answer:
 * "Dan, Michael ?", "Mike, ack?", "Casey, Paul, any comment?" below an
 * attribution that names someone else ("kajoljain wrote:"). It asks
 * the maintainers or another reviewer, not the author whose mail it
 * quotes (lore nvdimm 2021-06-23, Peter Zijlstra on the nvdimm perf
 * series; linux-integrity 2022-11, Mimi Zohar). A mail that quotes
 * nobody, or a name its attribution holds, keeps it a question. */
static int says_vocative_elsewhere(const char *p, size_t len)
{
	static const char *const seps[] = { ", ", " and ", " & ", "/", NULL };
	size_t i = 0, n, k;
	int quoted = 0;

	if (!attrib_len)
		return 0;
	while (i < len && p[i] == ' ')
		i++;
	if (!(n = vocative_name(p + i, len - i, &quoted)))
		return 0;
	i += n;
	for (k = 0; seps[k];) {
		size_t s = strlen(seps[k]);

		if (len - i > s && !memcmp(p + i, seps[k], s) &&
		    (n = vocative_name(p + i + s, len - i - s, &quoted))) {
			i += s + n;
			k = 0;
			continue;
		}
		k++;
	}
	if (quoted)
		return 0;
	if (i < len && p[i] == ' ')
		i++;
	if (i >= len)
		return 0;
	/* "Dan, Michael ?" whole; "Thierry, what's your take here?" */
	if (p[i] == '?')
		return i + 1 == len;
	return p[i] == ',' || p[i] == ':';
}

/* A name right at p, no common word and nobody the reply quotes (the
 * author it answers): its length, or 0. */
static size_t other_name(const char *p, size_t len)
{
	int quoted = 0;
	size_t n = vocative_name(p, len, &quoted);

	return quoted ? 0 : n;
}

/* "I'd let Thierry decide what he wants here", "I'll leave that to
 * Thierry", "That's Thierry's call": the decision handed to someone
 * else by name, not to the author the reply answers (linux-pwm
 * 2022-11-28, Uwe Kleine-König on the sifive fix, after its author
 * asked him to send his version). It asks the maintainers, as a
 * question of routing does; the author has nothing to answer. */
static int says_deferral(const char *p, size_t len)
{
	static const char *const before[] = { "let ",
					      "leave it to ",
					      "leave this to ",
					      "leave that to ",
					      "leave the decision to ",
					      "leave it up to ",
					      "defer to ",
					      "up to ",
					      NULL };
	static const char *const after[] = { "'s call", "'s decision",
					     "'s choice", NULL };
	size_t k, at, n, b;

	if (!has_any(p, len, before) && !has_any(p, len, after))
		return 0;
	for (k = 0; before[k]; k++) {
		size_t w = strlen(before[k]);

		for (at = next_at(p, len, 0, before[k]); at < len;
		     at = next_at(p, len, at + 1, before[k])) {
			const char *rest = p + at + w;
			size_t left = len - at - w;

			if ((at && pc_isalnum((unsigned char)p[at - 1])) ||
			    !(n = other_name(rest, left)))
				continue;
			rest += n;
			left -= n;
			if (k == 0) {
				/* "let Thierry decide", not "let Thierry
				 * know" */
				if (pc_mem_istarts(rest, left, " decide"))
					return 1;
			} else if (!strcmp(before[k], "up to ")) {
				/* "it's up to Thierry", "up to Thierry to
				 * decide", not "up to Kconfig to select" */
				if (!left || *rest == '.' || *rest == ',' ||
				    pc_mem_istarts(rest, left, " to decide"))
					return 1;
			} else {
				return 1;
			}
		}
	}
	/* "That's Thierry's call", "it is Thierry's decision"; not
	 * "Let's call this new flag" (linux-pwm 2022-11-29) */
	for (k = 0; after[k]; k++)
		for (at = next_at(p, len, 0, after[k]); at < len;
		     at = next_at(p, len, at + 1, after[k])) {
			for (b = at; b && pc_isalpha((unsigned char)p[b - 1]);)
				b--;
			if (b >= 3 &&
			    (!memcmp(p + b - 3, "'s ", 3) ||
			     !memcmp(p + b - 3, "is ", 3)) &&
			    b < at && other_name(p + b, len - b) == at - b)
				return 1;
		}
	return 0;
}

/* "Please ignore this", "self-NAK", "Please drop this patch". */
static int says_withdraw(const char *p, size_t len)
{
	static const char *const phrases[] = { "please ignore",
					       "pls ignore",
					       "plz ignore",
					       "please disregard",
					       "kindly ignore",
					       "ignore this patch",
					       "ignore this series",
					       "ignore this one",
					       "disregard this",
					       "self-nak",
					       "self nak",
					       "self-nack",
					       "self nack",
					       "nak myself",
					       "nack myself",
					       "please drop this",
					       "please drop it",
					       "drop this patch",
					       "drop this series",
					       "sent by mistake",
					       "sent in error",
					       "sent it by mistake",
					       "sent this by mistake",
					       "withdraw this",
					       "i withdraw",
					       "retract this",
					       "i retract",
					       "scratch this",
					       NULL };

	/* The author's own verdict on a patch, as the sentence says it
	 * (linux-pwm 2022-11-01, Andy Shevchenko on 2/3: "This patch is
	 * wrong ... The rest in the series is okay."); not "I don't think
	 * this patch is wrong". */
	static const char *const verdicts[] = { "this patch is wrong",
						"this patch is broken",
						"this patch is bogus", NULL };

	return has_any(p, len, phrases) || starts_with_any(p, len, verdicts);
}

/*
 * A reviewer taking an objection back: "Yes agreed.", "Ah I see.",
 * "Sorry for the noise, Ira" (lore nvdimm 2021-11-08). Only a short
 * sentence is agreement alone: "Agreed, will send a v2" is the
 * author's promise and "Agreed, but the name should change" a review
 * comment that happens to start politely.
 */
static int says_agree(const char *p, size_t len)
{
	static const char *const openers[] = { "agreed",
					       "yes agreed",
					       "ok agreed",
					       "ah i see",
					       "ah ok",
					       "sorry for the noise",
					       "never mind",
					       "nevermind",
					       "fair enough",
					       "my bad",
					       "ignore my comment",
					       "please ignore my comment",
					       NULL };
	struct words ws;
	size_t k;

	split_words(&ws, p, len, MAX_WORDS);
	for (k = 0; openers[k]; k++) {
		const char *const one[] = { openers[k], NULL };
		/* its words: one more than its spaces */
		size_t n = 1, i;

		if (!starts_with_any(p, len, one))
			continue;
		for (i = 0; openers[k][i]; i++)
			n += openers[k][i] == ' ';
		/* a name or "sorry" after it, no more */
		if (ws.n <= n + 2)
			return 1;
	}
	return 0;
}

/* "Looks good to me", "LGTM": approval that asks for nothing. */
static int says_approve(const char *p, size_t len)
{
	static const char *const openers[] = { "lgtm",
					       "looks good",
					       "look good",
					       "looks fine",
					       "looks ok",
					       "looks okay",
					       "looks sane",
					       "looks reasonable",
					       "looks correct",
					       "looks right",
					       "fine with me",
					       "fine by me",
					       "fine for me",
					       "ok for me",
					       "okay for me",
					       "ok with me",
					       "okay with me",
					       "works for me",
					       "no objection",
					       "no objections",
					       "no concern",
					       "no concerns",
					       "no complaints",
					       "no further comments",
					       "no more comments",
					       "no other comments",
					       "nothing to add",
					       "this looks good",
					       "this looks fine",
					       "the patch looks good",
					       "the series looks good",
					       "the change looks good",
					       NULL };

	return starts_with_any(p, len, openers) || says_agree(p, len);
}

/*
 * A review comment: a sentence of four words or more, no approval,
 * thanks or test report ("Looks good to me", "Thanks for fixing this"),
 * that asks for a change or names a problem ("please drop ...", "this
 * leaks on error", "nit: ..."), or any such sentence written below a
 * quoted line of the diff (inline: a reviewer's remark on a hunk). A
 * remark that asks for nothing ("my idea was that Thierry picks v2") is
 * none: it leaves the ball where it was.
 */
static int says_comment(const char *p, size_t len, int inline_review)
{
	static const char *const benign[] = {
		"looks good", "look good", "lgtm", "looks fine", "looks ok",
		"looks okay", "looks sane", "looks right", "looks correct",
		"looks reasonable", "makes sense", "good to me", "fine with me",
		"ok for me", "okay for me", "ok with me", "fine for me",
		"fine by me", "no objection", "sounds good", "thank", "thanks",
		"tested", "works", "feel free", "you can add", "you may add",
		"please add my", "for the series", "for the whole", "for all",
		"fwiw", "for what it", "acked", "reviewed", "nice",
		"good catch", "great", "the series:", "for patch",
		"for this patch", "for both", "add my", "also add",
		"as discussed",
		/* the device tree maintainers' standard note on tags */
		"-by tags", "-by/reviewed-by", "no need to repost", NULL
	};
	static const char *const asks[] = { "please",
					    "pls",
					    "should",
					    "shouldn't",
					    "would be better",
					    "prefer",
					    "could you",
					    "can you",
					    "would you",
					    "instead",
					    "nit",
					    "typo",
					    "s/",
					    "drop",
					    "rename",
					    "remove",
					    "missing",
					    "wrong",
					    "incorrect",
					    "not needed",
					    "unnecessary",
					    "redundant",
					    "need to",
					    "needs to",
					    "must",
					    "why",
					    "don't",
					    "do not",
					    "avoid",
					    "better to",
					    "consider",
					    "suggest",
					    "i think",
					    "leak",
					    "bug",
					    "broken",
					    "break",
					    "fails",
					    "doesn't",
					    "isn't",
					    "won't",
					    "can't",
					    "cannot",
					    "not correct",
					    "not right",
					    "is this",
					    "shouldn",
					    "split",
					    "move",
					    "add a",
					    "use ",
					    "what about",
					    "nak",
					    NULL };
	/* The reviewer's own reading, below a hunk: "I assume the change
	 * above is safe because of the one below." (lore nvdimm
	 * 2021-11-01, Bjorn Helgaas's Acked-by on "memremap: remove
	 * support for external pgmap refcounts"), unless it asks. */
	static const char *const assumes[] = { "i assume",   "i guess",
					       "i suppose",  "i take it",
					       "presumably", NULL };
	/* "However converting that to yaml would be a nice thing" (linux-pwm
	 * 2022-11-17, Uwe Kleine-König on "[PATCH v2] dt-bindings: pwm:
	 * mediatek: Add compatible for MT7986"): a suggestion, not praise */
	static const char *const suggests[] = { "would be nice",
						"would be a nice",
						"it'd be nice",
						"would be good to", NULL };
	/* The sender's own work once this is in: "I might be sending a
	 * patch to change the name of the driver after this gets merged"
	 * (linux-hwmon 2022-12-14, Joaquín Aramendía below a hunk of
	 * "[PATCH v2] hwmon: (oxp-sensors) Add AYANEO AIR and AIR Pro"):
	 * it takes the patch as it is, unless it also asks. */
	static const char *const after_merge[] = { "after this gets merged",
						   "after this is merged",
						   "once this gets merged",
						   "once this is merged",
						   "after this gets applied",
						   "after this is applied",
						   "once this gets applied",
						   "once this is applied",
						   "once this lands",
						   "after this lands",
						   NULL };
	struct words ws;

	split_words(&ws, p, len, 4);
	if (ws.n < 4)
		return 0;
	if (has_any(p, len, suggests))
		return 1;
	if (has_any(p, len, benign))
		return 0;
	if (has_any(p, len, after_merge) && !has_word(p, len, asks))
		return 0;
	if (inline_review && p[len - 1] != '?' &&
	    starts_with_any(p, len, assumes))
		return has_word(p, len, asks);
	return inline_review || has_word(p, len, asks);
}

/* A comment that asks the author in so many words: "please ...",
 * "could you ...", "nit: ...", "s/foo/bar/", "drop the ...". */
static int says_request(const char *p, size_t len)
{
	static const char *const asks[] = {
		"please",  "pls",	 "could you", "can you", "would you",
		"nit",	   "typo",	 "s/",	      "drop",	 "rename",
		"remove",  "split",	 "move",      "add a",	 "use ",
		"instead", "what about", "nak",	      "need to", "needs to",
		"must",	   "missing",	 NULL
	};

	size_t i, from = 0, quotes = 0;
	int cited = 0;

	for (i = 0; i < len; i++)
		quotes += p[i] == '"';
	if (quotes % 2)
		return has_word(p, len, asks);
	/* Words in double quotes are someone else's, cited: "Makes more
	 * sense than the old "get the dax device and /then/ check if it's
	 * ok to use it" strategy." asks nothing (lore nvdimm 2021-11-30,
	 * Darrick J. Wong's Reviewed-by). Only the words outside count. */
	for (i = 0; i <= len; i++) {
		if (i < len && p[i] != '"')
			continue;
		if (!cited && has_word(p + from, i - from, asks))
			return 1;
		cited = !cited;
		from = i + 1;
	}
	return 0;
}

/* The sender's tag holds whatever the author does with the remarks:
 * "With or without that, Acked-by: ...", "Either way: Reviewed-by",
 * "Fine either way with me", "Entirely up to you" (lore nvdimm 2021,
 * linux-hwmon and linux-pwm 2022). Not when the sentence asks itself
 * ("Either way, could you please move the check"). */
static int says_optional(const char *p, size_t len)
{
	static const char *const phrases[] = { "with or without that",
					       "with or without this",
					       "with or without those",
					       "with or without these",
					       "with or without it",
					       "with or without the above",
					       "either way",
					       "either ways",
					       "in either case",
					       "up to you",
					       NULL };

	return has_word(p, len, phrases) && !says_request(p, len) &&
	       p[len - 1] != '?';
}

/* "I agree", "Yes, I fully agree": a short sentence with "agree" and
 * no "not" ("I don't agree"). */
static int says_short_agree(const struct words *ws)
{
	static const char *const nots[] = { "not",    "don't",	"dont",
					    "can't",  "cannot", "cant",
					    "didn't", "no",	NULL };
	size_t i;
	int agree = 0;

	for (i = 0; i < ws->n; i++) {
		if (is_word(ws->w[i], nots))
			return 0;
		agree |= !strcmp(ws->w[i], "agree");
	}
	return agree;
}

/* "I'll fix it in v3", "will send a new version", "Got it". */
static int says_respin(const char *p, size_t len)
{
	/* The last eleven say it is done where the next version will carry
	 * it (linux-pwm 2022-11-15, Biju Das: "Thanks, I moved this up a
	 * level and the checks are now passing"). */
	static const char *const phrases[] = { "next version",
					       "next revision",
					       "next iteration",
					       "next spin",
					       "new version",
					       "will send",
					       "will resend",
					       "will respin",
					       "will fix",
					       "will update",
					       "will do",
					       "will change",
					       "will rework",
					       "will address",
					       "will drop",
					       "will split",
					       "will add",
					       "will remove",
					       "will rename",
					       "will move",
					       "will re-",
					       "i'll send",
					       "i'll fix",
					       "i'll update",
					       "i'll respin",
					       "i'll do",
					       "i'll change",
					       "i'll rework",
					       "i'll drop",
					       "i'll add",
					       "i'll remove",
					       "i'll move",
					       "got it",
					       "will post",
					       "i'll post",
					       "i'll address",
					       "i will send",
					       "i will fix",
					       "i will update",
					       "i will rework",
					       "i will change",
					       "i will address",
					       "i will respin",
					       "i will drop",
					       "i will post",
					       "will take care",
					       "i'll take care",
					       "you are right",
					       "you're right",
					       "good catch",
					       "your version",
					       "your code is better",
					       "your patch is better",
					       "your approach is better",
					       "your solution is better",
					       "i agree with your",
					       "will incorporate",
					       "should post a v",
					       "should send a v",
					       "post a v",
					       "send a v",
					       "plan to send",
					       "going to send",
					       "plan to post",
					       "going to post",
					       "fixed locally",
					       "fixed it locally",
					       "changed locally",
					       "updated locally",
					       "i moved this",
					       "i've moved",
					       "i have moved",
					       "i've fixed",
					       "i have fixed",
					       "i've changed this",
					       "i have changed this",
					       NULL };
	/* A reply of one word to a review point: "Fixed.", "Done." */
	static const char *const alone[] = { "fixed", "done", "changed",
					     "noted", "ack",  "agreed",
					     NULL };
	struct words ws;
	size_t i;

	split_words(&ws, p, len, 5);
	if (ws.n && ws.n <= 2 && is_word(ws.w[0], alone))
		return 1;
	/* Agreement alone, to a change asked for: "Yes, I agree."
	 * (linux-integrity 2022-11-30, Roberto Sassu, to Mimi Zohar's "Does
	 * it make sense to limit this change to just CONFIG_VMAP_STACK?").
	 * Longer sentences say what is agreed with. */
	if (ws.n && ws.n <= 4 && says_short_agree(&ws))
		return 1;
	if (has_any(p, len, phrases))
		return 1;
	/* "in v2", "in v3" (not a kernel release: "in v5.15") */
	for (i = 0; (i = next_at(p, len, i, "in v")) + 5 <= len; i++)
		if ((i == 0 || !pc_isalnum((unsigned char)p[i - 1])) &&
		    pc_isdigit((unsigned char)p[i + 4])) {
			size_t j = i + 4;

			while (j < len && pc_isdigit((unsigned char)p[j]))
				j++;
			if (j == len || (p[j] != '.' && p[j] != '-') ||
			    (p[j] == '.' &&
			     (j + 1 == len ||
			      !pc_isdigit((unsigned char)p[j + 1]))))
				return 1;
		}
	return 0;
}

/* "> +	ret = foo();", "> @@ -1,3 +1,4 @@": a quoted line of a diff. */
static int is_diff_quote(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && (p[i] == '>' || p[i] == ' '))
		i++;
	if (!i || p[0] != '>' || i == len)
		return 0;
	if (p[i] == '@')
		return i + 1 < len && p[i + 1] == '@';
	/* "+" or "-", but not a quoted signature or separator ("---"). */
	return (p[i] == '+' || p[i] == '-') &&
	       !(i + 2 < len && p[i + 1] == p[i] && p[i + 2] == p[i]);
}

/* "Reviewed-by: A <a@b>", "Fixes: 123abc (...)", "Link: https://...". */
static int is_trailer_line(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && (pc_isalnum((unsigned char)p[i]) || p[i] == '-'))
		i++;
	if (!i || i >= len || p[i] != ':')
		return 0;
	return (i > 3 && !strncasecmp(p + i - 3, "-by", 3)) ||
	       (i == 5 && !strncasecmp(p, "Fixes", 5)) ||
	       (i == 4 && !strncasecmp(p, "Link", 4)) ||
	       (i == 2 && !strncasecmp(p, "Cc", 2)) ||
	       (i == 6 && !strncasecmp(p, "Closes", 6));
}

/* "On Mon, ... X wrote:", in any language a mailer writes it ("Il
 * 19/10/22 11:42, x@y ha scritto:", "Am ... schrieb X:"): a line ending
 * in a colon that names an address or a date or says "wrote". */
static int is_attribution(const char *p, size_t len)
{
	static const char *const verbs[] = {
		"wrote", "writes", "scritto",	"schrieb",    "crit", "escribi",
		"skrev", "napisa", "kirjoitti", "geschreven", NULL
	};
	size_t i, digits = 0;

	while (len && pc_isspace((unsigned char)p[len - 1]))
		len--;
	if (!len || p[len - 1] != ':')
		return 0;
	if (memchr(p, '@', len) || has_any(p, len, verbs))
		return 1;
	for (i = 0; i < len; i++)
		digits += pc_isdigit((unsigned char)p[i]) != 0;
	return digits >= 4 && (memchr(p, '/', len) || memchr(p, ',', len));
}

/* bits with more's: the first range named stays. */
static unsigned merge(unsigned bits, unsigned more)
{
	if (PC_INTENT_FIRST(bits))
		more &= ~PC_INTENT_RANGE(0xff, 0xff);
	return bits | more;
}

/* Runs the sentence rules on each sentence of a paragraph: sentences
 * end at '.', '!' or '?' followed by a space or the end ("v5.15-rc7."
 * ends one, "5.15" does not). */
static unsigned scan_paragraph(const char *p, size_t len, int inline_review,
			       unsigned *marks)
{
	unsigned bits = 0;
	size_t start = 0, i;
	int routing, vocative, suggested_last = 0;
	char stack[2048], *low = len < sizeof(stack) ? stack : xmalloc(len + 1);

	for (i = 0; i < len; i++)
		low[i] = (char)pc_tolower((unsigned char)p[i]);
	low_base = p;
	low_text = low;
	low_len = len;

	for (i = 0; i <= len; i++) {
		int end = i == len ||
			  ((p[i] == '.' || p[i] == '!' || p[i] == '?') &&
			   (i + 1 == len || p[i + 1] == ' '));

		if (!end)
			continue;
		/* Keep a '?' in the sentence: questions are no verdicts. */
		if (i < len)
			i++;
		if (i > start) {
			read_sentence(low + start, low + i);
			bits = merge(bits, says_applied(p + start, i - start));
			if (says_changes(p + start, i - start))
				bits |= PC_INTENT_CHANGES;
			if (says_respin(p + start, i - start))
				bits |= PC_INTENT_RESPIN;
			/* A question of routing asks for the maintainers'
			 * attention, like a ping: it is no question to the
			 * author. */
			vocative =
				p[i - 1] == '?' &&
				says_vocative_elsewhere(p + start, i - start);
			routing = vocative ||
				  (p[i - 1] == '?' &&
				   says_routing(p + start, i - start)) ||
				  (p[i - 1] != '?' &&
				   says_deferral(p + start, i - start));
			/* "... but would be nice for consistency? Thierry,
			 * what's your take here?": the question before it
			 * is put to them (linux-pwm 2022-12-02, Uwe
			 * Kleine-König to Thierry Reding). */
			if (vocative) {
				if (suggested_last)
					bits &= ~(unsigned)ASKS_AUTHOR;
				*marks |= DEFERS;
			}
			suggested_last = p[i - 1] == '?' &&
					 says_suggestion(p + start, i - start);
			if (routing || says_ping(p + start, i - start))
				bits |= PC_INTENT_PING;
			if (p[i - 1] != '?' &&
			    says_needs_ack(p + start, i - start))
				bits |= PC_INTENT_NEEDS_ACK;
			if (says_withdraw(p + start, i - start))
				bits |= PC_INTENT_WITHDRAW;
			if (says_approve(p + start, i - start))
				bits |= PC_INTENT_APPROVE;
			/* ... and asks the author for nothing */
			if (!routing &&
			    says_comment(p + start, i - start, inline_review)) {
				bits |= PC_INTENT_COMMENT;
				if (inline_review ||
				    says_request(p + start, i - start))
					bits |= PC_INTENT_REQUEST;
			}
			if (p[i - 1] == '?' && !routing &&
			    !says_beyond(p + start, i - start) &&
			    !says_about_posting(p + start, i - start))
				bits |= PC_INTENT_QUESTION;
			if (says_optional(p + start, i - start))
				bits |= OPTIONAL;
		}
		start = i;
	}
	low_text = low_base = NULL;
	sent_lo = sent_hi = NULL;
	low_len = 0;
	if (low != stack)
		free(low);
	if (suggested_last)
		*marks |= SUGGESTS_LAST;
	return bits;
}

/* The bits of the paragraphs read so far: the last one's apart, until
 * the next shows whether it is put to someone else. */
struct reading {
	unsigned bits;
	unsigned last, last_marks;
	/* only blank lines since the last paragraph */
	int adjacent;
};

/* Reads a paragraph: one that puts a question by name to someone else
 * ("Thierry, what's your take here?") right below one that ends in a
 * suggestion asked as a question passes the suggestion on; it asks the
 * author nothing. A plain question ("Why is the lock needed?") stays the
 * author's to answer. */
static void read_paragraph(struct reading *r, const char *p, size_t len,
			   int inline_review)
{
	unsigned bits, marks = 0;

	if (!len)
		return;
	bits = scan_paragraph(p, len, inline_review, &marks);
	if ((marks & DEFERS) && r->adjacent && (r->last_marks & SUGGESTS_LAST))
		r->last &= ~(unsigned)ASKS_AUTHOR;
	r->bits = merge(r->bits, r->last);
	r->last = bits;
	r->last_marks = marks;
	r->adjacent = 1;
}

unsigned pc_intent_scan(const char *body, size_t len)
{
	struct pc_buf para = PC_BUF_INIT;
	struct reading rd = { 0, 0, 0, 0 };
	unsigned bits;
	size_t pos = 0;
	/* The last quoted line was a line of the diff; the paragraph being
	 * read follows one (an inline review comment). */
	int diff_quote = 0, inl = 0;
	/* Searched once for the whole body: the line that holds it ends the
	 * reading, and a per-line search cost more than all the rules. */
	const char *original = pc_memimem(body, len, "original message");

	attrib_len = 0;

	/* Own lines are joined into paragraphs, so a sentence wrapped over
	 * two lines ("I plan to get this\nqueued for -rc7.") reads whole. */
	while (pos < len) {
		const char *line = body + pos, *nl;
		size_t n;
		int own, attribution;

		nl = memchr(line, '\n', len - pos);
		n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl ? 1 : 0);
		if (n && line[n - 1] == '\r')
			n--;
		/* The signature and a top-posted reply's original end it;
		 * a quoted "> -----Original Message-----" (Outlook's header
		 * of the mail answered inline) does not: the next one
		 * might (lore nvdimm 2021-07-20, "Yes, I misunderstood the
		 * purpose of the lock. I'll fix this." below one). */
		if (original && original >= line && original < line + n && n &&
		    line[0] == '>')
			original = pc_memimem(body + pos, len - pos,
					      "original message");
		if ((n == 3 && !memcmp(line, "-- ", 3)) ||
		    (original && original >= line && original < line + n))
			break;
		while (n && pc_isspace((unsigned char)*line)) {
			line++;
			n--;
		}
		attribution = n && *line != '>' && is_attribution(line, n);
		/* "@@ -1,2 +1,3 @@" is a hunk; "@Thierry, ..." is
		 * addressed to someone (linux-pwm 2022-12-05) */
		own = n && *line != '>' && *line != '|' && *line != '+' &&
		      *line != '-' && !pc_mem_starts(line, n, "@@") &&
		      !attribution && !pc_mem_starts(line, n, "diff ");
		if (!own) {
			/* "On Wed, Jun 23, 2021 at 01:40:38PM +0530, Kajol
			 * Jain\nwrote:": an attribution wrapped over two
			 * lines begins in the paragraph before. */
			if (attribution) {
				if (para.len && para.len < 160)
					note_attribution(para.buf, para.len);
				note_attribution(line, n);
			}
			read_paragraph(&rd, para.buf, para.len, inl);
			pc_buf_reset(&para);
			if (n) { /* a blank line keeps what was quoted */
				diff_quote = is_diff_quote(line, n);
				rd.adjacent = 0;
			}
			continue;
		}
		/* A command to patchclock is not prose: "patchclock: applied"
		 * counts only when its sender may say it (lib/store/
		 * command.h). */
		if (n >= 11 && !strncasecmp(line, "patchclock:", 11)) {
			if (n == 19 && !strncasecmp(line + 11, " opt-out", 8))
				rd.bits |= PC_INTENT_OPT_OUT;
			read_paragraph(&rd, para.buf, para.len, inl);
			pc_buf_reset(&para);
			continue;
		}
		if (says_nak(line, n))
			rd.bits |= PC_INTENT_CHANGES;
		/* A trailer ("Reviewed-by: ...") is a tag, not prose. */
		if (is_trailer_line(line, n)) {
			read_paragraph(&rd, para.buf, para.len, inl);
			pc_buf_reset(&para);
			continue;
		}
		if (!para.len)
			inl = diff_quote;
		if (para.len)
			pc_buf_addch(&para, ' ');
		pc_buf_add(&para, line, n);
	}
	read_paragraph(&rd, para.buf, para.len, inl);
	bits = merge(rd.bits, rd.last);
	pc_buf_release(&para);
	attrib_len = 0;
	/* Remarks the sender's tag does not wait on ask for nothing. */
	if (bits & OPTIONAL)
		bits &= ~(unsigned)(PC_INTENT_REQUEST | OPTIONAL);
	return bits;
}
