/**
 * Issue 43.2: most-disagreement-first serving, beside least-labelled first. Among items still needing
 * labels, the one whose done labels disagree most is served first; still never one item twice to a
 * person and never over k. Real SQLite; the labels already given are written as rows (what earlier
 * participants left), then fresh participants ask.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser } from "@/lib/users/users";
import { createCampaign, submitLabels } from "@/lib/annotation";
import { joinCampaign, nextWork } from ".";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const KEY = (n: number) => `browser-key-${String(n).padStart(8, "0")}`;

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

async function setup(order: "least-labelled" | "most-disagreement") {
  const t = tempDb();
  cleanup = t.cleanup;
  const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  const c = createCampaign(
    t.db,
    {
      name: "order",
      kind: "pairwise-dialogue",
      perItem: 3,
      annotatorIds: [],
      link: true,
      crowd: { goldRate: 0, order },
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    r,
  );
  const token = c.link!.split("/").pop()!;
  const db = t.db;
  const ids = (db.$client.prepare("select id from campaign_items order by position").all() as Array<{ id: number }>).map((x) => x.id);
  // Earlier participants' labels: item 0 unanimous (2), item 1 split Win/Lose (2), item 2 split three ways (3 = k, full), item 3 one label.
  const earlier = [1, 2, 3].map((n) => joinCampaign(db, { token, pid: `E${n}`, browserKey: KEY(n) }).userId);
  const given: Array<[number, string[]]> = [
    [ids[0], ["Win", "Win"]],
    [ids[1], ["Win", "Lose"]],
    [ids[2], ["Win", "Tie", "Lose"]],
    [ids[3], ["Tie"]],
  ];
  for (const [itemId, values] of given)
    values.forEach((v, i) => {
      const a = db.$client
        .prepare(
          "insert into assignments (campaign_id, item_id, annotator_id, position, status, submitted_at) values (?, ?, ?, 0, 'done', 1)",
        )
        .run(c.id, itemId, earlier[i]).lastInsertRowid;
      for (const dim of ["requirement", "preference"])
        db.$client.prepare("insert into labels (assignment_id, dimension, value, shown_value) values (?, ?, ?, ?)").run(a, dim, v, v);
    });
  const itemOf = (assignmentId: number) =>
    (db.$client.prepare("select item_id from assignments where id = ?").get(assignmentId) as { item_id: number }).item_id;
  return { db, token, ids, itemOf };
}

describe("most-disagreement first", () => {
  it("serves the split item before the unlabelled ones; the full one never; least-labelled serves the unlabelled first", async () => {
    const m = await setup("most-disagreement");
    const z = joinCampaign(m.db, { token: m.token, pid: "Z", browserKey: KEY(9) }).userId;
    const w = nextWork(m.db, z);
    if (w.state !== "item") throw new Error("no item");
    expect(m.itemOf(w.assignmentId)).toBe(m.ids[1]);
    // Held for Z, item 1 is now at k (2 done + Z's hold): another participant gets no slot of it, nor of full item 2.
    const y = joinCampaign(m.db, { token: m.token, pid: "Y", browserKey: KEY(8) }).userId;
    const wy = nextWork(m.db, y);
    if (wy.state !== "item") throw new Error("no item");
    expect([m.ids[1], m.ids[2]]).not.toContain(m.itemOf(wy.assignmentId));
    // Among items that all agree so far, fewest labels first (an unlabelled one, in the campaign's order).
    expect(m.itemOf(wy.assignmentId)).toBe(m.ids[4]);
    cleanup?.();

    const l = await setup("least-labelled");
    const z2 = joinCampaign(l.db, { token: l.token, pid: "Z", browserKey: KEY(9) }).userId;
    const w2 = nextWork(l.db, z2);
    if (w2.state !== "item") throw new Error("no item");
    expect(l.itemOf(w2.assignmentId)).toBe(l.ids[4]);
  });

  it("a participant works through every free item once, split ones first, never one twice, k never exceeded", async () => {
    const { db, token, ids, itemOf } = await setup("most-disagreement");
    const z = joinCampaign(db, { token, pid: "Z", browserKey: KEY(9) }).userId;
    const got: number[] = [];
    for (let w = nextWork(db, z); w.state === "item"; w = nextWork(db, z)) {
      got.push(itemOf(w.assignmentId));
      submitLabels(db, z, w.assignmentId, {
        submissionId: `s-${w.assignmentId}-xxxxxxxx`,
        values: { requirement: "Lose", preference: "Lose" },
        ms: 3000,
      });
    }
    // The split item first; then (all unanimous so far) fewest labels first, the campaign's order among equals;
    // the full item 2 never.
    expect(got).toEqual([ids[1], ids[4], ids[5], ids[3], ids[0]]);
    const over = db.$client
      .prepare("select count(*) n from (select item_id from assignments where status = 'done' group by item_id having count(*) > 3)")
      .get();
    expect(over).toEqual({ n: 0 });
  });
});
