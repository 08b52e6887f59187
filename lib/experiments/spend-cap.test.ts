/**
 * An experiment's spend cap against the TEST DOUBLE's request log (issue 23): every request made for the
 * run counts (building its memory, answering, judging, its judge batches), so the requests that reach
 * the endpoint never exceed the cap; the experiment's cost shows its memory build; a judge batch is sent
 * only as far as the cap has room; a cancelled experiment's batch is cancelled at the endpoint, and what
 * it answered anyway reaches the ledger.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { PALSET_EN } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { cancelExperiment, getExperimentRow, resumeExperiment } from "./control";
import { experimentResults } from "./results";
import { controlExperiment } from "./service";
import { batchesOfExperiment, cancelledWithOpenBatches, settleCancelledBatches } from "./judge-batch";
import { drainModelRequests, resumeModelRequests } from "@/lib/llm/inflight";

/** Waits until every request made so far has its ledger row (a paused run can leave replies on their way). */
async function settled(): Promise<void> {
  await drainModelRequests();
  resumeModelRequests();
}

let fake: FakeOpenAI;
const dbs: Array<ReturnType<typeof tempDb>> = [];
beforeEach(async () => {
  fake = await startFakeOpenAI();
  fake.setResponder(protocolResponder);
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  for (const [k, v] of Object.entries({
    ASSISTANT: "assistant-model",
    USER_SIMULATOR: "simulator-model",
    JUDGE: "judge-model",
    EMBEDDING: "embed-model",
  }))
    vi.stubEnv(`PAL_MODEL_${k}`, v);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  for (const t of dbs.splice(0)) t.cleanup();
});

async function experiment(config: Record<string, unknown>): Promise<{ db: Db; id: number }> {
  const t = tempDb();
  dbs.push(t);
  const { datasetId } = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
  const { id } = createExperiment(t.db, { name: "capped", datasetId, config: { users: ["0000"], ...config } });
  return { db: t.db, id };
}
const deps = (db: Db) => bindDeps(db, { client: ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 10_000 }) });
const isJudge = (r: ChatRequest) => r.model === "judge-model";
const ledger = (db: Db) =>
  db.$client
    .prepare(
      "SELECT count(*) AS requests, coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c FROM llm_calls WHERE cache_hit = 0",
    )
    .get() as { requests: number; p: number; c: number };

