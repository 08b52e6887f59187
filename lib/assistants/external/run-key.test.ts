/**
 * Issue 41's run-scoped key: a method that calls the model after it answered (as Mem0 writes in the
 * background) is served while the experiment runs, its calls in the run's ledger and under its spend cap,
 * and refused (401) once the run has stopped. A real HTTP method server (TEST DOUBLE of a lab's method),
 * the real model client against the fake OpenAI server, a real SQLite database.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { PALSET_EN } from "@/test/fixtures";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { startMethodServer } from "@/test/method-server";
import { ModelClient } from "@/lib/llm/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { bindDeps } from "@/lib/experiments/deps";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { EXPERIMENT_CALLS } from "@/lib/experiments/experiment-calls";
import { ASSISTANTS } from "../registry";
import { addExternalMethod } from "./store";

let fake: FakeOpenAI;
let svc: Awaited<ReturnType<typeof startMethodServer>>;
const dbs: Array<ReturnType<typeof tempDb>> = [];
beforeEach(async () => {
  fake = await startFakeOpenAI();
  fake.setResponder(protocolResponder);
  svc = await startMethodServer({ mode: "late" });
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("PAL_MODEL_ASSISTANT", "assistant-model");
  vi.stubEnv("PAL_MODEL_JUDGE", "judge-model");
  vi.stubEnv("PAL_MODEL_USER_SIMULATOR", "simulator-model");
  vi.stubEnv("PAL_LLM_RETRIES", "1");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await svc.close();
  await fake.close();
  for (const t of dbs.splice(0)) t.cleanup();
});

async function experiment(config: Record<string, unknown> = {}) {
  const t = tempDb();
  dbs.push(t);
  const { datasetId } = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
  addExternalMethod(
    t.db,
    { name: "mine", url: svc.url },
    ASSISTANTS.map((a) => a.id),
  );
  const { id } = createExperiment(t.db, {
    name: "late",
    datasetId,
    config: { users: ["0000"], methods: [{ name: "mine" }], tasks: ["requirement"], ...config },
  });
  const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 10_000 }) });
  return { db: t.db, id, deps };
}

const callWith = async (apiKey: string, baseUrl: string) =>
  fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ messages: [{ role: "user", content: "after the run" }] }),
  });

describe("the run-scoped key", () => {
  it("serves a method's calls made after it answered while the run runs, in the run's ledger; refuses them (401) once the run stopped", async () => {
    const e = await experiment();
    expect(await runExperiment(e.db, e.id, e.deps, { concurrency: 2 })).toBe("done");
    const late = await svc.lateCalls();
    // One background write per session phase the method was sent, every one served while the run ran.
    expect(late.length).toBe(svc.requests.filter((q) => q.path === "/sessions").length);
    expect(late.length).toBeGreaterThan(2);
    expect(late.map((c) => c.status)).toEqual(late.map(() => 200));
    // In the run's ledger under the method's purpose (a session's build in flight, or the run itself).
    const rows = e.db.$client.prepare(`SELECT c.purpose FROM llm_calls c WHERE ${EXPERIMENT_CALLS}`).all({ id: e.id }) as Array<{
      purpose: string;
    }>;
    const sent = fake.chatRequests.filter((r) => JSON.stringify(r.messages).includes("Background write")).length;
    expect(sent).toBeGreaterThan(0);
    expect(rows.filter((r) => r.purpose === "mine.llm").length).toBeGreaterThanOrEqual(late.length);
    // The run is over: every key it handed out is refused, and nothing reaches the model.
    const llm = svc.requests.find((q) => q.path === "/sessions")!.body!.llm as { baseUrl: string };
    const before = fake.log.length;
    for (const key of new Set(late.map((c) => c.apiKey))) {
      const r = await callWith(key, llm.baseUrl);
      expect(r.status).toBe(401);
      expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/valid only while its run runs/);
    }
    expect(fake.log.length).toBe(before);
  }, 60_000);

  it("counts a late call against the run's spend cap: with the cap reached the run pauses and the key is refused", async () => {
    const e = await experiment({ spendCap: { calls: 2 } });
    expect(await runExperiment(e.db, e.id, e.deps, { concurrency: 1 })).toBe("paused");
    const late = await svc.lateCalls();
    // No late call got past the cap: what was served was within it, the rest was refused (paused: 429, or stopped: 401).
    const paid = e.db.$client
      .prepare(`SELECT count(*) AS n FROM llm_calls c WHERE ${EXPERIMENT_CALLS} AND c.cache_hit = 0 AND c.status = 'ok'`)
      .get({ id: e.id }) as { n: number };
    expect(paid.n).toBeLessThanOrEqual(2);
    expect(late.every((c) => [200, 401, 429].includes(c.status))).toBe(true);
    const llm = svc.requests.find((q) => q.path === "/sessions")!.body!.llm as { baseUrl: string; apiKey: string };
    expect((await callWith(llm.apiKey, llm.baseUrl)).status).toBe(401);
  }, 60_000);
});
