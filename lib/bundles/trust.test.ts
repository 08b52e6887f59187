/**
 * A bundle is a stranger's file (issue 40): an imported run never runs itself and a resume keeps to the
 * launch limits; a bundle's replies never answer this lab's own requests; the identity of an import is its
 * content, not the runUid the file claims; only the users a mark names become accounts. Real SQLite
 * files, the real import, the server's real worker and preparer, the TEST DOUBLE endpoint.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { protocolResponder } from "@/test/protocol-responder";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { createUser } from "@/lib/users/users";
import { ModelClient } from "@/lib/llm/client";
import { hashOf } from "@/lib/llm/hash";
import { bindDeps } from "@/lib/experiments/deps";
import { createExperiment } from "@/lib/experiments/create";
import { runExperiment } from "@/lib/experiments/worker";
import { controlExperiment } from "@/lib/experiments/service";
import { getExperimentRow, resumeExperiment } from "@/lib/experiments/control";
import { setExperimentLimits, LIMIT_DEFAULTS } from "@/lib/experiments/limits";
import { startServerWorker, stopPreparer, stopServerWorker } from "@/lib/experiments/server-worker";
import { readCacheChunks, replyDigest, rewriteCacheChunks } from "./cache-chunks";
import { exportBundle } from "./export";
import { importBundle, MAX_MARK_AUTHORS } from "./import";
import { verifyBundle } from "./verify";

const CONFIG = { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: ["0000"], repeats: 1 };
const PLANTED = "PLANTED reply from a bundle";

describe("a bundle is a stranger's file", () => {
  let fake: FakeOpenAI;
  const src = tempDb();
  const dir = fs.mkdtempSync(path.join(path.dirname(src.file), "trust-"));
  const file = path.join(dir, "genuine.palbundle");
  let sourceId = 0;
  const dbs: Array<ReturnType<typeof tempDb>> = [];
  const clientOf = (db: typeof src.db) => ModelClient.create(db, { retryBaseMs: 5, retries: 0 });

  /** A database of this lab holding the same data set ("en"). */
  async function lab() {
    const t = tempDb();
    dbs.push(t);
    await importPalset(t.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    return t;
  }
  /** A copy of the genuine bundle changed by `edit`. */
  function edited(name: string, edit: (b: Database.Database) => void): string {
    const f = path.join(dir, name);
    fs.copyFileSync(file, f);
    const b = new Database(f);
    edit(b);
    b.close();
    return f;
  }
  const count = (db: typeof src.db, sql: string, ...args: unknown[]) =>
    db.$client
      .prepare(sql)
      .pluck()
      .get(...args) as number;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.setResponder(experimentReplies());
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "test");
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    const { datasetId } = await importPalset(src.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    sourceId = createExperiment(src.db, { name: "the genuine run", datasetId, config: CONFIG }).id;
    expect(await runExperiment(src.db, sourceId, bindDeps(src.db, { client: clientOf(src.db) }))).toBe("done");
    const author = await createUser(src.db, {
      email: "m@lab.example",
      name: "Mara Marker",
      role: "researcher",
      password: "a-long-password-1",
    });
    const job = src.db.$client.prepare("SELECT task, item_key AS item FROM jobs WHERE experiment_id = ? LIMIT 1").get(sourceId) as {
      task: string;
      item: string;
    };
    src.db.$client
      .prepare(
        "INSERT INTO case_marks (experiment_id, task, item_key, block, start, end, quote, colour, user_id) VALUES (?, ?, ?, 'info:x', 0, 4, 'abcd', 'need', ?)",
      )
      .run(sourceId, job.task, job.item, author.id);
    exportBundle(src.db, sourceId, file);
  }, 120_000);

  afterAll(async () => {
    stopServerWorker();
    stopPreparer();
    vi.unstubAllEnvs();
    await fake.close();
    for (const t of dbs) t.cleanup();
    src.cleanup();
  });

  it("item 1: a queued/running/preparing run of repeats 20 arrives paused; the server runs nothing; resume is refused past the limits", async () => {
    const running = edited("running.palbundle", (b) => {
      b.prepare("UPDATE experiments SET status = 'running', config = json_set(config, '$.repeats', 20)").run();
      b.prepare(
        "UPDATE jobs SET status = CASE WHEN id % 2 = 0 THEN 'running' ELSE 'queued' END, output = NULL, worker = 'x', lease_until = 9e15",
      ).run();
    });
    const preparing = edited("preparing.palbundle", (b) => {
      b.prepare("UPDATE experiments SET status = 'preparing', planned_jobs = 100000, config = json_set(config, '$.repeats', 20)").run();
      b.prepare("DELETE FROM jobs").run();
    });
    const t = await lab();
    const a = importBundle(t.db, running);
    const p = importBundle(t.db, preparing);
    for (const [r, was] of [
      [a, "running"],
      [p, "preparing"],
    ] as const) {
      expect(getExperimentRow(t.db, r.experimentId).status).toBe("paused");
      expect(t.db.$client.prepare("SELECT source_status FROM experiment_imports WHERE experiment_id = ?").pluck().get(r.experimentId)).toBe(
        was,
      );
    }
    // No job is held by a worker: the bundle's "running" ones wait in the queue.
    expect(
      count(t.db, "SELECT count(*) FROM jobs WHERE experiment_id = ? AND (status = 'running' OR worker IS NOT NULL)", a.experimentId),
    ).toBe(0);
    const jobsBefore = count(t.db, "SELECT count(*) FROM jobs");
    expect(jobsBefore).toBeGreaterThan(0);

    // The server's worker and preparer, pointed at the endpoint, pass over both many times.
    const sent = fake.log.length;
    startServerWorker(t.db, () => bindDeps(t.db, { client: clientOf(t.db) }), { idleMs: 10 });
    await new Promise((r) => setTimeout(r, 600));
    stopServerWorker();
    stopPreparer();
    expect(fake.log.length).toBe(sent);
    expect(count(t.db, "SELECT count(*) FROM jobs")).toBe(jobsBefore);
    expect(count(t.db, "SELECT count(*) FROM jobs WHERE status <> 'queued' AND experiment_id = ?", a.experimentId)).toBe(0);

    // Resume (the page's, and pal run --resume's) is a launch: repeats 20 is over the default limit of 5.
    for (const r of [a, p]) {
      await expect(controlExperiment(t.db, r.experimentId, { action: "resume" })).rejects.toThrow(
        /config\.repeats: 20 repeats, over the limit of 5/,
      );
      expect(getExperimentRow(t.db, r.experimentId).status).toBe("paused");
    }
    expect(count(t.db, "SELECT count(*) FROM jobs")).toBe(jobsBefore);
    expect(fake.log.length).toBe(sent);
    // The jobs it would hold count as a launch's: over a jobs limit, refused naming the number.
    setExperimentLimits(t.db, { ...LIMIT_DEFAULTS, maxRepeats: 20, maxJobs: 2 }, null);
    expect(() => resumeExperiment(t.db, a.experimentId)).toThrow(
      /this launch would create [\d,]+ jobs .*over the limit of 2 jobs per launch/,
    );
    expect(getExperimentRow(t.db, a.experimentId).status).toBe("paused");
    // Within raised limits it resumes; `pal run --over-limit` skips them as it does for a launch.
    setExperimentLimits(t.db, { ...LIMIT_DEFAULTS, maxRepeats: 20 }, null);
    resumeExperiment(t.db, a.experimentId);
    expect(getExperimentRow(t.db, a.experimentId).status).not.toBe("paused");
    setExperimentLimits(t.db, LIMIT_DEFAULTS, null);
    resumeExperiment(t.db, p.experimentId, { limits: "override" });
    expect(getExperimentRow(t.db, p.experimentId).status).toBe("preparing");
  }, 60_000);

  it("item 4: a bundle's replies never answer this lab's own run (it sends to the endpoint); they serve its export and replay", async () => {
    // A planted reply under the key the lab's own request will hash to, its digest forged to match.
    let plantedKey = "";
    const poisoned = edited("poisoned.palbundle", (b) => {
      const key = b
        .prepare("SELECT cache_key FROM llm_calls WHERE role = 'assistant' AND cache_key IS NOT NULL LIMIT 1")
        .pluck()
        .get() as string;
      plantedKey = key;
      rewriteCacheChunks(b, "main", (rows) => rows.map((r) => (r.key === key ? { ...r, response: PLANTED } : r)));
      const row = [...readCacheChunks(b, "main", "bundle")].flat().find((r) => r.key === key)!;
      b.prepare("UPDATE pal_bundle_replies SET digest = ? WHERE key = ?").run(replyDigest(row), key);
      // And a planted vector, under the key of a text the lab's retrieval would embed.
      b.prepare("INSERT INTO embedding_cache (key, model, dimensions, vector) VALUES (?, 'embed-model', 2, ?)").run(
        hashOf({ endpoint: fake.baseURL, model: "embed-model", text: "I like tea" }),
        Buffer.from(new Float32Array([1, 0]).buffer),
      );
    });
    const victim = await lab();
    const im = importBundle(victim.db, poisoned);
    expect(im.rows.llm_cache).toBeGreaterThan(0);
    expect(count(victim.db, "SELECT count(*) FROM llm_cache")).toBe(0);
    expect(count(victim.db, "SELECT count(*) FROM embedding_cache")).toBe(0);
    expect(count(victim.db, "SELECT count(*) FROM bundle_vectors WHERE experiment_id = ?", im.experimentId)).toBe(1);
    expect(count(victim.db, "SELECT count(*) FROM bundle_replies WHERE experiment_id = ?", im.experimentId)).toBe(im.rows.llm_cache);

    // The victim's own run of the same config: every request goes to the endpoint, none reads the planted reply.
    const datasetId = count(victim.db, "SELECT id FROM datasets WHERE name = 'en'");
    const own = createExperiment(victim.db, { name: "the victim's run", datasetId, config: CONFIG }).id;
    const before = fake.chatRequests.length;
    expect(await runExperiment(victim.db, own, bindDeps(victim.db, { client: clientOf(victim.db) }))).toBe("done");
    const keys = victim.db.$client
      .prepare("SELECT cache_key FROM llm_calls WHERE experiment_id = ? OR job_id IN (SELECT id FROM jobs WHERE experiment_id = ?)")
      .pluck()
      .all(own, own);
    expect(keys).toContain(plantedKey); // the victim did ask what the bundle planted an answer for
    expect(
      count(
        victim.db,
        "SELECT count(*) FROM llm_calls WHERE job_id IN (SELECT id FROM jobs WHERE experiment_id = ?) AND cache_hit = 1",
        own,
      ),
    ).toBe(0);
    expect(fake.chatRequests.length - before).toBe(
      count(victim.db, "SELECT count(*) FROM llm_calls WHERE job_id IN (SELECT id FROM jobs WHERE experiment_id = ?)", own),
    );
    const outputs = victim.db.$client.prepare("SELECT output FROM jobs WHERE experiment_id = ?").pluck().all(own) as string[];
    expect(outputs.join("\n")).not.toContain(PLANTED);
    expect(
      (victim.db.$client.prepare("SELECT response FROM llm_cache WHERE key = ?").pluck().get(plantedKey) as string) ?? "",
    ).not.toContain(PLANTED);

    // A replay imports only into a database of its own.
    expect(() => importBundle(victim.db, file, { replay: true })).toThrow(/a replay imports into a database of its own/);

    // The genuine run imported elsewhere, exported again: its replies come from what its bundle brought, and it verifies offline.
    const other = await lab();
    const g = importBundle(other.db, file);
    const again = path.join(dir, "again.palbundle");
    exportBundle(other.db, g.experimentId, again);
    const b = new Database(again, { readonly: true });
    expect(b.prepare("SELECT count(*) FROM pal_bundle_replies").pluck().get()).toBe(g.rows.llm_cache);
    b.close();
    const sent = fake.log.length;
    const rep = await verifyBundle(again, { dataFrom: other.db });
    expect(rep).toMatchObject({ ok: true, requests: 0 });
    expect(fake.log.length).toBe(sent);
  }, 120_000);

  it("item 4 (memory): a bundle's memory versions are never the memory a run of this lab opens; it builds its own", async () => {
    fake.setResponder(protocolResponder);
    vi.stubEnv("PAL_MODEL_EMBEDDING", "embed-model");
    try {
      const maker = await lab();
      const datasetId = count(maker.db, "SELECT id FROM datasets WHERE name = 'en'");
      const config = { ...CONFIG, methods: [{ name: "h2memory" }] };
      const made = createExperiment(maker.db, { name: "with memory", datasetId, config }).id;
      expect(await runExperiment(maker.db, made, bindDeps(maker.db, { client: clientOf(maker.db) }))).toBe("done");
      expect(count(maker.db, "SELECT count(*) FROM jobs WHERE experiment_id = ? AND status <> 'done'", made)).toBe(0);
      const out = path.join(dir, "memory.palbundle");
      exportBundle(maker.db, made, out);

      const victim = await lab();
      const im = importBundle(victim.db, out);
      const imported = victim.db.$client.prepare("SELECT settings_key FROM memory_versions").pluck().all() as string[];
      expect(imported.length).toBeGreaterThan(0);
      for (const k of imported) expect(k).toMatch(/^bundle:[0-9a-f]{16}:/);
      // The victim's own run of the same config builds its memory (requests to the endpoint), not the imported one.
      const own = createExperiment(victim.db, {
        name: "own",
        datasetId: count(victim.db, "SELECT id FROM datasets WHERE name = 'en'"),
        config,
      }).id;
      const before = fake.chatRequests.length;
      expect(await runExperiment(victim.db, own, bindDeps(victim.db, { client: clientOf(victim.db) }))).toBe("done");
      const used = victim.db.$client.prepare("SELECT version_id FROM experiment_memory_versions WHERE experiment_id = ?").pluck().all(own);
      const theirs = victim.db.$client
        .prepare("SELECT version_id FROM experiment_memory_versions WHERE experiment_id = ?")
        .pluck()
        .all(im.experimentId);
      expect(used.length).toBeGreaterThan(0);
      expect(used.filter((v) => theirs.includes(v))).toEqual([]);
      expect(
        count(
          victim.db,
          "SELECT count(*) FROM llm_calls WHERE memory_version_id IN (SELECT value FROM json_each(?)) AND cache_hit = 0",
          JSON.stringify(used),
        ),
      ).toBeGreaterThan(0);
      expect(fake.chatRequests.length).toBeGreaterThan(before);
    } finally {
      fake.setResponder(experimentReplies());
      vi.stubEnv("PAL_MODEL_EMBEDDING", "");
    }
  }, 180_000);

  it("item 5: a bundle claiming the genuine run's uid with other content squats nothing, in either order", async () => {
    const impostor = edited("impostor.palbundle", (b) => {
      b.prepare("UPDATE jobs SET output = json_object('text', 'impostor') WHERE id = (SELECT min(id) FROM jobs)").run();
    });
    // The same runUid: the file's word.
    const uid = (f: string) =>
      new Database(f, { readonly: true }).prepare("SELECT value FROM pal_bundle WHERE key = 'runUid'").pluck().get();
    expect(uid(impostor)).toBe(uid(file));

    const first = await lab();
    const i1 = importBundle(first.db, impostor);
    const g1 = importBundle(first.db, file);
    expect(i1.alreadyImported).toBe(false);
    expect(g1).toMatchObject({ alreadyImported: false });
    expect(g1.experimentId).not.toBe(i1.experimentId);
    expect(importBundle(first.db, file)).toMatchObject({ alreadyImported: true, experimentId: g1.experimentId });
    expect(importBundle(first.db, impostor)).toMatchObject({ alreadyImported: true, experimentId: i1.experimentId });

    const second = await lab();
    const g2 = importBundle(second.db, file);
    const i2 = importBundle(second.db, impostor);
    expect(i2.alreadyImported).toBe(false);
    expect(i2.experimentId).not.toBe(g2.experimentId);

    // The database the run was made in knows its own run, and only with its content.
    expect(importBundle(src.db, file)).toMatchObject({ alreadyImported: true, experimentId: sourceId });
    const n = importBundle(src.db, impostor);
    expect(n.alreadyImported).toBe(false);
    expect(n.experimentId).not.toBe(sourceId);
  }, 60_000);

  it("low: an export carries the vectors its run used, not another run's of the same model; it still replays offline", async () => {
    vi.stubEnv("PAL_MODEL_EMBEDDING", "embed-model");
    try {
      const t = await lab();
      const datasetId = count(t.db, "SELECT id FROM datasets WHERE name = 'en'");
      const logs = (users: string[]) => ({ ...CONFIG, methods: [{ name: "turn-rag" }], retriever: "dense", users });
      const ids: number[] = [];
      for (const users of [["0000"], ["0001"]]) {
        const id = createExperiment(t.db, { name: `logs of ${users[0]}`, datasetId, config: logs(users) }).id;
        expect(await runExperiment(t.db, id, bindDeps(t.db, { client: clientOf(t.db) }))).toBe("done");
        ids.push(id);
      }
      const keysOf = (id: number) =>
        new Set(t.db.$client.prepare("SELECT key FROM embedding_uses WHERE scope = ?").pluck().all(`experiment:${id}`) as string[]);
      const [mine, theirs] = ids.map(keysOf);
      const onlyTheirs = [...theirs].filter((k) => !mine.has(k));
      expect(mine.size).toBeGreaterThan(0);
      expect(onlyTheirs.length).toBeGreaterThan(0);
      const out = path.join(dir, "vectors.palbundle");
      exportBundle(t.db, ids[0], out);
      const b = new Database(out, { readonly: true });
      const exported = new Set(b.prepare("SELECT key FROM embedding_cache").pluck().all() as string[]);
      b.close();
      expect(exported).toEqual(mine);
      const sent = fake.log.length;
      expect(await verifyBundle(out, { dataFrom: t.db })).toMatchObject({ ok: true, requests: 0 });
      expect(fake.log.length).toBe(sent);
    } finally {
      vi.stubEnv("PAL_MODEL_EMBEDDING", "");
    }
  }, 120_000);

  it("low: only the users a mark names become (disabled) accounts, and not without bound", async () => {
    const crowd = edited("crowd.palbundle", (b) => {
      const ins = b.prepare("INSERT INTO users (email, name, role, password_hash, disabled) VALUES (?, ?, 'annotator', '', 1)");
      b.transaction(() => {
        for (let i = 0; i < 5000; i++) ins.run(`u${i}@bundle.invalid`, `nobody ${i}`);
      })();
    });
    const t = await lab();
    const users = count(t.db, "SELECT count(*) FROM users");
    importBundle(t.db, crowd);
    expect(count(t.db, "SELECT count(*) FROM users") - users).toBe(1);
    expect(t.db.$client.prepare("SELECT name, disabled FROM users WHERE email LIKE 'imported-%'").all()).toEqual([
      { name: "Mara Marker", disabled: 1 },
    ]);

    const authors = edited("authors.palbundle", (b) => {
      const u = b.prepare("INSERT INTO users (email, name, role, password_hash, disabled) VALUES (?, ?, 'annotator', '', 1)");
      const m = b.prepare(
        "INSERT INTO case_marks (experiment_id, task, item_key, block, start, end, quote, colour, user_id) SELECT experiment_id, task, item_key, block, start, end, quote, colour, ? FROM case_marks LIMIT 1",
      );
      b.transaction(() => {
        for (let i = 0; i <= MAX_MARK_AUTHORS; i++) m.run(u.run(`a${i}@bundle.invalid`, `author ${i}`).lastInsertRowid);
      })();
    });
    const u = await lab();
    expect(() => importBundle(u.db, authors)).toThrow(new RegExp(`marks name more than ${MAX_MARK_AUTHORS} authors \\(table users\\)`));
    expect(count(u.db, "SELECT count(*) FROM experiments")).toBe(0);
  }, 60_000);
});
