/** Issue 31 item 3: a config without a preset on a PAL-Set or HiCUPID data set starts from that kind's preset. */
import { describe, expect, it } from "vitest";
import { parseExperimentConfig } from "./config";
import { deviationSettings, presetOverrides, startFromKindPreset } from "./presets";
import { modelRolesOf } from "./required-models";

describe("startFromKindPreset", () => {
  it("keeps the Mem-PAL preset's retrieval, temperatures and repeats when only methods are named", () => {
    const c = parseExperimentConfig(startFromKindPreset({ methods: [{ name: "turn-rag" }], tasks: ["requirement"] }, "palset"));
    expect(c).toMatchObject({ preset: "mem-pal", retriever: "dense", repeats: 3 });
    expect(c.models.assistant?.temperature).toBe(0.7);
    expect(c.methods).toEqual([{ name: "turn-rag", options: { k: 3 } }]);
    // Only what was named differs from the preset: the tasks and the methods, never retrieval, temperatures or repeats.
    const paths = presetOverrides(c).map((o) => o.path);
    expect(paths).toContain("tasks");
    expect(paths.filter((p) => !/^(methods\.|tasks$|reference$)/.test(p))).toEqual([]);
  });
  it("keeps HiCUPID's split, verdict reading and temperatures; BM25 only when asked", () => {
    const c = parseExperimentConfig(startFromKindPreset({ methods: [{ name: "dense-k5" }] }, "hicupid"));
    expect(c).toMatchObject({ preset: "hicupid", hicupid: { splits: ["test_1"], verdicts: "public" } });
    expect(c.models.assistant?.temperature).toBe(0.6);
    expect(c.methods[0].options).toMatchObject({ retriever: "dense", k: 5 });
  });
  it("takes the project's defaults only with preset none, and keeps an explicit preset", () => {
    expect(startFromKindPreset({ preset: "none", methods: [{ name: "vanilla" }] }, "palset")).toEqual({ methods: [{ name: "vanilla" }] });
    expect(startFromKindPreset({ preset: "hicupid" }, "palset").preset).toBe("hicupid");
    expect(startFromKindPreset({ methods: [] }, "other")).toEqual({ methods: [] });
  });
  it("a bare method name the preset has under several labels stands for each of them, with the preset's options", () => {
    const c = parseExperimentConfig(startFromKindPreset({ methods: [{ name: "rag-utterance" }] }, "hicupid"));
    expect(c.methods.map((m) => [m.label, m.options?.retriever, m.options?.k])).toEqual([
      ["bm25-k5", "bm25", 5],
      ["dense-k5", "dense", 5],
    ]);
    // Named with options of its own, it is the user's own method (the project's defaults for the rest).
    const own = parseExperimentConfig(startFromKindPreset({ methods: [{ name: "rag-utterance", options: { k: 15 } }] }, "hicupid"));
    expect(own.methods).toHaveLength(1);
    expect(own.methods[0].options).toMatchObject({ k: 15 });
  });
  it("needs the embedding role only when a method retrieves with the run's dense retriever", () => {
    const vanilla = parseExperimentConfig(startFromKindPreset({ methods: [{ name: "vanilla" }] }, "palset"));
    expect(vanilla.retriever).toBe("dense");
    expect(modelRolesOf(vanilla)).not.toContain("embedding");
    const rag = parseExperimentConfig(startFromKindPreset({ methods: [{ name: "vanilla" }, { name: "turn-rag" }] }, "palset"));
    expect(modelRolesOf(rag)).toContain("embedding");
    const bm25 = parseExperimentConfig(startFromKindPreset({ methods: [{ name: "turn-rag" }], retriever: "bm25" }, "palset"));
    expect(modelRolesOf(bm25)).not.toContain("embedding");
  });
  it("a table's caption names the settings changed, methods once, and not how the run was run (judge batches, caps)", () => {
    const c = parseExperimentConfig(
      startFromKindPreset(
        { methods: [{ name: "vanilla" }, { name: "turn-rag", options: { k: 5 } }], repeats: 1, judgeBatch: true, spendCap: { calls: 10 } },
        "palset",
      ),
    );
    expect(deviationSettings(presetOverrides(c))).toEqual(["repeats", "reference", "methods", "methods.turn-rag.options.k"]);
  });
});
