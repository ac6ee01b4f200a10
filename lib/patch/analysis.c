// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Analysing a parsed message for storing it. See analysis.h.
 */
/* memmem() */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patch/analysis.h"
#include "patch/command.h"
#include "patch/intent.h"
#include "patch/isa.h"
#include "patch/split.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

unsigned pc_analysis_intent(const struct pc_msg *m)
{
	unsigned bits = pc_intent_scan(m->body.buf, m->body.len);

	if (m->dup_field)
		bits &= ~(unsigned)(PC_INTENT_APPLIED | PC_INTENT_SERIES |
				    PC_INTENT_RANGE(0xff, 0xff));
	return bits;
}

void pc_analysis_release(struct pc_analysis *d)
{
	pc_diff_release(&d->diff);
	pc_pull_release(&d->pull);
	pc_trailer_list_release(&d->trailers);
	free(d->name);
	free(d->change_id);
	free(d->supersedes);
}

/*
 * Lines of the body that name earlier versions: b4's "change-id: X" and
 * "- Link to v1: https://lore.kernel.org/r/<msgid>", and a
 * "Supersedes: <msgid>" pseudo-header.
 */
static void scan_version_links(struct pc_analysis *d, const char *body,
			       size_t len)
{
	const char *p = body, *end = body + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *v;

		if (!d->change_id && pc_mem_starts(p, l, "change-id: ")) {
			v = p + 11;
			d->change_id = xmemdupz(v, l - 11);
		} else if (!d->supersedes &&
			   (pc_mem_istarts(p, l, "- Link to v") ||
			    pc_mem_istarts(p, l, "Link to v"))) {
			const char *r = pc_memimem(p, l, "/r/");

			if (r) {
				const char *s = r + 3, *e = s;

				while (e < p + l &&
				       !pc_isspace((unsigned char)*e) &&
				       *e != '>')
					e++;
				while (e > s && e[-1] == '/')
					e--;
				if (e > s)
					d->supersedes =
						xmemdupz(s, (size_t)(e - s));
			}
		} else if (!d->supersedes &&
			   pc_mem_istarts(p, l, "Supersedes: <")) {
			const char *s = p + 13, *gt = memchr(s, '>', l - 13);

			if (gt && gt > s)
				d->supersedes = xmemdupz(s, (size_t)(gt - s));
		}
		p = nl ? nl + 1 : end;
	}
}

/* The length of a patch's commit message: up to "---" or the diff. */
static size_t commit_message_len(const char *body, size_t len, size_t diff_off)
{
	const char *p = body, *end = body + (diff_off < len ? diff_off : len);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l >= 3 && !memcmp(p, "---", 3) &&
		    (l == 3 || pc_isspace((unsigned char)p[3])))
			return (size_t)(p - body);
		p = nl ? nl + 1 : end;
	}
	return (size_t)(end - body);
}

/* The bits a posting carries (PC_INTENT_DRAFT_ISA, and a cover letter's
 * PC_INTENT_SPLIT): from its title and its author's prose (a cover
 * letter; a patch's commit message, or the mail's text around an
 * attached one). */
static unsigned posting_bits(const struct pc_analysis *d,
			     const struct pc_msg *m, const char *text)
{
	size_t prose = m->body.len;

	if (d->kind == PC_KIND_PATCH && text == m->body.buf && d->diff.nfiles)
		prose = commit_message_len(m->body.buf, m->body.len,
					   d->diff.diff_off);
	unsigned bits = 0;

	if (pc_isa_draft(d->name, strlen(d->name)) ||
	    pc_isa_draft(m->body.buf, prose))
		bits |= PC_INTENT_DRAFT_ISA;
	if (d->kind == PC_KIND_COVER && pc_split_by_tree(m->body.buf, prose))
		bits |= PC_INTENT_SPLIT;
	return bits;
}

int pc_analysis_diff_text(const struct pc_msg *m, const char **text,
			  size_t *len)
{
	size_t i;

	if (pc_diff_present(m->body.buf, m->body.len)) {
		*text = m->body.buf;
		*len = m->body.len;
		return 1;
	}
	for (i = 0; i < m->natt; i++)
		if (pc_diff_present(m->att[i].text.buf, m->att[i].text.len)) {
			*text = m->att[i].text.buf;
			*len = m->att[i].text.len;
			return 1;
		}
	return 0;
}

int pc_analyse(struct pc_analysis *d, const struct pc_msg *m,
	       struct pc_err *err)
{
	const char *text = m->body.buf;
	size_t tlen = m->body.len, i;
	int rc, has_diff;

