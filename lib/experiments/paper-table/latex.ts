/**
 * A paper table as LaTeX with booktabs: a complete document that compiles as it is (pdflatex), whose
 * table environment can be pasted into a paper that loads booktabs and graphicx.
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
    const cells = r.cells.map((c, i) => {
      const p = cellParts(c, t.columns[i], s.kind);
      let v = num(p.value) + (p.sd !== null ? `\\,$\\pm$\\,${p.sd}` : "");
      if (p.rank === 1) v = `\\textbf{${v}}`;
      else if (p.rank === 2) v = `\\underline{${v}}`;
      return v + (p.sig ? "$^\\dagger$" : "");
    });
    // The model is named on its group's first row, as in HiCUPID's table.
    const lead = t.withModel ? [r.model !== model ? latexText(r.model ?? "") : ""] : [];
    model = r.model;
    lines.push(`${[...lead, r.latexName, ...cells].join(" & ")} \\\\`);
  }
  return lines;
}

/** The tabular environment of one table inside table (caption: the notes). */
export function tableLatex(t: PaperTable): string {
  const lead = t.withModel ? 2 : 1;
  const width = lead + t.columns.length;
  const out: string[] = [];
  out.push(
    "\\begin{table}[t]",
    "\\centering",
    `\\caption{${latexText(t.title)}. ${t.notes.map(latexText).join(" ")}}`,
    `\\label{tab:${t.id}}`,
  );
  out.push("\\resizebox{\\textwidth}{!}{%", `\\begin{tabular}{${"l".repeat(lead)}${"r".repeat(t.columns.length)}}`, "\\toprule");
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
  out.push("\\bottomrule", "\\end{tabular}}", "\\end{table}");
  return out.join("\n");
}

/** A standalone document with every table given, one per page. */
export function paperTablesLatex(tables: readonly PaperTable[], source: string): string {
  return [
    `% ${source}, written by PAL Studio. Compiles as it is (pdflatex); to use a table in a paper, copy its`,
    "% table environment and load booktabs and graphicx.",
    "\\documentclass{article}",
    "\\usepackage[margin=2cm]{geometry}",
    "\\usepackage{booktabs}",
    "\\usepackage{graphicx}",
    "\\begin{document}",
    tables.map(tableLatex).join("\n\\clearpage\n"),
    "\\end{document}",
    "",
  ].join("\n");
}
