/**
 * `pal bundle`: a run exported to one file, imported into a fresh database (the same paper tables),
 * replayed offline by `verify` (every job identical, no request sent), and a bundle that was changed
 * after export (a reply, a prompt) caught. Real SQLite files, the real CLI, the TEST DOUBLE endpoint for
 * the original run only.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { runPal, oneRun } from "@/test/pal-cli";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { createUser } from "@/lib/users/users";
import { saveEndpoint } from "@/lib/llm/endpoints";
import { saveModelSetting } from "@/lib/llm/config";
import { hashOf } from "@/lib/llm/hash";
import { readCacheChunks, replyDigest, rewriteCacheChunks, type CacheRow } from "@/lib/bundles/cache-chunks";
import { readTask, writeTask } from "@/lib/bundles/tasks";
import { exportTaskOf, startBundleExport } from "@/lib/bundles/web";

const API_KEY = "sk-bundle-test-key-7Qx9Zr";
const SAVED_KEY = "sk-saved-endpoint-key-Lm42Pq";
const JUDGE_KEY = "sk-saved-judge-key-Vb81Tn";
const CLOSED = "http://127.0.0.1:9/v1"; // nothing listens on port 9 (discard): a request there fails at once

describe("pal bundle", () => {
  let fake: FakeOpenAI;
  const src = tempDb();
  const dir = fs.mkdtempSync(path.join(path.dirname(src.file), "bundles-"));
  const file = path.join(dir, "run.palbundle");
  const env = { OPENAI_API_KEY: API_KEY, PAL_MODEL_EMBEDDING: "embed-model" };
  const pal = (db: string, args: string[], baseURL = CLOSED) => runPal(db, baseURL, args, { env });
  let passwordHash = "";

  beforeAll(async () => {
    await importPalset(src.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    fake = await startFakeOpenAI();
    fake.setResponder(protocolResponder);
    const author = await createUser(src.db, {
      email: "marker@lab.example",
      name: "Mara Marker",
      role: "researcher",
      password: "a-long-password-1",
    });
    passwordHash = (src.db.$client.prepare("SELECT password_hash AS h FROM users WHERE id = ?").get(author.id) as { h: string }).h;
    // Keys saved in this database (an endpoint, a named judge): none may travel.
    saveEndpoint(src.db, { name: "spare", baseUrl: "http://127.0.0.1:1/v1", apiKey: SAVED_KEY });
    saveModelSetting(src.db, { name: "judge:spare", model: "spare-judge", apiKey: JUDGE_KEY });
    const r = await pal(src.file, oneRun("h2memory,vanilla", "requirement,solution", "--users", "0000", "--json"), fake.baseURL);
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { experiment: number }).experiment;
    expect(id).toBe(1);
    // A case-study mark by the researcher.
    const job = src.db.$client.prepare("SELECT task, item_key AS item FROM jobs WHERE experiment_id = 1 LIMIT 1").get() as {
      task: string;
      item: string;
    };
    src.db.$client
      .prepare(
        "INSERT INTO case_marks (experiment_id, task, item_key, block, start, end, quote, colour, user_id) VALUES (1, ?, ?, 'info:x', 0, 4, 'abcd', 'need', ?)",
      )
      .run(job.task, job.item, author.id);
    const ex = await pal(src.file, ["bundle", "export", "1", "--out", file]);
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stdout).toMatch(/^wrote .*run\.palbundle \(\d+\.\d MB/);
  }, 180_000);

  afterAll(async () => {
    await fake.close();
    src.cleanup();
  });

  it("carries no key, password hash or e-mail address", () => {
    const b = new Database(file, { readonly: true });
    // The file's bytes, and the cached replies unpacked (they travel compressed).
    const unpacked = [...readCacheChunks(b, "main", file)].flat();
    expect(unpacked.length).toBeGreaterThan(10);
    const bytes = Buffer.concat([fs.readFileSync(file), Buffer.from(JSON.stringify(unpacked))]);
    for (const secret of [API_KEY, SAVED_KEY, JUDGE_KEY, passwordHash, "marker@lab.example"])
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect(b.prepare("SELECT count(*) AS n FROM endpoints").get()).toEqual({ n: 0 });
    expect(b.prepare("SELECT count(*) AS n FROM model_settings").get()).toEqual({ n: 0 });
    expect(b.prepare("SELECT name, password_hash AS h FROM users").all()).toEqual([{ name: "Mara Marker", h: "" }]);
    expect((b.prepare("SELECT count(*) AS n FROM llm_calls").get() as { n: number }).n).toBeGreaterThan(10);
    b.close();
  });

  it("imports into a fresh database with the same paper tables, once", async () => {
    const dst = tempDb();
    try {
      await importPalset(dst.db, { paths: [PALSET_EN], name: "en copy", lang: "en" });
      const first = await pal(dst.file, ["bundle", "import", file, "--json"]);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout).experiment).toEqual({ id: 1 });
      const again = await pal(dst.file, ["bundle", "import", file, "--json"]);
      expect(JSON.parse(again.stdout)).toMatchObject({ experiment: { id: 1 }, alreadyImported: true });
      const d = new Database(dst.file, { readonly: true });
      expect(d.prepare("SELECT count(*) AS n FROM experiments").get()).toEqual({ n: 1 });
      expect(d.prepare("SELECT source, source_experiment_id AS s, dataset_from_bundle AS b FROM experiment_imports").get()).toEqual({
        source: "run.palbundle",
        s: 1,
        b: 0,
      });
      d.close();
      for (const format of ["markdown", "csv"]) {
        const a = await pal(src.file, ["table", "1", "--format", format]);
        const b = await pal(dst.file, ["table", "1", "--format", format]);
        expect(a.code, a.stderr).toBe(0);
        expect(b.stdout).toBe(a.stdout);
      }
    } finally {
      dst.cleanup();
    }
  }, 120_000);

  it("refuses a database without the data set, naming it; --with-data brings the rows the run read", async () => {
    const dst = tempDb();
    try {
      const refused = await pal(dst.file, ["bundle", "import", file]);
      expect(refused.code).not.toBe(0);
      const hash = (src.db.$client.prepare("SELECT dataset_hash AS h FROM experiments WHERE id = 1").get() as { h: string }).h;
      expect(refused.stderr).toContain(`data set "en" (palset, sha256 ${hash}) is not in this database`);
      expect(new Database(dst.file, { readonly: true }).prepare("SELECT count(*) AS n FROM experiments").get()).toEqual({ n: 0 });

      const withData = path.join(dir, "with-data.palbundle");
      expect((await pal(src.file, ["bundle", "export", "1", "--out", withData, "--with-data"])).code).toBe(0);
      const ok = await pal(dst.file, ["bundle", "import", withData, "--json"]);
      expect(ok.code, ok.stderr).toBe(0);
      const a = await pal(src.file, ["table", "1", "--format", "markdown"]);
      const b = await pal(dst.file, ["table", "1", "--format", "markdown"]);
      expect(b.stdout).toBe(a.stdout);
    } finally {
      dst.cleanup();
    }
  }, 120_000);

  it("verify replays every job offline: all identical, no request sent", async () => {
    const before = fake.log.length;
    const r = await pal(src.file, ["bundle", "verify", file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep).toMatchObject({ ok: true, requests: 0, different: [], tables: { identical: true } });
    expect(rep.jobs).toBeGreaterThan(0);
    expect(rep.identical).toBe(rep.jobs);
    expect(rep.replayed).toBe(rep.jobs);
    expect(rep.memory.versions).toBeGreaterThan(0);
    expect(rep.memory.identical).toBe(rep.memory.versions);
    expect(fake.log.length).toBe(before);
  }, 120_000);

  /** A copy of the bundle changed by `edit`. */
  function changed(name: string, edit: (b: Database.Database) => void): string {
    const f = path.join(dir, name);
    fs.copyFileSync(file, f);
    const b = new Database(f);
    edit(b);
    b.close();
    return f;
  }
  /** The cache entry of the first judge call of a job, with that job and purpose. */
  const jobEntry = (b: Database.Database) => {
    const l = b
      .prepare(
        "SELECT l.cache_key AS key, l.job_id AS job, l.purpose FROM llm_calls l WHERE l.role = 'judge' AND l.job_id IS NOT NULL ORDER BY l.job_id LIMIT 1",
      )
      .get() as { key: string; job: number; purpose: string };
    const row = [...readCacheChunks(b, "main", "bundle")].flat().find((r) => r.key === l.key)!;
    return { ...row, job: l.job, purpose: l.purpose };
  };
  /** Rewrites the entry `key` of the bundle's cache with `edit`. */
  const editEntry = (b: Database.Database, key: string, edit: (r: CacheRow) => void) =>
    rewriteCacheChunks(b, "main", (rows) => rows.map((r) => (r.key === key ? (edit(r), r) : r)));
  const redigest = (b: Database.Database, key: string) => {
    const row = [...readCacheChunks(b, "main", "bundle")].flat().find((r) => r.key === key)!;
    b.prepare("UPDATE pal_bundle_replies SET digest = ? WHERE key = ?").run(replyDigest(row), key);
  };

  it("a reply edited in the bundle is caught: by its digest, and by the replay when the digest is forged too", async () => {
    let key = "";
    const edited = changed("edited-reply.palbundle", (b) => {
      key = jobEntry(b).key;
      editEntry(b, key, (r) => (r.response = '{"score": 1, "analysis": "edited"}'));
    });
    const r = await pal(src.file, ["bundle", "verify", edited]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/the cached reply [0-9a-f]{12}… \(job \d+ .*\) is not the one exported \(its digest differs\)/);

    const forged = changed("forged-reply.palbundle", (b) => {
      editEntry(b, key, (r) => (r.response = '{"score": 1, "analysis": "edited"}'));
      redigest(b, key);
    });
    const f = await pal(src.file, ["bundle", "verify", forged, "--json"]);
    expect(f.code).toBe(3);
    const rep = JSON.parse(f.stdout);
    expect(rep.ok).toBe(false);
    expect(rep.different.length + rep.requests).toBeGreaterThan(0);
  }, 120_000);

  it("a prompt the code no longer sends is named: the job and the purpose of the request with no bundled reply", async () => {
    let entry = { job: 0, purpose: "" };
    const f = changed("changed-prompt.palbundle", (b) => {
      const e = jobEntry(b);
      entry = e;
      const req = JSON.parse(e.request) as { messages: Array<{ role: string; content: string }>; params: unknown; replicate: number };
      req.messages[0].content += " (worded otherwise when the run was made)";
      const key = hashOf({ endpoint: e.endpoint, model: e.model, messages: req.messages, params: req.params, replicate: req.replicate });
      editEntry(b, e.key, (r) => {
        r.key = key;
        r.request = JSON.stringify(req);
      });
      b.prepare("UPDATE llm_calls SET cache_key = ? WHERE cache_key = ?").run(key, e.key);
      b.prepare("UPDATE pal_bundle_replies SET key = ? WHERE key = ?").run(key, e.key);
      redigest(b, key);
    });
    const r = await pal(src.file, ["bundle", "verify", f]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(new RegExp(`requests with no bundled reply: [1-9]`));
    expect(r.stdout).toContain(`job ${entry.job} (`);
    expect(r.stdout).toContain(entry.purpose);
    expect(r.stdout).toContain("NOT verified");
  }, 120_000);

  it("a .gz bundle is smaller and imports and verifies as the plain one", async () => {
    const gz = path.join(dir, "run.palbundle.gz");
    const ex = await pal(src.file, ["bundle", "export", "1", "--out", gz, "--json"]);
    expect(ex.code, ex.stderr).toBe(0);
    expect(JSON.parse(ex.stdout).bytes).toBeLessThan(fs.statSync(file).size);
    const v = await pal(src.file, ["bundle", "verify", gz, "--json"]);
    expect(v.code, v.stderr).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, requests: 0, file: gz });
    const dst = tempDb();
    try {
      await importPalset(dst.db, { paths: [PALSET_EN], name: "en", lang: "en" });
      const im = await pal(dst.file, ["bundle", "import", gz, "--json"]);
      expect(im.code, im.stderr).toBe(0);
      expect(JSON.parse(im.stdout).experiment).toEqual({ id: 1 });
      const d = new Database(dst.file, { readonly: true });
      expect(d.prepare("SELECT source FROM experiment_imports").get()).toEqual({ source: "run.palbundle.gz" });
      d.close();
    } finally {
      dst.cleanup();
    }
  }, 120_000);

  it("a file that is not a bundle is refused, naming it", async () => {
    const junk = path.join(dir, "junk.palbundle");
    fs.writeFileSync(junk, "not a database at all, just text that is long enough to be read as a header...");
    const r = await pal(src.file, ["bundle", "import", junk]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${junk} is not a SQLite file`);
    const other = path.join(dir, "plain.db");
    new Database(other).exec("CREATE TABLE t (x)");
    const p = await pal(src.file, ["bundle", "import", other]);
    expect(p.stderr).toBe(`pal: ${other} is not a PAL Studio bundle (no pal_bundle table)\n`);
  }, 60_000);

  it("the run card names the models served, the parameters sent, the data hash and the tables", async () => {
    const md = await pal(src.file, ["bundle", "card", file]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain("# Run card: experiment 1");
    expect(md.stdout).toContain("## Models as served");
    expect(md.stdout).toContain("judge-model");
    expect(md.stdout).toContain("## Parameters as sent");
    // The audit recomputed from the bundled ledger (lib/experiments/protocol-audit.ts).
    expect(md.stdout).toMatch(
      /## Protocol audit\s+protocol: (as declared|\d+ unintended mismatch)[^\n]*\(checked \d+ requests? sent and \d+ cache hits?\)/,
    );
    expect(md.stdout).toMatch(/Unintended mismatches \(sent, not asked for\):/);
    expect(md.stdout).toMatch(/Intended deviations from the mem-pal preset \(asked for\):/);
    expect(md.stdout).toContain("Mem-PAL Table 2");
    const html = await pal(src.file, ["bundle", "card", "1", "--format", "html"]);
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain("<h2>Costs</h2>");
    // The paper tables rendered as tables, not their Markdown in a code block (issue 44.5).
    expect(html.stdout).toMatch(/<h3>Mem-PAL Table 2[^<]*<\/h3><table>/);
    expect(html.stdout).not.toMatch(/<pre>[^<]*\| ---/);
  }, 60_000);

  it("the web's export runs as a background process: its status goes from running to ready, and a failure says why", async () => {
    const before = process.env.PAL_DB;
    process.env.PAL_DB = src.file; // the tasks' folder is beside the database, and the child process opens it
    try {
      const started = startBundleExport(src.db, 1, false);
      expect(started.state).toBe("running");
      expect(started.pid).toBeGreaterThan(0);
      let t = exportTaskOf(1, false);
      for (let i = 0; i < 600 && t?.state === "running"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        t = exportTaskOf(1, false);
      }
      expect(t).toMatchObject({ state: "ready", file: "experiment-1.palbundle" });
      const built = path.join(path.dirname(src.file), "bundles", "experiment-1.palbundle");
      expect(t!.bytes).toBe(fs.statSync(built).size);
      const v = await pal(src.file, ["bundle", "verify", built, "--json"]);
      expect(JSON.parse(v.stdout)).toMatchObject({ ok: true });
    } finally {
      process.env.PAL_DB = before;
    }
    // The command's own failure reaches the status file.
    const status = path.join(dir, "task.json");
    const task = {
      kind: "export" as const,
      state: "running" as const,
      pid: null,
      startedAt: 1,
      updatedAt: 1,
      step: "starting",
      done: 0,
      total: 0,
    };
    writeTask(status, task);
    const r = await pal(src.file, ["bundle", "export", "99", "--out", path.join(dir, "none.palbundle"), "--status", status]);
    expect(r.code).not.toBe(0);
    expect(readTask(status)).toMatchObject({ state: "failed", error: "experiment 99 does not exist" });
    // A process that died half-way (its pid gone) reads as failed.
    writeTask(status, { ...task, pid: 4_000_000 });
    expect(readTask(status)).toMatchObject({ state: "failed", error: expect.stringContaining("stopped before it finished") });
  }, 120_000);
});
