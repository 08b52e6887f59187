/**
 * An experiment's page reads right at every moment after its launch (issue 34.4: a HiCUPID preset launch
 * landed on "This page couldn't load", a reload showed it done): what the page reads is computed while
 * the experiment is preparing, partly prepared, queued, at every model request of its run, and done. The
 * page threw mid-run: "All metrics" took its columns from the first method's row, and a method that had
 * no score yet for one of them left the cell undefined (lib/experiments/results-columns.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "./deps";
import { runExperiment } from "./worker";
import { HICUPID_INSTRUCTION } from "@/lib/tasks/hicupid/prompts";
import { tempDb } from "@/test/db";
import { FIXTURE_JSONL } from "@/test/fixtures";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { launchExperiment } from "./create";
import { resolvePresetConfig } from "./presets";
import { prepareJobs } from "./prepare";
import { experimentResults } from "./results";
import { experimentProgress } from "./progress";
import { listItemRows } from "./items";
import { experimentPaperTables } from "./paper-table";
import { cancelExperiment, getExperimentRow } from "./control";
import { parseExperimentConfig } from "./config";
import { presetChanges } from "./preset-changes";
import { metricColumns, statOf } from "./results-columns";

/** What the page reads; the "All metrics" cells it draws must each have a value or an explicit "—". */
function pageReads(db: ReturnType<typeof tempDb>["db"], id: number, seen?: { uneven: number }) {
  const res = experimentResults(db, id);
  for (const task of new Set(res.summary.map((s) => s.task))) {
    const rows = res.summary.filter((s) => s.task === task);
    const cols = metricColumns(rows);
    // The rows may differ mid-run (one method scored, another not yet); every cell still reads.
    if (rows.some((r) => cols.some((c) => !(c in r.metrics))) && seen) seen.uneven++;
    for (const r of rows) for (const c of cols) expect(statOf(r, c)).toHaveProperty("mean");
  }
  experimentProgress(db, id);
  listItemRows(db, id);
  experimentPaperTables(db, id, {}, res);
  presetChanges(parseExperimentConfig(getExperimentRow(db, id).config));
  return getExperimentRow(db, id).status;
}

describe("the experiment page after a launch", () => {
  let t: ReturnType<typeof tempDb>;
  let datasetId: number;
  let fake: FakeOpenAI;
  beforeAll(async () => {
    t = tempDb();
    datasetId = (await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" })).datasetId;
    fake = await startFakeOpenAI();
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", JUDGE: "judge-1", EMBEDDING: "embed" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("reads while preparing, partly prepared and queued (HiCUPID preset)", async () => {
    const config = resolvePresetConfig({ preset: "hicupid" });
    const { id } = launchExperiment(t.db, { name: "hc", datasetId, config });
    expect(pageReads(t.db, id)).toBe("preparing");
    await prepareJobs(t.db, id, { chunk: 2, maxChunks: 1, pause: async () => {} });
    expect(pageReads(t.db, id)).toBe("preparing");
    await prepareJobs(t.db, id, { pause: async () => {} });
    expect(pageReads(t.db, id)).toBe("queued");
  });

  it("reads at every request of the run until it is done", async () => {
    const config = resolvePresetConfig({ preset: "hicupid" });
    const { id } = launchExperiment(t.db, { name: "hc run", datasetId, config });
    await prepareJobs(t.db, id, { pause: async () => {} });
    const errors: string[] = [];
    const seen = { uneven: 0 };
    const head = HICUPID_INSTRUCTION.split("\n")[0];
    fake.setResponder((r: ChatRequest) => {
      try {
        pageReads(t.db, id, seen);
      } catch (e) {
        errors.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
      }
      const text = r.messages.map((m) => String(m.content)).join("\n");
      if (text.includes(head)) return "A quiet trail walk on Saturday morning.";
      if (text.includes("Better Response: <A/B/Tie>")) return "1. Personalization: x\n\nBetter Response: A";
      if (text.includes("Satisfaction: <YES/NO>")) return "1. Personalization: z\n\nSatisfaction: NO";
      return "ok";
    });
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
    const status = await runExperiment(t.db, id, deps, { concurrency: 3 });
    expect(errors.slice(0, 1)).toEqual([]);
    expect(status).toBe("done");
    // The moment the page used to throw at: methods with different metrics so far (read off the first row, a cell was undefined).
    expect(seen.uneven).toBeGreaterThan(0);
    expect(pageReads(t.db, id)).toBe("done");
  }, 120_000);

  it("cancelling a run its spend guard paused drops the pause's reason (the subtitle said 'paused by its spend guard')", () => {
    const { id } = launchExperiment(t.db, { name: "hc paused", datasetId, config: resolvePresetConfig({ preset: "hicupid" }) });
    t.db.$client
      .prepare("UPDATE experiments SET status = 'paused', error = 'paused by its spend guard: 20 failed attempts' WHERE id = ?")
      .run(id);
    cancelExperiment(t.db, id);
    expect(getExperimentRow(t.db, id)).toMatchObject({ status: "cancelled", error: null });
  });
});
