/**
 * The protocol presets: every setting has a source, the values are the papers', overrides are listed,
 * a preset needing an unconfigured role is refused naming it, and a run of each preset on the demo data
 * against the fake OpenAI server finishes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { FIXTURE_JSONL, LOCOMO_DEMO, LONGMEMEVAL_DEMO, PALSET_EN } from "@/test/fixtures";
import { importLocomo } from "@/lib/datasets/locomo/import";
import { importLongMemEval } from "@/lib/datasets/longmemeval/import";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/experiments/deps";
import { knownMethod } from "@/lib/experiments/method-choices";
import { requireModels } from "@/lib/experiments/required-models";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { experimentProgress } from "@/lib/experiments/progress";
import { parseExperimentConfig } from "./config";
import { applyPreset, PRESET_IDS, PRESETS, presetOverrides, presetSettings, valueAt } from "./presets";
import { readRunRecord } from "./run-record";
import { auditText, protocolAudit } from "./protocol-audit";

/** Leaf paths of a preset config, methods keyed by label or name (as the sources are). */
function leafPaths(v: unknown, prefix = ""): string[] {
  if (prefix === "methods" && Array.isArray(v))
    return v.flatMap((m: { name: string; label?: string; options?: unknown }) =>
      m.options ? leafPaths(m.options, `methods.${m.label ?? m.name}.options`) : [],
    );
  if (v && typeof v === "object" && !Array.isArray(v))
    return Object.entries(v).flatMap(([k, x]) => leafPaths(x, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

describe("protocol presets", () => {
  it.each(PRESET_IDS)("%s: every setting has a source and every source names a setting", (id) => {
    const p = PRESETS[id];
    for (const path of leafPaths(p.config)) {
      // a whole list (methods, tasks, splits) is sourced as one setting
      const covered = Object.keys(p.sources).some((s) => s === path || path.startsWith(`${s}.`));
      expect(covered, `${id}: ${path} has no source`).toBe(true);
    }
    for (const s of presetSettings(id)) {
      expect(s.value, `${id}: ${s.path} names no setting`).not.toBeUndefined();
      expect(s.source.length).toBeGreaterThan(10);
    }
    // the preset is a valid config whose methods and options the registry accepts
    const c = parseExperimentConfig(applyPreset(id));
    expect(c.preset).toBe(id);
    for (const m of c.methods) expect(() => knownMethod()(m, "config")).not.toThrow();
  });

  it("holds the papers' values: Mem-PAL dense top 3, 8 clusters, 3 runs; HiCUPID test_1, k = 5, τ 0.6 / 0", () => {
    const m = parseExperimentConfig(applyPreset("mem-pal"));
    expect([m.retriever, m.repeats, m.reference]).toEqual(["dense", 3, "h2memory"]);
    expect(m.tasks).toEqual(["requirement", "solution", "dialogue"]);
    expect(valueAt(m, "methods.h2memory.options.clusters")).toBe(8);
    for (const x of m.methods) if ("k" in x.options) expect(x.options.k).toBe(3);
    expect(m.methods.map((x) => x.name)).not.toContain("ld-agent");
    const h = parseExperimentConfig(applyPreset("hicupid"));
    expect(h.hicupid.splits).toEqual(["test_1"]);
    expect(h.methods.map((x) => [x.label, x.options.shots, x.options.k])).toEqual([
      ["0-shot", 0, undefined],
      ["3-shot", 3, undefined],
      ["bm25-k5", 0, 5],
      ["dense-k5", 0, 5],
    ]);
    expect([h.models.assistant?.temperature, h.models.judge?.temperature]).toEqual([0.6, 0]);
  });

  it("lists every override of the preset, and none for the preset itself", () => {
    expect(presetOverrides(parseExperimentConfig(applyPreset("mem-pal")))).toEqual([]);
    const c = parseExperimentConfig(
      applyPreset("mem-pal", {
        retriever: "bm25",
        repeats: 1,
        methods: [...(PRESETS["mem-pal"].config.methods as object[]).slice(0, -1), { name: "ld-agent" }],
      }),
    );
    const o = presetOverrides(c);
    expect(o).toEqual(
      expect.arrayContaining([
        { path: "retriever", preset: "dense", value: "bm25" },
        { path: "repeats", preset: 3, value: 1 },
        { path: "methods.h2memory-no-principle", preset: expect.objectContaining({ name: "h2memory-no-principle" }), value: undefined },
        { path: "methods.ld-agent", preset: undefined, value: { name: "ld-agent", options: {} } },
      ]),
    );
    expect(o).toHaveLength(4);
    expect(() => applyPreset("nope")).toThrow(/preset: unknown preset "nope" \(one of mem-pal, hicupid, locomo, longmemeval\)/);
  });
});

describe("protocol presets against the test double", () => {
  let fake: FakeOpenAI;
  const audits: Record<string, string> = {};
  const dbs: Array<ReturnType<typeof tempDb>> = [];
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "sim-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    for (const t of dbs) t.cleanup();
    if (process.env.PAL_PRINT_AUDIT) for (const [id, a] of Object.entries(audits)) process.stdout.write(`audit ${id}: ${a}\n`);
  });

  it("refuses a preset whose protocol needs the unconfigured embedding role, naming it and what to set", () => {
    const t = tempDb();
    dbs.push(t);
    vi.stubEnv("PAL_MODEL_EMBEDDING", "");
    expect(() => requireModels(t.db, applyPreset("mem-pal"))).toThrow(
      /the mem-pal preset needs the embedding role: no model configured for "embedding": set PAL_MODEL_EMBEDDING or choose one in Admin → Models/,
    );
    // HiCUPID's dense RAG setting needs it too (a per-method retriever)
    expect(() => requireModels(t.db, applyPreset("hicupid"))).toThrow(/the hicupid preset needs the embedding role/);
    // without the dense setting it needs no embedding role
    const bm25Only = applyPreset("hicupid", { methods: [{ name: "0-shot" }, { name: "bm25-k5" }] });
    expect(() => requireModels(t.db, bm25Only)).not.toThrow();
  });

  it.each(PRESET_IDS)(
    "a run of the %s preset on the demo data finishes",
    async (id) => {
      vi.stubEnv("PAL_MODEL_EMBEDDING", "embed-model");
      const t = tempDb();
      dbs.push(t);
      const datasetId =
        id === "mem-pal"
          ? (await importPalset(t.db, { paths: [PALSET_EN], name: "demo", lang: "en" })).datasetId
          : id === "locomo"
            ? (await importLocomo(t.db, { paths: [LOCOMO_DEMO], name: "demo" })).datasetId
            : id === "longmemeval"
              ? (await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "demo" })).datasetId
              : (await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "demo" })).datasetId;
      const config = applyPreset(id);
      requireModels(t.db, config);
      const { id: exp } = createExperiment(t.db, { name: id, datasetId, config, knownMethod: knownMethod() });
      const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
      const first = fake.chatRequests.length;
      expect(await runExperiment(t.db, exp, deps, { concurrency: 8 })).toBe("done");
      const p = experimentProgress(t.db, exp);
      expect(p.failed).toBe(0);
      expect(p.done).toBe(p.total);
      // Per role, the temperature every request the server received carried (the model names the role):
      // the preset's, on the methods' answers and memory builds too (issue 31: Mem-PAL's assistant 0.7 was never sent).
      const want: Record<string, number> =
        id === "mem-pal"
          ? { "assistant-model": 0.7, "sim-model": 0.7, "judge-model": 0 }
          : id === "locomo"
            ? { "assistant-model": 0 } // LoCoMo's F1 needs no judge
            : id === "longmemeval"
              ? { "assistant-model": 0, "judge-model": 0 }
              : { "assistant-model": 0.6, "judge-model": 0 };
      const got: Record<string, Record<string, number>> = {};
      for (const r of fake.chatRequests.slice(first)) {
        const byT = (got[r.model] ??= {});
        byT[String(r.temperature)] = (byT[String(r.temperature)] ?? 0) + 1;
      }
      for (const [model, t] of Object.entries(want)) expect(Object.keys(got[model] ?? {}), model).toEqual([String(t)]);
      // every request carried an output budget
      expect(fake.chatRequests.slice(first).filter((r) => r.max_tokens === undefined && r.max_completion_tokens === undefined)).toEqual([]);
      // The run record and the audit: the run's roles as served, and every call as the preset declares.
      const record = readRunRecord(t.db, exp)!;
      expect(record.preset?.id).toBe(id);
      expect(record.deviations).toEqual([]);
      expect(record.dataset.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(record.roles.find((r) => r.config === "assistant")).toMatchObject({
        modelAsked: "assistant-model",
        served: [{ model: "assistant-model", calls: expect.any(Number) }],
      });
      const audit = protocolAudit(t.db, exp);
      expect(audit.mismatches).toEqual([]);
      expect(auditText(audit)).toMatch(/^protocol: as declared/);
      if (id === "mem-pal") {
        // The memory's identity holds the temperature it was built at.
        const v = t.db.$client.prepare("select settings from memory_versions where method = 'memorybank' limit 1").get() as {
          settings: string;
        };
        expect(JSON.parse(v.settings).models.assistant.params.temperature).toBe(0.7);
      }
      audits[id] = `${auditText(audit)}; checked: ${audit.checked.join(", ")}`;
    },
    600_000,
  );
});
