/** The experiment page's and the dry run's list of changes from the preset: real changes only, in words (by hand). */
import { describe, expect, it } from "vitest";
import { parseExperimentConfig } from "./config";
import { changeLine, modelsInWords, presetChanges } from "./preset-changes";
import { applyPreset } from "./presets";

const changes = (id: string, over: Record<string, unknown>) => presetChanges(parseExperimentConfig(applyPreset(id, over))).map(changeLine);

describe("presetChanges", () => {
  it("is empty for the preset itself and for a value equal to the preset's", () => {
    expect(changes("mem-pal", {})).toEqual([]);
    expect(changes("mem-pal", { users: "all", repeats: 3 })).toEqual([]);
  });

  it("says a subset of users and methods in one line each, not one removed method per line, in a fixed order", () => {
    expect(changes("mem-pal", { repeats: 1, users: ["0000"], methods: [{ name: "h2memory" }, { name: "vanilla" }] })).toEqual([
      "methods: H2Memory, Vanilla (preset: 12 methods)",
      "users: 0000 (preset: all)",
      "repeats: 1 (preset: 3)",
    ]);
  });

  it("names settings and methods as a person reads them", () => {
    expect(
      changes("mem-pal", {
        models: { judge: { temperature: 0.2 } },
        methods: [{ name: "h2memory-no-graph", options: { k: 5 } }, { name: "h2memory" }],
        reference: "h2memory-no-graph",
        tasks: ["dialogue"],
      }),
    ).toEqual([
      "methods: H2Memory w/o M_G, H2Memory (preset: 12 methods)",
      "tasks: dialogue (preset: requirement, solution, dialogue)",
      "reference: H2Memory w/o M_G (preset: H2Memory)",
      expect.stringMatching(/^judge temperature: 0\.2 \(preset: [\d.]+\)$/),
      "H2Memory w/o M_G k: 5 (preset: 3)",
    ]);
  });
});

describe("presetChanges: run settings", () => {
  it("leaves out how the run is run (spend cap, prices, attempts, batches): the numbers do not depend on it", () => {
    expect(changes("hicupid", { spendCap: { calls: 1 }, maxAttempts: 5, judgeBatch: true, repeats: 2 })).toEqual([
      "repeats: 2 (preset: 1)",
    ]);
  });
});

describe("modelsInWords", () => {
  it("names each role's settings in words, the output budget included", () => {
    expect(modelsInWords({ assistant: { temperature: 0.7, maxTokens: 8192 }, judge: { temperature: 0 }, "user-simulator": {} })).toBe(
      "assistant: temperature 0.7, output budget 8192 · judge: temperature 0",
    );
  });
});
