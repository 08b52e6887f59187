import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { submitLabels } from "@/lib/annotation/queue";
import { joinCampaign, nextWork, participantQuality, setParticipantExcluded } from "@/lib/annotation/participants";
import { importLocomo } from "@/lib/datasets/locomo/import";
import { listConvItems } from "@/lib/tasks/convqa/items";
import { LOCOMO_DEMO } from "@/test/fixtures";

const run = promisify(execFile);
const root = path.resolve(__dirname, "..", "..");
const PAIRWISE = path.join(root, "fixtures/annotation/pairwise-demo.jsonl");
let dir: string;
let db: Db;
let annotator: number;

async function pal(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, "bin", "pal.mjs"), ...args], {
      cwd: dir,
      env: { ...process.env, PAL_DB: path.join(dir, "pal.db") },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-campaign-cli-"));
  db = openDb(path.join(dir, "pal.db"));
  await createUser(db, { email: "admin@x.io", role: "admin", password: "password-123" });
  annotator = (await createUser(db, { email: "a@x.io", role: "annotator", password: "password-123" })).id;
  const lines = fs.readFileSync(PAIRWISE, "utf8").split("\n").filter(Boolean);
  fs.writeFileSync(
    path.join(dir, "gold.jsonl"),
    lines
      .slice(0, 1)
      .map((l) => JSON.stringify({ ...JSON.parse(l), id: "check-1", gold: { requirement: "Win" } }))
      .join("\n"),
  );
  fs.writeFileSync(path.join(dir, "consent.md"), "I agree.");
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("pal campaign create", () => {
  it("--link prints the campaign and its participant link; export lists each label with annotator, seconds, gold and exclusion", async () => {
    const r = await pal(
      "campaign",
      "create",
      "--name",
      "Crowd study",
      "--kind",
      "pairwise-dialogue",
      "--items",
      PAIRWISE,
      "--k",
      "2",
      "--link",
      "--hold-seconds",
      "300",
      "--completion-code",
      "C0DE1",
      "--screenout-code",
      "OUT2",
      "--gold",
      "gold.jsonl",
      "--gold-rate",
      "0.5",
      "--consent",
      "consent.md",
      "--json",
    );
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({
      campaign: { id: expect.any(Number), items: 7, assignments: 0 },
      link: expect.stringMatching(/^\/join\/[\w-]{20,}$/),
    });
    const c = db.$client.prepare("select assignment, crowd from campaigns where id = ?").get(out.campaign.id) as {
      assignment: string;
      crowd: string;
    };
    expect(c.assignment).toBe("dynamic");
    expect(JSON.parse(c.crowd)).toMatchObject({
      holdSeconds: 300,
      completionCode: "C0DE1",
      screenoutCode: "OUT2",
      goldRate: 0.5,
      consent: "I agree.",
    });

    // Two participants label two items each (one gold among them), one is excluded.
    const token = out.link.split("/").pop();
    const people = ["PA", "PB"].map((pid) => joinCampaign(db, { token, pid, browserKey: `key-${pid}-000000000000`, consent: true }).userId);
    for (const u of people)
      for (let i = 0; i < 2; i++) {
        const w = nextWork(db, u);
        if (w.state !== "item") throw new Error("no work");
        submitLabels(db, u, w.assignmentId, {
          submissionId: `cli-${u}-${i}-xxxx`,
          values: { requirement: "Win", preference: "Tie" },
          ms: 1500,
        });
      }
    const q = participantQuality(db, out.campaign.id);
    setParticipantExcluded(db, out.campaign.id, q[1].participantId, true, "too fast");
    const e = await pal("campaign", "export", "--campaign", String(out.campaign.id), "--format", "json");
    const labels = JSON.parse(e.stdout).labels as Array<Record<string, unknown>>;
    expect(labels).toHaveLength(2 * 2 * 2);
    for (const l of labels) {
      expect(l.annotator).toMatch(/^P-[0-9a-f]{10}$/); // pseudonymous, never the Prolific id
      expect(l).toMatchObject({ seconds: 1.5, tooFast: true });
      expect(l.excluded).toBe(l.annotator === q[1].code);
    }
    // Each participant met the gold item (rate 0.5: the second item); requirement is checked, preference is not.
    expect(labels.filter((l) => l.item === "check-1" && l.dimension === "requirement").map((l) => typeof l.gold)).toEqual([
      "boolean",
      "boolean",
    ]);
    expect(labels.filter((l) => l.dimension === "preference").every((l) => l.gold === null)).toBe(true);
    expect(labels.every((l) => l.version === 1)).toBe(true);

    // The same labels as a Hugging Face datasets folder: Parquet plus a card naming it.
    const pq = await pal("campaign", "export", "--campaign", String(out.campaign.id), "--format", "parquet", "--out", "hf");
    expect(pq.stdout).toMatch(/8 labels written/);
    const { asyncBufferFromFile, parquetReadObjects } = await import("hyparquet");
    const read = await parquetReadObjects({ file: await asyncBufferFromFile(path.join(dir, "hf", "labels.parquet")) });
    expect(read).toHaveLength(8);
    expect(read.map((r) => r.annotator).sort()).toEqual(labels.map((l) => l.annotator).sort());
    expect(read.find((r) => r.item === "check-1" && r.dimension === "preference")).toMatchObject({
      gold: null,
      seconds: 1.5,
      guideline_version: 1,
    });
    expect(read.filter((r) => r.excluded)).toHaveLength(4);
    expect(fs.readFileSync(path.join(dir, "hf", "README.md"), "utf8")).toMatch(
      /data_files: labels\.parquet[\s\S]*name: too_fast\n      dtype: bool/,
    );
  }, 60_000);

  it("--annotators deals items out at creation; bad input is named and stores nothing", async () => {
    const r = await pal(
      "campaign",
      "create",
      "--name",
      "Lab",
      "--kind",
      "pairwise-dialogue",
      "--items",
      PAIRWISE,
      "--k",
      "1",
      "--annotators",
      String(annotator),
      "--json",
    );
    expect(JSON.parse(r.stdout)).toEqual({ campaign: { id: expect.any(Number), items: 6, assignments: 6 } });
    const before = db.$client.prepare("select count(*) n from campaigns").get();
    const bad = await pal(
      "campaign",
      "create",
      "--name",
      "X",
      "--kind",
      "pairwise-dialogue",
      "--items",
      PAIRWISE,
      "--link",
      "--hold-seconds",
      "0",
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/crowd\.holdSeconds/);
    const both = await pal(
      "campaign",
      "create",
      "--name",
      "X",
      "--kind",
      "pairwise-dialogue",
      "--items",
      PAIRWISE,
      "--link",
      "--annotators",
      String(annotator),
    );
    expect(both.stderr).toMatch(/annotators: a link campaign/);
    const missing = await pal("campaign", "create", "--name", "X", "--kind", "pairwise-dialogue", "--items", "nope.jsonl", "--link");
    expect(missing.stderr).toMatch(/--items: cannot read nope.jsonl/);
    expect(db.$client.prepare("select count(*) n from campaigns").get()).toEqual(before);
  }, 60_000);

  it("--attention-rate makes attention checks, --order sets the serving order; a bad one is named and nothing stored", async () => {
    const args = ["campaign", "create", "--name", "Checks", "--kind", "pairwise-dialogue", "--items", PAIRWISE, "--link", "--json"];
    const before = db.$client.prepare("select count(*) n from campaigns").get();
    const bad = await pal(...args, "--order", "random");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/crowd\.order/);
    const tooMany = await pal(...args, "--attention-rate", "0.8");
    expect(tooMany.stderr).toMatch(/crowd\.attentionRate/);
    expect(db.$client.prepare("select count(*) n from campaigns").get()).toEqual(before);
    const ok = await pal(...args, "--attention-rate", "0.25", "--max-attention-fails", "0", "--order", "most-disagreement");
    expect(ok.code).toBe(0);
    const id = JSON.parse(ok.stdout).campaign.id;
    const c = db.$client.prepare("select crowd from campaigns where id = ?").get(id) as { crowd: string };
    expect(JSON.parse(c.crowd)).toMatchObject({ attentionRate: 0.25, maxAttentionFails: 0, order: "most-disagreement" });
    const checks = db.$client
      .prepare("select attention, count(*) n from campaign_items where campaign_id = ? and attention is not null group by 1 order by 1")
      .all(id);
    expect(checks).toEqual([
      { attention: "broken-reply", n: 1 },
      { attention: "identical-pair", n: 2 },
    ]);
  }, 60_000);

  it("--experiment: an answer-correctness campaign from a LoCoMo experiment's answers of one --method (issue 42)", async () => {
    const ds = await importLocomo(db, { paths: [LOCOMO_DEMO], name: "loc" });
    const items = listConvItems(db, ds.datasetId, "all");
    const exp = db.$client
      .prepare(
        "insert into experiments (name, dataset_id, dataset_hash, config, config_hash, status) values ('loc run', ?, 'h', '{}', 'c', 'done') returning id",
      )
      .get(ds.datasetId) as { id: number };
    const job = db.$client.prepare(
      "insert into jobs (experiment_id, method, task, item_key, status, output) values (?, ?, 'locomo', ?, 'done', ?)",
    );
    for (const it of items) job.run(exp.id, "turn-rag", it.itemKey, JSON.stringify({ answer: `answer to ${it.itemKey}` }));
    const before = db.$client.prepare("select count(*) n from campaigns").get();
    const neither = await pal("campaign", "create", "--name", "X", "--kind", "answer-correctness", "--annotators", String(annotator));
    expect(neither.stderr).toMatch(/--items or --experiment: give one of them/);
    const noMethod = await pal(
      "campaign",
      "create",
      "--name",
      "X",
      "--kind",
      "answer-correctness",
      "--experiment",
      String(exp.id),
      "--annotators",
      String(annotator),
    );
    expect(noMethod.stderr).toMatch(/--method: name the method on side A/);
    const wrong = await pal(
      "campaign",
      "create",
      "--name",
      "X",
      "--kind",
      "answer-correctness",
      "--experiment",
      String(exp.id),
      "--method",
      "vanilla",
      "--annotators",
      String(annotator),
    );
    expect(wrong.stderr).toContain(`source: experiment ${exp.id} has no finished LoCoMo or LongMemEval answer of vanilla (run 1)`);
    expect(db.$client.prepare("select count(*) n from campaigns").get()).toEqual(before);
    const r = await pal(
      "campaign",
      "create",
      "--name",
      "turn-rag answers",
      "--kind",
      "answer-correctness",
      "--experiment",
      String(exp.id),
      "--method",
      "turn-rag",
      "--k",
      "1",
      "--annotators",
      String(annotator),
      "--json",
    );
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ campaign: { id: expect.any(Number), items: items.length, assignments: items.length } });
    const id = JSON.parse(r.stdout).campaign.id as number;
    const contents = db.$client.prepare("select content from campaign_items where campaign_id = ?").all(id) as Array<{ content: string }>;
    for (const c of contents) expect(c.content).not.toMatch(/turn-rag|locomo/);
  }, 60_000);

  it("--title naming a compared system is refused unless --show-system-names, which is then recorded (issue 40.15)", async () => {
    const args = ["campaign", "create", "--name", "h2memory vs vanilla-log", "--kind", "pairwise-dialogue", "--items", PAIRWISE];
    const refused = await pal(...args, "--link", "--title", "Is H2Memory better?");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/annotatorTitle: the title shown to annotators names “h2memory”/);
    const shown = await pal(...args, "--link", "--title", "Is H2Memory better?", "--show-system-names", "--json");
    expect(shown.code, shown.stderr).toBe(0);
    const id = JSON.parse(shown.stdout).campaign.id;
    const row = db.$client.prepare("select annotator_title, blinding_override from campaigns where id = ?").get(id) as {
      annotator_title: string;
      blinding_override: string;
    };
    expect(row.annotator_title).toBe("Is H2Memory better?");
    expect(JSON.parse(row.blinding_override).named).toEqual([{ system: "h2memory", where: "title shown to annotators" }]);
  }, 60_000);
});
