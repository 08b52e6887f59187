/**
 * Reliability check: bundles a stranger made (issue 40). The real CLI (`pal bundle import`, a process of
 * its own, killed if it runs past a minute) is given bundles whose tables are views over endless recursive
 * queries, triggers, generated columns, virtual tables, bombs (gzip, a cached replies' chunk), values too
 * large and damaged pages: each is refused promptly, naming the file, and the lab's database is never
 * locked meanwhile (a write with no busy wait succeeds all along) and holds afterwards what it held.
 * Then a seeded fuzz of single values (wrong types, NULLs, SQL, control characters, non-JSON) imported
 * in-process: each is refused naming the file, table, row and column, or imports into a database that
 * stays consistent (foreign keys, a config that parses, a known status).
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { runPal } from "@/test/pal-cli";
import { deflateBomb, editedCopy, ENDLESS, genuineBundle, gzipBomb, rowCounts, tableAsView } from "@/test/hostile-bundle";
import { importBundle } from "@/lib/bundles/import";
import { BUNDLE_LIMITS } from "@/lib/bundles/limits";
import { parseExperimentConfig } from "@/lib/experiments/config";
import { EXPERIMENT_STATUSES } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { tempDir } from "./app";

const tmp = tempDir("bundle-fuzz");
const CLOSED = "http://127.0.0.1:9/v1";
const genuine = genuineBundle(tmp.dir);

/** A PRNG of its seed (mulberry32): the fuzz is the same on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What each refusal must say beyond the file's name (a bomb that merely fails to parse after unpacking fully is not refused at its limit). */
const SAYS: Record<string, RegExp> = {
  "a gzip bomb": /unpacks to more than 268435456 bytes/,
  "a cached replies' chunk bomb": /inflates to more than \d+ bytes/,
  "a value past the size limit": /table jobs, row id \d+, column output: a value of \d+ bytes/,
  "users as a view over an endless recursive query": /view "users" is not part of a bundle/,
};

const HOSTILE: Array<[string, () => string]> = [
  [
    "users as a view over an endless recursive query",
    () => editedCopy(genuine, "endless-users.palbundle", (c) => tableAsView(c, "users", ENDLESS)),
  ],
  [
    "experiments as an endless view",
    () =>
      editedCopy(genuine, "endless-experiments.palbundle", (c) =>
        tableAsView(
          c,
          "experiments",
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i AS id, 'x' AS name, 1 AS dataset_id FROM n",
        ),
      ),
  ],
  [
    "pal_bundle as an endless view",
    () =>
      editedCopy(genuine, "endless-meta.palbundle", (c) =>
        tableAsView(c, "pal_bundle", ENDLESS.replace("i AS id, 'x' AS name", "'format' AS key, i AS value")),
      ),
  ],
  [
    "a trigger of the sender's",
    () => editedCopy(genuine, "trigger.palbundle", (c) => c.exec("CREATE TRIGGER t AFTER INSERT ON jobs BEGIN DELETE FROM jobs; END")),
  ],
  [
    "a generated column",
    () =>
      editedCopy(genuine, "generated.palbundle", (c) =>
        c.exec("ALTER TABLE llm_calls ADD COLUMN g BLOB GENERATED ALWAYS AS (zeroblob(100000000)) VIRTUAL"),
      ),
  ],
  ["a virtual table", () => editedCopy(genuine, "virtual.palbundle", (c) => c.exec("CREATE VIRTUAL TABLE evil USING fts5(x)"))],
  [
    "an index of the sender's",
    () => editedCopy(genuine, "index.palbundle", (c) => c.exec("CREATE INDEX jobs_evil ON jobs (length(output))")),
  ],
  [
    "a value past the size limit",
    () =>
      editedCopy(genuine, "huge.palbundle", (c) =>
        c.prepare("UPDATE jobs SET output = ? WHERE id = (SELECT max(id) FROM jobs)").run(`"${"x".repeat(BUNDLE_LIMITS.valueBytes)}"`),
      ),
  ],
  [
    "a cached replies' chunk bomb",
    () =>
      editedCopy(genuine, "chunk-bomb.palbundle", (c) =>
        c.prepare("INSERT INTO pal_bundle_cache (rows, data) VALUES (1, ?)").run(deflateBomb(BUNDLE_LIMITS.chunkBytes * 4)),
      ),
  ],
  ["a gzip bomb", () => gzipBomb(path.join(tmp.dir, "bomb.palbundle.gz"), 512 << 20)],
  [
    "damaged pages",
    () => {
      const f = path.join(tmp.dir, "damaged.palbundle");
      const bytes = fs.readFileSync(genuine);
      const rand = prng(7);
      for (let i = 0; i < 64; i++) bytes[4096 + Math.floor(rand() * (bytes.length - 4096))] = Math.floor(rand() * 256);
      fs.writeFileSync(f, bytes);
      return f;
    },
  ],
];

