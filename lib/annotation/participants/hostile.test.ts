/**
 * Attacks on the crowd flow (session 7's hostile round): forged links and ids, another participant's
 * work, a label given after the slot was given away, and what a participant's browser receives. Real SQLite.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser } from "@/lib/users/users";
import { createCampaign, presentAssignment, saveDraft, skipAssignment, submitLabels } from "@/lib/annotation";
import { joinCampaign, nextWork, serveNext } from ".";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const GOLD = PAIRWISE.split("\n")
  .filter((l) => l.trim())
  .slice(0, 2)
  .map((l, i) => JSON.stringify({ ...JSON.parse(l), id: `gold-${i}`, gold: { requirement: "Win" } }))
  .join("\n");
const SYSTEMS = [...new Set([...PAIRWISE.matchAll(/"system": *"([^"]+)"/g)].map((m) => m[1]))];

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

async function setup(crowd: Record<string, unknown> = {}, k = 1, name = "crowd") {
  const t = tempDb();
  cleanup = t.cleanup;
  const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  const make = (n: string) =>
    createCampaign(
      t.db,
      {
        name: n,
        kind: "pairwise-dialogue",
        perItem: k,
        annotatorIds: [],
        link: true,
        crowd: { completionCode: "DONE1", screenoutCode: "OUT1", goldRate: 0, ...crowd },
        gold: crowd.goldRate ? { fileName: "gold.jsonl", text: GOLD } : undefined,
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      r,
    );
  const c = make(name);
  return { ...t, c, token: c.link!.split("/").pop()!, other: make(`${name}-other`) };
}

const KEY = (n: number) => `browser-key-${String(n).padStart(8, "0")}`;
let sub = 0;
const label = (db: Parameters<typeof submitLabels>[0], uid: number, aid: number) =>
  submitLabels(db, uid, aid, { submissionId: `sub-${++sub}-xxxxxx`, values: { requirement: "Win", preference: "Tie" }, ms: 5000 });
const doneOn = (db: Parameters<typeof submitLabels>[0], itemId: number) =>
  (db.$client.prepare("select count(*) n from assignments where item_id = ? and status = 'done'").get(itemId) as { n: number }).n;

describe("crowd participants under attack", () => {
  it("a label on a skipped item is refused once others filled its k (a skip gave the slot back): k is never exceeded", async () => {
    const { db, token } = await setup({}, 1);
    const [u1, u2] = [1, 2].map((n) => joinCampaign(db, { token, pid: `P${n}`, browserKey: KEY(n) }).userId);
    const w1 = nextWork(db, u1);
    if (w1.state !== "item") throw new Error("no item");
    const item = (db.$client.prepare("select item_id from assignments where id = ?").get(w1.assignmentId) as { item_id: number }).item_id;
    skipAssignment(db, u1, w1.assignmentId, "later");
    // The skipped item goes back: u2 is served it (least-labelled first) and labels it.
    const w2 = nextWork(db, u2);
    if (w2.state !== "item") throw new Error("no item");
    expect((db.$client.prepare("select item_id from assignments where id = ?").get(w2.assignmentId) as { item_id: number }).item_id).toBe(
      item,
    );
    label(db, u2, w2.assignmentId);
    // u1 goes back to the skipped item and labels it: k = 1 is already met.
    expect(() => label(db, u1, w1.assignmentId)).toThrow(/others have labelled it/);
    expect(doneOn(db, item)).toBe(1);
  });

  it("a skipped item whose slot is still free may still be labelled", async () => {
    const { db, token } = await setup({}, 1);
    const u1 = joinCampaign(db, { token, pid: "P1", browserKey: KEY(1) }).userId;
    const w1 = nextWork(db, u1);
    if (w1.state !== "item") throw new Error("no item");
    skipAssignment(db, u1, w1.assignmentId, "later");
    expect(label(db, u1, w1.assignmentId)).toEqual({ duplicate: false });
  });

  it("forged, foreign and oversized links and ids are refused and change nothing", async () => {
    const { db, token, other } = await setup();
    const users = () => (db.$client.prepare("select count(*) n from users").get() as { n: number }).n;
    const before = users();
    for (const bad of ["A".repeat(22), "x".repeat(10_000), "../../api", `${token}\u202e`, ""])
      expect(() => joinCampaign(db, { token: bad, pid: "P1", browserKey: KEY(1) })).toThrow(/not valid/);
    for (const pid of ["p".repeat(65), "<script>", "P1\u202eevil", "P 1", "P1\n", "P1%00"])
      expect(() => joinCampaign(db, { token, pid, browserKey: KEY(1) })).toThrow(/PROLIFIC_PID: expected letters/);
    expect(() => joinCampaign(db, { token, pid: "P1", studyId: "s".repeat(100), browserKey: KEY(1) })).toThrow(/STUDY_ID/);
    expect(() => joinCampaign(db, { token, pid: "P1", browserKey: "short" })).toThrow(/browserKey/);
    expect(users()).toBe(before);

    // A participant of this link: their id works nowhere else, nobody else's assignment is theirs.
    const u1 = joinCampaign(db, { token, pid: "P1", browserKey: KEY(1) }).userId;
    const u2 = joinCampaign(db, { token, pid: "P2", browserKey: KEY(2) }).userId;
    expect(() => serveNext(db, u1, other.link!.split("/").pop()!)).toThrow(/another study/);
    const w2 = nextWork(db, u2);
    if (w2.state !== "item") throw new Error("no item");
    expect(() => presentAssignment(db, u1, w2.assignmentId)).toThrow(/no assignment/);
    expect(() => label(db, u1, w2.assignmentId)).toThrow(/no assignment/);
    expect(() => saveDraft(db, u1, w2.assignmentId, { values: { requirement: "Win" } })).toThrow(/no assignment/);
    expect(() => skipAssignment(db, u1, w2.assignmentId, "x")).toThrow(/no assignment/);
    expect(db.$client.prepare("select status, draft from assignments where id = ?").get(w2.assignmentId)).toEqual({
      status: "pending",
      draft: null,
    });
  });

  it("what a participant's browser receives names no system and no gold answer, on gold items too", async () => {
    const { db, token } = await setup({ goldRate: 0.5 }, 2);
    const u = joinCampaign(db, { token, pid: "P1", browserKey: KEY(1) }).userId;
    let w = nextWork(db, u);
    let gold = 0;
    while (w.state === "item") {
      const a = db.$client
        .prepare("select i.gold from assignments a join campaign_items i on i.id = a.item_id where a.id = ?")
        .get(w.assignmentId) as { gold: string | null };
      if (a.gold) gold++;
      const shown = JSON.stringify(presentAssignment(db, u, w.assignmentId));
      for (const s of SYSTEMS) expect(shown).not.toContain(s);
      expect(shown).not.toMatch(/gold|"system"|topic-\d|attention/i);
      label(db, u, w.assignmentId);
      w = nextWork(db, u);
    }
    expect(gold).toBeGreaterThan(0);
    expect(SYSTEMS.length).toBe(2);
  });
});
