import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { crExp, crLog } from "./crmath";

describe("correctly rounded exp/log", () => {
  // Correct values from 60-digit decimal arithmetic (Python's decimal, then rounded once to a double);
  // V8's Math.log/Math.exp return the neighbouring double for these arguments.
  it("log of BLEU-like fractions", () => {
    expect(crLog(1 / 22)).toBe(-3.0910424533583156); // Math.log: -3.091042453358316
    expect(crLog(1 / 112)).toBe(-4.718498871295094); // Math.log: -4.718498871295095
    expect(crLog(3 / 19)).toBe(-1.845826690498331); // Math.log: -1.8458266904983307
  });
  it("exp of negative sums", () => {
    expect(crExp(-8.642721405252814)).toBe(0.00017640617572018153); // Math.exp: 0.0001764061757201815
    expect(crExp(-0.899136115796864)).toBe(0.406921040601458); // Math.exp: 0.40692104060145806
    expect(crExp(-8.398195671848953)).toBe(0.00022527342488140462);
  });
  it("exact and special cases", () => {
    expect(crExp(0)).toBe(1);
    expect(crLog(1)).toBe(0);
    expect(crExp(1)).toBe(Math.E);
    expect(crLog(Math.E)).toBe(1);
    expect(crLog(0)).toBe(-Infinity);
    expect(crLog(-1)).toBeNaN();
    expect(crExp(-Infinity)).toBe(0);
    expect(crExp(-800)).toBe(0);
  });
  it("never further than one ulp from Math.*", () => {
    fc.assert(
      fc.property(fc.double({ min: -700, max: 700, noNaN: true }), (x) => {
        const e = crExp(x);
        expect(Math.abs(e - Math.exp(x))).toBeLessThanOrEqual(Math.exp(x) * 2.3e-16);
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), (x) => {
        const l = crLog(x);
        expect(Math.abs(l - Math.log(x))).toBeLessThanOrEqual(Math.max(Math.abs(Math.log(x)) * 2.3e-16, 1e-300));
      }),
    );
  });
});
