import { describe, expect, it } from "vitest";
import { fakeModelPerTest } from "@/test/fake-model-env";
import { palResponder } from "@/test/h2memory-responder";
import { memoryBuilds, memoryVersions } from "@/db/schema";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { getMemoryBuild, listMemoryBuilds, resumeInterruptedBuilds, startMemoryBuild, type MemoryBuild } from "./build-jobs";
import { datasetByName } from "./sessions";

// 30 ms per call: slow enough to watch the progress move.
const m = fakeModelPerTest(palResponder, { latencyMs: 30 });
const db = (): Promise<Db> => m.palsetDb();

async function until(db: Db, id: number, done: (b: MemoryBuild) => boolean): Promise<MemoryBuild[]> {
  const seen: MemoryBuild[] = [];
  for (let i = 0; i < 600; i++) {
    const b = getMemoryBuild(db, id);
    seen.push(b);
    if (done(b)) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`build ${id} did not finish: ${JSON.stringify(seen.at(-1))}`);
}

describe("background memory builds", () => {
  it("returns at once, records progress session by session, and ends complete for a whole data set", async () => {
    const d = await db();
    const ds = datasetByName(d, "Marked PAL-Set");
    const client = () => ModelClient.create(d, { retryBaseMs: 5, timeoutMs: 2000 });
    const id = startMemoryBuild(d, { datasetId: ds.id, method: "h2memory" }, client);
    const first = getMemoryBuild(d, id);
    expect(first).toMatchObject({ status: "running", sessionsDone: 0, sessionsTotal: 6, users: ["0000", "0001"], method: "h2memory" });
    const seen = await until(d, id, (b) => b.status !== "running");
    expect(seen.at(-1)).toMatchObject({ status: "complete", sessionsDone: 6, sessionsTotal: 6, error: null, current: null });
    // The bar moved through intermediate values, never backwards.
    const dones = seen.map((b) => b.sessionsDone);
    expect(dones.some((n) => n > 0 && n < 6)).toBe(true);
    expect(dones.every((n, i) => i === 0 || n >= dones[i - 1])).toBe(true);
    expect(
      d
        .select()
        .from(memoryVersions)
        .all()
        .map((v) => v.status),
    ).toEqual(["complete", "complete"]);
    expect(listMemoryBuilds(d)[0].id).toBe(id);

    // One user again: nothing left to build, no model call.
    const before = m.fake.chatRequests.length;
    const again = startMemoryBuild(d, { datasetId: ds.id, method: "h2memory", users: ["0000"] }, client);
    const end = (await until(d, again, (b) => b.status !== "running")).at(-1)!;
    expect(end).toMatchObject({ status: "complete", sessionsDone: 3, sessionsTotal: 3 });
    expect(m.fake.chatRequests.length).toBe(before);
  });

  it("refuses an unknown method or user, or the same build twice, and writes nothing for bad input", async () => {
    const d = await db();
    const ds = datasetByName(d, "Marked PAL-Set");
    expect(() => startMemoryBuild(d, { datasetId: ds.id, method: "nope" })).toThrow(/unknown method "nope"/);
    expect(() => startMemoryBuild(d, { datasetId: ds.id, method: "h2memory", users: ["9999"] })).toThrow(/9999/);
    expect(d.select().from(memoryBuilds).all()).toHaveLength(0);
    const id = startMemoryBuild(d, { datasetId: ds.id, method: "h2memory", users: ["0000"] });
    expect(() => startMemoryBuild(d, { datasetId: ds.id, method: "h2memory" })).toThrow(
      new RegExp(`memory build ${id} is already building`),
    );
    await until(d, id, (b) => b.status !== "running");
  });

  it("shows that it waits while another process builds the same memory, then completes", async () => {
    const d = await db();
    const ds = datasetByName(d, "Marked PAL-Set");
    const client = () => ModelClient.create(d, { retryBaseMs: 5, timeoutMs: 2000 });
    const first = startMemoryBuild(d, { datasetId: ds.id, method: "recursum", users: ["0000"] }, client);
    await until(d, first, (b) => b.status !== "running");
    // Another machine's builder now holds the version for a moment (a live lease).
    d.$client
      .prepare("update memory_versions set status = 'building', builder = 'otherhost:4242:abc', lease_until = ? where method = 'recursum'")
      .run(Date.now() + 800);
    const id = startMemoryBuild(d, { datasetId: ds.id, method: "recursum", users: ["0000"] }, client);
    const seen = await until(d, id, (b) => b.status !== "running");
    expect(seen.some((b) => b.current === "0000: waiting for another process building this memory")).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: "complete", current: null });
  });

  it("a build left running by a dead server shows as interrupted", async () => {
    const d = await db();
    const ds = datasetByName(d, "Marked PAL-Set");
    const row = d
      .insert(memoryBuilds)
      .values({ datasetId: ds.id, method: "h2memory", users: ["0000"], status: "running", sessionsTotal: 3, pid: 999_999_999 })
      .returning()
      .get();
    expect(getMemoryBuild(d, row.id).status).toBe("interrupted");
  });

  it("stops at its first call that fails for good when every reply is invalid, pays it once, and building again resumes it", async () => {
    const d = await db();
    const ds = datasetByName(d, "Marked PAL-Set");
    const client = () => ModelClient.create(d, { retryBaseMs: 5, timeoutMs: 2000 });
    m.fake.setResponder(() => "this is not what you asked for");
    const before = m.fake.chatRequests.length;
    const id = startMemoryBuild(d, { datasetId: ds.id, method: "h2memory", users: ["0000"] }, client);
    const end = (await until(d, id, (b) => b.status !== "running")).at(-1)!;
    expect(end.status).toBe("failed");
    expect(end.error).toMatch(/h2memory\.log-graph: no valid reply after 3 tries \(the reply contains no JSON value\)/);
    // The failed call's three tries (the builder's prefetch of that call and the call itself are one
    // request), plus at most the next session's prefetch if it got its slot before the build cancelled
    // the rest: nothing else goes out after the build has stopped.
    await new Promise((r) => setTimeout(r, 500));
    const paid = m.fake.chatRequests.length - before;
    expect(paid).toBeGreaterThanOrEqual(3);
    expect(paid).toBeLessThanOrEqual(6);

    m.fake.setResponder(palResponder);
    const again = startMemoryBuild(d, { datasetId: ds.id, method: "h2memory", users: ["0000"] }, client);
    const done = (await until(d, again, (b) => b.status !== "running")).at(-1)!;
    expect(done).toMatchObject({ status: "complete", sessionsDone: 3, sessionsTotal: 3, error: null });
  });

  it("at server start, resumes an interrupted build unless a later build of the same work took it over", async () => {
    const d = await db();
    const ds = datasetByName(d, "Marked PAL-Set");
    // No pid: these rows belong to a server that is gone.
    const row = (users: string[], status: "running" | "complete") =>
      d
        .insert(memoryBuilds)
        .values({ datasetId: ds.id, method: "h2memory", users, status, pid: null })
        .returning({ id: memoryBuilds.id })
        .get().id;
    const superseded = row(["0000"], "running");
    const takeover = row(["0000"], "complete");
    const alone = row(["0001"], "running");
    const resumed = resumeInterruptedBuilds(d, () => ModelClient.create(d, { retryBaseMs: 5, timeoutMs: 2000 }));
    expect(resumed).toEqual([alone]);
    expect(getMemoryBuild(d, superseded)).toMatchObject({
      status: "failed",
      error: `the server stopped during this build; build #${takeover} took over its work`,
    });
    expect((await until(d, alone, (b) => b.status !== "running")).at(-1)).toMatchObject({ status: "complete" });
  });
});
