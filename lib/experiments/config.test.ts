import { describe, expect, it } from "vitest";
import { parseExperimentConfig, referenceMethod } from "./config";

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

describe("the reference method", () => {
  // Mem-PAL Table 3 compares H2Memory (ours) with each baseline: the reference by default, wherever it is listed.
  it("is the config's own, else H2Memory when it runs, else the first method", () => {
    const ms = (...names: string[]) => names.map((name) => ({ name }));
    expect(parseExperimentConfig({ ...base, methods: ms("vanilla", "turn-rag", "h2memory") }).reference).toBe("h2memory");
    expect(referenceMethod({ methods: ms("vanilla", "turn-rag", "h2memory") })).toBe("h2memory");
    expect(parseExperimentConfig({ ...base, methods: ms("vanilla", "turn-rag") }).reference).toBe("vanilla");
    expect(parseExperimentConfig({ ...base, methods: ms("vanilla", "h2memory"), reference: "vanilla" }).reference).toBe("vanilla");
    // A stored config keeps the reference it was parsed with.
    const stored = parseExperimentConfig({ ...base, methods: ms("vanilla", "h2memory") });
    expect(parseExperimentConfig(JSON.parse(JSON.stringify(stored))).reference).toBe("h2memory");
  });
});
