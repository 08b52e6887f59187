/**
 * A run whose judge calls went through the Batch API (`pal run --batch-judge`, the TEST DOUBLE's batches)
 * travels with its judge batches: the bundle holds them (no key), an import records them as finished,
 * and verify replays every batched judge call from the bundled replies with the endpoint closed.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { palRunSetup, runPal, oneRun } from "@/test/pal-cli";
import { tempDb } from "@/test/db";
import { importPalset } from "@/lib/datasets/palset/import";
import { PALSET_EN } from "@/test/fixtures";

const CLOSED = "http://127.0.0.1:9/v1";
const RUN = oneRun("vanilla,vanilla-log", "requirement", "--users", "0000", "--json");

describe("pal bundle with judge batches", () => {
  const s = palRunSetup(1);

  it("bundles the run's judge batches; verify replays each batched judge call offline", async () => {
    const src = s.dbs[0].file;
    const run = await runPal(src, s.fake.baseURL, [...RUN, "--batch-judge", "--poll-seconds", "1"]);
    expect(run.code, run.stderr).toBe(0);
    const file = path.join(path.dirname(src), "batched.palbundle");
    const ex = await runPal(src, CLOSED, ["bundle", "export", "1", "--out", file]);
    expect(ex.code, ex.stderr).toBe(0);
    const b = new Database(file, { readonly: true });
    const batches = b.prepare("SELECT experiment_id AS e, status, lines FROM llm_batches").all() as Array<{
      e: number;
      status: string;
      lines: string;
    }>;
    b.close();
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((x) => x.e === 1 && x.status === "ingested" && JSON.parse(x.lines).length > 0)).toBe(true);

    const before = s.fake.log.length;
    const v = await runPal(src, CLOSED, ["bundle", "verify", file, "--json"]);
    expect(v.code, v.stderr + v.stdout.slice(0, 3000)).toBe(0);
    const rep = JSON.parse(v.stdout);
    expect(rep).toMatchObject({ ok: true, requests: 0, batches: { batches: batches.length, notAsked: [] } });
    expect(rep.batches.lines).toBeGreaterThan(0);
    expect(rep.batches.replayed).toBe(rep.batches.lines);
    expect(s.fake.log.length).toBe(before);
    const text = await runPal(src, CLOSED, ["bundle", "verify", file]);
    expect(text.stdout).toMatch(/judge batches: \d+, lines used \d+, replayed from the bundle \d+/);

    const dst = tempDb();
    try {
      await importPalset(dst.db, { paths: [PALSET_EN], name: "en", lang: "en" });
      const im = await runPal(dst.file, CLOSED, ["bundle", "import", file, "--json"]);
      expect(im.code, im.stderr).toBe(0);
      const d = new Database(dst.file, { readonly: true });
      expect(d.prepare("SELECT experiment_id AS e, status FROM llm_batches").all()).toEqual(
        batches.map(() => ({ e: 1, status: "ingested" })),
      );
      d.close();
    } finally {
      dst.cleanup();
      fs.rmSync(file, { force: true });
    }
  }, 180_000);
});
