/**
 * A paper table as LaTeX with booktabs: a complete document that compiles as it is (pdflatex), whose
 * table* environment can be pasted into a paper that loads booktabs. It prints as a paper prints a
 * table: across the text width at \small (9 pt in a 10 pt paper), each ± sd on a second line at
 * \footnotesize (8 pt), a short caption and the notes below; never scaled (a \resizebox squeezed
 * Table 2's 11 columns to about 5 pt).
 */
import { cellParts } from "./cell-text";
import { latexEscape } from "./names";
import type { PaperTable, Section } from "./types";

/** Plain text (notes, labels) for LaTeX: specials escaped, the symbols pdflatex has no glyph for as math. */
export function latexText(s: string): string {
  return latexEscape(s)
    .replace(/×/g, "$\\times$")
    .replace(/±/g, "$\\pm$")
    .replace(/−/g, "$-$")
    .replace(/†/g, "$^\\dagger$")
    .replace(/≥/g, "$\\geq$")
    .replace(/</g, "$<$")
    .replace(/>/g, "$>$")
    .replace(/—/g, "---")
    .replace(/–/g, "--");
}

function num(s: string): string {
  return s === "—" ? "--" : s.replace(/^-/, "$-$");
}

function sectionLines(t: PaperTable, s: Section, width: number): string[] {
  const lines = [`\\multicolumn{${width}}{l}{\\textit{${latexText(s.label)}}} \\\\`];
  let model: string | null = null;
  for (const r of s.rows) {
    const parts = r.cells.map((c, i) => cellParts(c, t.columns[i], s.kind));
    const cells = parts.map((p) => {
      let v = num(p.value);
      if (p.rank === 1) v = `\\textbf{${v}}`;
      else if (p.rank === 2) v = `\\underline{${v}}`;
      return v + (p.sig ? "$^\\dagger$" : "");
    });
    // The model is named on its group's first row, as in HiCUPID's table.
    const lead = t.withModel ? [r.model !== model ? latexText(r.model ?? "") : ""] : [];
    model = r.model;
    lines.push(`${[...lead, r.latexName, ...cells].join(" & ")} \\\\`);
    // The sd under its mean, one size smaller: a column stays as wide as its mean.
    if (parts.some((p) => p.sd !== null)) {
      const sds = parts.map((p) => (p.sd !== null ? `{\\footnotesize$\\pm$${p.sd}}` : ""));
      lines.push(`${[...lead.map(() => ""), "", ...sds].join(" & ")} \\\\[1pt]`);
    }
  }
  return lines;
}

/** One table as a table* across the text width: the title as the caption, the notes below the table. */
export function tableLatex(t: PaperTable): string {
  const lead = t.withModel ? 2 : 1;
  const width = lead + t.columns.length;
  const out: string[] = [];
  out.push("\\begin{table*}[t]", "\\centering", `\\caption{${latexText(t.title)}}`, `\\label{tab:${t.id}}`);
  out.push("\\small", "\\setlength{\\tabcolsep}{4pt}", `\\begin{tabular}{${"l".repeat(lead)}${"r".repeat(t.columns.length)}}`, "\\toprule");
  if (t.groups.some((g) => g.label)) {
    const heads: string[] = [];
    const rules: string[] = [];
    let at = lead + 1;
    for (const g of t.groups) {
      heads.push(g.label ? `\\multicolumn{${g.span}}{c}{${g.latex}}` : Array(g.span).fill("").join(" & "));
      if (g.label) rules.push(`\\cmidrule(lr){${at}-${at + g.span - 1}}`);
      at += g.span;
    }
    out.push(`${Array(lead).fill("").join(" & ")} & ${heads.join(" & ")} \\\\`, rules.join(" "));
  }
  const stub = t.withModel ? ["Model", latexText(t.stub)] : [latexText(t.stub)];
  out.push(`${[...stub, ...t.columns.map((c) => latexText(c.label))].join(" & ")} \\\\`);
  t.sections.forEach((s) => out.push("\\midrule", ...sectionLines(t, s, width)));
  out.push("\\bottomrule", "\\end{tabular}");
  if (t.notes.length) out.push("", "\\smallskip", `{\\footnotesize\\raggedright ${t.notes.map(latexText).join(" ")}\\par}`);
  out.push("\\end{table*}");
  return out.join("\n");
}

/** A standalone document with every table given, one per page. */
export function paperTablesLatex(tables: readonly PaperTable[], source: string): string {
  return [
    `% ${source}, written by PAL Studio. Compiles as it is (pdflatex); to use a table in a paper, copy its`,
    "% table* environment and load booktabs. The page has a two-column paper's text width (16 cm), at 10 pt.",
    "\\documentclass[10pt]{article}",
    "\\usepackage[a4paper,textwidth=16cm,vmargin=2cm]{geometry}",
    "\\usepackage{booktabs}",
    "\\begin{document}",
    tables.map(tableLatex).join("\n\\clearpage\n"),
    "\\end{document}",
    "",
  ].join("\n");
}
