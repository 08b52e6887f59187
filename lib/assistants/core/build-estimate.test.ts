import { fakeModelPerTest } from "@/test/fake-model-env";
/**
 * The dry run's memory-building estimate against real builds: the demo PAL-Set, the real builder,
 * model client and store, and the fake OpenAI server (TEST DOUBLE) answering every step. Exact
 * methods must predict the paid calls of the ledger exactly, H2Memory's bounds must hold, and a
 * built memory costs nothing.
 */
import { describe, expect, it } from "vitest";
import { palResponder } from "@/test/h2memory-responder";
import type { Db } from "@/db/client";
import { demoDatasets } from "@/lib/demo/seed";
import { ModelClient } from "@/lib/llm/client";
import { buildMemory } from "./build";
import { estimateMemoryBuild } from "./build-estimate";
import { datasetByName, listUserKeys, loadSessions } from "./sessions";
import { ASSISTANTS, getAssistant } from "../registry";
import { h2memoryPlan } from "../h2memory/calls";
import { showMemory } from "@/lib/memory/show";

const m = fakeModelPerTest(palResponder);
const NAME = "PAL-Set demo (en)";

async function demoDb(name = NAME): Promise<Db> {
  const t = m.db();
  await demoDatasets()
    .find((d) => d.name === name)!
    .run(t.db);
  return t.db;
}

/** The paid (non-cached, accepted) calls the ledger holds for these memory versions, by role. */
function paid(db: Db, versionIds: number[]): Record<string, number> {
  const rows = db.$client
    .prepare(
      `select role, count(*) as n from llm_calls where status = 'ok' and cache_hit = 0
       and memory_version_id in (${versionIds.map(() => "?").join(",")}) group by role`,
    )
    .all(...versionIds) as Array<{ role: string; n: number }>;
  return Object.fromEntries(rows.map((r) => [r.role, r.n]));
}

async function estimateThenBuild(method: string, users?: string[], name = NAME) {
  const db = await demoDb(name);
  const dataset = datasetByName(db, name);
  const llm = ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500 });
  const keys = users ?? listUserKeys(db, dataset);
  const requests = m.fake.chatRequests.length;
  const before = estimateMemoryBuild(db, { dataset, method, users: keys, llm });
  expect(m.fake.chatRequests.length).toBe(requests); // estimating calls no model
  const results = await buildMemory(db, { dataset, method, users: keys, llm });
  expect(results.every((r) => r.status === "complete")).toBe(true);
  const actual = paid(
    db,
    results.map((r) => r.versionId),
  );
  const after = estimateMemoryBuild(db, { dataset, method, users: keys, llm });
  return { db, dataset, keys, before, actual, after, results };
}

