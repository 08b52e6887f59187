/** `pal export experiment ID --items` on a PAL-Set run: one line per done job with the item's question, reference and scores. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { oneRun, palRunSetup, runPal } from "@/test/pal-cli";

describe("pal export experiment --items (existing tasks)", () => {
  const s = palRunSetup(1);

  it("writes one JSON line per done job, to a file or stdout", async () => {
    const file = s.dbs[0].file;
    const run = await runPal(file, s.fake.baseURL, oneRun("vanilla", "requirement,solution", "--json"));
    expect(run.code, run.stderr).toBe(0);
    const id = JSON.parse(run.stdout).experiment as number;
    const out = path.join(path.dirname(file), "items.jsonl");
    const r = await runPal(file, s.fake.baseURL, ["export", "experiment", String(id), "--items", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const lines = fs
      .readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const d = new Database(file, { readonly: true });
    const done = (d.prepare("SELECT count(*) AS n FROM jobs WHERE experiment_id = ? AND status = 'done'").get(id) as { n: number }).n;
    d.close();
    expect(lines.length).toBe(done);
    const req = lines.find((l) => l.task === "requirement")!;
    expect(Object.keys(req)).toEqual(["task", "method", "replicate", "item", "question", "output", "reference", "scores"]);
    expect(req).toMatchObject({ method: "vanilla", replicate: 0, question: expect.any(String), reference: expect.any(String) });
    expect(req.output).toEqual({ requirement: expect.any(String) });
    expect(req.scores["bleu.bleu1"]).toEqual(expect.any(Number));
    expect(req.scores["gscore.gscore"]).toEqual(expect.any(Number));
    const sol = lines.find((l) => l.task === "solution")!;
    expect(Array.isArray(sol.reference)).toBe(true);
    const stdout = await runPal(file, s.fake.baseURL, ["export", "experiment", String(id), "--items"]);
    expect(stdout.stdout.trim().split("\n").length).toBe(done);
    const bad = await runPal(file, s.fake.baseURL, ["export", "experiment", String(id)]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("add --items");
    const missing = await runPal(file, s.fake.baseURL, ["export", "experiment", "999", "--items"]);
    expect(missing.stderr).toContain("no experiment 999");
  }, 300_000);
});
