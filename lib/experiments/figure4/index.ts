/** Figure 4 exports: `figure-html`, `figure-svg` and `figure-print` (one A4 page for a PDF), with the figure page's options. */
import type { Db } from "@/db/client";
import { figureHtml } from "./html";
import { figureModel, figureOptions } from "./model";
import { figureSvg } from "./svg";
import { figurePrintHtml } from "./print";

export { DEFAULT_FIELDS, FIELD_LABELS, FIGURE_FIELDS, figureModel, figureOptions, figureQuery, type FigureOptions } from "./model";
export { figureBodyHtml } from "./html";

export const FIGURE_FORMATS = ["figure-html", "figure-svg", "figure-print"] as const;

export function exportFigure(db: Db, experimentId: number, format: (typeof FIGURE_FORMATS)[number], sp: URLSearchParams) {
  const o = figureOptions(sp);
  const m = figureModel(db, experimentId, o);
  const base = `experiment-${experimentId}-figure-${o.itemKey.replace(/[^A-Za-z0-9_-]+/g, "_")}`;
  if (format === "figure-svg") return { body: figureSvg(m), contentType: "image/svg+xml; charset=utf-8", filename: `${base}.svg` };
  if (format === "figure-print")
    return { body: figurePrintHtml(m), contentType: "text/html; charset=utf-8", filename: `${base}-print.html` };
  return { body: figureHtml(m), contentType: "text/html; charset=utf-8", filename: `${base}.html` };
}
