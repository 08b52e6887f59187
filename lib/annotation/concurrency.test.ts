import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser } from "@/lib/users/users";
import { campaignAgreement, createCampaign, myQueue } from "@/lib/annotation";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "test/annotation-submit-worker.ts", ...args], {
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

async function setup() {
  const t = tempDb();
  cleanup = t.cleanup;
  const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  const a = [];
  for (const e of ["a1@x.io", "a2@x.io"]) a.push((await createUser(t.db, { email: e, role: "annotator", password: "password-123" })).id);
  const c = createCampaign(
    t.db,
    { name: "p", kind: "pairwise-dialogue", perItem: 2, annotatorIds: a, source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE } },
    r,
  );
  return { ...t, a, c };
}

describe("labels under concurrency", () => {
  it("four processes racing on the same submissions store each label once, with no busy errors", async () => {
    const { db, file, a, c } = await setup();
    const ids = a.map((u) => myQueue(db, u, c.id).entries.map((e) => String(e.assignmentId)));
    const env = { ...process.env, PAL_DB: file };
    const results = await Promise.all([
      run([String(a[0]), ...ids[0]], env),
      run([String(a[0]), ...ids[0]], env),
      run([String(a[1]), ...ids[1]], env),
      run([String(a[1]), ...ids[1]], env),
    ]);
    for (const r of results) expect(r.err, r.err).not.toMatch(/SQLITE_BUSY|Error/);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    // 24 submissions reached the database per annotator; 6 were new, the rest recognised as repeats.
    const dups = results.map((r) => JSON.parse(r.out).duplicates as number);
    expect(dups[0] + dups[1]).toBe(ids[0].length * 4 - ids[0].length);
    expect(db.$client.prepare("select count(*) n from labels").get()).toEqual({ n: 12 * 2 });
    expect(db.$client.prepare("select count(*) n from label_history").get()).toEqual({ n: 0 });
  }, 60_000);

  it("`pal metrics agreement --campaign` and `pal campaign export` print the dashboard's numbers", async () => {
    const { db, file, a, c } = await setup();
    const env = { ...process.env, PAL_DB: file };
    const ids = a.map((u) => myQueue(db, u, c.id).entries.map((e) => String(e.assignmentId)));
    await Promise.all([run([String(a[0]), ...ids[0]], env), run([String(a[1]), ...ids[1].slice(0, 3)], env)]);
    const dashboard = JSON.parse(JSON.stringify(campaignAgreement(db, c.id)));
    const pal = (...args: string[]) => spawnSync(process.execPath, ["bin/pal.mjs", ...args], { cwd: ROOT, env, encoding: "utf8" });
    const m = pal("metrics", "agreement", "--campaign", String(c.id), "--json");
    expect(m.status, m.stderr).toBe(0);
    expect(JSON.parse(m.stdout)).toEqual(dashboard);
    const one = JSON.parse(pal("metrics", "agreement", "--campaign", String(c.id), "--dimension", "preference", "--json").stdout);
    expect(one.dimensions).toEqual(dashboard.dimensions.filter((d: { dimension: { key: string } }) => d.dimension.key === "preference"));
    const ex = pal("campaign", "export", "--campaign", String(c.id), "--format", "json");
    // The export adds when the report was computed and that it is current (the CLI computes it there and then).
    const { computedAt, current, ...exported } = JSON.parse(ex.stdout).agreement;
    expect(exported).toEqual(dashboard);
    expect(current).toBe(true);
    expect(Number.isFinite(Date.parse(computedAt))).toBe(true);
    const csv = pal("campaign", "export", "--campaign", String(c.id), "--format", "csv");
    expect(csv.stdout.trim().split("\n")).toHaveLength(1 + (6 + 3) * 2);
    const bad = pal("metrics", "agreement", "--campaign", "999");
    expect(bad.status).not.toBe(0);
    expect(bad.stderr.trim()).toBe("pal: no campaign with id 999");
  }, 60_000);
});
