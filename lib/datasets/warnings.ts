import type { QualityWarning } from "./types";

/** Examples kept per kind of warning: enough to find the problem, small enough for the report. */
export const MAX_EXAMPLES = 5;

/**
 * Collects an importer's quality warnings by code: a count of every occurrence and the first few
 * examples (where each occurs). `where` may be a function, built only when it becomes an example,
 * since most occurrences of a frequent warning are only counted.
 */
export class WarningList {
  private readonly byCode = new Map<string, QualityWarning>();

  add(code: string, message: string, where: string | (() => string), count = 1): void {
    let w = this.byCode.get(code);
    if (!w) this.byCode.set(code, (w = { code, message, count: 0, examples: [] }));
    w.count += count;
    if (w.examples.length < MAX_EXAMPLES) w.examples.push(typeof where === "string" ? where : where());
  }

  list(): QualityWarning[] {
    return [...this.byCode.values()];
  }
}
