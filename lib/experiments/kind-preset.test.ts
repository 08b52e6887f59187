/** Issue 31 item 3: a config without a preset on a PAL-Set or HiCUPID data set starts from that kind's preset. */
import { describe, expect, it } from "vitest";
import { parseExperimentConfig } from "./config";
import { presetOverrides, startFromKindPreset } from "./presets";

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
});
