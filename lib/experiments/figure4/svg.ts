/**
 * Figure 4 as a standalone SVG (for LaTeX via Inkscape or svg2pdf, or a slide): the same content as the
 * HTML figure, laid out here because SVG does not wrap text. Widths are estimated per character (CJK
 * full width); each run of text is given its estimated length (`textLength`, spacing adjusted), so the
 * highlight behind it lines up whatever font the viewer picks.
 */
import { escapeXml } from "@/lib/xml-text";
import { MARK_MEANINGS } from "../marks";
import { MARK_FILL } from "./html";
import { WIDTHS, type FigureModel, type Span } from "./model";

const esc = escapeXml;

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;
const NARROW = /[ilj.,:;'|!()[\]{}\s]/;
const BROAD = /[mwMW@%]/;

/** Estimated advance of `text` at `size` px in a sans-serif font. */
export function textWidth(text: string, size: number): number {
  let w = 0;
  for (const ch of text) w += WIDE.test(ch) ? 1 : NARROW.test(ch) ? 0.3 : BROAD.test(ch) ? 0.8 : /[A-Z]/.test(ch) ? 0.65 : 0.52;
  return w * size;
}

type Piece = { text: string; fill: string | null };
type Line = { pieces: Piece[]; size: number; bold: boolean; colour: string };

/** Words (CJK characters one by one) with the spaces after them, each keeping its highlight. */
function tokens(spans: Span[]): Piece[] {
  const out: Piece[] = [];
  for (const s of spans) {
    const fill = s.colour ? MARK_FILL[s.colour] : null;
    for (const t of s.text
      .replace(/\s+/g, " ")
      .match(/[\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]|[^\s\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]+\s*|\s+/g) ?? [])
      out.push({ text: t, fill });
  }
  return out;
}

/** Greedy wrap to `width`; a word longer than a line is cut. */
export function wrap(spans: Span[], width: number, size: number): Piece[][] {
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let w = 0;
  const push = () => {
    if (line.length) lines.push(line);
    line = [];
    w = 0;
  };
  for (let tk of tokens(spans)) {
    while (textWidth(tk.text.trimEnd(), size) > width) {
      // A very long word: fill the rest of this line (or a new one) with as much as fits.
      if (w > 0) push();
      let n = tk.text.length;
      while (n > 1 && textWidth(tk.text.slice(0, n), size) > width) n--;
      line.push({ text: tk.text.slice(0, n), fill: tk.fill });
      push();
      tk = { text: tk.text.slice(n), fill: tk.fill };
    }
    const tw = textWidth(tk.text, size);
    if (w > 0 && w + textWidth(tk.text.trimEnd(), size) > width) push();
    if (w === 0 && !tk.text.trim()) continue;
    const last = line.at(-1);
    if (last && last.fill === tk.fill) last.text += tk.text;
    else line.push({ ...tk });
    w += tw;
  }
  push();
  return lines;
}

const plain = (text: string): Span[] => [{ text, colour: null }];

/**
 * The legend's colour swatch: blank glyphs that are not whitespace (U+2800), so the wrap keeps them at the
 * start of a line; spaces were dropped there and the legend named a meaning with no colour (issue 44.1).
 */
export const LEGEND_SWATCH = "\u2800\u2800\u2800";

/** A column of lines with backgrounds, drawn at (x, y) with the given width; returns its SVG and height. */
class Block {
  private parts: string[] = [];
  private y = 0;
  constructor(
    private x: number,
    private width: number,
  ) {}
  lines(spans: Span[], o: { size?: number; bold?: boolean; colour?: string; indent?: number } = {}): this {
    const size = o.size ?? 10;
    const indent = o.indent ?? 0;
    for (const pieces of wrap(spans, this.width - indent, size))
      this.line({ pieces, size, bold: !!o.bold, colour: o.colour ?? "#0f172a" }, indent);
    return this;
  }
  private line(l: Line, indent: number): void {
    const lh = l.size * 1.35;
    const base = this.y + l.size;
    let x = this.x + indent;
    const tspans: string[] = [];
    for (const p of l.pieces) {
      const w = textWidth(p.text, l.size);
      if (p.fill)
        this.parts.push(
          `<rect x="${x.toFixed(1)}" y="${(base - l.size * 0.9).toFixed(1)}" width="${w.toFixed(1)}" height="${(l.size * 1.15).toFixed(1)}" fill="${p.fill}"/>`,
        );
      tspans.push(`<tspan x="${x.toFixed(1)}" textLength="${w.toFixed(1)}" lengthAdjust="spacing">${esc(p.text)}</tspan>`);
      x += w;
    }
    this.parts.push(
      `<text y="${base.toFixed(1)}" font-size="${l.size}"${l.bold ? ' font-weight="600"' : ""} fill="${l.colour}" xml:space="preserve">${tspans.join("")}</text>`,
    );
    this.y += lh;
  }
  gap(px: number): this {
    this.y += px;
    return this;
  }
  /** Wraps what `draw` adds in a rounded background. */
  box(fill: string, stroke: string | null, pad: number, draw: (b: Block) => void): this {
    const top = this.y;
    const inner = new Block(this.x + pad, this.width - 2 * pad);
    inner.y = top + pad;
    draw(inner);
    const h = inner.y - top + pad;
    this.parts.push(
      `<rect x="${this.x}" y="${top.toFixed(1)}" width="${this.width}" height="${h.toFixed(1)}" rx="3" fill="${fill}"${stroke ? ` stroke="${stroke}"` : ""}/>`,
      ...inner.parts,
    );
    this.y = top + h;
    return this;
  }
  get height(): number {
    return this.y;
  }
  svg(): string {
    return this.parts.join("\n");
  }
  static at(x: number, y: number, width: number): Block {
    const b = new Block(x, width);
    b.y = y;
    return b;
  }
}

export function figureSvg(m: FigureModel): string {
  const W = WIDTHS[m.width];
  const pad = 8;
  const gap = 6;
  const page = Block.at(pad, pad, W - 2 * pad);
  page.lines(plain(m.title), { size: 11, bold: true }).gap(4);
  const facts: Array<{ label: string; text: Span[] }> = [...m.info, ...m.references.map((f) => ({ label: f.label, text: plain(f.text) }))];
  if (facts.length)
    page
      .box("#f8fafc", "#cbd5e1", 5, (b) => {
        for (const f of facts) b.lines([{ text: `${f.label}: `, colour: null }, ...f.text], { size: 9 });
      })
      .gap(gap);
  const n = m.columns.length;
  const side = m.width === "full" && n > 1;
  const cw = side ? (W - 2 * pad - (n - 1) * gap) / n : W - 2 * pad;
  const top = page.height;
  let bottom = top;
  const columns: string[] = [];
  m.columns.forEach((c, i) => {
    const col = Block.at(side ? pad + i * (cw + gap) : pad, side ? top : bottom + (i ? gap : 0), cw);
    col.box("#ffffff", "#cbd5e1", 4, (b) => {
      b.lines(plain(c.method), { size: 10, bold: true }).gap(2);
      if (c.error) b.lines(plain(`failed: ${c.error}`), { size: 9, colour: "#b91c1c" });
      for (const t of c.turns)
        b.box(t.role === "user" ? "#f1f5f9" : "#eef2ff", null, 3, (tb) => {
          tb.lines(plain(`${t.role === "user" ? "USER" : "ASSISTANT"} · TURN ${t.turn}${t.action ? ` · ${t.action}` : ""}`), {
            size: 7.5,
            bold: true,
            colour: "#475569",
          });
          tb.lines(t.text, { size: 9 });
          for (const x of t.memory) tb.lines(plain(x.label ? `${x.label}: ${x.text}` : x.text), { size: 8, colour: "#334155", indent: 4 });
        }).gap(3);
      for (const f of c.answer)
        b.box("#eef2ff", null, 3, (tb) => {
          tb.lines(plain(f.label.toUpperCase()), { size: 7.5, bold: true, colour: "#475569" });
          tb.lines(f.text, { size: 9 });
        }).gap(3);
      if (c.scores.length) b.lines(plain(c.scores.join(" · ")), { size: 8, colour: "#64748b" });
    });
    columns.push(col.svg());
    bottom = Math.max(bottom, col.height);
  });
  const foot = Block.at(pad, bottom + gap, W - 2 * pad);
  if (m.evidence.length)
    foot
      .box("#fffbeb", "#fcd34d", 5, (b) => {
        b.lines(plain("Evidence"), { size: 9, bold: true });
        for (const e of m.evidence)
          b.lines(
            plain(
              `${e.id} ${e.speaker}: ${e.text} (${e.by.length ? `retrieved by ${e.by.join(", ")}` : "retrieved by none of these methods"})`,
            ),
            {
              size: 8.5,
            },
          );
      })
      .gap(gap);
  const used = [...new Set(m.notes.map((x) => x.colour))];
  for (const c of used)
    foot.lines(
      [
        { text: LEGEND_SWATCH, colour: c },
        { text: ` ${MARK_MEANINGS[c]}`, colour: null },
      ],
      { size: 8 },
    );
  m.notes
    .filter((x) => x.note)
    .forEach((x, i) =>
      foot.lines(
        [
          { text: `${i + 1}. `, colour: null },
          { text: x.quote, colour: x.colour },
          { text: ` ${x.note}`, colour: null },
        ],
        { size: 8 },
      ),
    );
  if (m.caption) foot.gap(used.length ? 4 : 0).lines(plain(m.caption), { size: 9 });
  const H = Math.ceil(foot.height + pad);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica Neue, Arial, Noto Sans CJK SC, PingFang SC, sans-serif">
<title>${esc(m.title)}</title>
<rect width="${W}" height="${H}" fill="#ffffff"/>
${page.svg()}
${columns.join("\n")}
${foot.svg()}
</svg>
`;
}
