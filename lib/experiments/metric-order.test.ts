/** "All metrics" columns in the papers' order, not A-Z (issue 34.3). */
import { describe, expect, it } from "vitest";
import { metricOrder } from "./metric-label";
import { metricColumns, statOf, type MetricStat } from "./results-columns";

describe("metric order", () => {
  it("puts the metrics as the papers print them, a second judge after the first, unknown keys last", () => {
    const keys = ["selection", "gscore", "bleu4", "bleu1", "zeta", "bleu2", "bleu3", "persona@2", "persona", "alpha"];
    expect(keys.sort(metricOrder)).toEqual([
      "bleu1",
      "bleu2",
      "bleu3",
      "bleu4",
      "gscore",
      "selection",
      "persona",
      "persona@2",
      "alpha",
      "zeta",
    ]);
  });
});

describe("All metrics columns mid-run", () => {
  it("are every metric any method has; a missing one reads as empty", () => {
    const s = { mean: 1, sd: null, p: null };
    const rows: Array<{ metrics: Record<string, MetricStat> }> = [{ metrics: { bleu: s } }, { metrics: { persona: s, bleu: s } }];
    expect(metricColumns(rows)).toEqual(["bleu", "persona"]);
    expect(statOf(rows[0], "persona")).toEqual({ mean: null, sd: null, p: null });
  });
});
