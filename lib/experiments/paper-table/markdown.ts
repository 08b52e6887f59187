/** A paper table as Markdown: one header row (group: column), a label row per section, the notes below. */
import { cellParts } from "./cell-text";
import type { PaperTable } from "./types";

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Text of a cell, title or note: one line, no live HTML (a method or experiment named `<script>` is text,
 * issue 30.6), and Markdown's own marks taken literally. Only a "<" that could open a tag and an "&" that
 * could start an entity are escaped: "p < 0.01" stays as written, not "p &lt; 0.01" (issue 44.8).
 */
const esc = (s: string) =>
  s
    .replace(/[\r\n]+/g, " ")
    .replace(/&(?=#?\w+;)/g, "&amp;")
    .replace(/<(?=[A-Za-z/!?])/g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\|_*`[\]]/g, (c) => `\\${c}`);

/** Text inside an HTML comment: `--` (and so `-->`) cannot end it early, nor a line break split it. */
const commentText = (s: string) =>
  s
    .replace(/[\r\n]+/g, " ")
    .replace(/-(?=-)/g, "- ")
    .replace(/[<>]/g, (c) => HTML[c]);

export function tableMarkdown(t: PaperTable): string {
  const groupOf: string[] = t.groups.flatMap((g) => Array(g.span).fill(g.label));
  const head = [
    ...(t.withModel ? ["Model"] : []),
    t.stub,
    ...t.columns.map((c, i) => (groupOf[i] ? `${groupOf[i]}: ${c.label}` : c.label)),
  ];
  const lines = [
    `### ${esc(t.title)}`,
    "",
    `| ${head.map(esc).join(" | ")} |`,
    `|${head.map((_, i) => (i < (t.withModel ? 2 : 1) ? " --- " : " ---: ")).join("|")}|`,
  ];
  const blank = (n: number) => Array(n).fill("").join(" | ");
  for (const s of t.sections) {
    lines.push(`| *${esc(s.label)}* | ${blank(head.length - 1)} |`);
    for (const r of s.rows) {
      const cells = r.cells.map((c, i) => {
        const p = cellParts(c, t.columns[i], s.kind);
        let v = p.value + (p.sd !== null ? ` ± ${p.sd}` : "");
        if (p.rank === 1) v = `**${v}**`;
        else if (p.rank === 2) v = `<u>${v}</u>`;
        return v + (p.sig ? "†" : "");
      });
      lines.push(`| ${[...(t.withModel ? [esc(r.model ?? "")] : []), esc(r.name), ...cells].join(" | ")} |`);
    }
  }
  lines.push("", ...t.notes.map(esc).map((n) => `${n}  `));
  return lines.join("\n");
}

export function paperTablesMarkdown(tables: readonly PaperTable[], source: string): string {
  return [`<!-- ${commentText(source)}, written by PAL Studio -->`, "", tables.map(tableMarkdown).join("\n\n"), ""].join("\n");
}
