/**
 * A server that reports negative (or impossible) token counts cannot beat a dollar spend cap (issue 30.1):
 * its usage is not believed, each such call counts at its worst case against the cap, the ledger holds
 * no negative number, and dry-run estimates never read one. Real SQLite, the fake server over HTTP.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { PALSET_EN } from "@/test/fixtures";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { getExperimentRow } from "./control";
import { experimentResults } from "./results";
import { measuredTokens } from "./dry-run";
import { drainModelRequests, resumeModelRequests } from "@/lib/llm/inflight";

let fake: FakeOpenAI | null = null;
const dbs: Array<ReturnType<typeof tempDb>> = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  fake = null;
  for (const t of dbs.splice(0)) t.cleanup();
});

async function server(usage?: FakeOpenAIOptions["usage"]): Promise<FakeOpenAI> {
  fake = await startFakeOpenAI({ usage });
  fake.setResponder(protocolResponder);
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
    vi.stubEnv(`PAL_MODEL_${k}`, v);
  return fake;
}

const PRICE = { prompt: 1000, completion: 1000 }; // USD per million tokens
async function cappedRun(): Promise<{ db: Db; id: number; status: string }> {
  const t = tempDb();
  dbs.push(t);
  const { datasetId } = await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
  const { id } = createExperiment(t.db, {
    name: "capped",
    datasetId,
    config: {
      users: ["0000"],
      methods: [{ name: "vanilla" }],
      tasks: ["requirement"],
      prices: { assistant: PRICE, "user-simulator": PRICE, judge: PRICE },
      spendCap: { usd: 0.5 },
    },
  });
  const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 10_000 }) });
  const status = await runExperiment(t.db, id, deps, { concurrency: 4 });
  await drainModelRequests();
  resumeModelRequests();
  return { db: t.db, id, status };
}

const negatives = (db: Db) =>
  db.$client
    .prepare(
      "SELECT count(*) AS n FROM llm_calls WHERE prompt_tokens < 0 OR completion_tokens < 0 OR cached_tokens < 0 OR reasoning_tokens < 0",
    )
    .get() as { n: number };

describe("usage the endpoint reports is checked before it counts", () => {
  it("negative counts: the run pauses at the dollar cap as early as with honest ones, and the ledger holds no negative number", async () => {
    const honestServer = await server();
    const honest = await cappedRun();
    expect(honest.status).toBe("paused");
    const honestRequests = honestServer.log.length;
    await honestServer.close();
    fake = null;

    const hostile = await server((u, kind) => (kind === "chat" ? { ...u, prompt_tokens: -1_000_000_000, completion_tokens: -5 } : u));
    const r = await cappedRun();
    expect(r.status).toBe("paused");
    // Each call counts at its worst case (prompt bound + output budget): the cap is reached no later than with honest usage.
    expect(hostile.log.length).toBeGreaterThan(0);
    expect(hostile.log.length).toBeLessThanOrEqual(honestRequests);
    expect(getExperimentRow(r.db, r.id).error).toMatch(/spend cap of \$0.5 was reached .*not believed counted at their worst case/);
    expect(negatives(r.db).n).toBe(0);
    const rows = r.db.$client.prepare("SELECT usage_unknown AS u, error FROM llm_calls WHERE cache_hit = 0").all() as Array<{
      u: number;
      error: string | null;
    }>;
    expect(rows.length).toBe(hostile.log.length);
    for (const row of rows) {
      expect(row.u).toBe(1);
      expect(row.error).toMatch(/usage not believed: prompt_tokens -1000000000 is not a count/);
    }
    const res = experimentResults(r.db, r.id);
    expect(res.ledger.usageUnknown).toBe(rows.length);
    expect(res.ledger.promptTokens).toBeGreaterThanOrEqual(0);
    expect(res.ledger.cost).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it("counts that are not integers, or far above the request's size, are not believed either", async () => {
    for (const usage of [
      (u: Record<string, unknown>) => ({ ...u, prompt_tokens: "12" }),
      (u: Record<string, unknown>) => ({ ...u, prompt_tokens: 0.25 }),
      (u: Record<string, unknown>) => ({ ...u, completion_tokens: 50_000_000 }),
      () => undefined,
    ]) {
      const s = await server(usage);
      const r = await cappedRun();
      expect(r.status).toBe("paused");
      const unknown = r.db.$client.prepare("SELECT count(*) AS n, sum(usage_unknown) AS u FROM llm_calls WHERE cache_hit = 0").get() as {
        n: number;
        u: number;
      };
      expect(unknown.u).toBe(unknown.n);
      expect(s.log.length).toBeLessThan(10);
      await s.close();
      fake = null;
    }
  }, 120_000);

  it("dry-run estimates never read a negative sum (a ledger from before the check)", () => {
    const t = tempDb();
    dbs.push(t);
    const insert = t.db.$client.prepare(
      `INSERT INTO llm_calls (purpose, role, config, endpoint, model, cache_hit, replicate, attempt, status, prompt_tokens, completion_tokens)
       VALUES ('x', 'assistant', 'assistant', 'http://e', 'm', 0, 0, 1, 'ok', ?, ?)`,
    );
    for (let i = 0; i < 25; i++) insert.run(-1_000_000_000, -5);
    for (let i = 0; i < 25; i++) insert.run(100, 20);
    const basis = measuredTokens(t.db);
    expect(basis.assistant.prompt).toBeGreaterThanOrEqual(0);
    expect(basis.assistant.completion).toBeGreaterThanOrEqual(0);
  });
});
