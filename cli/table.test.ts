/** `pal table`: the paper tables of a known experiment (test/known-experiment.ts), as the fixtures have them. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { KNOWN_EXPERIMENT_CONFIG, seedHitRateExperiment, seedKnownExperiment } from "@/test/known-experiment";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/paper-tables");

describe("pal table", () => {
  let t: ReturnType<typeof tempDb>;
  let id: number;
  const pal = (...args: string[]) => palEnv({}, ...args);
  const palEnv = (env: Record<string, string>, ...args: string[]) =>
    spawnSync("node", ["bin/pal.mjs", "table", ...args], {
      env: { ...process.env, PAL_DB: t.file, ...env },
      encoding: "utf8",
      timeout: 120_000,
    });
  beforeAll(() => {
    t = tempDb();
    id = seedKnownExperiment(t.db.$client as never);
  });
  afterAll(() => t.cleanup());

  it("--format csv and latex print the fixtures; markdown the same table", () => {
    const csv = pal(String(id), "--format", "csv");
    expect(csv.stderr).toBe("");
    expect(csv.status).toBe(0);
    expect(csv.stdout).toBe(fs.readFileSync(path.join(FIXTURES, "known-experiment.csv"), "utf8"));
    const tex = pal(String(id));
    expect(tex.stdout).toBe(
      fs.readFileSync(path.join(FIXTURES, "known-experiment.tex"), "utf8").replace("Experiment 1 ", `Experiment ${id} `),
    );
    const md = pal(String(id), "--format", "markdown", "--table", "mem-pal-table3");
    expect(md.stdout).toContain("### Mem-PAL Table 3: multi-turn dialogue interaction (Win / Tie / Lose)");
    expect(md.stdout).toContain("| Vanilla (w/o log) | 1.3 ± 0.6 | 0.3 ± 0.6 | 0.3 ± 0.6 | 2.0 ± 0.0 | 0.0 ± 0.0 | 0.0 ± 0.0 |");
    expect(md.stdout).not.toContain("Table 2");
  });

  it("refuses a bad format or an unknown experiment in one line", () => {
    const bad = pal(String(id), "--format", "docx");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('pal: format: "docx" is not one of latex, markdown, csv\n');
    const none = pal("999");
    expect(none.stderr).toBe("pal: experiment 999 does not exist\n");
    expect(none.status).not.toBe(0);
  });

  it("--format csv sets the papers' supplements beside the run: Table 10 compared only for a DeepSeek-V3.1 run, Table A2's hit rates", () => {
    // A run of another model: Table 10 for reference only, even with DeepSeek-V3.1 in today's settings.
    const other = palEnv({ PAL_MODEL_ASSISTANT: "deepseek-v3.1" }, String(id), "--format", "csv", "--table", "mem-pal-table10");
    expect(other.status).toBe(0);
    expect(other.stdout).toContain(
      "mem-pal-table10,This run (qwen-max-0428),,h2memory,H2Memory,3,Requirement Restatement,G-Score,91.6667,",
    );
    expect(other.stdout).toContain(
      '"For reference only: Mem-PAL, Table 10, DeepSeek-V3.1 (not this run\'s model; no difference taken)",,h2memory,H2Memory,,Requirement Restatement,G-Score,49.77,',
    );
    expect(other.stdout).not.toMatch(/Reported in Mem-PAL, Table 10|Difference/);
    const ds = seedKnownExperiment(t.db.$client as never, { name: "DeepSeek" });
    t.db.$client
      .prepare("UPDATE experiments SET config = ? WHERE id = ?")
      .run(JSON.stringify({ ...KNOWN_EXPERIMENT_CONFIG, models: { assistant: { model: "deepseek-v3.1" } } }), ds);
    const mine = pal(String(ds), "--format", "csv");
    expect(mine.stdout).toContain('mem-pal-table10,"Reported in Mem-PAL, Table 10",,h2memory,H2Memory,,Solution Proposal,S-Score,40.4,');
    expect(mine.stdout).toContain(
      'mem-pal-table10,"Difference (this run − Mem-PAL, Table 10)",,h2memory,H2Memory,,Solution Proposal,S-Score,34.6,',
    );
    const hits = pal(String(seedHitRateExperiment(t.db.$client as never)), "--format", "csv");
    expect(hits.status).toBe(0);
    expect(hits.stdout).toContain('hicupid-table-a2,This run,,bm25-k5,"BM25, utterance, k = 5",1,,Total,81.25,,,1');
    expect(hits.stdout).toContain(
      'hicupid-table-a2,"Reported in HiCUPID, Table A2",,"BM25, utterance, k = 5","BM25, utterance, k = 5",,,Total,60,,,',
    );
  });
});

describe("pal table --experiments", () => {
  let t: ReturnType<typeof tempDb>;
  const pal = (env: Record<string, string>, ...args: string[]) =>
    spawnSync("node", ["bin/pal.mjs", "table", ...args], {
      env: { ...process.env, PAL_DB: t.file, ...env },
      encoding: "utf8",
      timeout: 120_000,
    });
  beforeAll(() => {
    t = tempDb();
  });
  afterAll(() => t.cleanup());

  it("one table across two experiments, each block labelled by its run's model (not today's settings); --run-only; errors in one line", () => {
    const a = seedKnownExperiment(t.db.$client as never, { name: "Qwen" });
    const b = seedKnownExperiment(t.db.$client as never, { name: "DeepSeek" });
    t.db.$client
      .prepare("UPDATE experiments SET config = ? WHERE id = ?")
      .run(JSON.stringify({ ...KNOWN_EXPERIMENT_CONFIG, models: { assistant: { model: "deepseek-v3.1" } } }), b);
    // Today's setting names a third model: the labels still say what each run used.
    const md = pal({ PAL_MODEL_ASSISTANT: "gpt-4o" }, "--experiments", `${a},${b}`, "--format", "markdown", "--table", "mem-pal-table10");
    expect(md.stderr).toBe("");
    expect(md.status).toBe(0);
    expect(md.stdout).toContain(`<!-- Experiments ${a}, ${b}, written by PAL Studio -->`);
    expect(md.stdout).toMatch(new RegExp(`\\| \\*Experiment ${a}: qwen-max-0428[^|]*\\* \\|`));
    expect(md.stdout).toMatch(new RegExp(`\\| \\*Experiment ${b}: deepseek-v3\\.1[^|]*\\* \\|`));
    expect(md.stdout).toContain("| *Reported in Mem-PAL, Table 10");
    expect(md.stdout).not.toContain("gpt-4o");
    const tex = pal({}, "--experiments", `${a},${b}`, "--run-only");
    expect(tex.status).toBe(0);
    expect(tex.stdout).toContain("\\begin{table*}");
    expect(tex.stdout).toContain(`across experiments ${a}, ${b}}`);
    expect(tex.stdout).not.toMatch(/Reported in|Difference/);
    const csv = pal({}, "--experiments", `${a},${b}`, "--format", "csv", "--table", "mem-pal-table2");
    expect(csv.stdout.split("\n")[0]).toBe("table,section,model,method,paper_name,runs,group,column,value,sd,significant,rank");
    expect(csv.stdout).toContain(`mem-pal-table2,Experiment ${b}: deepseek-v3.1`);
    const one = pal({}, "--experiments", String(a));
    expect(one.status).toBe(1);
    expect(one.stderr).toBe("pal: experiments: give 2 to 8 distinct experiment ids (got 1)\n");
    const both = pal({}, String(a), "--experiments", `${a},${b}`);
    expect(both.stderr).toBe("pal: give either an experiment id or --experiments, not both\n");
  });
});
