/**
 * A bundle is a stranger's file (issue 40): it is read as data. A view, a trigger, a generated column,
 * a value of the wrong type or size, a non-JSON config, a status or a name this version does not know,
 * a bomb (gzip or a cached replies' chunk): each is refused before anything is written, naming the file,
 * the table, the row and the column, and the importing database is left as it was. Real SQLite files.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { deflateBomb, editedCopy, genuineBundle, gzipBomb, rowCounts, tableAsView } from "@/test/hostile-bundle";
import { checkBundle } from "./check";
import { importBundle } from "./import";
import { withPlainBundle } from "./gzip";
import { BUNDLE_LIMITS } from "./limits";
import { dataSteps } from "./data-steps";

describe("reading a bundle as data", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-hostile-"));
  const genuine = genuineBundle(dir);
  let t = tempDb();
  beforeEach(() => {
    t.cleanup();
    t = tempDb();
  });
  afterAll(() => {
    t.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Importing `file` is refused with a message matching `message`, and the database is unchanged. */
  function refused(file: string, message: RegExp): void {
    const before = rowCounts(t.db);
    expect(() => importBundle(t.db, file)).toThrow(message);
    expect(rowCounts(t.db)).toEqual(before);
  }

  it("a genuine bundle is accepted and imports", () => {
    const r = importBundle(t.db, genuine);
    expect(r.alreadyImported).toBe(false);
    expect(r.rows.jobs).toBeGreaterThan(0);
  });

  it("a table replaced by a view (even a finite one) is refused, naming the view", () => {
    const f = editedCopy(genuine, "view.palbundle", (c) =>
      tableAsView(
        c,
        "users",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i AS id, 'x' AS name FROM n",
      ),
    );
    refused(f, /view\.palbundle: the bundle's view "users" is not part of a bundle/);
  });

  it("a trigger of the sender's, and one of ours rewritten, are refused", () => {
    const extra = editedCopy(genuine, "trigger.palbundle", (c) =>
      c.exec("CREATE TRIGGER evil AFTER INSERT ON jobs BEGIN DELETE FROM jobs; END"),
    );
    refused(extra, /trigger\.palbundle: the bundle's trigger "evil" is not part of a bundle/);
    const ours = editedCopy(genuine, "trigger2.palbundle", (c) => {
      const t = c.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' LIMIT 1").get() as { name: string; sql: string };
      c.exec(`DROP TRIGGER "${t.name}"`);
      c.exec(t.sql.replace(/BEGIN[\s\S]*END\s*$/i, "BEGIN SELECT 1; END"));
    });
    refused(ours, /trigger2\.palbundle: the bundle's trigger ".*" is not defined as this version defines it/);
  });

  it("a column the sender computes (generated) or this version lacks is refused", () => {
    const gen = editedCopy(genuine, "generated.palbundle", (c) =>
      c.exec("ALTER TABLE jobs ADD COLUMN boom TEXT GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL"),
    );
    refused(gen, /generated\.palbundle: the bundle.s table "jobs" computes values/);
    const extra = editedCopy(genuine, "column.palbundle", (c) => c.exec("ALTER TABLE jobs ADD COLUMN surprise TEXT"));
    refused(extra, /column\.palbundle: the bundle's table "jobs": this version's table has no column surprise/);
  });

  it("a value of the wrong type is refused naming table, row and column (no id reaches SQL text)", () => {
    const f = editedCopy(genuine, "types.palbundle", (c) =>
      c.exec("UPDATE jobs SET attempts = 'many' WHERE id = (SELECT min(id) FROM jobs)"),
    );
    refused(f, /types\.palbundle: table jobs, row id \d+, column attempts: "many"/);
    refused(
      editedCopy(genuine, "dataset-id.palbundle", (c) => c.exec("UPDATE experiments SET dataset_id = '1 OR 1=1'")),
      /dataset-id\.palbundle: table experiments, row id \d+, column dataset_id: "1 OR 1=1"/,
    );
  });

  it("item 6: a data set id from the bundle is bound, never SQL: an id that is SQL copies nothing and changes nothing", () => {
    const meta = checkBundle(genuine);
    const before = rowCounts(t.db);
    // Past the checks (the `checked` a caller passes): the id is still never pasted into the SQL.
    expect(() => importBundle(t.db, genuine, { checked: { ...meta, datasetId: "0 OR 1=1" as unknown as number } })).toThrow(
      /not a whole number/,
    );
    expect(rowCounts(t.db)).toEqual(before);
    // The data set's rows are chosen by a bound @dataset, whatever the id is.
    for (const step of dataSteps("palset", "b", 7, "SELECT 'u'", null)) {
      expect(step.params).toEqual({ dataset: 7 });
      expect(`${step.where} ${Object.values(step.set ?? {}).join(" ")}`).not.toMatch(/\b7\b/);
    }
  });

  it("rows valid alone that do not fit together (a score of a job the bundle lacks) are refused naming the table", () => {
    refused(
      editedCopy(genuine, "orphan.palbundle", (c) =>
        c.exec("UPDATE job_scores SET job_id = 999999 WHERE id = (SELECT min(id) FROM job_scores)"),
      ),
      /orphan\.palbundle: table job_scores: its rows do not fit together \(FOREIGN KEY constraint failed\)/,
    );
  });

  it("a config that is not JSON, or not a config, and an unknown status are refused", () => {
    refused(
      editedCopy(genuine, "config.palbundle", (c) => c.exec("UPDATE experiments SET config = '{not json'")),
      /config\.palbundle: table experiments, row id \d+, column config: .* is not JSON/,
    );
    refused(
      editedCopy(genuine, "config2.palbundle", (c) => c.exec(`UPDATE experiments SET config = '{"repeats": "twenty"}'`)),
      /config2\.palbundle: table experiments, row id \d+, column config: .*not a config this version reads/,
    );
    refused(
      editedCopy(genuine, "status.palbundle", (c) => c.exec("UPDATE experiments SET status = 'exploded'")),
      /status\.palbundle: table experiments, row id \d+, column status: "exploded"/,
    );
  });

  it("names with a text-direction override or a control character are refused", () => {
    refused(
      editedCopy(genuine, "rtl.palbundle", (c) => c.exec("UPDATE experiments SET name = 'run \u202Etxt.exe'")),
      /rtl\.palbundle: table experiments, row id \d+, column name: .* holds a control or text-direction character/,
    );
    refused(
      editedCopy(genuine, "bel.palbundle", (c) => c.prepare("UPDATE datasets SET name = ?").run("data\u0007set")),
      /bel\.palbundle: table datasets, row id \d+, column name: .* holds a control or text-direction character/,
    );
    refused(
      editedCopy(genuine, "meta.palbundle", (c) => c.prepare("UPDATE pal_bundle SET value = ? WHERE key = 'datasetName'").run("x\u202Eyz")),
      /meta\.palbundle: table pal_bundle, row key datasetName: .* holds a control or text-direction character/,
    );
  });

  it("a value larger than a bundle's value may be is refused before it is read", () => {
    const f = editedCopy(genuine, "huge.palbundle", (c) =>
      c.prepare("UPDATE jobs SET output = ? WHERE id = (SELECT min(id) FROM jobs)").run("x".repeat(BUNDLE_LIMITS.valueBytes + 1)),
    );
    refused(f, /huge\.palbundle: table jobs, row id \d+, column output: a value of \d+ bytes, more than/);
  });

  it("a chunk of cached replies that inflates past the limit is refused (a deflate bomb)", () => {
    const f = editedCopy(genuine, "chunk.palbundle", (c) =>
      c.prepare("INSERT INTO pal_bundle_cache (rows, data) VALUES (1, ?)").run(deflateBomb(BUNDLE_LIMITS.chunkBytes + (1 << 20))),
    );
    refused(f, /chunk\.palbundle: the cached replies' chunk \d+ inflates to more than \d+ bytes/);
  });

  it("a cached reply of the wrong shape is refused, naming its chunk, line and field", () => {
    const f = editedCopy(genuine, "reply.palbundle", (c) =>
      c.prepare("INSERT INTO pal_bundle_cache (rows, data) VALUES (1, ?)").run(
        Buffer.from(
          // deflate-raw of one line whose response is a number
          zlib.deflateRawSync(JSON.stringify({ key: "k", endpoint: "e", model: "m", request: "{}", response: 5 })),
        ),
      ),
    );
    refused(f, /reply\.palbundle: the cached replies' chunk \d+, line 1, field response/);
  });

  it("a gzip bomb stops unpacking at the limit and names the file", async () => {
    const prev = process.env.PAL_BUNDLE_MAX_BYTES;
    process.env.PAL_BUNDLE_MAX_BYTES = String(8 << 20);
    try {
      const bomb = gzipBomb(path.join(dir, "bomb.palbundle.gz"), 64 << 20);
      let called = false;
      await expect(withPlainBundle(bomb, () => (called = true))).rejects.toThrow(
        /bomb\.palbundle\.gz unpacks to more than 8388608 bytes, the most a bundle may be/,
      );
      expect(called).toBe(false);
      // A plain file past the limit is refused by the check too.
      const big = path.join(dir, "big.palbundle");
      fs.writeFileSync(big, Buffer.alloc((8 << 20) + 1));
      expect(() => checkBundle(big)).toThrow(/big\.palbundle is 8388609 bytes, more than a bundle may be/);
    } finally {
      if (prev === undefined) delete process.env.PAL_BUNDLE_MAX_BYTES;
      else process.env.PAL_BUNDLE_MAX_BYTES = prev;
    }
  });
});
