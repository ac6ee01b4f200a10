// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inline SVG bar charts and meters. See svg.h.
 */
#include <stdio.h>

#include "report/html.h"
#include "report/svg.h"
#include "util/banned.h"

#define BAR_W 64
#define BAR_GAP 12
#define CHART_H 120
#define LABEL_H 34

void pc_svg_bars(struct pc_buf *out, const char *title,
		 const struct pc_svg_bar *bars, size_t n)
{
	double max = 0;
	size_t i;
	int w = (int)n * (BAR_W + BAR_GAP) + BAR_GAP;

	for (i = 0; i < n; i++)
		if (bars[i].value > max)
			max = bars[i].value;
	pc_buf_addf(out,
		    "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 %d %d\" "
		    "width=\"%d\" height=\"%d\" "
		    "xmlns=\"http://www.w3.org/2000/svg\"><title>",
		    w, CHART_H + LABEL_H, w, CHART_H + LABEL_H);
	pc_html_plain(out, title);
	pc_buf_addstr(out, "</title>");
	for (i = 0; i < n; i++) {
		double v = bars[i].value > 0 ? bars[i].value : 0;
		int h = max > 0 ? (int)(v / max * (CHART_H - 18) + 0.5) : 0;
		int x = BAR_GAP + (int)i * (BAR_W + BAR_GAP);

		pc_buf_addf(out,
			    "<rect class=\"bar %s\" x=\"%d\" y=\"%d\" "
			    "width=\"%d\" height=\"%d\"><title>",
			    bars[i].cls ? bars[i].cls : "", x, CHART_H - h,
			    BAR_W, h);
		pc_html_plain(out, bars[i].label);
		pc_buf_addf(out, ": %g</title></rect>", v);
		pc_buf_addf(out,
			    "<text class=\"value\" x=\"%d\" y=\"%d\" "
			    "text-anchor=\"middle\">%g</text>",
			    x + BAR_W / 2, CHART_H - h - 4, v);
		pc_buf_addf(out,
			    "<text class=\"label\" x=\"%d\" y=\"%d\" "
			    "text-anchor=\"middle\">",
			    x + BAR_W / 2, CHART_H + 16);
		pc_html_plain(out, bars[i].label);
		pc_buf_addstr(out, "</text>");
	}
	pc_buf_addstr(out, "</svg>");
}

void pc_svg_meter(struct pc_buf *out, const char *title, double fraction,
		  const char *text, const char *cls)
{
	int none = fraction < 0;
	int fill;

	if (fraction > 1)
		fraction = 1;
	fill = none ? 0 : (int)(fraction * 160 + 0.5);
	pc_buf_addstr(out, "<svg class=\"meter\" role=\"img\" "
			   "viewBox=\"0 0 160 14\" width=\"160\" height=\"14\" "
			   "xmlns=\"http://www.w3.org/2000/svg\"><title>");
	pc_html_plain(out, title);
	pc_buf_addstr(out, ": ");
	pc_html_plain(out, text);
	pc_buf_addf(out,
		    "</title><rect class=\"track%s\" x=\"0.5\" y=\"0.5\" "
		    "width=\"159\" height=\"13\" rx=\"3\"/>",
		    none ? " none" : "");
	if (fill > 0) {
		pc_buf_addf(out,
			    "<rect class=\"fill %s\" x=\"0\" y=\"0\" "
			    "width=\"%d\" height=\"14\" rx=\"3\"/>",
			    cls ? cls : "", fill);
	}
	pc_buf_addstr(out, "</svg>");
}
