/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Policy phrases: from the words profiles use to typed values. Two ways
 * of reading: a short answer (the whole text must be the value, as in
 * "8 business days", "Before -rc5", "8:00am to 5:00pm Pacific Time Zone",
 * "Patches only"), used for profile sections and override-file values;
 * and a sentence of prose, in which a value is found next to the words
 * that say what it is about ("please wait up to one week before
 * pinging", "don't repost your patches within one 24h period", "sent
 * before -rc4, and ideally stabilized ... by -rc6").
 *
 * Nothing is guessed: a sentence without the cue words, or a value the
 * grammar below does not cover, yields nothing.
 */
#ifndef PC_MAINT_PHRASE_H
#define PC_MAINT_PHRASE_H

#include <stddef.h>

#include "profile/policy.h"
#include "util/err.h"

/* A value of any policy field. */
struct pc_phrase_value {
	struct pc_prof_duration dur; /* PING_AFTER, REPOST_MIN */
	struct pc_prof_deadline dl; /* NEW_FEATURES, MERGE_FEATURES */
	struct pc_prof_hours hours; /* OFFICE_HOURS */
	int e; /* the enumerated fields */
	struct pc_prof_person *people; /* owned: TRUSTED */
	size_t n_people;
	char *text; /* owned: TEST_SUITE */
	char *url; /* owned: TEST_SUITE, may be NULL */
};

/* Frees what v owns and zeroes it. */
void pc_phrase_value_release(struct pc_phrase_value *v);
/* Moves v into field f of pol (freeing what pol held there). */
void pc_phrase_value_store(struct pc_policy *pol, enum pc_prof_field f,
			   struct pc_phrase_value *v);
/* Do a and b hold the same value of field f? */
int pc_phrase_value_equal(enum pc_prof_field f, const struct pc_phrase_value *a,
			  const struct pc_phrase_value *b);
/* Copies field f of pol into *out (caller releases). */
void pc_phrase_value_from_policy(struct pc_phrase_value *out,
				 const struct pc_policy *pol,
				 enum pc_prof_field f);

/*
 * Reads (s, len) as a short answer for field f: the whole text, less a
 * final full stop, must be a value. Returns 0 and fills *out, or
 * PC_EPARSE with a message saying what was expected (PC_ELIMIT for more
 * than PC_PROFILE_MAX_PEOPLE people).
 */
int pc_phrase_short(struct pc_phrase_value *out, enum pc_prof_field f,
		    const char *s, size_t len, struct pc_err *err);

/*
 * Looks for a value of field f in the prose sentence (s, len). in_field
 * is 1 when the sentence is in a section whose title names the field
 * ("Review Cadence" for PING_AFTER), which relaxes the cue words needed.
 * Returns 1 and fills *out when found, else 0.
 */
int pc_phrase_prose(struct pc_phrase_value *out, enum pc_prof_field f,
		    const char *s, size_t len, int in_field);

/*
 * Is the sentence (s, len) an example ("for example", "e.g.", "such as")?
 * Examples are never read as policy.
 */
int pc_phrase_is_example(const char *s, size_t len);

/* The parts, for tests and for other modules. Each reads the whole
 * text (a short answer) and returns 0 or PC_EPARSE. */
int pc_phrase_duration(struct pc_prof_duration *out, const char *s, size_t len,
		       struct pc_err *err);
int pc_phrase_deadline(struct pc_prof_deadline *out, const char *s, size_t len,
		       struct pc_err *err);
int pc_phrase_hours(struct pc_prof_hours *out, const char *s, size_t len,
		    struct pc_err *err);
/*
 * The IANA name of a time zone as people write it ("Pacific Time Zone",
 * "PST", "CET", "UTC+2", "Europe/Berlin") into out (out_len bytes).
 * Returns 0 or PC_ENOTFOUND.
 */
int pc_phrase_zone(char *out, size_t out_len, const char *s, size_t len);

/*
 * Splits sentences of a paragraph: calls fn(arg, off, len) for each
 * sentence of (text, len), in order. A sentence ends at '.', '!' or '?'
 * followed by a blank, or at the end of the text. fn returns nonzero to
 * stop.
 */
typedef int (*pc_phrase_sentence_fn)(void *arg, size_t off, size_t len);
void pc_phrase_sentences(const char *text, size_t len, pc_phrase_sentence_fn fn,
			 void *arg);

#endif
