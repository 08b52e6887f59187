import { describe, expect, it } from "vitest";
import { parseExperimentConfig } from "./config";

const base = { methods: [{ name: "vanilla" }], tasks: ["solution"] };

describe("experiment config", () => {
  // selectionAttempts was never read (the model client's 2 regenerations decide: 3 answers at most).
  it("drops the unread selectionAttempts of stored configs and refuses another value instead of ignoring it", () => {
    const c = parseExperimentConfig({ ...base, selectionAttempts: 3 });
    expect("selectionAttempts" in c).toBe(false);
    expect("selectionAttempts" in parseExperimentConfig(base)).toBe(false);
    expect(() => parseExperimentConfig({ ...base, selectionAttempts: 5 })).toThrow(/config\.selectionAttempts: no longer a setting/);
  });
});
