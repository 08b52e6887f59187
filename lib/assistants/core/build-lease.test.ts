/**
 * One builder per memory version (lib/memory/lease.ts), against the fake OpenAI server (TEST DOUBLE)
 * with latency so builds overlap: two connections building the same user at once, two real `pal
 * memory build` processes on one database file, a live foreign lease (waited for), and an expired or
 * dead-local one (taken over). Each time the memory is built once: no model call twice in the ledger
 * or at the server, the same entries as a build alone.
 */
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelPerTest } from "@/test/fake-model-env";
import { palResponder } from "@/test/h2memory-responder";
import { openDb, projectRoot, type Db } from "@/db/client";
import { demoDatasets } from "@/lib/demo/seed";
import { ModelClient } from "@/lib/llm/client";
import { showMemory } from "@/lib/memory/show";
import { buildMemory, type BuildProgress } from "./build";
import { datasetByName, loadSessions } from "./sessions";
import { getAssistant } from "../registry";

const NAME = "PAL-Set demo (en)";
const USER = "0000";
const METHOD = "recursum";

const m = fakeModelPerTest(palResponder, { latencyMs: 40 });

async function demoDb(): Promise<{ db: Db; file: string }> {
  const t = m.db();
  await demoDatasets()
    .find((d) => d.name === NAME)!
    .run(t.db);
  return t;
}

const client = (db: Db) => ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 5000 });
const build = (db: Db, onProgress?: (p: BuildProgress) => void) =>
  buildMemory(db, { dataset: datasetByName(db, NAME), method: METHOD, users: [USER], llm: client(db), lease: { pollMs: 20 }, onProgress });

/** The calls one build of the user makes (the method's exact estimate). */
function expectedCalls(db: Db): number {
  const sessions = loadSessions(db, datasetByName(db, NAME), USER);
  const e = getAssistant(METHOD).estimateBuild!(sessions, { options: {}, datasetKind: "palset", retrieverKind: "bm25", done: new Set() });
  return e.calls.assistant!.max;
}

/** The version's ledger: rows, paid rows, distinct cache keys. */
function ledger(db: Db, versionId: number) {
  const rows = db.$client
    .prepare("select cache_key as k, cache_hit as hit, status from llm_calls where memory_version_id = ?")
    .all(versionId) as Array<{
    k: string;
    hit: number;
    status: string;
  }>;
  return { rows: rows.length, paid: rows.filter((r) => !r.hit).length, keys: new Set(rows.map((r) => r.k)).size };
}

/** Entries as comparable values (what, under which key, from which session on). */
const entriesOf = (db: Db, versionId: number) =>
  showMemory(db, versionId)
    .map((e) => JSON.stringify([e.kind, e.key, e.validFromSeq, e.validToSeq, e.content]))
    .sort();

/** A build alone, on its own database, for comparison. */
async function referenceEntries(): Promise<string[]> {
  const { db } = await demoDb();
  const [r] = await build(db);
  return entriesOf(db, r.versionId);
}