describe("memory-build estimate (dry run) against real builds", () => {
  it("vanilla and turn-rag: no build calls, exactly", async () => {
    for (const method of ["vanilla", "turn-rag"]) {
      const { before, actual, keys } = await estimateThenBuild(method);
      expect(before).toMatchObject({ method, users: keys.length, usersBuilt: 0, calls: {}, exact: true, note: null });
      expect(actual).toEqual({});
    }
  });

  it("recursum and memorybank: the estimate is the ledger's paid calls exactly; 0 once built", async () => {
    for (const method of ["recursum", "memorybank"]) {
      const { before, actual, after, keys, db, dataset } = await estimateThenBuild(method);
      expect(before.exact).toBe(true);
      expect(actual.assistant).toBeGreaterThan(0);
      expect(before.calls).toEqual({ assistant: { min: actual.assistant, max: actual.assistant } });
      // By hand: recursum one call per session with dialogue and one per session with logs; memorybank 4 per dialogue.
      const sessions = keys.flatMap((u) => loadSessions(db, dataset, u));
      const expected =
        method === "recursum"
          ? sessions.filter((s) => s.dialogue.length).length + sessions.filter((s) => s.logs.length).length
          : 4 * sessions.filter((s) => s.dialogue.length).length;
      expect(actual.assistant).toBe(expected);
      expect(after).toMatchObject({ usersBuilt: keys.length, calls: {}, exact: true });
    }
  });

  it("ld-agent: exact (persona calls and the short-term cache's flushes)", async () => {
    const { before, actual } = await estimateThenBuild("ld-agent");
    expect(before.exact).toBe(true);
    expect(actual.assistant).toBeGreaterThan(0);
    expect(before.calls).toEqual({ assistant: { min: actual.assistant, max: actual.assistant } });
  });

  it("every method that calls a model while building states its estimate", () => {
    for (const a of ASSISTANTS) if (a.buildRoles.length) expect(a.estimateBuild, a.id).toBeTypeOf("function");
  });

  it("conditionmem: exact decisions, bounded records; the actual count lies within", async () => {
    const { before, actual, db, dataset, keys } = await estimateThenBuild("conditionmem");
    const inputs = keys.flatMap((u) => loadSessions(db, dataset, u)).reduce((n, s) => n + s.dialogue.length, 0);
    expect(before.calls).toEqual({ assistant: { min: inputs, max: 2 * inputs } });
    expect(before.exact).toBe(false);
    expect(before.note).toMatch(/decisions/);
    expect(actual.assistant).toBeGreaterThan(inputs);
    expect(actual.assistant).toBeLessThan(2 * inputs);
  });

  it("h2memory on the demo data: the bounds hold for an actual build; 0 once built", async () => {
    const { before, actual, after, keys, db, dataset, results } = await estimateThenBuild("h2memory");
    expect(before.exact).toBe(false);
    expect(before.note).toMatch(/exact:.*at most/);
    const a = before.calls!.assistant!;
    const e = before.calls!.embedding!;
    expect(a.min).toBeGreaterThan(0);
    expect(a.min).toBeLessThan(a.max);
    expect(actual.assistant).toBeGreaterThanOrEqual(a.min);
    expect(actual.assistant).toBeLessThanOrEqual(a.max);
    expect(actual.embedding ?? 0).toBeGreaterThanOrEqual(e.min);
    expect(actual.embedding ?? 0).toBeLessThanOrEqual(e.max);
    expect(after).toMatchObject({ usersBuilt: keys.length, calls: {} });
    // The after-the-fact count (the build benchmark's plan, same per-session formula) is the ledger's exactly.
    const plan = h2memoryPlan({ graph: true, background: true, topic: true, principle: true });
    const implied = results.reduce((n, r) => n + plan(loadSessions(db, dataset, r.userKey), showMemory(db, r.versionId)).calls, 0);
    expect(implied).toBe(actual.assistant + (actual.embedding ?? 0));
  });

  it("h2memory on the HiCUPID demo (dialogue-only): the bounds hold", async () => {
    const { before, actual } = await estimateThenBuild("h2memory", undefined, "HiCUPID demo");
    const a = before.calls!.assistant!;
    expect(before.calls!.embedding).toEqual({ min: 0, max: 0 });
    expect(actual.embedding ?? 0).toBe(0);
    expect(actual.assistant).toBeGreaterThanOrEqual(a.min);
    expect(actual.assistant).toBeLessThanOrEqual(a.max);
    expect(a.min).toBeGreaterThan(0);
  });

  it("a partly built memory is estimated over the sessions still to build", async () => {
    const db = await demoDb();
    const dataset = datasetByName(db, NAME);
    const llm = ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500 });
    const [user] = listUserKeys(db, dataset);
    const sessions = loadSessions(db, dataset, user);
    const full = estimateMemoryBuild(db, { dataset, method: "recursum", users: [user], llm });
    const r = await buildMemory(db, { dataset, method: "recursum", users: [user], llm });
    // Forget the last two sessions' steps, as if the build had stopped there.
    const last = sessions.slice(-2).map((s) => s.seq);
    db.$client.prepare(`delete from memory_steps where version_id = ? and seq in (${last.join(",")})`).run(r[0].versionId);
    db.$client.prepare("update memory_versions set status = 'failed' where id = ?").run(r[0].versionId);
    const rest = estimateMemoryBuild(db, { dataset, method: "recursum", users: [user], llm });
    const a = getAssistant("recursum");
    const expected = a.estimateBuild!(sessions.slice(-2), { options: {}, datasetKind: "palset", retrieverKind: "bm25", done: new Set() });
    expect(rest.calls).toEqual(expected.calls);
    expect(rest.calls!.assistant!.max).toBeLessThan(full.calls!.assistant!.max);
    expect(rest.calls!.assistant!.max).toBeGreaterThan(0);
  });
});
