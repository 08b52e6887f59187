import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser, listUsers } from "@/lib/users/users";
import { assignableUsers, createCampaign, presentAssignment, submitLabels, skipAssignment } from "@/lib/annotation";
import {
  assertParticipantMayWrite,
  serveNext,
  finishParticipant,
  joinCampaign,
  nextWork,
  participantForToken,
  participantQuality,
  setParticipantExcluded,
} from ".";
import { campaignLabels } from "../human-labels";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
/** Two attention checks: side a is the better one (gold "Win"). */
const GOLD = PAIRWISE.split("\n")
  .filter((l) => l.trim())
  .slice(0, 2)
  .map((l, i) => JSON.stringify({ ...JSON.parse(l), id: `gold-${i}`, gold: { requirement: "Win" } }))
  .join("\n");

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

async function setup(crowd: Record<string, unknown> = {}, k = 2, gold = false) {
  const t = tempDb();
  cleanup = t.cleanup;
  const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  const c = createCampaign(
    t.db,
    {
      name: "crowd",
      kind: "pairwise-dialogue",
      perItem: k,
      annotatorIds: [],
      link: true,
      crowd: { completionCode: "DONE1", screenoutCode: "OUT1", goldRate: 0, ...crowd },
      gold: gold ? { fileName: "gold.jsonl", text: GOLD } : undefined,
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    r,
  );
  const token = c.link!.split("/").pop()!;
  return { ...t, c, token };
}

const KEY = (n: number) => `browser-key-${String(n).padStart(8, "0")}`;
let sub = 0;
const label = (db: Parameters<typeof submitLabels>[0], uid: number, aid: number, requirement = "Win", ms = 5000) =>
  submitLabels(db, uid, aid, { submissionId: `sub-${++sub}-xxxxxx`, values: { requirement, preference: "Tie" }, ms });

describe("joining from a link", () => {
  it("keeps the Prolific ids, resumes the same PID from the same browser, refuses another browser", async () => {
    const { db, token, c } = await setup();
    const a = joinCampaign(db, { token, pid: "PID1", studyId: "S1", sessionId: "SE1", browserKey: KEY(1) });
    expect(a.participant).toMatchObject({ campaignId: c.id, prolificPid: "PID1", studyId: "S1", sessionId: "SE1", status: "active" });
    expect(a.participant.browserKey).not.toBe(KEY(1)); // stored hashed
    expect(joinCampaign(db, { token, pid: "PID1", browserKey: KEY(1) }).userId).toBe(a.userId);
    expect(() => joinCampaign(db, { token, pid: "PID1", browserKey: KEY(2) })).toThrow(/another browser/);
    expect(() => joinCampaign(db, { token: "x".repeat(22), pid: "PID1", browserKey: KEY(1) })).toThrow(/not valid/);
    expect(() => joinCampaign(db, { token, pid: "bad pid!", browserKey: KEY(3) })).toThrow(/PROLIFIC_PID/);
    const role = db.$client.prepare("select role, password_hash from users where id = ?").get(a.userId);
    expect(role).toEqual({ role: "participant", password_hash: "!" });
    expect(participantForToken(db, a.userId, token).id).toBe(a.participant.id);
    // Not an account: not listed with the users, not offered as an annotator, not assignable.
    expect(listUsers(db).some((u) => u.id === a.userId)).toBe(false);
    expect(assignableUsers(db).some((u) => u.id === a.userId)).toBe(false);
    expect(() =>
      createCampaign(
        db,
        {
          name: "lab",
          kind: "pairwise-dialogue",
          perItem: 1,
          annotatorIds: [a.userId],
          source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
        },
        a.userId,
      ),
    ).toThrow(/crowd participant/);
    expect(() => participantForToken(db, a.userId, "another-token-000000")).toThrow(/another study/);
  });

  it("caps the participants and asks for consent when the campaign has a consent text", async () => {
    const { db, token } = await setup({ maxParticipants: 1, consent: "I agree to take part." });
    expect(() => joinCampaign(db, { token, pid: "P1", browserKey: KEY(1) })).toThrow(/consent/);
    joinCampaign(db, { token, pid: "P1", browserKey: KEY(1), consent: true });
    expect(() => joinCampaign(db, { token, pid: "P2", browserKey: KEY(2), consent: true })).toThrow(/full/);
    // The one who joined still gets back in.
    expect(() => joinCampaign(db, { token, pid: "P1", browserKey: KEY(1) })).not.toThrow();
  });
});

describe("items served as people work", () => {
  it("serves least-labelled first, never one item twice to a person, k labels per item, then no work", async () => {
    const { db, token } = await setup({}, 2);
    const people = [1, 2, 3].map((n) => joinCampaign(db, { token, pid: `P${n}`, browserKey: KEY(n) }).userId);
    const seen = new Map<number, number[]>();
    let served = 0;
    for (let round = 0; round < 20; round++) {
      for (const u of people) {
        const w = nextWork(db, u);
        if (w.state !== "item") continue;
        served++;
        const item = db.$client.prepare("select item_id from assignments where id = ?").get(w.assignmentId) as { item_id: number };
        expect(seen.get(u) ?? []).not.toContain(item.item_id);
        seen.set(u, [...(seen.get(u) ?? []), item.item_id]);
        label(db, u, w.assignmentId);
      }
    }
    // 6 items × k=2 = 12 labels, no more.
    expect(served).toBe(12);
    const perItem = db.$client
      .prepare("select item_id, count(*) n from assignments where status = 'done' group by item_id")
      .all() as Array<{ n: number }>;
    expect(perItem.map((r) => r.n)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(nextWork(db, people[0]).state).toBe("no-work");
    // Least-labelled first: the first three served items are three different items.
    expect(new Set([seen.get(people[0])![0], seen.get(people[1])![0], seen.get(people[2])![0]]).size).toBe(3);
  });

  it("holds a served item; the hold lapses and the item goes to someone else; a late submit over k is refused", async () => {
    const { db, token } = await setup({ holdSeconds: 60 }, 1);
    const [u1, u2] = [1, 2].map((n) => joinCampaign(db, { token, pid: `P${n}`, browserKey: KEY(n) }).userId);
    const t0 = Date.now();
    const w1 = nextWork(db, u1, t0);
    if (w1.state !== "item") throw new Error("no item");
    // The same participant asking again gets the same item (resume), not a new one.
    expect(nextWork(db, u1, t0 + 1000)).toEqual(w1);
    const item1 = (db.$client.prepare("select item_id from assignments where id = ?").get(w1.assignmentId) as { item_id: number }).item_id;
    const itemOf = (id: number) =>
      (db.$client.prepare("select item_id from assignments where id = ?").get(id) as { item_id: number }).item_id;
    // While held, u2 gets another item.
    const w2 = nextWork(db, u2, t0 + 2000);
    if (w2.state !== "item") throw new Error("no item");
    expect(itemOf(w2.assignmentId)).not.toBe(item1);
    label(db, u2, w2.assignmentId);
    // u1 left; their hold lapses (its end moved into the past, as a minute passing would).
    db.$client.prepare("update assignments set held_until = ? where id = ?").run(Date.now() - 1, w1.assignmentId);
    // u2 is served item1 again in time (k=1 free again).
    let w = nextWork(db, u2);
    while (w.state === "item" && itemOf(w.assignmentId) !== item1) {
      label(db, u2, w.assignmentId);
      w = nextWork(db, u2);
    }
    if (w.state !== "item") throw new Error("item1 never came back");
    label(db, u2, w.assignmentId);
    // u1 comes back and submits late: refused (k=1 already met), and their stale hold is dropped.
    expect(() => label(db, u1, w1.assignmentId)).toThrow(/others have labelled it/);
    const back = nextWork(db, u1);
    expect(back.state === "item" ? itemOf(back.assignmentId) : null).not.toBe(item1);
  });

  it("a skipped item goes back; quota ends a participant's work", async () => {
    const { db, token } = await setup({ quota: 2 }, 1);
    const [u1, u2] = [1, 2].map((n) => joinCampaign(db, { token, pid: `P${n}`, browserKey: KEY(n) }).userId);
    const w = nextWork(db, u1);
    if (w.state !== "item") throw new Error();
    skipAssignment(db, u1, w.assignmentId, "cannot read it");
    const w2 = nextWork(db, u2);
    if (w2.state !== "item") throw new Error();
    expect(presentAssignment(db, u2, w2.assignmentId).assignmentId).toBe(w2.assignmentId);
    // Another participant's assignment is not found for u1.
    expect(() => presentAssignment(db, u1, w2.assignmentId)).toThrow(/no assignment/);
    const w3 = nextWork(db, u1);
    if (w3.state !== "item") throw new Error();
    label(db, u1, w3.assignmentId);
    expect(nextWork(db, u1).state).toBe("quota");
    // The queue's light call: the next item, or (none left) the page that says what comes next.
    expect(serveNext(db, u1, token)).toEqual({ url: `/join/${token}/work` });
    expect(serveNext(db, u2, token)).toEqual({ assignmentId: w2.assignmentId });
    expect(() => serveNext(db, u2, "another-token-000000")).toThrow(/another study/);
  });
});

describe("gold checks, finishing, exclusion", () => {
  it("mixes gold in at the rate; a participant failing it is screened out, one passing completes", async () => {
    const { db, token, c } = await setup({ goldRate: 0.5, quota: 4, minGoldAccuracy: 0.5 }, 3, true);
    const [good, bad] = [1, 2].map((n) => joinCampaign(db, { token, pid: `P${n}`, browserKey: KEY(n) }).userId);
    for (const [u, answer] of [
      [good, "Win"],
      [bad, "Lose"],
    ] as const) {
      let w = nextWork(db, u);
      while (w.state === "item") {
        // The answer meant for side a, pressed in the order shown (pairwise items are shown either way round).
        const swapped = (db.$client.prepare("select swapped from assignments where id = ?").get(w.assignmentId) as { swapped: number })
          .swapped;
        const shown = swapped ? { Win: "Lose", Lose: "Win" }[answer] : answer;
        label(db, u, w.assignmentId, shown, answer === "Lose" ? 500 : 5000);
        w = nextWork(db, u);
      }
      expect(w.state).toBe("quota");
    }
    const q = participantQuality(db, c.id);
    const g = q.find((x) => x.userId === good)!;
    const b = q.find((x) => x.userId === bad)!;
    expect(g).toMatchObject({ items: 4, goldChecked: 2, goldCorrect: 2, goldAccuracy: 1, medianSeconds: 5, tooFast: 0 });
    expect(b).toMatchObject({ items: 4, goldChecked: 2, goldCorrect: 0, goldAccuracy: 0, medianSeconds: 0.5, tooFast: 4 });
    expect(finishParticipant(db, good)).toEqual({ status: "completed", code: "DONE1" });
    expect(finishParticipant(db, bad)).toEqual({ status: "screened-out", code: "OUT1" });
    expect(nextWork(db, bad)).toEqual({ state: "finished", status: "screened-out" });
    // Finished: their answers are final (the assignment API checks this before any write).
    expect(() => assertParticipantMayWrite(db, bad, "participant")).toThrow(/finished/);
    expect(() => assertParticipantMayWrite(db, bad, "researcher")).not.toThrow();
    // Exclusion: the labels stay, and drop out of agreement.
    const before = campaignLabels(db, c.id).raters.length;
    setParticipantExcluded(db, c.id, b.participantId, true, "failed the checks");
    expect(campaignLabels(db, c.id).raters.length).toBe(before - 1);
    expect(db.$client.prepare("select count(*) n from labels").get()).toEqual({ n: 16 });
  });
});
