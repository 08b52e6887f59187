/** `pal metrics agreement` without --json: a table a person reads (issue 44.8), never the JSON. */
import { describe, expect, it } from "vitest";
import { agreementReport, parseAgreementInput } from "./report";
import { agreementReportText } from "./report-text";

const items = [
  { id: "s1", ratings: { ann: 3, bob: 3 } },
  { id: "s2", ratings: { ann: 2, bob: 3 } },
  { id: "s3", ratings: { ann: 1, bob: 1 } },
  { id: "s4", ratings: { ann: 3, bob: 2 } },
];

describe("agreementReportText", () => {
  it("prints the statistics and the pairs as aligned rows, with the small-n note", () => {
    const text = agreementReportText(agreementReport(parseAgreementInput({ scale: "ordinal", categories: [1, 2, 3], items })));
    expect(text).not.toMatch(/[{}"]/);
    const lines = text.split("\n");
    expect(lines[0]).toBe("ordinal scale · 4 items (4 with two or more ratings) · 2 raters · categories: 1, 2, 3");
    expect(lines.find((l) => l.startsWith("Fleiss' kappa"))).toMatch(
      /^Fleiss' kappa\s+0\.200\s+4\s+too few items for an interval \(n = 4 < 10\)$/,
    );
    expect(lines.find((l) => l.startsWith("ann × bob"))).toMatch(/^ann × bob\s+4\s+0\.200\s+0\.429\s+0\.636\s+too few items/);
  });

  it("with enough items: the interval and the Landis–Koch reading; nominal scales have no weighted columns", () => {
    const many = [0, 1, 2].flatMap((k) => items.map((it) => ({ ...it, id: `${it.id}-${k}` })));
    const r = agreementReport(parseAgreementInput({ scale: "nominal", items: many }), { bootstrap: { iterations: 200, seed: 1 } });
    const text = agreementReportText(r, "ratings.json");
    expect(text.split("\n")[0]).toBe("ratings.json");
    expect(text).toMatch(/Fleiss' kappa\s+-?0\.\d{3}\s+12\s+\[-?\d\.\d{3}, -?\d\.\d{3}\] \w/);
    expect(text).toMatch(/pair\s+n\s+kappa\s+note/);
    expect(text).not.toContain("linear");
  });
});