	pc_subject_parse(&d->subj, m->subject, strlen(m->subject), NULL);
	d->name = xmemdupz(m->subject + d->subj.name_off, d->subj.name_len);
	/* The patch is inline, or else in the first text attachment that
	 * holds a diff. Most mail has none: skip the parser then. */
	has_diff = pc_analysis_diff_text(m, &text, &tlen);
	if (has_diff && (rc = pc_diff_parse(&d->diff, text, tlen, err)) < 0 &&
	    rc != PC_ELIMIT)
		return rc;
	/* request-pull writes "are available in the [Gg]it repository at". */
	if ((d->subj.flags & PC_SUBJ_PULL) ||
	    memmem(m->body.buf, m->body.len, "repository at", 13))
		pc_pull_parse(&d->pull, m->body.buf, m->body.len);
	d->kind = pc_classify(&d->subj, d->diff.nfiles > 0, d->pull.url != NULL,
			      m->in_reply_to != NULL || m->nrefs > 0);
	d->is_bot = pc_is_bot(m->from.name, m->from.addr, m->auto_submitted);
	if (d->kind == PC_KIND_PATCH || d->kind == PC_KIND_COVER)
		scan_version_links(d, m->body.buf, m->body.len);

	if (d->kind == PC_KIND_PATCH || d->kind == PC_KIND_COVER)
		d->intent = posting_bits(d, m, text);

	if (d->kind == PC_KIND_PATCH && text == m->body.buf) {
		d->origin = "patch";
		rc = pc_trailers_from_patch(
			&d->trailers, m->body.buf,
			commit_message_len(m->body.buf, m->body.len,
					   d->diff.nfiles ? d->diff.diff_off :
							    m->body.len),
			err);
	} else if (d->kind == PC_KIND_PATCH) {
		/* An attached patch: its own commit message is in the
		 * attachment, before the diff. */
		d->origin = "patch";
		rc = pc_trailers_from_patch(
			&d->trailers, text,
			commit_message_len(text, tlen, d->diff.diff_off), err);
	} else if (d->kind == PC_KIND_REPLY) {
		d->origin = "reply";
		d->intent = pc_analysis_intent(m);
		d->has_commands = pc_cmds_present(m->body.buf, m->body.len);
		d->to_bot = d->has_commands &&
			    pc_cmds_only(m->body.buf, m->body.len);
		rc = pc_trailers_from_reply(&d->trailers, m->body.buf,
					    m->body.len, err);
		if (d->is_bot)
			for (i = 0; i < d->trailers.n; i++)
				d->trailers.v[i].suggested = 1;
		for (i = 0; !d->is_bot && i < d->trailers.n; i++)
			if (!strcasecmp(d->trailers.v[i].name, "Reviewed-by") ||
			    !strcasecmp(d->trailers.v[i].name, "Acked-by"))
				d->review_tag = 1;
	} else if (d->kind != PC_KIND_COVER) {
		/* A pull request or another mail in a thread says things
		 * too ("applied", a question). */
		d->intent = pc_analysis_intent(m);
		d->has_commands = pc_cmds_present(m->body.buf, m->body.len);
		d->to_bot = d->has_commands &&
			    pc_cmds_only(m->body.buf, m->body.len);
		rc = 0;
	} else {
		rc = 0;
	}
	return rc < 0 ? rc : 0;
}

/* Whether every word of a appears among the words of b (ASCII case
 * folded; words split on spaces and punctuation other than '-'). */
static int words_within(const char *a, const char *b)
{
	const char *p = a;
	int any = 0;

	while (*p) {
		const char *s, *q;
		size_t n;
		int found = 0;

		while (*p && !pc_isalnum((unsigned char)*p) && *p != '-' &&
		       (unsigned char)*p < 0x80)
			p++;
		s = p;
		while (*p && (pc_isalnum((unsigned char)*p) || *p == '-' ||
			      (unsigned char)*p >= 0x80))
			p++;
		n = (size_t)(p - s);
		if (!n)
			continue;
		any = 1;
		for (q = b; *q && !found;) {
			const char *t;

			while (*q && !pc_isalnum((unsigned char)*q) &&
			       *q != '-' && (unsigned char)*q < 0x80)
				q++;
			t = q;
			while (*q && (pc_isalnum((unsigned char)*q) ||
				      *q == '-' || (unsigned char)*q >= 0x80))
				q++;
			found = (size_t)(q - t) == n && !strncasecmp(s, t, n);
		}
		if (!found)
			return 0;
	}
	return any;
}

/*
 * Whether a person tag in a reply names someone other than the reply's
 * sender, as b4 checks before applying a follow-up tag. It matches when
 * the addresses are equal, or when one display name's words are all in
 * the other ("fan <nifan@gmail.com>" giving "Reviewed-by: Fan Ni
 * <fan.ni@samsung.com>" is the same person writing from home).
 */
int pc_trailer_sender_mismatch(const struct pc_trailer *t,
			       const struct pc_msg *m)
{
	const char *from = m->from.name;

	if (!t->is_person || !t->addr)
		return 0;
	if (m->from.addr && !strcasecmp(t->addr, m->from.addr))
		return 0;
	if (t->person && from && *from && strcmp(from, m->from.addr) != 0 &&
	    (words_within(from, t->person) || words_within(t->person, from)))
		return 0;
	return 1;
}