describe("hostile bundles", () => {
  const lab = tempDb();
  afterAll(() => {
    lab.cleanup();
    tmp.cleanup();
  });

  it.each(HOSTILE)("%s: refused promptly, naming the file; the lab's database never locked, unchanged", async (what, make) => {
    const file = make();
    const before = rowCounts(lab.db);
    // Another process's writes meanwhile, with no busy wait: any moment the import held the lock would fail one.
    const other = new Database(lab.file);
    other.pragma("busy_timeout = 0");
    let locked = 0;
    let writes = 0;
    const probe = setInterval(() => {
      try {
        other.exec("BEGIN IMMEDIATE; ROLLBACK");
        writes++;
      } catch {
        locked++;
      }
    }, 25);
    const started = Date.now();
    const r = await runPal(lab.file, CLOSED, ["bundle", "import", file], {
      env: { PAL_BUNDLE_MAX_BYTES: String(256 << 20) },
      killWhen: () => Date.now() - started > 60_000,
    });
    clearInterval(probe);
    other.close();
    expect(r.signal, "the import had to be killed: it never ended").toBeNull();
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(file);
    if (SAYS[what]) expect(r.stderr).toMatch(SAYS[what]);
    expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack
    expect(locked).toBe(0);
    expect(writes).toBeGreaterThan(0);
    expect(rowCounts(lab.db)).toEqual(before);
  });

  it("a seeded fuzz of single values: each refused naming file, table, row and column, or imported consistently", () => {
    const rand = prng(40);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const src = new Database(genuine, { readonly: true });
    const cells = (
      src
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%drizzle%'")
        .pluck()
        .all() as string[]
    ).flatMap((t) =>
      (src.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number) === 0
        ? []
        : (src.prepare(`PRAGMA table_info("${t}")`).all() as Array<{ name: string }>).map((c) => [t, c.name] as const),
    );
    src.close();
    const VALUES: unknown[] = [
      "text",
      3.5,
      Buffer.from([0, 255]),
      null,
      -1,
      2 ** 53,
      "0 OR 1=1",
      "run \u202etxt",
      "bel\u0007",
      "{not json",
      "[]",
      "1e999",
    ];
    const outcomes = { refused: 0, imported: 0 };
    for (let i = 0; i < 40; i++) {
      const [table, column] = pick(cells);
      const value = pick(VALUES);
      const name = `fuzz-${i}.palbundle`;
      let file: string;
      try {
        file = editedCopy(genuine, name, (c) =>
          c.prepare(`UPDATE "${table}" SET "${column}" = ? WHERE rowid = (SELECT min(rowid) FROM "${table}")`).run(value),
        );
      } catch {
        continue; // a text index's own tables take no UPDATE
      }
      const t = tempDb();
      try {
        const before = rowCounts(t.db);
        let err: unknown = null;
        try {
          importBundle(t.db, file);
        } catch (e) {
          err = e;
        }
        const what = `${table}.${column} = ${JSON.stringify(value)}`;
        if (err) {
          outcomes.refused++;
          expect(err, what).toBeInstanceOf(AppError);
          expect((err as Error).message, what).toContain(name);
          expect(rowCounts(t.db), what).toEqual(before);
        } else {
          outcomes.imported++;
          expect(t.db.$client.pragma("foreign_key_check"), what).toEqual([]);
          for (const e of t.db.$client.prepare("SELECT name, status, config FROM experiments").all() as Array<{
            name: string;
            status: string;
            config: string;
          }>) {
            expect(EXPERIMENT_STATUSES, what).toContain(e.status);
            expect(() => parseExperimentConfig(JSON.parse(e.config)), what).not.toThrow();
            expect(e.name, what).not.toMatch(/[\u0000-\u001f\u202e]/);
          }
        }
      } finally {
        t.cleanup();
        fs.rmSync(file, { force: true });
      }
    }
    // Both kinds happen (a value of the right type is a valid bundle): the fuzz tried the two paths.
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.imported).toBeGreaterThan(0);
  }, 240_000);

  it("after all of them the genuine bundle imports", () => {
    expect(importBundle(lab.db, genuine).alreadyImported).toBe(false);
  });
});