describe("an experiment's spend cap counts every request made for it", () => {
  it(
    "memory building counts: a cap of 2 calls sends 2 requests, and the build shows in the experiment's cost",
    { timeout: 120_000 },
    async () => {
      for (const cap of [2, 9]) {
        const before = fake.log.length;
        const e = await experiment({ methods: [{ name: "h2memory" }], tasks: ["requirement"], spendCap: { calls: cap } });
        // Concurrency 8: many build calls could be in flight when the cap is reached; none may pass it.
        expect(await runExperiment(e.db, e.id, deps(e.db), { concurrency: 8 })).toBe("paused");
        await settled();
        const sent = fake.log.length - before;
        expect(sent).toBe(cap);
        expect(getExperimentRow(e.db, e.id).error).toMatch(new RegExp(`spend cap of ${cap} paid calls was reached`));
        // Every request is in the ledger, made for this experiment (its build's rows carry it) and shown as its memory's cost.
        expect(ledger(e.db).requests).toBe(cap);
        const built = e.db.$client
          .prepare("SELECT count(*) AS n FROM llm_calls WHERE experiment_id = ? AND memory_version_id IS NOT NULL")
          .get(e.id) as { n: number };
        expect(built.n).toBe(cap);
        const r = experimentResults(e.db, e.id);
        expect(r.memoryBuild.requests).toBe(cap);
        expect(r.memoryBuildByMethod.h2memory.requests).toBe(cap);
        // Resumed, the run counts what its build already spent: the cap has no room, nothing more is sent.
        resumeExperiment(e.db, e.id);
        expect(await runExperiment(e.db, e.id, deps(e.db), { concurrency: 8 })).toBe("paused");
        await settled();
        expect(fake.log.length - before).toBe(cap);
      }
    },
  );

  it("a judge batch is sent only as far as the cap has room; the rest waits with the cap's message", { timeout: 120_000 }, async () => {
    const config = { methods: [{ name: "vanilla" }], tasks: ["requirement"], judgeBatch: true };
    // Uncapped first, to know how many answering and judging calls the run makes.
    const free = await experiment(config);
    const before = fake.log.length;
    expect(await runExperiment(free.db, free.id, deps(free.db), { concurrency: 4, waitForBatch: true, batchPollMs: 20 })).toBe("done");
    const judged = fake.chatRequests.filter(isJudge).length;
    const answered = fake.log.length - before - judged;
    expect(judged).toBeGreaterThanOrEqual(3);
    expect(batchesOfExperiment(free.db, free.id).map((b) => b.requests)).toEqual([judged]);

    // Room for every answer and 2 judge calls: the batch carries 2 lines, and the run pauses at the cap.
    const cap = answered + 2;
    const capped = await experiment({ ...config, spendCap: { calls: cap } });
    const from = fake.log.length;
    expect(await runExperiment(capped.db, capped.id, deps(capped.db), { concurrency: 4, waitForBatch: true, batchPollMs: 20 })).toBe(
      "paused",
    );
    await settled();
    expect(fake.log.length - from).toBe(cap);
    expect(batchesOfExperiment(capped.db, capped.id).map((b) => [b.requests, b.status])).toEqual([[2, "ingested"]]);
    expect(getExperimentRow(capped.db, capped.id).error).toMatch(new RegExp(`spend cap of ${cap} paid calls was reached`));
    expect(ledger(capped.db).requests).toBe(cap);

    // No room left at all when the batch would go: nothing is sent.
    const none = await experiment({ ...config, spendCap: { calls: answered } });
    const at = fake.log.length;
    expect(await runExperiment(none.db, none.id, deps(none.db), { concurrency: 4, waitForBatch: true, batchPollMs: 20 })).toBe("paused");
    await settled();
    expect(fake.log.length - at).toBe(answered);
    expect(batchesOfExperiment(none.db, none.id)).toEqual([]);
  });

  it("cancel cancels the batch at the endpoint; what it answered anyway is read into the ledger", { timeout: 120_000 }, async () => {
    const e = await experiment({ methods: [{ name: "vanilla" }], tasks: ["requirement"], judgeBatch: true });
    fake.batch.hold(true);
    fake.batch.finishOnCancel(true);
    expect(await runExperiment(e.db, e.id, deps(e.db), { concurrency: 4 })).toBe("running");
    const [out] = batchesOfExperiment(e.db, e.id);
    expect(out.requests).toBeGreaterThan(0);

    await controlExperiment(e.db, e.id, { action: "cancel" });
    expect(getExperimentRow(e.db, e.id).status).toBe("cancelled");
    // The endpoint was asked to cancel; its lines under way still finish (and are paid for).
    expect(fake.batch.batches[0].status).toBe("cancelling");
    expect(batchesOfExperiment(e.db, e.id)[0].status).toBe("cancelling");
    expect(cancelledWithOpenBatches(e.db)).toEqual([e.id]);
    await fake.batch.release();
    expect(fake.batch.batches[0].status).toBe("cancelled");

    // The server's worker settles it: read into the ledger against the jobs, nothing open any more.
    expect(await settleCancelledBatches(e.db, ModelClient.create(e.db), e.id)).toEqual([]);
    expect(batchesOfExperiment(e.db, e.id)[0].status).toBe("cancelled");
    expect(cancelledWithOpenBatches(e.db)).toEqual([]);
    const rows = e.db.$client
      .prepare(
        `SELECT count(*) AS n, coalesce(sum(c.prompt_tokens + c.completion_tokens), 0) AS tokens FROM llm_calls c
         JOIN jobs j ON j.id = c.job_id WHERE j.experiment_id = ? AND c.role = 'judge' AND c.cache_hit = 0`,
      )
      .get(e.id) as { n: number; tokens: number };
    expect(rows.n).toBe(out.requests);
    // Everything the endpoint served (answers online, the batch's lines) is in the ledger, token for token.
    const l = ledger(e.db);
    expect(l.requests).toBe(fake.served.replies);
    expect(l.p).toBe(fake.served.promptTokens);
    expect(l.c).toBe(fake.served.completionTokens);
    expect(experimentResults(e.db, e.id).ledger.requests).toBe(fake.served.replies);
  });

  it("a batch that completes after its experiment was cancelled is read into the ledger, and nothing stays open (issue 30.10)", async () => {
    const e = await experiment({ methods: [{ name: "vanilla" }], tasks: ["requirement"], judgeBatch: true });
    fake.batch.hold(true);
    fake.batch.finishOnCancel("completed"); // the cancel comes too late: the endpoint finishes the batch anyway
    expect(await runExperiment(e.db, e.id, deps(e.db), { concurrency: 4 })).toBe("running");
    const [out] = batchesOfExperiment(e.db, e.id);
    expect(out.requests).toBeGreaterThan(0);
    await controlExperiment(e.db, e.id, { action: "cancel" });
    expect(getExperimentRow(e.db, e.id).status).toBe("cancelled");
    expect(fake.batch.batches[0].status).toBe("in_progress");
    expect(cancelledWithOpenBatches(e.db)).toEqual([e.id]);
    await fake.batch.release();
    expect(fake.batch.batches[0].status).toBe("completed");

    expect(await settleCancelledBatches(e.db, ModelClient.create(e.db), e.id)).toEqual([]);
    expect(cancelledWithOpenBatches(e.db)).toEqual([]);
    expect(getExperimentRow(e.db, e.id).status).toBe("cancelled");
    // Every line it answered is paid for and in the ledger against the experiment's jobs; no job ran again.
    const l = ledger(e.db);
    expect(l.requests).toBe(fake.served.replies);
    expect(l.p).toBe(fake.served.promptTokens);
    expect(l.c).toBe(fake.served.completionTokens);
    const open = e.db.$client
      .prepare("SELECT count(*) AS n FROM jobs WHERE experiment_id = ? AND status IN ('queued', 'running')")
      .get(e.id) as {
      n: number;
    };
    expect(open.n).toBe(0);
  });

  it("a judge batch under a dollar cap: lines whose usage is not believed count at their worst case and pause the run (issue 30.10)", async () => {
    await fake.close();
    // Answers honest (and free here); the judge's batch lines report negative usage.
    fake = await startFakeOpenAI({
      usage: (u, _kind, model) => (model === "judge-model" ? { ...u, prompt_tokens: -1_000_000, completion_tokens: -1 } : u),
    });
    fake.setResponder(protocolResponder);
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    const e = await experiment({
      methods: [{ name: "vanilla" }],
      tasks: ["requirement"],
      judgeBatch: true,
      prices: { judge: { prompt: 1000, completion: 1000 } },
      spendCap: { usd: 0.5 },
    });
    expect(await runExperiment(e.db, e.id, deps(e.db), { concurrency: 4, waitForBatch: true, batchPollMs: 20 })).toBe("paused");
    await settled();
    expect(getExperimentRow(e.db, e.id).error).toMatch(/spend cap of \$0.5 was reached .*not believed counted at their worst case/);
    expect(batchesOfExperiment(e.db, e.id).map((b) => b.status)).toEqual(["ingested"]);
    const judged = e.db.$client
      .prepare(
        "SELECT count(*) AS n, sum(usage_unknown) AS u, min(prompt_tokens) AS p FROM llm_calls WHERE role = 'judge' AND cache_hit = 0",
      )
      .get() as { n: number; u: number; p: number };
    expect(judged.n).toBeGreaterThan(0);
    expect(judged.u).toBe(judged.n);
    expect(judged.p).toBe(0);
    const negative = e.db.$client.prepare("SELECT count(*) AS n FROM llm_calls WHERE prompt_tokens < 0 OR completion_tokens < 0").get() as {
      n: number;
    };
    expect(negative.n).toBe(0);
  });

  it(
    "a run waiting for its batch that sees its experiment cancelled cancels the batch and reads what it answered",
    { timeout: 120_000 },
    async () => {
      const e = await experiment({ methods: [{ name: "vanilla" }], tasks: ["requirement"], judgeBatch: true });
      fake.batch.hold(true);
      fake.batch.finishOnCancel(true);
      const run = runExperiment(e.db, e.id, deps(e.db), { concurrency: 4, waitForBatch: true, batchPollMs: 20 });
      while (!batchesOfExperiment(e.db, e.id)[0]?.remoteId) await new Promise((r) => setTimeout(r, 20));
      // Cancelled from elsewhere (another process changed only the state): the waiting run does the rest.
      cancelExperiment(e.db, e.id);
      while (fake.batch.batches[0].status !== "cancelling") await new Promise((r) => setTimeout(r, 20));
      await fake.batch.release();
      expect(await run).toBe("cancelled");
      expect(batchesOfExperiment(e.db, e.id).map((b) => b.status)).toEqual(["cancelled"]);
      const l = ledger(e.db);
      expect(l.requests).toBe(fake.served.replies);
      expect(l.p + l.c).toBe(fake.served.promptTokens + fake.served.completionTokens);
    },
  );
});
