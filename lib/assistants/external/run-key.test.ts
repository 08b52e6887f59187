/**
 * Issue 41's run-scoped key: a method that calls the model after it answered (as Mem0 writes in the
 * background) is served while the experiment runs, its calls in the run's ledger and under its spend cap,
 * and refused (401) once the run has stopped. A real HTTP method server (TEST DOUBLE of a lab's method),
 * the real model client against the fake OpenAI server, a real SQLite database.
 */
import { describe, expect, it } from "vitest";
import { externalRunEnv } from "@/test/external-run";
import { runExperiment } from "@/lib/experiments/worker";
import { EXPERIMENT_CALLS } from "@/lib/experiments/experiment-calls";

const env = externalRunEnv("late");

const callWith = async (apiKey: string, baseUrl: string) =>
  fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ messages: [{ role: "user", content: "after the run" }] }),
  });

describe("the run-scoped key", () => {
  it("serves a method's calls made after it answered while the run runs, in the run's ledger; refuses them (401) once the run stopped", async () => {
    const e = await env.experiment();
    expect(await runExperiment(e.db, e.id, e.deps, { concurrency: 2 })).toBe("done");
    const late = await env.svc.lateCalls();
    // One background write per session phase the method was sent, every one served while the run ran.
    expect(late.length).toBe(env.svc.requests.filter((q) => q.path === "/sessions").length);
    expect(late.length).toBeGreaterThan(2);
    expect(late.map((c) => c.status)).toEqual(late.map(() => 200));
    // In the run's ledger under the method's purpose (a session's build in flight, or the run itself).
    const rows = e.db.$client.prepare(`SELECT c.purpose FROM llm_calls c WHERE ${EXPERIMENT_CALLS}`).all({ id: e.id }) as Array<{
      purpose: string;
    }>;
    const sent = env.fake.chatRequests.filter((r) => JSON.stringify(r.messages).includes("Background write")).length;
    expect(sent).toBeGreaterThan(0);
    expect(rows.filter((r) => r.purpose === "mine.llm").length).toBeGreaterThanOrEqual(late.length);
    // The run is over: every key it handed out is refused, and nothing reaches the model.
    const llm = env.svc.requests.find((q) => q.path === "/sessions")!.body!.llm as { baseUrl: string };
    const before = env.fake.log.length;
    for (const key of new Set(late.map((c) => c.apiKey))) {
      const r = await callWith(key, llm.baseUrl);
      expect(r.status).toBe(401);
      expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/valid only while its run runs/);
    }
    expect(env.fake.log.length).toBe(before);
  }, 60_000);

  it("counts a late call against the run's spend cap: with the cap reached the run pauses and the key is refused", async () => {
    const e = await env.experiment({ spendCap: { calls: 2 } });
    expect(await runExperiment(e.db, e.id, e.deps, { concurrency: 1 })).toBe("paused");
    const late = await env.svc.lateCalls();
    // No late call got past the cap: what was served was within it, the rest was refused (paused: 429, or stopped: 401).
    const paid = e.db.$client
      .prepare(`SELECT count(*) AS n FROM llm_calls c WHERE ${EXPERIMENT_CALLS} AND c.cache_hit = 0 AND c.status = 'ok'`)
      .get({ id: e.id }) as { n: number };
    expect(paid.n).toBeLessThanOrEqual(2);
    expect(late.every((c) => [200, 401, 429].includes(c.status))).toBe(true);
    const llm = env.svc.requests.find((q) => q.path === "/sessions")!.body!.llm as { baseUrl: string; apiKey: string };
    expect((await callWith(llm.apiKey, llm.baseUrl)).status).toBe(401);
  }, 60_000);
});
