/**
 * The agreement report as a table a person reads (`pal metrics agreement` without --json, issue 44.8);
 * --json keeps the JSON of docs/cli.md. Values to 3 decimals, an undefined value as "—" with its reason,
 * intervals and readings only at n ≥ MIN_ITEMS_FOR_INTERVAL (./interpret.ts).
 */
import { landisKochReading, tooFewItems, tooFewNote } from "./interpret";
import type { AgreementReport, OverallKey } from "./report";
import type { AgreementWarning } from "./warnings";

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x.toFixed(3));

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c])))
      .join("  ")
      .trimEnd(),
  );
}

export function agreementReportText(r: AgreementReport, title?: string): string {
  const out: string[] = [];
  if (title) out.push(title);
  out.push(
    `${r.scale} scale · ${r.items} items (${r.pairedItems ?? r.items} with two or more ratings) · ${r.raters.length} raters · categories: ${r.categories.join(", ")}`,
  );
  const ci = r.bootstrap?.ci ?? {};
  const overall = (name: string, key: OverallKey, reading: boolean): string[] => {
    const n = key === "fleissKappa" ? r.fleissItems.used : (r.pairedItems ?? r.items);
    const v = r[key];
    if (v === null) return [name, "—", String(n), r.reasons[key] ?? "not defined"];
    if (tooFewItems(n)) return [name, f3(v), String(n), tooFewNote(n)];
    const iv = ci[key];
    const word = reading ? landisKochReading(v, iv, n) : null;
    return [name, f3(v), String(n), [iv ? `[${f3(iv[0])}, ${f3(iv[1])}]` : "", word ?? ""].filter(Boolean).join(" ")];
  };
  out.push(
    "",
    ...table([
      ["statistic", "value", "n", r.bootstrap ? `${Math.round(r.bootstrap.level * 100)}% interval, reading` : "reading"],
      overall("percent agreement", "percentAgreement", false),
      overall("Fleiss' kappa", "fleissKappa", true),
      overall("Krippendorff's alpha", "krippendorffAlpha", true),
    ]),
  );
  if (r.fleissItems.leftOut > 0 && r.fleissItems.used > 0)
    out.push(`Fleiss' kappa is over the ${r.fleissItems.used} items with all ${r.fleissItems.ratingsPerItem} ratings.`);
  if (r.cohen.length) {
    const ordinal = r.scale !== "nominal";
    const cell = (v: number | null, why: string | undefined) => (v === null ? `— (${why ?? "not defined"})` : f3(v));
    out.push(
      "",
      "Cohen's kappa per rater pair:",
      ...table([
        ["pair", "n", "kappa", ...(ordinal ? ["linear", "quadratic"] : []), "note"],
        ...r.cohen.map((p) => [
          `${p.raters[0]} × ${p.raters[1]}`,
          String(p.n),
          cell(p.kappa, p.reasons?.kappa),
          ...(ordinal
            ? [
                cell(p.linearWeightedKappa, p.reasons?.linearWeightedKappa),
                cell(p.quadraticWeightedKappa, p.reasons?.quadraticWeightedKappa),
              ]
            : []),
          p.kappa !== null && tooFewItems(p.n)
            ? tooFewNote(p.n)
            : p.ci?.kappa
              ? `[${f3(p.ci.kappa[0])}, ${f3(p.ci.kappa[1])}] ${landisKochReading(p.kappa, p.ci.kappa, p.n) ?? ""}`.trim()
              : (landisKochReading(p.kappa, null, p.n) ?? ""),
        ]),
      ]),
    );
  }
  return out.join("\n");
}

/** Warnings as lines under the tables. */
export function warningsText(ws: readonly AgreementWarning[]): string {
  return ws.length ? ["", "Warnings:", ...ws.map((w) => `- ${w.dimension}: ${w.message}`)].join("\n") : "";
}
