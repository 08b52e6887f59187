/**
 * claims.ts: an identical request in flight shared across processes (issue 35). A real second process
 * (test/endpoint-calls-worker.ts) and this one on the same SQLite file, both talking over HTTP to the
 * fake OpenAI-compatible server (TEST DOUBLE), which holds its reply so the two overlap.
 */
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ask, llmClientPerTest } from "@/test/llm-client-env";
import { awaitClaim, CLAIM_LEASE_MS, releaseClaim, tryClaim } from "./claims";

const env = llmClientPerTest();

/** A second process sending `n` calls "<label> i" on this test's database; its exit code and output. */
function otherProcess(label: string): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "test/endpoint-calls-worker.ts", "1", label], {
    cwd: path.resolve(__dirname, "../.."),
    env: { ...process.env, PAL_DB: env.file },
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (err += d));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, out, err })),
  );
  return { child, done };
}

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const claimRows = () => env.db.$client.prepare("SELECT key, owner FROM llm_claims").all();

describe("identical requests in flight across processes", () => {
  it("two processes sending the same request at once: the endpoint gets it once, both get its answer, one paid row and one hit", async () => {
    env.fake.setResponder(() => ({ content: "the shared answer", delayMs: 1500 }));
    const other = otherProcess("same");
    // This process asks once the other's request has reached the endpoint (whose reply it holds).
    await until("the other process's request", () => env.fake.chatRequests.length === 1);
    const mine = await env.client().chat({ messages: ask("same 0"), purpose: "test.worker" });
    const r = await other.done;
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(env.fake.chatRequests).toHaveLength(1);
    expect(mine).toMatchObject({ value: "the shared answer", cacheHit: true });
    const rows = env.ledger();
    expect(rows.map((x) => [x.cacheHit, x.status, x.cacheKey])).toEqual([
      [false, "ok", mine.cacheKey],
      [true, "ok", mine.cacheKey],
    ]);
    expect(rows[1].error).toBe("shared with another process's identical call");
    // The paid row carries the tokens; the hit costs none.
    expect(rows[0].promptTokens).toBeGreaterThan(0);
    expect(rows[1].promptTokens).toBe(0);
    expect(claimRows()).toEqual([]);
  }, 90_000);

  it("the owner dies mid-request: the waiting process takes the claim over and gets its answer", async () => {
    // The first request never gets an answer; the one after it does.
    env.fake.setResponder((_req, i) => (i === 0 ? { kind: "hang" } : "answered after the takeover"));
    const other = otherProcess("orphan");
    await until("the other process's request", () => env.fake.chatRequests.length === 1);
    expect(claimRows()).toHaveLength(1);
    const mine = env.client({ timeoutMs: 20_000 }).chat({ messages: ask("orphan 0"), purpose: "test.worker" });
    await new Promise((r) => setTimeout(r, 300));
    // Still waiting for the other process: nothing sent by this one.
    expect(env.fake.chatRequests).toHaveLength(1);
    other.child.kill("SIGKILL");
    await expect(mine).resolves.toMatchObject({ value: "answered after the takeover", cacheHit: false });
    expect(env.fake.chatRequests).toHaveLength(2);
    expect(env.ledger().map((x) => [x.cacheHit, x.status])).toEqual([[false, "ok"]]);
    expect(claimRows()).toEqual([]);
    await other.done;
  }, 90_000);

  it("a failed request gives its claim back: the waiter sends the request itself", async () => {
    const db = env.db;
    expect(tryClaim(db, "k1")).toBe(true);
    expect(tryClaim(db, "k1")).toBe(false);
    const waiting = awaitClaim(db, "k1");
    await new Promise((r) => setTimeout(r, 50));
    releaseClaim(db, "k1"); // the owner's request failed: no reply
    // Released by one call of this process, taken by the waiting one: the claim is its own now.
    await expect(waiting).resolves.toBe("mine");
    releaseClaim(db, "k1");
    expect(claimRows()).toEqual([]);
  });

  it("a claim whose owner stopped renewing it is taken over after the lease", async () => {
    const db = env.db;
    // Held by a process of another machine that went silent.
    db.$client.prepare("INSERT INTO llm_claims (key, owner, lease_until) VALUES ('k2', 'elsewhere:1:x', ?)").run(Date.now() - 1);
    await expect(awaitClaim(db, "k2")).resolves.toBe("mine");
    releaseClaim(db, "k2");
    db.$client
      .prepare("INSERT INTO llm_claims (key, owner, lease_until) VALUES ('k3', 'elsewhere:1:x', ?)")
      .run(Date.now() + CLAIM_LEASE_MS);
    const waiting = awaitClaim(db, "k3");
    const r = await Promise.race([waiting, new Promise((res) => setTimeout(() => res("still waiting"), 300))]);
    expect(r).toBe("still waiting");
    db.$client.prepare("DELETE FROM llm_claims WHERE key = 'k3'").run();
    await expect(waiting).resolves.toBe("mine");
    releaseClaim(db, "k3");
  });
});
