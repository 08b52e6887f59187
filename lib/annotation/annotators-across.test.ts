import { describe, expect, it } from "vitest";
import { annotatorsAcross } from "./annotators-across";
import type { AnnotatorStats } from "./agreement-annotators";

const w = (kappa: number | null, n: number) => ({
  kappa,
  n,
  percentAgreement: null,
  ...(kappa === null ? { reason: "undefined (constant ratings)" } : {}),
});
const drift = (flagged: boolean) => ({
  first: w(0.9, 25),
  second: w(0.4, 25),
  change: -0.5,
  ci: [-0.7, -0.3] as [number, number],
  flagged,
});
const stats = (annotator: string, labels: number, kappa: number | null, flagged = false): AnnotatorStats => ({
  annotator,
  labels,
  skipped: 1,
  medianSeconds: 10,
  agreement: { q: w(kappa, labels) },
  drift: { q: drift(flagged) },
});

describe("annotators across campaigns", () => {
  it("sums each annotator's work over campaigns and lists their kappa per campaign and dimension, drift counted", () => {
    const rows = annotatorsAcross([
      { id: 1, name: "A", dimensions: [{ key: "q", title: "Quality" }], annotators: [stats("b@x", 10, 0.5), stats("a@x", 4, null)] },
      { id: 2, name: "B", dimensions: [{ key: "q", title: "Quality" }], annotators: [stats("a@x", 6, 0.8, true)] },
    ]);
    expect(rows.map((r) => r.annotator)).toEqual(["a@x", "b@x"]);
    expect(rows[0]).toMatchObject({ campaigns: 2, labels: 10, skipped: 2, driftFlags: 1 });
    expect(rows[0].agreement).toEqual([
      {
        campaignId: 1,
        campaign: "A",
        dimension: "Quality",
        kappa: null,
        reason: "undefined (constant ratings)",
        n: 4,
        driftFlagged: false,
      },
      { campaignId: 2, campaign: "B", dimension: "Quality", kappa: 0.8, reason: undefined, n: 6, driftFlagged: true },
    ]);
    expect(rows[1]).toMatchObject({ campaigns: 1, labels: 10, driftFlags: 0 });
  });
});