describe("memory version lease", () => {
  it("two connections building the same user at once: one builds, the other waits and finds it built", async () => {
    const { db, file } = await demoDb();
    const db2 = openDb(file);
    m.onCleanup(() => db2.$client.close());
    const n = expectedCalls(db);
    const events: Array<{ who: number; p: BuildProgress }> = [];
    const [[a], [b]] = await Promise.all([build(db, (p) => events.push({ who: 1, p })), build(db2, (p) => events.push({ who: 2, p }))]);
    expect(a.status).toBe("complete");
    expect(b.status).toBe("complete");
    expect(a.versionId).toBe(b.versionId);
    // Exactly one waited, and it built nothing.
    const waited = events.filter((e) => e.p.status === "waiting").map((e) => e.who);
    expect(waited).toHaveLength(1);
    expect([a, b][waited[0] - 1].built).toBe(0);
    expect(a.built + b.built).toBe(loadSessions(db, datasetByName(db, NAME), USER).length);
    // Each call once: at the server and in the ledger (no cache hit either: the waiting one asked nothing).
    expect(m.fake.chatRequests.length).toBe(n);
    expect(ledger(db, a.versionId)).toEqual({ rows: n, paid: n, keys: n });
    const lease = db.$client.prepare("select builder, lease_until as until from memory_versions where id = ?").get(a.versionId);
    expect(lease).toEqual({ builder: null, until: null });
    const requests = m.fake.chatRequests.length;
    expect(entriesOf(db, a.versionId)).toEqual(await referenceEntries());
    expect(m.fake.chatRequests.length - requests).toBe(n); // the reference build, on its own database
  });

  it("waits for a live lease of another machine's builder, and takes over one that expired or whose local process is gone", async () => {
    const { db } = await demoDb();
    const n = expectedCalls(db);
    const [first] = await build(db);
    const v = first.versionId;
    const before = entriesOf(db, v);
    // A crash in the middle of the last session: its step left "building", the version too, a lease held.
    const crash = (builder: string, leaseUntil: number) => {
      db.$client
        .prepare(
          "update memory_steps set status = 'building' where version_id = ? and seq = (select max(seq) from memory_steps where version_id = ?)",
        )
        .run(v, v);
      db.$client
        .prepare("update memory_versions set status = 'building', builder = ?, lease_until = ? where id = ?")
        .run(builder, leaseUntil, v);
    };

    // Live lease of another machine: nothing happens until it runs out, then the step is redone.
    crash("otherhost:4242:abc", Date.now() + 600);
    const t0 = Date.now();
    const waits: BuildProgress[] = [];
    const [r1] = await build(db, (p) => p.status === "waiting" && waits.push(p));
    expect(waits).toHaveLength(1);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
    expect(r1).toMatchObject({ status: "complete", built: 1 });

    // A lease whose holder was a process of this machine that is gone: taken over at once, not after its minute.
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    crash(`${os.hostname()}:${dead}:xyz`, Date.now() + 60_000);
    const t1 = Date.now();
    const [r2] = await build(db);
    expect(Date.now() - t1).toBeLessThan(5_000);
    expect(r2).toMatchObject({ status: "complete", built: 1 });

    // The redone sessions came from the model cache: nothing paid twice, and the memory is what it was.
    expect(m.fake.chatRequests.length).toBe(n);
    expect(ledger(db, v).paid).toBe(n);
    expect(entriesOf(db, v)).toEqual(before);
  });

  it("a user whose memory another builder holds gives its slot back: the other users build meanwhile", async () => {
    const { db } = await demoDb();
    const [first] = await build(db);
    db.$client
      .prepare("update memory_versions set builder = 'otherhost:4242:abc', lease_until = ? where id = ?")
      .run(Date.now() + 3000, first.versionId);
    const t0 = Date.now();
    const doneAt: Record<string, number> = {};
    const r = await buildMemory(db, {
      dataset: datasetByName(db, NAME),
      method: METHOD,
      users: [USER, "0001"],
      llm: client(db),
      lease: { pollMs: 20 },
      parallelUsers: 1,
      onProgress: (p) => {
        if (p.status === "complete") doneAt[p.userKey] = Date.now() - t0;
      },
    });
    expect(r.map((x) => x.status)).toEqual(["complete", "complete"]);
    // One slot: 0001 was built while 0000 waited for the other builder, not after it.
    expect(doneAt["0001"]).toBeLessThan(2900);
    expect(doneAt[USER]).toBeGreaterThanOrEqual(2900);
  });

  it("two real `pal memory build` processes on one database build the user's memory once", async () => {
    const { db, file } = await demoDb();
    const n = expectedCalls(db);
    const bin = path.join(projectRoot(), "bin", "pal.mjs");
    const env = {
      ...process.env,
      PAL_DB: file,
      OPENAI_BASE_URL: m.fake.baseURL,
      OPENAI_API_KEY: "test-key",
      PAL_MODEL_ASSISTANT: "fake-assistant",
      PAL_MODEL_EMBEDDING: "fake-embedding",
    };
    // Build the CLI bundle once, so the two processes start together instead of both compiling it.
    expect(spawnSync(process.execPath, [bin, "memory", "methods"], { env, encoding: "utf8" }).status).toBe(0);
    const run = () =>
      new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
        const p = spawn(process.execPath, [bin, "memory", "build", "--dataset", NAME, "--method", METHOD, "--users", USER, "--json"], {
          env,
        });
        let stderr = "";
        let stdout = "";
        p.stderr.on("data", (d) => (stderr += d));
        p.stdout.on("data", (d) => (stdout += d));
        p.on("close", (code) => resolve({ code, stderr, stdout }));
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    // One process built; the other waited for it (and then found every session built).
    expect([a, b].filter((r) => r.stderr.includes("waiting for another process building this memory"))).toHaveLength(1);
    expect(m.fake.chatRequests.length).toBe(n);
    const v = db.$client.prepare("select id from memory_versions where user_key = ? and method = ?").get(USER, METHOD) as { id: number };
    expect(ledger(db, v.id)).toEqual({ rows: n, paid: n, keys: n });
    expect(entriesOf(db, v.id)).toEqual(await referenceEntries());
  }, 60_000);
});
