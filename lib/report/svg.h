/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Charts as inline SVG, drawn from numbers: no library, no script. The
 * colours are CSS classes (the page's style sheet gives them for light
 * and dark mode); every chart has a <title> and the numbers as text, so
 * it reads without colour and in a screen reader.
 */
#ifndef PC_REPORT_SVG_H
#define PC_REPORT_SVG_H

#include <stddef.h>

#include "util/buf.h"

/* One bar of a chart: its label, its value, its CSS class (or NULL). */
struct pc_svg_bar {
	const char *label;
	double value;
	const char *cls;
};

/*
 * A vertical bar chart (a histogram when the labels are ranges) of n bars,
 * each with its value above it and its label below; title is the chart's
 * accessible name. The tallest bar fills the height; all-zero draws none.
 */
void pc_svg_bars(struct pc_buf *out, const char *title,
		 const struct pc_svg_bar *bars, size_t n);

/*
 * A horizontal meter: a bar filled to fraction (clamped to 0..1) with
 * the text beside it; cls colours the fill ("good", "warn", "bad").
 * fraction < 0 draws an empty, dashed bar ("no data").
 */
void pc_svg_meter(struct pc_buf *out, const char *title, double fraction,
		  const char *text, const char *cls);

#endif
