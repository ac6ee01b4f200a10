/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A reStructuredText reader for kernel documentation, just deep enough to
 * read subsystem profiles: section titles and their levels, the prose
 * paragraphs of each section with inline markup stripped, the `.. _label:`
 * targets, and the :ref:/:doc: references a paragraph makes.
 *
 * Section levels follow docutils: the first adornment style used (an
 * underline character, with or without an overline) is level 1, the next
 * new style level 2, and so on. Literal blocks, comments, tables' borders
 * and directives other than admonitions are skipped; bullet and enumerated
 * list items are paragraphs of their own. The reader never fails on odd
 * markup: what it does not understand stays text.
 */
#ifndef PC_MAINT_RST_H
#define PC_MAINT_RST_H

#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

/* Limits: a document larger than this, or with more sections or
 * paragraphs, is refused with PC_ELIMIT. */
#define PC_RST_MAX_BYTES (4u << 20)
#define PC_RST_MAX_SECTIONS 8192
#define PC_RST_MAX_PARAS 131072
#define PC_RST_MAX_LINES 262144
/* Adornment styles beyond this many are all read as the deepest level. */
#define PC_RST_MAX_LEVELS 16

#define PC_RST_NONE ((size_t)-1)

struct pc_rst_ref {
	int is_doc; /* 1: :doc:`target`, 0: :ref:`target` */
	char *target; /* owned: the label or document path as written */
};

struct pc_rst_para {
	/* owned: the paragraph with inline markup stripped; its source lines
	 * are joined with '\n' (callers treat '\n' as a space in prose) */
	char *text;
	size_t len;
	unsigned line; /* source line of its first line (1-based) */
	/* owned: line_off[i] is where source line `line + i` starts in text */
	size_t *line_off;
	size_t n_lines;
	int item; /* 1: a list item (its marker removed) */
	struct pc_rst_ref *refs; /* owned */
	size_t n_refs;
};

struct pc_rst_section {
	/* owned: the title, markup stripped; NULL for sec[0], the text
	 * before the first title */
	char *title;
	unsigned level; /* 1 = the document title; 0 for sec[0] */
	unsigned line; /* source line of the title text; 0 for sec[0] */
	size_t parent; /* index of the enclosing section, or PC_RST_NONE */
	size_t first_para, n_paras; /* its own paragraphs (not subsections') */
	unsigned end_line; /* last source line before the next title */
};

struct pc_rst_label {
	char *name; /* owned: lower-cased, as Sphinx compares them */
	size_t section; /* the section it precedes (or is inside) */
	unsigned line;
};

struct pc_rst_doc {
	struct pc_rst_section *sec; /* owned; sec[0] always exists */
	size_t n_sec;
	struct pc_rst_para *para; /* owned */
	size_t n_para;
	struct pc_rst_label *labels; /* owned */
	size_t n_labels;
};

/*
 * Reads (text, len) into *out (caller frees with pc_rst_doc_free()).
 * Returns 0, or PC_ELIMIT when the document exceeds the limits above.
 */
int pc_rst_parse(struct pc_rst_doc **out, const char *text, size_t len,
		 struct pc_err *err);
void pc_rst_doc_free(struct pc_rst_doc *doc);

/* The section whose label is name (case-insensitive), or PC_RST_NONE. */
size_t pc_rst_find_label(const struct pc_rst_doc *doc, const char *name);

/*
 * The last section index of the subtree rooted at section s (s itself
 * when it has no subsections).
 */
size_t pc_rst_subtree_end(const struct pc_rst_doc *doc, size_t s);

/* The source line at byte offset off of paragraph p. */
unsigned pc_rst_para_line(const struct pc_rst_para *p, size_t off);

/*
 * Appends (in, len) to out with inline markup removed: ``literal``,
 * *emphasis*, **strong**, `interpreted`, `text <url>`_ (kept as
 * "text <url>"), :role:`text <target>` (kept as "text"), footnote
 * references ([1]_), and backslash escapes. Unbalanced markup is copied
 * as it is. When refs is not NULL, :ref: and :doc: targets are appended
 * to *refs (caller frees each target and the array).
 */
void pc_rst_strip(struct pc_buf *out, const char *in, size_t len,
		  struct pc_rst_ref **refs, size_t *n_refs);

#endif
