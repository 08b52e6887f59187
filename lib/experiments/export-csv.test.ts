/** The experiment results CSV writes method labels through the one CSV writer: formula-like labels are inert. */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { PAYLOADS, expectInert } from "@/test/csv";
import { bindDeps } from "./deps";
import { estimateOrLaunch } from "./service";
import { startServerWorker, stopServerWorker } from "./server-worker";
import { experimentProgress } from "./progress";
import { exportExperiment } from "./export";

describe("experiment CSV export", () => {
  let t: ReturnType<typeof tempDb>;
  let fake: FakeOpenAI;
  let id: number;

  beforeAll(async () => {
    t = tempDb();
    const datasetId = (await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" })).datasetId;
    fake = await startFakeOpenAI();
    fake.setResponder(experimentReplies());
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    // "+1+1" is a label the config accepts today; the other payloads are written into the stored rows below.
    const config = { methods: [{ name: "vanilla", label: "+1+1" }, { name: "vanilla-log" }], tasks: ["requirement"], users: ["0000"] };
    id = estimateOrLaunch(t.db, { datasetId, config, name: "csv" }, null).experiment!.id;
    startServerWorker(t.db, () => bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) }), { idleMs: 50 });
    const deadline = Date.now() + 30_000;
    while (experimentProgress(t.db, id).status !== "done" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    stopServerWorker();
    expect(experimentProgress(t.db, id).status).toBe("done");
  });
  afterAll(async () => {
    stopServerWorker();
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  it("a label accepted by the config, +1+1, is written inert", () => {
    expectInert(exportExperiment(t.db, id, "csv").body, "+1+1");
  });

  it.each(PAYLOADS)("a stored method label %j is written inert in the summary and ledger rows", (p) => {
    // The label is stored with the jobs and with the experiment's running sums (lib/experiments/aggregates.ts).
    for (const table of ["jobs", "experiment_groups", "experiment_score_sums", "experiment_ledger_sums"])
      t.db.$client.prepare(`update ${table} set method = ? where experiment_id = ? and method <> 'vanilla-log'`).run(p, id);
    const csv = exportExperiment(t.db, id, "csv").body;
    expectInert(csv, p);
    expect(csv.split("\n").filter((l) => l.includes(`'${p.replace(/"/g, '""')}`)).length).toBeGreaterThan(1);
  });
});
