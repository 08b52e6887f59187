import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "test/crowd-serve-worker.ts", ...args], {
      cwd: ROOT,
      env,
    });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("serving items under concurrency", () => {
  it("four processes of participants racing for six items: k never exceeded, nobody labels an item twice, every item filled", async () => {
    const t = tempDb();
    cleanup = t.cleanup;
    const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    const c = createCampaign(
      t.db,
      {
        name: "race",
        kind: "pairwise-dialogue",
        perItem: 3,
        annotatorIds: [],
        link: true,
        crowd: { goldRate: 0 },
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      r,
    );
    const token = c.link!.split("/").pop()!;
    const env = { ...process.env, PAL_DB: t.file };
    const results = await Promise.all([0, 1, 2, 3].map((p) => run([token, `A${p}`, `B${p}`, `C${p}`], env)));
    for (const x of results) expect(x.err, x.err).not.toMatch(/SQLITE_BUSY|Error/);
    expect(results.map((x) => x.code)).toEqual([0, 0, 0, 0]);
    expect(results.reduce((n, x) => n + JSON.parse(x.out).labelled, 0)).toBe(6 * 3);
    const perItem = t.db.$client
      .prepare("select item_id, count(*) n from assignments where status = 'done' group by item_id")
      .all() as Array<{ n: number }>;
    expect(perItem.map((x) => x.n)).toEqual([3, 3, 3, 3, 3, 3]);
    const twice = t.db.$client
      .prepare("select count(*) n from (select item_id, annotator_id from assignments group by 1, 2 having count(*) > 1)")
      .get();
    expect(twice).toEqual({ n: 0 });
    expect(t.db.$client.prepare("select count(*) n from labels").get()).toEqual({ n: 6 * 3 * 2 });
  }, 90_000);

  it("most-disagreement first: four processes racing with disagreeing answers and an attention rate: k never exceeded, nobody labels an item twice", async () => {
    const t = tempDb();
    cleanup = t.cleanup;
    const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    const c = createCampaign(
      t.db,
      {
        name: "race-disagreement",
        kind: "pairwise-dialogue",
        perItem: 3,
        annotatorIds: [],
        link: true,
        crowd: { goldRate: 0, order: "most-disagreement", attentionRate: 0.2 },
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      r,
    );
    const token = c.link!.split("/").pop()!;
    const env = { ...process.env, PAL_DB: t.file, CROWD_VARY: "1" };
    const results = await Promise.all([0, 1, 2, 3].map((p) => run([token, `A${p}`, `B${p}`, `C${p}`], env)));
    for (const x of results) expect(x.err, x.err).not.toMatch(/SQLITE_BUSY|Error/);
    expect(results.map((x) => x.code)).toEqual([0, 0, 0, 0]);
    // Real items: exactly k each (attention checks are outside k, any number of people may meet one).
    const perItem = t.db.$client
      .prepare(
        "select a.item_id, count(*) n from assignments a join campaign_items i on i.id = a.item_id where a.status = 'done' and i.attention is null group by a.item_id",
      )
      .all() as Array<{ n: number }>;
    expect(perItem.map((x) => x.n)).toEqual([3, 3, 3, 3, 3, 3]);
    const twice = t.db.$client
      .prepare("select count(*) n from (select item_id, annotator_id from assignments group by 1, 2 having count(*) > 1)")
      .get();
    expect(twice).toEqual({ n: 0 });
    // The labels did disagree (the order had splits to chase), and the checks were served.
    const split = t.db.$client
      .prepare(
        "select count(*) n from (select a.item_id from labels l join assignments a on a.id = l.assignment_id where l.dimension = 'requirement' group by a.item_id having count(distinct l.value) > 1)",
      )
      .get() as { n: number };
    expect(split.n).toBeGreaterThan(0);
    const checks = t.db.$client
      .prepare(
        "select count(*) n from assignments a join campaign_items i on i.id = a.item_id where i.attention is not null and a.status = 'done'",
      )
      .get() as { n: number };
    expect(checks.n).toBeGreaterThan(0);
  }, 90_000);
});
