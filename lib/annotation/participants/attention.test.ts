/**
 * Issue 43.3: attention checks generated from a campaign's own items, served at a set rate, looking like
 * any item to the participant; their results feed the quality table and the screen-out rule, and they
 * never enter agreement or the items table as real labels (the export marks them). Real SQLite.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import type { Db } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { createCampaign, presentAssignment, submitLabels } from "@/lib/annotation";
import { kindDef } from "../kinds";
import { campaignLabels } from "../human-labels";
import { itemsOverview } from "../items-overview";
import { exportCampaign } from "../export";
import { finishParticipant, joinCampaign, makeAttentionItems, nextWork, participantQuality, attentionCount } from ".";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const RATINGS = [1, 2, 3, 4]
  .map((i) => JSON.stringify({ id: `r-${i}`, context: { profile: `user ${i}` }, output: `A calm museum visit on Sunday, number ${i}.` }))
  .join("\n");
const ANSWERS = [1, 2, 3]
  .map((i) => JSON.stringify({ item: `q-${i}`, question: `Where did Caroline move in year ${i}?`, reference: "Sweden", output: "Sweden" }))
  .join("\n");

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

const KEY = (n: number) => `browser-key-${String(n).padStart(8, "0")}`;
let sub = 0;

async function setup(kind: string, text: string, crowd: Record<string, unknown>, k = 2) {
  const t = tempDb();
  cleanup = t.cleanup;
  const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  const c = createCampaign(
    t.db,
    {
      name: "crowd",
      kind,
      perItem: k,
      annotatorIds: [],
      link: true,
      crowd: { completionCode: "DONE1", screenoutCode: "OUT1", goldRate: 0, ...crowd },
      source: { kind: "upload", fileName: "items.jsonl", text },
    },
    r,
  );
  return { ...t, c, token: c.link!.split("/").pop()! };
}

type Row = { id: number; attention: string | null; gold: string | null; external_id: string; content: string };
const items = (db: Db) =>
  db.$client.prepare("select id, attention, gold, external_id, content from campaign_items order by position").all() as Row[];
const outputs = (db: Db, itemId: number) =>
  Object.fromEntries(
    (
      db.$client
        .prepare("select s.slot, o.output from campaign_outputs o join campaign_systems s on s.id = o.system_id where o.item_id = ?")
        .all(itemId) as Array<{ slot: string; output: string }>
    ).map((o) => [o.slot, JSON.parse(o.output)]),
  );

describe("generated attention checks", () => {
  it("pairwise: identical pairs expect Tie, a broken side expects the other to win; the sides keep the systems of any item", async () => {
    const { db } = await setup("pairwise-dialogue", PAIRWISE, { attentionRate: 0.25 });
    const all = items(db);
    const checks = all.filter((i) => i.attention);
    expect(checks.length).toBe(attentionCount(6, 0.25)); // ceil(6 × 0.25 / 0.75) + 1 = 3
    expect(all.filter((i) => !i.attention && !i.gold)).toHaveLength(6);
    const identical = checks.filter((i) => i.attention === "identical-pair");
    const broken = checks.filter((i) => i.attention === "broken-reply");
    expect(identical.length).toBeGreaterThan(0);
    expect(broken.length).toBeGreaterThan(0);
    for (const i of identical) {
      const o = outputs(db, i.id);
      expect(o.A).toEqual(o.B);
      expect(JSON.parse(i.gold!)).toEqual({ requirement: "Tie", preference: "Tie" });
    }
    for (const i of broken) {
      const o = outputs(db, i.id);
      const gold = JSON.parse(i.gold!) as Record<string, string>;
      const brokenSide = gold.requirement === "Win" ? "B" : "A";
      expect(gold.preference).toBe(gold.requirement);
      // The source item (its sides as stored, slot A the same system throughout): the same content, its own dialogues.
      const src = all.find((x) => x.external_id === i.external_id.split("~")[1])!;
      expect(JSON.parse(i.content)).toEqual(JSON.parse(src.content));
      const so = outputs(db, src.id);
      const intact = brokenSide === "A" ? so.B : so.A;
      const original = brokenSide === "A" ? so.A : so.B;
      expect(o[brokenSide === "A" ? "B" : "A"]).toEqual(intact);
      const turns = o[brokenSide] as Array<{ role: string; content: string }>;
      // User turns kept, every assistant turn replaced by word salad of at least 12 words.
      expect(turns.filter((t) => t.role === "user")).toEqual(original.filter((t: { role: string }) => t.role === "user"));
      for (const t of turns.filter((x) => x.role === "assistant")) {
        expect(original.some((x: { content: string }) => x.content === t.content)).toBe(false);
        expect(t.content.split(" ").length).toBeGreaterThanOrEqual(12);
      }
    }
    // Two systems only: the checks' sides are stored under the same A and B as every item.
    expect(db.$client.prepare("select count(*) n from campaign_systems").get()).toEqual({ n: 2 });
  });

  it("rating kinds: a broken output expects the lowest rating; answers are broken from the question, never the reference", async () => {
    const rating = makeAttentionItems(
      kindDef("output-rating"),
      RATINGS.split("\n").map((l) => kindDef("output-rating").parseUpload!(JSON.parse(l), "x")),
      0.2,
      1,
      new Set(),
    );
    expect(rating.length).toBeGreaterThan(0);
    for (const r of rating) {
      expect(r).toMatchObject({ attention: "broken-reply", gold: { quality: "1" } });
      expect(r.content.output).not.toMatch(/^A calm museum visit/);
      expect(r.content.context).toEqual({ profile: expect.stringMatching(/^user \d$/) });
    }
    const def = kindDef("answer-correctness");
    const answers = makeAttentionItems(
      def,
      ANSWERS.split("\n").map((l) => def.parseUpload!(JSON.parse(l), "x")),
      0.3,
      1,
      new Set(),
    );
    for (const a of answers) {
      expect(a.gold).toEqual({ correctness: "wrong" });
      expect(String(a.content.output).toLowerCase()).not.toContain("sweden");
    }
    // A kind without checks (sampled PAL-Set sessions) refuses a rate, naming the field.
    expect(() => makeAttentionItems(kindDef("session-quality"), [{ externalId: "s", content: {} }], 0.1, 1, new Set())).toThrow(
      /crowd\.attentionRate: session-quality campaigns have no automatic attention checks/,
    );
    expect(makeAttentionItems(kindDef("session-quality"), [{ externalId: "s", content: {} }], 0, 1, new Set())).toEqual([]);
  });

  it("served at the rate, shaped as any item, outside k; results feed quality and the screen-out; never real labels", async () => {
    const { db, token, c } = await setup("pairwise-dialogue", PAIRWISE, { attentionRate: 0.25, maxAttentionFails: 0 }, 2);
    const [good, bad] = [1, 2].map((n) => joinCampaign(db, { token, pid: `P${n}`, browserKey: KEY(n) }).userId);
    const attentionOf = new Map(items(db).map((i) => [i.id, i.gold ? (JSON.parse(i.gold) as Record<string, string>) : null]));
    const shapes = new Set<string>();
    for (const u of [good, bad]) {
      let w = nextWork(db, u);
      while (w.state === "item") {
        const a = db.$client.prepare("select item_id, swapped from assignments where id = ?").get(w.assignmentId) as {
          item_id: number;
          swapped: number;
        };
        const shown = presentAssignment(db, u, w.assignmentId);
        // Same keys, the same side labels, nothing naming a check or an item id.
        shapes.add(JSON.stringify(Object.keys(shown).sort()));
        expect(JSON.stringify(shown)).not.toMatch(/attention|gold|identical|broken|topic-\d~/i);
        const gold = attentionOf.get(a.item_id);
        // The good participant answers what an attentive reader answers; the bad one always presses W.
        const canonical = gold && u === good ? gold.requirement : "Win";
        const pressed = a.swapped ? ({ Win: "Lose", Lose: "Win", Tie: "Tie" } as Record<string, string>)[canonical] : canonical;
        submitLabels(db, u, w.assignmentId, {
          submissionId: `sub-${++sub}-xxxxxx`,
          values: { requirement: u === bad ? "Win" : pressed, preference: u === bad ? "Win" : pressed },
          ms: 4000,
        });
        w = nextWork(db, u);
      }
    }
    expect(shapes.size).toBe(1);
    // Each labelled the six items and met the checks at about a quarter of what they were served.
    const q = participantQuality(db, c.id);
    const g = q.find((x) => x.userId === good)!;
    const b = q.find((x) => x.userId === bad)!;
    expect(g.attentionChecked).toBe(b.attentionChecked);
    expect(g.attentionChecked).toBeGreaterThanOrEqual(1);
    expect(g.attentionChecked).toBeLessThanOrEqual(Math.ceil(0.25 * g.items));
    expect(g).toMatchObject({ attentionFailed: 0, goldChecked: 0 });
    // W on an identical pair fails; W where B was broken passes; at least one identical pair or A-broken among them.
    expect(b.attentionFailed).toBeGreaterThan(0);
    // k is met by real items alone: every real item has exactly two labels, the checks are outside k.
    const perReal = db.$client
      .prepare(
        "select count(*) n from assignments a join campaign_items i on i.id = a.item_id where i.gold is null and a.status = 'done' group by a.item_id",
      )
      .all() as Array<{ n: number }>;
    expect(perReal.map((x) => x.n)).toEqual([2, 2, 2, 2, 2, 2]);
    // Screen-out: more failed checks than allowed (0 here).
    expect(finishParticipant(db, good)).toEqual({ status: "completed", code: "DONE1" });
    expect(finishParticipant(db, bad)).toEqual({ status: "screened-out", code: "OUT1" });
    // Not real labels: agreement reads the six real items only, the items table leaves the checks out, the export marks them.
    expect(campaignLabels(db, c.id).items).toHaveLength(6);
    expect(itemsOverview(db, c.id).total).toBe(6);
    const exported = JSON.parse(exportCampaign(db, c.id, "json")).labels as Array<{ item: string; attention: string | null }>;
    const marked = exported.filter((l) => l.attention);
    expect(marked.length).toBe((g.attentionChecked + b.attentionChecked) * 2);
    expect(marked.every((l) => l.item.startsWith("attention-"))).toBe(true);
    expect(exported.filter((l) => !l.attention).every((l) => /^topic-\d$/.test(l.item))).toBe(true);
    const csv = exportCampaign(db, c.id, "csv");
    expect(csv.split("\n")[0]).toContain("attention");
  });
});
