/**
 * The presets' values that the public code decides (docs/protocol.md). Expected values read from the public
 * code: Mem-PAL's llm_generation.py (GPT judges at temperature 0, the Qwen assistant and simulator at 0.7);
 * HiCUPID's configs (RAG runs with prompt zero/system), src/utils/bm25.py (rank_bm25 over str.split() tokens)
 * and src/utils/evaluate.py (a verdict anywhere, unparsed counted).
 */
import { describe, expect, it } from "vitest";
import { parseExperimentConfig } from "./config";
import { applyPreset, PRESETS, valueAt } from "./presets";

describe("preset values from the public code", () => {
  it("Mem-PAL: judge 0, assistant and simulator 0.7, every call's budget 8192, cut-off replies as returned", () => {
    const m = parseExperimentConfig(applyPreset("mem-pal"));
    expect(m.models).toEqual({
      assistant: { temperature: 0.7, maxTokens: 8192 },
      "user-simulator": { temperature: 0.7, maxTokens: 8192 },
      judge: { temperature: 0, maxTokens: 8192 },
    });
    expect(m.cutOffs).toBe("as-returned");
    for (const r of ["assistant", "user-simulator", "judge"])
      for (const f of ["temperature", "maxTokens"]) expect(PRESETS["mem-pal"].sources[`models.${r}.${f}`]).toMatch(/^public code/);
    expect(PRESETS["mem-pal"].sources["models.judge.maxTokens"]).toMatch(/fc9f92b.*llm_generation\.py/);
  });

  it("HiCUPID (issue 40 item 12): answers 200 tokens scored as returned, the judge 512, from the public configs", () => {
    const h = parseExperimentConfig(applyPreset("hicupid"));
    expect(h.models).toEqual({ assistant: { temperature: 0.6, maxTokens: 200 }, judge: { temperature: 0, maxTokens: 512 } });
    expect(h.cutOffs).toBe("as-returned");
    expect(PRESETS.hicupid.sources["models.assistant.maxTokens"]).toMatch(/inference_openai\.yaml line 22/);
    expect(PRESETS.hicupid.sources["models.judge.maxTokens"]).toMatch(/evaluate_openai\.yaml/);
  });

  it("HiCUPID: RAG with the system-prompt zero-shot prompt, rank_bm25 over whitespace tokens, public verdict reading", () => {
    const h = parseExperimentConfig(applyPreset("hicupid"));
    expect(h.methods.map((x) => [x.label, x.options.instruction, x.options.shots])).toEqual([
      ["0-shot", "user", 0],
      ["3-shot", "user", 3],
      ["bm25-k5", "system", 0],
      ["dense-k5", "system", 0],
    ]);
    expect(valueAt(h, "methods.bm25-k5.options.bm25")).toBe("rank_bm25");
    expect(h.hicupid.verdicts).toBe("public");
    expect(PRESETS.hicupid.sources["hicupid.verdicts"]).toMatch(/^public code/);
    expect(PRESETS.hicupid.sources["methods.bm25-k5.options.instruction"]).toMatch(/^public code/);
  });
});
