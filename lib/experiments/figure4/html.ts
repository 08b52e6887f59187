/**
 * Figure 4 as one self-contained HTML file (inline style, no script, nothing fetched), sized for a
 * paper's column or text width; its print stylesheet gives the PDF (the browser's Print → Save as PDF
 * keeps the size, the colours and the text as text).
 */
import type { MarkColour } from "@/db/schema";
import { escapeXml } from "@/lib/xml-text";
import { MARK_MEANINGS } from "../marks";
import { WIDTHS, type FigureModel, type Span } from "./model";

const esc = escapeXml;

export const MARK_FILL: Record<MarkColour, string> = { need: "#fde68a", preference: "#bfdbfe", contradicts: "#d1d5db" };

const spans = (xs: Span[]) => xs.map((s) => (s.colour ? `<mark class="${s.colour}">${esc(s.text)}</mark>` : esc(s.text))).join("");

function style(width: number): string {
  return `
*{box-sizing:border-box}body{margin:0;background:#fff;color:#0f172a}
.fig{width:${width}px;font:10px/1.35 "Helvetica Neue",Arial,"Noto Sans CJK SC","PingFang SC",sans-serif;padding:8px}
h1{font-size:11px;margin:0 0 6px}.info{border:1px solid #cbd5e1;border-radius:4px;padding:4px 6px;margin:0 0 6px;background:#f8fafc}
.info dt{font-weight:600;color:#475569;display:inline}.info dd{display:inline;margin:0}.info div{margin:0 0 1px}
.cols{display:grid;gap:6px}.col{border:1px solid #cbd5e1;border-radius:4px;padding:4px}.col h2{font-size:10px;margin:0 0 4px;text-align:center}
.u,.a{border-radius:3px;padding:2px 4px;margin:0 0 3px}.u{background:#f1f5f9}.a{background:#eef2ff}
.who{font-size:8px;font-weight:600;color:#475569;display:block;text-transform:uppercase;letter-spacing:.02em}
.mem{border-left:2px solid #a5b4fc;padding-left:4px;margin:2px 0 0;font-size:8.5px;color:#334155}.mem b{color:#4338ca;font-weight:600}
.scores{font-size:8.5px;color:#64748b;margin-top:2px}.err{color:#b91c1c}
mark.need{background:${MARK_FILL.need}}mark.preference{background:${MARK_FILL.preference}}mark.contradicts{background:${MARK_FILL.contradicts}}
.ev{border:1px solid #fcd34d;border-radius:4px;padding:4px 6px;margin-top:6px;background:#fffbeb}.ev h3{font-size:9.5px;margin:0 0 2px}.ev div{margin:0 0 2px}.ev .by{color:#4338ca;font-size:8.5px}
.legend{font-size:8.5px;margin-top:6px}figcaption{font-size:9.5px;margin-top:6px}.legend mark{padding:0 4px;margin-right:3px}.notes{margin:2px 0 0;padding-left:14px;font-size:8.5px}
@page{size:auto;margin:12mm}@media print{.fig{padding:0}.col,.info{break-inside:avoid}}`;
}

export function figureBodyHtml(m: FigureModel): string {
  const full = m.width === "full";
  const info = m.info.length
    ? `<dl class="info">${m.info.map((f) => `<div><dt>${esc(f.label)}:</dt> <dd>${spans(f.text)}</dd></div>`).join("")}</dl>`
    : "";
  const refs = m.references.length
    ? `<dl class="info">${m.references.map((f) => `<div><dt>${esc(f.label)}:</dt> <dd>${esc(f.text)}</dd></div>`).join("")}</dl>`
    : "";
  const cols = m.columns
    .map((c) => {
      const turns = c.turns
        .map(
          (t) =>
            `<div class="${t.role === "user" ? "u" : "a"}"><span class="who">${t.role === "user" ? "User" : "Assistant"} · turn ${t.turn}${t.action ? ` · ${esc(t.action)}` : ""}</span>${spans(t.text)}${t.memory
              .map((x) => `<div class="mem">${x.label ? `<b>${esc(x.label)}</b> ` : ""}${esc(x.text)}</div>`)
              .join("")}</div>`,
        )
        .join("");
      const answer = c.answer.map((f) => `<div class="a"><span class="who">${esc(f.label)}</span>${spans(f.text)}</div>`).join("");
      const body = c.error ? `<p class="err">failed: ${esc(c.error)}</p>` : turns || answer || "<p>(no output)</p>";
      return `<section class="col"><h2>${esc(c.method)}</h2>${body}${c.scores.length ? `<div class="scores">${esc(c.scores.join(" · "))}</div>` : ""}</section>`;
    })
    .join("");
  const used = new Set(m.notes.map((n) => n.colour));
  const legend = used.size
    ? `<div class="legend">${[...used].map((c) => `<mark class="${c}">&nbsp;</mark>${esc(MARK_MEANINGS[c])}`).join(" &nbsp; ")}${
        m.notes.some((n) => n.note)
          ? `<ol class="notes">${m.notes
              .filter((n) => n.note)
              .map((n) => `<li><mark class="${n.colour}">${esc(n.quote)}</mark> ${esc(n.note!)}</li>`)
              .join("")}</ol>`
          : ""
      }</div>`
    : "";
  // LoCoMo / LongMemEval: the evidence turns, each with the shown methods whose retrieved context held it.
  const evidence = m.evidence.length
    ? `<section class="ev"><h3>Evidence</h3>${m.evidence
        .map(
          (e) =>
            `<div><b>${esc(e.id)}</b> ${esc(e.speaker)}: ${esc(e.text)} <span class="by">${esc(e.by.length ? `retrieved by ${e.by.join(", ")}` : "retrieved by none of these methods")}</span></div>`,
        )
        .join("")}</section>`
    : "";
  const n = Math.max(1, m.columns.length);
  const caption = m.caption ? `<figcaption>${esc(m.caption)}</figcaption>` : "";
  return `<figure class="fig" data-width="${m.width}"><h1>${esc(m.title)}</h1>${info}${refs}<div class="cols" style="grid-template-columns:${full ? `repeat(${n},minmax(0,1fr))` : "1fr"}">${cols}</div>${evidence}${legend}${caption}</figure>`;
}

export function figureHtml(m: FigureModel): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(`Figure: ${m.title}`)}</title><style>${style(WIDTHS[m.width])}</style></head>
<body>${figureBodyHtml(m)}</body></html>
`;
}
