import { describe, expect, it } from "vitest";
import { bestMargin, sideMeans, tieMarginCurve, TIE_MARGINS, undrawableCurve, type ScoredItem } from "./tie-margin";

const js = (a: number[], b: number[]) => a.map((scoreA, i) => ({ scoreA, scoreB: b[i] }));
// Worked by hand (see the comments): mean differences +2, +0.5, −1, −0.25; humans Win, Tie, Lose, split (→ Tie).
const ITEMS: ScoredItem[] = [
  { id: 1, judgments: js([8, 8, 8, 8, 8, 8], [6, 6, 6, 6, 6, 6]), humans: ["Win", "Win"] },
  { id: 2, judgments: js([7, 7, 7, 7, 7, 7], [6, 7, 6, 7, 6, 7]), humans: ["Tie", "Tie"] },
  { id: 3, judgments: js([5, 5, 5, 5, 5, 5], [6, 6, 6, 6, 6, 6]), humans: ["Lose", "Lose"] },
  { id: 4, judgments: js([6, 6, 6, 6], [6, 6, 6, 7]), humans: ["Win", "Tie"] },
];

describe("tie-margin calibration", () => {
  it("sweeps 0 to 3 in steps of 0.25", () => {
    expect(TIE_MARGINS).toEqual([0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3]);
  });

  it("averages each side over the stored judgments", () => {
    expect(sideMeans(ITEMS[3].judgments)).toEqual({ meanA: 6, meanB: 6.25 });
    expect(sideMeans([])).toBeNull();
  });

  it("re-derives the verdicts and the kappas at each margin (hand-worked values)", () => {
    const c = tieMarginCurve(ITEMS, { margins: [0, 0.25, 0.5, 1, 2] });
    // Margin 0: judge W W L L vs humans W T L T. po = 1/2, pe = .5·.25 + .5·.25 = .25 → Cohen 1/3.
    // Fleiss pools both raters: p = (3/8, 2/8, 3/8), Pe = 11/32, P̄ = 1/2 → (1/2 − 11/32)/(21/32) = 5/21.
    expect(c[0].judge).toEqual({ Win: 2, Tie: 0, Lose: 2 });
    expect(c[0].human).toEqual({ Win: 1, Tie: 2, Lose: 1 });
    expect(c[0].plain.cohen.value).toBeCloseTo(1 / 3, 10);
    expect(c[0].plain.fleiss.value).toBeCloseTo(5 / 21, 10);
    expect(c[0].dropped.n).toBe(4);
    // Margin 0.25: item 4 becomes a tie. Plain: po = 3/4, pe = .125 + .125 + .0625 → 7/11.
    // Ties dropped (both call item 4 a tie): W/W, W/T, L/L → po 2/3, pe 1/3 → 1/2.
    expect(c[1].judge).toEqual({ Win: 2, Tie: 1, Lose: 1 });
    expect(c[1].plain.cohen.value).toBeCloseTo(7 / 11, 10);
    expect(c[1].dropped.n).toBe(3);
    expect(c[1].dropped.cohen.value).toBeCloseTo(0.5, 10);
    // Margin 0.5: |+0.5| ≤ 0.5 ties item 2 too: the judge matches the humans everywhere.
    expect(c[2].plain.cohen.value).toBeCloseTo(1, 10);
    expect(c[2].dropped.n).toBe(2);
    // Margin 1: item 3 ties as well: po 3/4, pe = .0625 + .375 → 5/9.
    expect(c[3].plain.cohen.value).toBeCloseTo(5 / 9, 10);
    // Margin 2: every verdict a tie: po 1/2 = pe → 0.
    expect(c[4].judge).toEqual({ Win: 0, Tie: 4, Lose: 0 });
    expect(c[4].plain.cohen.value).toBeCloseTo(0, 10);
  });

  it("marks the smallest margin with the highest mean criterion over the dimensions", () => {
    const curve = tieMarginCurve(ITEMS);
    // 0.5 and 0.75 both give κ = 1 on all items; the smaller one wins.
    expect(bestMargin([curve], "cohen-plain")).toBe(0.5);
    // A second dimension where the judge is right only at margin 0 pulls the mean toward 0.25..0.5.
    const other = tieMarginCurve([
      { id: 1, judgments: js([7], [6]), humans: ["Win"] },
      { id: 2, judgments: js([6], [7]), humans: ["Lose"] },
      { id: 3, judgments: js([7], [7]), humans: ["Tie"] },
    ]);
    expect(other[0].plain.cohen.value).toBeCloseTo(1, 10);
    expect(other[4].plain.cohen.value).toBeCloseTo(0, 10); // margin 1: all ties
    expect(bestMargin([curve, other], "cohen-plain")).toBe(0.5); // (1 + 1)/2 at 0.5 beats (1/3 + 1)/2 at 0
    expect(bestMargin([], "cohen-plain")).toBeNull();
  });
});

describe("a curve with nothing to draw (issue 44.8)", () => {
  it("is named with the reason when every kappa is undefined at every margin; a drawable curve is not", () => {
    expect(undrawableCurve(tieMarginCurve(ITEMS, { margins: [0, 1] }))).toBeNull();
    // Humans say Tie on every item and the judge ties everything: one category throughout.
    const allTies: ScoredItem[] = [1, 2, 3].map((id) => ({ id, judgments: js([6, 6], [6, 6]), humans: ["Tie", "Tie"] }));
    const why = undrawableCurve(tieMarginCurve(allTies, { margins: [0, 1] }));
    expect(why).toMatch(/\S/);
    expect(undrawableCurve([])).toBe("no items to compare");
  });
});
