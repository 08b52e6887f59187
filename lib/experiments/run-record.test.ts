/**
 * The run record against a real run (HiCUPID preset on the demo data, fake OpenAI server, real SQLite):
 * a table names the run's model even when the environment names another model afterwards; replies
 * naming several models are said to be mixed; a deliberately wrong temperature in the ledger is flagged
 * by the audit, and the table then refuses the preset's name.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { FIXTURE_JSONL } from "@/test/fixtures";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "./deps";
import { knownMethod } from "./method-choices";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { applyPreset } from "./presets";
import { readRunRecord, recordUnrecordedExperiments, refreshRunRecord, roleModel, RUN_RECORD_VERSION } from "./run-record";
import { auditText, protocolAudit } from "./protocol-audit";
import { experimentPaperTables, paperTableFile, runFacts } from "./paper-table";
import { exportExperiment } from "./export";

describe("the run record names what the run did", () => {
  let fake: FakeOpenAI;
  let t: ReturnType<typeof tempDb>;
  let exp: number;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    t = tempDb();
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "bar-assistant", JUDGE: "judge-model", EMBEDDING: "embed-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    const { datasetId } = await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "demo" });
    exp = createExperiment(t.db, { name: "hc", datasetId, config: applyPreset("hicupid"), knownMethod: knownMethod() }).id;
    // written at launch, from the settings the run starts with
    expect(readRunRecord(t.db, exp)).toMatchObject({ version: RUN_RECORD_VERSION, ledgerAt: null, preset: { id: "hicupid" } });
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    expect(await runExperiment(t.db, exp, deps, { concurrency: 8 })).toBe("done");
  }, 300_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("a table drawn with another model in the environment still names the run's model", () => {
    vi.stubEnv("PAL_MODEL_ASSISTANT", "gpt-4o-mini");
    const [table] = experimentPaperTables(t.db, exp).tables;
    const run = table.sections.find((s) => s.kind === "run")!;
    expect(new Set(run.rows.map((r) => r.model))).toEqual(new Set(["bar-assistant"]));
    // not compared with GPT-4o-mini's published rows: the run's model is not one of the paper's
    expect(table.sections.filter((s) => s.kind === "reported").flatMap((s) => s.rows.map((r) => r.model))).not.toContain("GPT-4o-mini");
    const csv = paperTableFile(t.db, exp, "csv").body;
    expect(csv).toContain("bar-assistant");
    expect(csv).not.toContain("gpt-4o-mini");
    expect(table.notes.join(" ")).toContain("the run's model (bar-assistant)");
    expect(table.notes.join(" ")).toMatch(/Protocol: the Reproduce HiCUPID preset, no deviation; every call as declared\./);
    // On one user the preset's name does not make it a reproduction (issue 44.4).
    const one = runFacts(readRunRecord(t.db, exp)!, 1).notes.join(" ");
    expect(one).toContain("on one user: the protocol, not a reproduction of the paper's results");
    // The JSON export carries the run record: the model the run used and the temperature it sent.
    const json = JSON.parse(exportExperiment(t.db, exp, "json").body) as { runRecord: Parameters<typeof roleModel>[0] };
    expect(roleModel(json.runRecord, "assistant").model).toBe("bar-assistant");
    expect(JSON.stringify(json.runRecord)).not.toContain("gpt-4o-mini");
    expect(json.runRecord.roles.find((r) => r.role === "assistant")?.sent.map((x) => x.temperature)).toEqual([0.6]);
    vi.stubEnv("PAL_MODEL_ASSISTANT", "bar-assistant");
  });

  it("an experiment from before run records gets its record from its ledger once, at the server's start", () => {
    const before = readRunRecord(t.db, exp)!;
    t.db.$client.prepare("DELETE FROM experiment_run_records WHERE experiment_id = ?").run(exp);
    expect(readRunRecord(t.db, exp)).toBeNull();
    expect(recordUnrecordedExperiments(t.db)).toEqual([exp]);
    const made = readRunRecord(t.db, exp)!;
    expect(roleModel(made, "assistant").model).toBe("bar-assistant");
    expect(made.roles.map((r) => [r.role, r.config, r.requests])).toEqual(before.roles.map((r) => [r.role, r.config, r.requests]));
    expect(recordUnrecordedExperiments(t.db)).toEqual([]); // once
  });

  it("a run whose replies name several models is said to be mixed", () => {
    const db = t.db.$client;
    db.prepare(
      "UPDATE llm_calls SET served_model = 'other-model' WHERE id IN (SELECT id FROM llm_calls WHERE role = 'assistant' AND served_model IS NOT NULL LIMIT 3)",
    ).run();
    const record = refreshRunRecord(t.db, exp);
    expect(roleModel(record, "assistant")).toMatchObject({ mixed: true, served: ["bar-assistant", "other-model"] });
    const [table] = experimentPaperTables(t.db, exp).tables;
    expect(table.notes.join(" ")).toMatch(/Mixed models: .*bar-assistant: \d+, other-model: 3/);
    db.prepare("UPDATE llm_calls SET served_model = 'bar-assistant' WHERE served_model = 'other-model'").run();
  });

  it("the audit flags a deliberately wrong temperature, and the table refuses the preset's name", () => {
    expect(protocolAudit(t.db, exp).asDeclared).toBe(true);
    const db = t.db.$client;
    // Five answers as if sent at 1.0 where the preset declares 0.6.
    db.prepare(
      "UPDATE llm_calls SET temperature = 1.0 WHERE id IN (SELECT id FROM llm_calls WHERE role = 'assistant' AND cache_hit = 0 LIMIT 5)",
    ).run();
    const audit = protocolAudit(t.db, exp);
    const total = (db.prepare("SELECT count(*) AS n FROM llm_calls WHERE role = 'assistant'").get() as { n: number }).n;
    expect(audit.mismatches).toEqual([{ check: "temperature", subject: "assistant", declared: "0.6", found: "1", count: 5, of: total }]);
    expect(auditText(audit)).toMatch(
      new RegExp(
        `^protocol: 1 unintended mismatch; the hicupid preset, no deviation \\(checked \\d+ requests sent and \\d+ cache hits\\)\\. mismatches: assistant temperature: declared 0\\.6, sent 1 on 5 of ${total}$`,
      ),
    );
    refreshRunRecord(t.db, exp);
    const [table] = experimentPaperTables(t.db, exp).tables;
    const notes = table.notes.join(" ");
    expect(notes).toContain("Not labelled as the Reproduce HiCUPID preset: the protocol audit found what the run did not ask for");
    expect(notes).not.toMatch(/Protocol: the Reproduce HiCUPID preset/);
  });
});
