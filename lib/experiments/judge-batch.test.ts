/**
 * An experiment's judge calls sent as batches through the Batch API of the TEST DOUBLE: answers online,
 * judge calls collected, submitted, polled, resumed by a fresh process (only the database), ingested into
 * the cache and the ledger, and the same results as the online run; a cancelled batch leaves its items
 * to run online.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { PALSET_EN } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { experimentOutcome, paidTwice } from "@/test/reliability/outcomes";
import type { Db } from "@/db/client";
import { datasets } from "@/db/schema";
import { ModelClient } from "@/lib/llm/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { batchesOfExperiment, cancelJudgeBatches, forgetJudgeBatching, judgeEndpointsBatchApi, parkedJobs } from "./judge-batch";
import { saveEndpoint } from "@/lib/llm/endpoints";
import { saveModelSetting } from "@/lib/llm/config";

const CONFIG = {
  methods: [{ name: "vanilla" }, { name: "vanilla-log" }],
  tasks: ["requirement", "dialogue"],
  users: ["0000"],
  reference: "vanilla",
};
const isJudge = (r: ChatRequest) => {
  const t = String(r.messages[0]?.content ?? "");
  return t.includes('"score": <score>}') || t.includes('"assistant-1": <score>');
};

let fake: FakeOpenAI;
const dbs: Array<ReturnType<typeof tempDb>> = [];
beforeEach(async () => {
  fake = await startFakeOpenAI();
  fake.setResponder(experimentReplies());
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
    vi.stubEnv(`PAL_MODEL_${k}`, v);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  for (const t of dbs.splice(0)) t.cleanup();
});

async function experimentDb(judgeBatch: boolean): Promise<{ db: Db; id: number }> {
  const t = tempDb();
  dbs.push(t);
  const files = fs
    .readdirSync(PALSET_EN)
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(PALSET_EN, f));
  await importPalset(t.db, { paths: files, name: "en", lang: "en" });
  const datasetId = t.db.select().from(datasets).get()!.id;
  const { id } = createExperiment(t.db, { name: "e", datasetId, config: { ...CONFIG, ...(judgeBatch ? { judgeBatch: true } : {}) } });
  return { db: t.db, id };
}
const deps = (db: Db) => bindDeps(db, { client: ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 5000 }) });
const paidJudgeRows = (db: Db) =>
  (db.$client.prepare("SELECT count(*) n FROM llm_calls WHERE role = 'judge' AND cache_hit = 0").get() as { n: number }).n;

describe("an experiment's judge calls as batches", () => {
  it(
    "answers online, batches the judge calls, resumes after a restart, and gives the online run's results, paid once",
    { timeout: 120_000 },
    async () => {
      const online = await experimentDb(false);
      expect(await runExperiment(online.db, online.id, deps(online.db), { concurrency: 2 })).toBe("done");
      const expected = experimentOutcome(online.db.$client, online.id);
      const onlineJudgeRequests = fake.chatRequests.filter(isJudge).length;
      expect(onlineJudgeRequests).toBeGreaterThan(0);

      const before = fake.chatRequests.length;
      const b = await experimentDb(true);
      fake.batch.hold(true);
      // Answers are made online; the judge calls wait in a batch the endpoint holds: the run leaves it waiting.
      expect(await runExperiment(b.db, b.id, deps(b.db), { concurrency: 2 })).toBe("running");
      expect(fake.chatRequests.slice(before).filter(isJudge)).toHaveLength(0);
      const first = batchesOfExperiment(b.db, b.id);
      expect(first).toHaveLength(1);
      expect(["validating", "in_progress"]).toContain(first[0].status);
      const parked = parkedJobs(b.db, b.id);
      expect(parked).toBeGreaterThan(0);

      // A new process (fresh client, nothing in memory) resumes it: the batch is released, polled, ingested.
      forgetJudgeBatching(b.db, b.id);
      await fake.batch.release();
      expect(await runExperiment(b.db, b.id, deps(b.db), { concurrency: 2, waitForBatch: true, batchPollMs: 20 })).toBe("done");
      expect(experimentOutcome(b.db.$client, b.id)).toEqual(expected);

      // Every batch ingested (the pairwise dialogue judging is a second round, after its phase of answers);
      // every judge request the endpoint answered came in a batch and is one ledger row; nothing paid twice.
      const all = batchesOfExperiment(b.db, b.id);
      expect(all.map((x) => x.status)).toEqual(all.map(() => "ingested"));
      expect(all).toHaveLength(2); // one round per phase: the stand-in replies let each pass collect all its judge calls
      const batched = all.reduce((s, x) => s + x.requests, 0);
      expect(batched).toBe(onlineJudgeRequests);
      expect(fake.chatRequests.slice(before).filter(isJudge)).toHaveLength(batched);
      expect(paidJudgeRows(b.db)).toBe(batched);
      expect(paidTwice(b.db.$client)).toEqual([]);
      console.log(
        `judge batches: ${all.length} rounds, ${batched} judge requests (online: ${onlineJudgeRequests}), ${parked} jobs parked at the restart`,
      );
    },
  );

  it("a cancelled batch leaves its items to run online, with the online run's results", { timeout: 120_000 }, async () => {
    const online = await experimentDb(false);
    await runExperiment(online.db, online.id, deps(online.db), { concurrency: 2 });
    const expected = experimentOutcome(online.db.$client, online.id);

    const c = await experimentDb(true);
    fake.batch.hold(true);
    const d = deps(c.db);
    expect(await runExperiment(c.db, c.id, d, { concurrency: 2 })).toBe("running");
    const client = ModelClient.create(c.db);
    const [cancelled] = await cancelJudgeBatches(c.db, client, c.id);
    expect(cancelled.status).toBe("cancelled");
    expect(fake.batch.batches[0].status).toBe("cancelled");
    expect(parkedJobs(c.db, c.id)).toBe(0);
    expect(await runExperiment(c.db, c.id, d, { concurrency: 2, waitForBatch: true, batchPollMs: 20 })).toBe("done");
    expect(experimentOutcome(c.db.$client, c.id)).toEqual(expected);
    // No further batch: judging went online once the batch was cancelled.
    expect(batchesOfExperiment(c.db, c.id)).toHaveLength(1);
    expect(paidTwice(c.db.$client)).toEqual([]);
  });

  it("the New experiment form's Batch API note: true only when every default judge configuration is on a marked endpoint", () => {
    const t = tempDb();
    dbs.push(t);
    // The judge role on the environment: nothing says it serves batches.
    expect(judgeEndpointsBatchApi(t.db)).toBe(false);
    const marked = saveEndpoint(t.db, { name: "openai", baseUrl: fake.baseURL, batchApi: true });
    saveModelSetting(t.db, { name: "judge", endpointId: marked });
    // judge:gscore and judge:dialogue inherit the role's endpoint.
    expect(judgeEndpointsBatchApi(t.db)).toBe(true);
    // One named judge of the defaults on an unmarked endpoint: the note shows.
    const plain = saveEndpoint(t.db, { name: "lab vLLM", baseUrl: "http://10.0.0.5:8000/v1" });
    saveModelSetting(t.db, { name: "judge:dialogue", endpointId: plain });
    expect(judgeEndpointsBatchApi(t.db)).toBe(false);
  });
});
