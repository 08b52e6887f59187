import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDb } from "./client";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pal-dbmode-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe("openDb file modes", () => {
  it("tightens an existing 0644 database and its -wal/-shm files to 0600, and says so", () => {
    const file = path.join(tmp, "old.db");
    // A database left by an older version, readable by everyone, with its WAL files present.
    const old = new Database(file);
    old.pragma("journal_mode = WAL");
    old.exec("create table t(x); insert into t values (1)");
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.chmodSync(f, 0o644);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const db = openDb(file);
    try {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
      const said = warn.mock.calls.map((c) => String(c[0])).join("\n");
      expect(said).toContain(`${file} had mode 0644; restricted it to its owner (0600)`);
      expect(said).toContain(`${file}-wal had mode 0644`);
      expect(db.$client.prepare("select x from t").get()).toEqual({ x: 1 });
    } finally {
      db.$client.close();
      old.close();
    }
  });

  it("leaves a 0600 database alone and silent", () => {
    const file = path.join(tmp, "new.db");
    openDb(file).$client.close();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    openDb(file).$client.close();
    expect(mode(file)).toBe(0o600);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("openDb migrations", () => {
  const folder = path.join(process.cwd(), "db", "migrations");
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
  const applied = (file: string) => {
    const c = new Database(file);
    try {
      return (c.prepare("select count(*) as n from __drizzle_migrations").get() as { n: number }).n;
    } finally {
      c.close();
    }
  };

  it("applies the migrations a database lacks, then opens it without reading a migration file", async () => {
    // A database made by an older version: every migration but the newest.
    const older = path.join(tmp, "migrations");
    fs.cpSync(folder, older, { recursive: true });
    const last = journal.entries.at(-1)!;
    fs.rmSync(path.join(older, `${last.tag}.sql`));
    fs.writeFileSync(path.join(older, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));
    const file = path.join(tmp, "older.db");
    const { drizzle } = await import("drizzle-orm/better-sqlite3");
    const { migrate } = await import("drizzle-orm/better-sqlite3/migrator");
    const sqlite = new Database(file);
    migrate(drizzle(sqlite), { migrationsFolder: older });
    sqlite.close();
    expect(applied(file)).toBe(journal.entries.length - 1);

    openDb(file).$client.close();
    expect(applied(file)).toBe(journal.entries.length);

    const read = vi.spyOn(fs, "readFileSync");
    openDb(file).$client.close();
    const sqlRead = read.mock.calls.map((c) => String(c[0])).filter((f) => f.endsWith(".sql"));
    expect(sqlRead).toEqual([]);
    expect(applied(file)).toBe(journal.entries.length);
  });
});

describe("the ledger's origin indexes", () => {
  it("hold only rows of that origin (partial) and still serve every lookup by origin, also the experiment cost's OR", () => {
    const db = openDb(path.join(tmp, "ledger.db"));
    try {
      const partial = db.$client
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'llm_calls' ORDER BY name")
        .all() as Array<{ name: string; sql: string }>;
      expect(partial.map((i) => i.name)).toEqual(["llm_calls_experiment", "llm_calls_job", "llm_calls_judge_run", "llm_calls_memory"]);
      for (const i of partial) expect(i.sql, i.name).toMatch(/WHERE .* is not null$/i);
      const plan = (q: string) =>
        (db.$client.prepare(`EXPLAIN QUERY PLAN ${q}`).all(1) as Array<{ detail: string }>).map((r) => r.detail).join(" | ");
      expect(plan("SELECT count(*) FROM llm_calls WHERE job_id = ?")).toContain("INDEX llm_calls_job (job_id=?)");
      expect(plan("SELECT * FROM llm_calls WHERE memory_version_id = ? ORDER BY id")).toContain(
        "INDEX llm_calls_memory (memory_version_id=?)",
      );
      expect(plan("SELECT * FROM llm_calls WHERE judge_run_id = ?")).toContain("INDEX llm_calls_judge_run (judge_run_id=?)");
      expect(
        plan(
          "SELECT role FROM llm_calls c WHERE c.experiment_id = ? OR (c.experiment_id IS NULL AND c.job_id IN (SELECT id FROM jobs WHERE experiment_id = 1))",
        ),
      ).toMatch(/INDEX llm_calls_experiment \(experiment_id=\?\).*INDEX llm_calls_job \(job_id=\?\)/);
    } finally {
      db.$client.close();
    }
  });
});
