/**
 * "PDF (print)": the SVG figure alone on one A4 page, scaled down to fit it (never up), so Print → Save
 * as PDF gives one page however many turns are shown; a single column no longer splits over two pages.
 * The SVG is inline, so the PDF keeps the text as text and the highlights' colours.
 */
import { escapeXml } from "@/lib/xml-text";
import type { FigureModel } from "./model";
import { figureSvg } from "./svg";

const PX_PER_MM = 96 / 25.4;
/** A4 less 12 mm margins, less 3 mm of height so rounding never spills a blank second page. */
const PAGE = { width: (210 - 24) * PX_PER_MM, height: (297 - 24 - 3) * PX_PER_MM };

/** The scale that fits a `width` × `height` px figure on one page (1 when it already fits). */
export function printScale(width: number, height: number): number {
  return Math.min(1, PAGE.width / width, PAGE.height / height);
}

export function figurePrintHtml(m: FigureModel): string {
  const svg = figureSvg(m).replace(/^<\?xml[^>]*>\n/, "");
  const [, w, h] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg)!.map(Number);
  const s = printScale(w, h);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeXml(`Figure: ${m.title}`)}</title><style>
@page{size:A4 portrait;margin:12mm}html,body{margin:0;background:#fff}
.fig svg{display:block;width:${(w * s).toFixed(1)}px;height:${(h * s).toFixed(1)}px}
.hint{font:12px system-ui,sans-serif;color:#475569;margin:0 0 8px}@media print{.hint{display:none}}
</style></head>
<body><p class="hint">Print this page and choose Save as PDF: the figure fits one A4 page${s < 1 ? ` (scaled to ${Math.round(s * 100)}%)` : ""}.</p>
<div class="fig" data-scale="${s.toFixed(3)}">${svg}</div></body></html>
`;
}
