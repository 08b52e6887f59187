/** `pal run --preset`: the full config with every setting's source, overrides listed, a kind mismatch refused. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { tempDb } from "@/test/db";
import { FIXTURE_JSONL, PALSET_EN, PALSET_ZH } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";

describe("pal run --preset", () => {
  const t = tempDb();
  const pal = (...args: string[]) =>
    spawnSync("node", ["bin/pal.mjs", ...args], {
      env: {
        ...process.env,
        PAL_DB: t.file,
        OPENAI_BASE_URL: "http://127.0.0.1:9",
        PAL_MODEL_ASSISTANT: "a",
        PAL_MODEL_USER_SIMULATOR: "s",
        PAL_MODEL_JUDGE: "j",
        PAL_MODEL_EMBEDDING: "",
      },
      encoding: "utf8",
    });
  beforeAll(async () => {
    await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" });
    // named as `pal demo` names them, so the command below is the one README shows
    await importPalset(t.db, { paths: [PALSET_ZH], name: "PAL-Set demo (zh)", lang: "zh" });
    await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "HiCUPID demo" });
  });
  afterAll(() => t.cleanup());

  it("prints the full config with the source of every setting (with and without a data set)", () => {
    for (const args of [[], ["--dataset", "en"]]) {
      const r = pal("run", "--preset", "mem-pal", ...args, "--dry-run", "--json");
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.config).toMatchObject({
        preset: "mem-pal",
        retriever: "dense",
        repeats: 3,
        tasks: ["requirement", "solution", "dialogue"],
      });
      const byPath = Object.fromEntries(out.preset.settings.map((s: { path: string; source: string }) => [s.path, s]));
      expect(byPath.retriever).toMatchObject({ value: "dense", source: expect.stringMatching(/Mem-PAL §5\.1/) });
      expect(byPath["methods.h2memory.options.clusters"]).toMatchObject({ value: 8, source: expect.stringMatching(/Appendix C/) });
      expect(out.preset.overrides).toEqual([]);
      // 12 methods × 3 tasks, plus the 11 dialogue pairs against the reference (h2memory)
      if (args.length) expect(out.rows.length).toBe(12 * 3 + 11);
    }
    const h = JSON.parse(pal("run", "--preset", "hicupid", "--dataset", "hc", "--repeats", "2", "--dry-run", "--json").stdout);
    expect(h.config.hicupid.splits).toEqual(["test_1"]);
    expect(h.preset.overrides).toEqual([{ path: "repeats", preset: 1, value: 2 }]);
    expect(h.rows.map((r: { method: string }) => r.method)).toEqual(["0-shot", "3-shot", "bm25-k5", "dense-k5"]);
    const text = pal("run", "--preset", "hicupid", "--dry-run");
    expect(text.stdout).toContain("Reproduce HiCUPID: settings and their sources");
    expect(text.stdout).toMatch(/models\.judge\.temperature\t0\tHiCUPID Figure A15/);
  });

  it("refuses a data set of the wrong kind and a launch without the embedding role, before creating anything", () => {
    const wrong = pal("run", "--preset", "hicupid", "--dataset", "en", "--dry-run");
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim()).toBe('pal: --preset hicupid runs on a hicupid data set; "en" is palset');
    const launch = pal("run", "--preset", "mem-pal", "--dataset", "en");
    expect(launch.status).toBe(1);
    expect(launch.stderr.trim()).toBe(
      'pal: the mem-pal preset needs the embedding role: no model configured for "embedding": set PAL_MODEL_EMBEDDING or choose one in Admin → Models',
    );
    expect(t.db.$client.prepare("select count(*) as n from experiments").get()).toEqual({ n: 0 });
  });

  it("runs the data set's kind's preset when neither --preset nor --method is given, and says so", () => {
    const zh = pal("run", "--dataset", "PAL-Set demo (zh)", "--dry-run");
    expect(zh.status, zh.stderr).toBe(0);
    expect(zh.stderr).toContain("no --preset or --method: running the mem-pal preset (Reproduce Mem-PAL) for this PAL-Set data set");
    expect(zh.stdout).toContain("Reproduce Mem-PAL: settings and their sources");
    expect(zh.stdout).toContain("no changes from the preset");
    const hc = JSON.parse(pal("run", "--dataset", "HiCUPID demo", "--dry-run", "--json").stdout);
    expect(hc.config.preset).toBe("hicupid");
    expect(hc.rows.map((r: { method: string }) => r.method)).toEqual(["0-shot", "3-shot", "bm25-k5", "dense-k5"]);
    // --method keeps the kind's preset (issue 31): the methods named run with its settings; a bare name the preset
    // has under two labels is both of them.
    const named = pal("run", "--dataset", "HiCUPID demo", "--method", "full-history", "--task", "hicupid", "--dry-run", "--json");
    expect(named.stderr).toContain("no --preset: the methods you named run under the hicupid preset (Reproduce HiCUPID)");
    const nc = JSON.parse(named.stdout);
    expect(nc.config.preset).toBe("hicupid");
    expect(nc.rows.map((r: { method: string }) => r.method)).toEqual(["0-shot", "3-shot"]);
    expect(nc.config.models.assistant.temperature).toBe(0.6);
    const pal4 = JSON.parse(pal("run", "--dataset", "en", "--method", "turn-rag", "--task", "requirement", "--dry-run", "--json").stdout);
    expect(pal4.config).toMatchObject({ preset: "mem-pal", retriever: "dense", repeats: 3 });
    expect(pal4.config.methods).toEqual([{ name: "turn-rag", options: { k: 3 } }]);
    expect(pal4.preset.changes.map((c: { setting: string }) => c.setting)).not.toContain("retriever");
    // --preset none: the project's defaults, and what that changes from the kind's preset said aloud
    const custom = pal("run", "--dataset", "en", "--preset", "none", "--method", "turn-rag", "--task", "requirement", "--dry-run");
    expect(custom.stderr).toMatch(/custom run: \d+ deviations from the mem-pal preset \(Reproduce Mem-PAL\):/);
    expect(custom.stderr).toMatch(/retriever: bm25 \(preset: dense\)/);
    const none = pal("run", "--dataset", "HiCUPID demo", "--preset", "none", "--dry-run");
    expect(none.stderr.trim()).toBe("pal: a custom run (--preset none) needs --method or --config with methods");
  });

  it("names a whole preset's run on a long data-set name within the 200 characters a name holds", () => {
    const r = spawnSync("node", ["bin/pal.mjs", "run", "--dataset", "PAL-Set demo (zh)", "--users", "0000", "--max-calls", "1"], {
      env: {
        ...process.env,
        PAL_DB: t.file,
        OPENAI_BASE_URL: "http://127.0.0.1:9",
        OPENAI_API_KEY: "x",
        PAL_LLM_RETRIES: "0",
        PAL_MODEL_ASSISTANT: "a",
        PAL_MODEL_USER_SIMULATOR: "s",
        PAL_MODEL_JUDGE: "j",
        PAL_MODEL_EMBEDDING: "e",
      },
      encoding: "utf8",
    });
    const id = /experiment (\d+) created/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeTruthy();
    const row = t.db.$client.prepare("SELECT name FROM experiments WHERE id = ?").get(Number(id)) as { name: string };
    expect(row.name).toBe("PAL-Set demo (zh): Reproduce Mem-PAL, 12 methods × requirement,solution,dialogue, user 0000");
  });

  it("merges --method and --task into the preset: the methods keep their options, the changes read as words", () => {
    const r = pal(
      "run",
      "--preset",
      "mem-pal",
      "--dataset",
      "en",
      "--method",
      "h2memory,vanilla",
      "--users",
      "0000",
      "--dry-run",
      "--json",
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.config.methods).toEqual([
      { name: "h2memory", options: { k: 3, clusters: 8, clusterTries: 100, seed: 42, window: 10 } },
      { name: "vanilla", options: {} },
    ]);
    expect(out.config.reference).toBe("h2memory");
    expect(out.preset.changes).toEqual([
      { setting: "methods", value: "H2Memory, Vanilla", preset: "12 methods" },
      { setting: "users", value: "0000", preset: "all" },
    ]);
    const text = pal("run", "--preset", "mem-pal", "--dataset", "en", "--method", "h2memory,vanilla", "--users", "0000", "--dry-run");
    expect(text.stdout).toContain(
      "changes from the preset:\n  methods: H2Memory, Vanilla (preset: 12 methods)\n  users: 0000 (preset: all)",
    );
  });
});
