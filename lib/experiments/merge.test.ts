/** Overrides merge into the preset (deep, arrays replaced, methods completed by key); values worked out by hand. */
import { describe, expect, it } from "vitest";
import { parseExperimentConfig } from "./config";
import { deepMerge } from "./merge";
import { applyPreset, presetForKind, PRESETS, resolvePresetConfig } from "./presets";

describe("deepMerge", () => {
  it("merges objects key by key and replaces arrays and scalars", () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { c: 3 }, l: [9] })).toEqual({ a: { b: 1, c: 3 }, l: [9] });
    expect(deepMerge({ a: 1 }, { a: undefined, b: null })).toEqual({ a: 1, b: null });
    // the base is never changed
    const base = { m: { x: 1 } };
    deepMerge(base, { m: { x: 2 } });
    expect(base).toEqual({ m: { x: 1 } });
  });
});

describe("overrides merged into a preset", () => {
  it("changes models.judge.temperature alone, keeping the preset's other model settings", () => {
    const h = PRESETS.hicupid.config.models as Record<string, { temperature: number }>;
    const c = parseExperimentConfig(applyPreset("hicupid", { models: { judge: { temperature: 0.3 } } }));
    expect(c.models.judge?.temperature).toBe(0.3);
    expect(c.models.assistant?.temperature).toBe(h.assistant.temperature);
  });

  it("keeps the preset's options of the methods an override names (--method h2memory,vanilla)", () => {
    const c = parseExperimentConfig(applyPreset("mem-pal", { methods: [{ name: "h2memory" }, { name: "vanilla" }] }));
    const preset = (PRESETS["mem-pal"].config.methods as Array<{ name: string; options?: object }>).find((m) => m.name === "h2memory")!;
    expect(c.methods).toEqual([
      { name: "h2memory", options: preset.options },
      { name: "vanilla", options: {} },
    ]);
    // The reference stays H2Memory (named, and among the methods).
    expect(c.reference).toBe("h2memory");
    // An option given merges into the preset's (k changes, clusters stays).
    const k5 = parseExperimentConfig(applyPreset("mem-pal", { methods: [{ name: "h2memory", options: { k: 5 } }] }));
    expect(k5.methods[0].options).toEqual({ ...preset.options, k: 5 });
  });

  it("names a preset method by its label, and drops a reference the subset no longer has", () => {
    const c = parseExperimentConfig(applyPreset("hicupid", { methods: [{ name: "bm25-k5" }, { name: "3-shot" }] }));
    expect(c.methods.map((m) => [m.name, m.label, m.options.shots])).toEqual([
      ["rag-utterance", "bm25-k5", 0],
      ["full-history", "3-shot", 3],
    ]);
    // The preset's reference (0-shot) is not run: the default rule picks the first (no H2Memory here).
    expect(c.reference).toBe("bm25-k5");
    // Arrays replace: the tasks and users given are the whole lists.
    const t = parseExperimentConfig(applyPreset("mem-pal", { tasks: ["dialogue"], users: ["0000"] }));
    expect([t.tasks, t.users]).toEqual([["dialogue"], ["0000"]]);
  });

  it("resolves a browser's config: preset plus overrides; a config without a preset as it is", () => {
    const r = parseExperimentConfig(resolvePresetConfig({ preset: "mem-pal", repeats: 1 }));
    expect([r.preset, r.repeats, r.methods.length]).toEqual(["mem-pal", 1, 12]);
    const raw = { methods: [{ name: "vanilla" }], tasks: ["solution"] };
    expect(resolvePresetConfig(raw)).toBe(raw);
    expect(() => resolvePresetConfig({ preset: "nope" })).toThrow(/config\.preset: unknown preset "nope"/);
  });

  it("gives each data-set kind its paper's preset", () => {
    expect(presetForKind("palset")?.id).toBe("mem-pal");
    expect(presetForKind("hicupid")?.id).toBe("hicupid");
    expect(presetForKind("other")).toBeNull();
  });
});
