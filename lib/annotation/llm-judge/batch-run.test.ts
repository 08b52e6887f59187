/**
 * A judge run sent as a batch through the Batch API of the TEST DOUBLE: submitted, polled, resumed by a
 * fresh client (what a restarted server has: only the database), ingested into the cache and the ledger,
 * and the same verdicts as the online run; and a batch cancelled.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asc, eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { judgeLabels, llmCalls } from "@/db/schema";
import type { Db } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { ModelClient } from "@/lib/llm";
import { createCampaign } from "@/lib/annotation";
import { runLlmJudge } from "./index";
import { advanceBatchJudge, cancelBatchJudge } from "./batch-run";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const prompt = (r: ChatRequest) => String(r.messages[0]?.content ?? "");
const judgeReply = (s1: number, s2: number) =>
  JSON.stringify({ analysis: { "assistant-1": "a", "assistant-2": "b", overall: "c" }, scores: { "assistant-1": s1, "assistant-2": s2 } });
/** Scores that depend on the prompt (so a mixed-up reply would change a verdict). */
function responder(r: ChatRequest): string {
  const p = prompt(r);
  const first = p.split("# Dialogue with assistant-2")[0];
  if (p.includes("understanding the preferences")) return first.includes("Given that you") ? judgeReply(8, 5) : judgeReply(5, 8);
  return judgeReply(7, 6);
}

let fake: FakeOpenAI;
const dbs: Array<ReturnType<typeof tempDb>> = [];
beforeEach(async () => {
  fake = await startFakeOpenAI();
  fake.setResponder(responder);
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("PAL_MODEL_JUDGE", "fake-judge");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  for (const t of dbs.splice(0)) t.cleanup();
});

async function campaignDb(): Promise<{ db: Db; campaignId: number; researcher: number }> {
  const t = tempDb();
  dbs.push(t);
  const researcher = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  const ann: number[] = [];
  for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(t.db, { email: e, role: "annotator", password: "password-123" })).id);
  const c = createCampaign(
    t.db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 2,
      annotatorIds: ann,
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    researcher,
  );
  return { db: t.db, campaignId: c.id, researcher };
}
const client = (db: Db) => ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 2000 });
const verdicts = (db: Db) =>
  db
    .select({ item: judgeLabels.itemId, dim: judgeLabels.dimension, value: judgeLabels.value, judgments: judgeLabels.judgments })
    .from(judgeLabels)
    .orderBy(asc(judgeLabels.itemId), asc(judgeLabels.dimension))
    .all();

describe("a judge run as a batch", () => {
  it("is submitted, polled, resumed after a restart, ingested, and gives the online run's verdicts", async () => {
    const online = await campaignDb();
    await runLlmJudge(online.db, client(online.db), online.campaignId, {}, online.researcher);
    const onlineVerdicts = verdicts(online.db);
    expect(onlineVerdicts).toHaveLength(12);

    const b = await campaignDb();
    fake.batch.hold(true);
    const before = fake.chatRequests.length;
    const s1 = await advanceBatchJudge(b.db, client(b.db), b.campaignId, {}, b.researcher);
    expect(s1.state).toBe("submitted");
    if (s1.state !== "submitted") return;
    expect(s1.batch).toMatchObject({ requests: 72, config: "judge", model: "fake-judge" });
    const s2 = await advanceBatchJudge(b.db, client(b.db), b.campaignId, {}, b.researcher);
    expect(s2).toMatchObject({ state: "waiting", batch: { status: "in_progress" } });
    expect(fake.chatRequests.length).toBe(before); // nothing asked online while the batch waits

    // The server restarts: a new client, only the database carries the batch. The endpoint finishes it.
    await fake.batch.release();
    const s3 = await advanceBatchJudge(b.db, client(b.db), b.campaignId, {}, b.researcher);
    expect(s3.state).toBe("done");
    if (s3.state !== "done") return;
    expect(s3.batch?.status).toBe("ingested");
    expect(s3.result).toMatchObject({ total: 12, judged: 12, failed: 0, requests: 0 });
    expect(fake.chatRequests.length - before).toBe(72); // the batch's lines, nothing online
    expect(fake.batch.batches).toHaveLength(1);
    expect(verdicts(b.db)).toEqual(onlineVerdicts);

    // The ledger: 72 paid replies from the batch and 72 cache hits of the run made from the cache.
    const rows = b.db.select().from(llmCalls).where(eq(llmCalls.judgeRunId, s3.runId)).all();
    expect(rows.filter((r) => !r.cacheHit && r.status === "ok")).toHaveLength(72);
    expect(rows.filter((r) => r.cacheHit)).toHaveLength(72);
    expect(rows.filter((r) => !r.cacheHit).reduce((s, r) => s + r.promptTokens, 0)).toBeGreaterThan(0);

    // Done is done: a further step runs nothing and sends nothing.
    const s4 = await advanceBatchJudge(b.db, client(b.db), b.campaignId, {}, b.researcher);
    expect(s4.state).toBe("done");
    expect(fake.chatRequests.length - before).toBe(72);
  });

  it("asks again online for a reply the batch got wrong", async () => {
    const b = await campaignDb();
    let bad = 1;
    fake.setResponder((r) => (bad-- > 0 ? "not JSON" : responder(r)));
    fake.batch.hold(true);
    await advanceBatchJudge(b.db, client(b.db), b.campaignId, {}, b.researcher);
    await fake.batch.release();
    const done = await advanceBatchJudge(b.db, client(b.db), b.campaignId, {}, b.researcher);
    expect(done.state).toBe("done");
    if (done.state !== "done") return;
    expect(done.result).toMatchObject({ judged: 12, failed: 0, requests: 1 });
    const rows = b.db.select().from(llmCalls).where(eq(llmCalls.judgeRunId, done.runId)).all();
    expect(rows.filter((r) => r.status === "invalid" && r.error?.startsWith("batch:"))).toHaveLength(1);
  });

  it("is cancelled: the endpoint stops it and nothing is ingested", async () => {
    const b = await campaignDb();
    fake.batch.hold(true);
    const s1 = await advanceBatchJudge(b.db, client(b.db), b.campaignId, {}, b.researcher);
    const cancelled = await cancelBatchJudge(b.db, client(b.db), s1.runId);
    expect(cancelled.status).toBe("cancelled");
    expect(fake.batch.batches[0].status).toBe("cancelled");
    expect(verdicts(b.db)).toHaveLength(0);
    await expect(cancelBatchJudge(b.db, client(b.db), s1.runId)).rejects.toThrow(/no batch in progress/);
  });
});
