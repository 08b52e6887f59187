/**
 * Two bundles that carry the same data set's rows (`--with-data`), imported into a database that lacks
 * the data set: the second import reuses the rows the first one brought when they are identical, and
 * imports its own under a distinct name when they differ (same run uid, other rows). Real SQLite files,
 * the real CLI, the TEST DOUBLE endpoint for the original run only.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { runPal, oneRun } from "@/test/pal-cli";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { createUser } from "@/lib/users/users";

const CLOSED = "http://127.0.0.1:9/v1";

describe("pal bundle import: a data set two bundles carry", () => {
  let fake: FakeOpenAI;
  const src = tempDb();
  const dir = fs.mkdtempSync(path.join(path.dirname(src.file), "reuse-"));
  const first = path.join(dir, "first.palbundle");
  const second = path.join(dir, "second.palbundle");
  const pal = (db: string, args: string[], baseURL = CLOSED) => runPal(db, baseURL, args);

  beforeAll(async () => {
    await importPalset(src.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    fake = await startFakeOpenAI();
    fake.setResponder(experimentReplies());
    const r = await pal(src.file, oneRun("vanilla", "requirement", "--users", "0000", "--json"), fake.baseURL);
    expect(r.code, r.stderr).toBe(0);
    expect((await pal(src.file, ["bundle", "export", "1", "--out", first, "--with-data"])).code).toBe(0);
    const author = await createUser(src.db, { email: "m@lab.example", name: "Mara", role: "researcher", password: "a-long-password-1" });
    // The same run exported again after a case-study mark was added: the same run uid, other content, the same rows.
    const job = src.db.$client.prepare("SELECT task, item_key AS item FROM jobs WHERE experiment_id = 1 LIMIT 1").get() as {
      task: string;
      item: string;
    };
    src.db.$client
      .prepare(
        "INSERT INTO case_marks (experiment_id, task, item_key, block, start, end, quote, colour, user_id) VALUES (1, ?, ?, 'info:x', 0, 4, 'abcd', 'need', ?)",
      )
      .run(job.task, job.item, author.id);
    const ex = await pal(src.file, ["bundle", "export", "1", "--out", second, "--with-data"]);
    expect(ex.code, ex.stderr).toBe(0);
  }, 180_000);

  afterAll(async () => {
    await fake.close();
    src.cleanup();
  });

  const rows = (file: string, sql: string) => {
    const d = new Database(file, { readonly: true });
    try {
      return d.prepare(sql).all();
    } finally {
      d.close();
    }
  };

  it("reuses the rows an earlier bundle brought when they are identical", async () => {
    const dst = tempDb();
    try {
      const a = await pal(dst.file, ["bundle", "import", first, "--json"]);
      expect(a.code, a.stderr).toBe(0);
      const b = await pal(dst.file, ["bundle", "import", second, "--json"]);
      expect(b.code, b.stderr).toBe(0);
      expect(JSON.parse(b.stdout)).toMatchObject({ experiment: { id: 2 }, alreadyImported: false });
      expect(rows(dst.file, "SELECT id, name FROM datasets")).toEqual([
        { id: 1, name: expect.stringMatching(/^en \(bundle [0-9a-f]{8}\)$/) },
      ]);
      expect(rows(dst.file, "SELECT id, dataset_id AS d FROM experiments ORDER BY id")).toEqual([
        { id: 1, d: 1 },
        { id: 2, d: 1 },
      ]);
      // Both runs read rows that came with a bundle (never taken for a data set of this lab).
      expect(rows(dst.file, "SELECT dataset_from_bundle AS b FROM experiment_imports ORDER BY experiment_id")).toEqual([
        { b: 1 },
        { b: 1 },
      ]);
      const users = rows(dst.file, "SELECT count(*) AS n FROM pal_users")[0];
      expect(users).toEqual({ n: 1 });
      // The tables of both imported runs are the source's.
      const t = await pal(src.file, ["table", "1", "--format", "markdown"]);
      for (const id of ["1", "2"])
        expect((await pal(dst.file, ["table", id, "--format", "markdown"])).stdout.replace(`Experiment ${id} `, "Experiment 1 ")).toBe(
          t.stdout,
        );
    } finally {
      dst.cleanup();
    }
  }, 120_000);

  it("imports rows that differ under a distinct name, saying so", async () => {
    const other = path.join(dir, "other-rows.palbundle");
    fs.copyFileSync(second, other);
    const b = new Database(other);
    b.prepare("UPDATE pal_turns SET user_content = user_content || ' (edited)' WHERE id = (SELECT min(id) FROM pal_turns)").run();
    b.close();
    const dst = tempDb();
    try {
      expect((await pal(dst.file, ["bundle", "import", first, "--json"])).code).toBe(0);
      const r = await pal(dst.file, ["bundle", "import", other]);
      expect(r.code, r.stderr).toBe(0);
      const names = rows(dst.file, "SELECT name FROM datasets ORDER BY id") as Array<{ name: string }>;
      expect(names).toHaveLength(2);
      expect(names[1].name).not.toBe(names[0].name);
      expect(names[1].name).toMatch(/^en \(bundle [0-9a-f]{8}, other rows [0-9a-f]{8}\)$/);
      expect(r.stdout).toContain(`its data set's rows came with the bundle as "${names[1].name}"`);
      expect(rows(dst.file, "SELECT dataset_id AS d FROM experiments ORDER BY id")).toEqual([{ d: 1 }, { d: 2 }]);
    } finally {
      dst.cleanup();
    }
  }, 120_000);
});
