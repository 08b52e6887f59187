import type { QualityWarning } from "../types";

const MAX_EXAMPLES = 5;

/** Collects quality warnings by code: a count each and the first few examples (where they occur). */
export class WarningList {
  private readonly byCode = new Map<string, QualityWarning>();

  add(code: string, message: string, example: string, count = 1): void {
    let w = this.byCode.get(code);
    if (!w) this.byCode.set(code, (w = { code, message, count: 0, examples: [] }));
    w.count += count;
    if (w.examples.length < MAX_EXAMPLES) w.examples.push(example);
  }

  list(): QualityWarning[] {
    return [...this.byCode.values()];
  }
}
