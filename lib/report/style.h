/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's style sheet: light and dark (prefers-color-scheme), wide
 * tables scroll sideways on a phone, the board's columns stack.
 */
#ifndef PC_REPORT_STYLE_H
#define PC_REPORT_STYLE_H

static const char pc_report_css[] =
	":root{--bg:#fff;--fg:#1d1f21;--dim:#5c6370;--line:#d8dde3;"
	"--card:#f6f8fa;--link:#0550ae;--good:#1a7f37;--warn:#9a6700;"
	"--bad:#cf222e;--bar:#57606a}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;"
	"--dim:#9198a1;--line:#30363d;--card:#161b22;--link:#58a6ff;"
	"--good:#3fb950;--warn:#d29922;--bad:#f85149;--bar:#8b949e}}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0 auto;max-width:72rem;padding:0.75rem 1rem 3rem;"
	"font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"background:var(--bg);color:var(--fg)}\n"
	"a{color:var(--link);text-decoration:none}a:hover{text-decoration:"
	"underline}\n"
	"h1{font-size:1.4rem;margin:0.6rem 0}h2{font-size:1.1rem;"
	"margin:1.6rem 0 0.5rem;border-bottom:1px solid var(--line)}\n"
	"nav{font-size:0.9rem;color:var(--dim)}nav a{margin-right:0.8rem}\n"
	".dim,.when{color:var(--dim)}.when{white-space:nowrap}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;width:100%;font-size:0.92rem}\n"
	"th,td{padding:0.3rem 0.5rem;border-bottom:1px solid var(--line);"
	"text-align:left;vertical-align:top}\n"
	"th{font-weight:600;color:var(--dim)}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}\n"
	".flag{display:inline-block;font-size:0.78rem;padding:0 0.4rem;"
	"border-radius:0.6rem;border:1px solid var(--line);margin:0 0.2rem "
	"0.1rem 0}\n"
	".flag.overdue,.flag.boot-test-failed{border-color:var(--bad);"
	"color:var(--bad)}\n"
	".flag.needs-review,.flag.too-soon,.flag.incomplete{border-color:"
	"var(--warn);color:var(--warn)}\n"
	".state.reviewed,.state.accepted,.state.applied,.state.tested"
	"{color:var(--good)}\n"
	".board{display:grid;grid-template-columns:repeat(3,1fr);gap:0.8rem}"
	"\n"
	"@media (max-width:44rem){.board{grid-template-columns:1fr}\n"
	/* On a phone a table's rows become cards: every cell on its own
	 * line, a count with its name (data-count), none out of sight. */
	".scroll table,.scroll tbody,.scroll tr,.scroll td{display:block;"
	"width:auto}\n"
	".scroll tr:first-child{display:none}\n"
	".scroll tr{border:1px solid var(--line);border-radius:5px;"
	"margin-bottom:0.5rem;padding:0.3rem 0.4rem}\n"
	".scroll td{border:none;padding:0.1rem 0;text-align:left}\n"
	".scroll td[data-count]::before{content:attr(data-count) \": \";"
	"color:var(--dim)}\n"
	"code{overflow-wrap:anywhere}}\n"
	/* A chart fits its column: scaled by its viewBox. */
	"svg.chart{max-width:100%;height:auto}\n"
	".col{background:var(--card);border:1px solid var(--line);"
	"border-radius:6px;padding:0.5rem}\n"
	".col h3{margin:0 0 0.4rem;font-size:0.95rem}\n"
	".card{background:var(--bg);border:1px solid var(--line);"
	"border-radius:5px;padding:0.4rem 0.5rem;margin-bottom:0.4rem;"
	"font-size:0.88rem}\n"
	"svg.chart rect.bar{fill:var(--bar)}svg.chart rect.bar.old"
	"{fill:var(--bad)}\n"
	"svg text{fill:var(--fg);font-size:11px}\n"
	"svg.meter rect.track{fill:none;stroke:var(--line)}svg.meter "
	"rect.track.none{stroke-dasharray:3 2}\n"
	"svg.meter .fill.good{fill:var(--good)}svg.meter .fill.warn"
	"{fill:var(--warn)}svg.meter .fill.bad{fill:var(--bad)}\n"
	"blockquote{margin:0.2rem 0 0;padding-left:0.6rem;border-left:3px "
	"solid var(--line);color:var(--dim);font-size:0.85rem}\n"
	"pre{white-space:pre-wrap;font-size:0.82rem;background:var(--card);"
	"padding:0.4rem;border-radius:4px}\n";

#endif
