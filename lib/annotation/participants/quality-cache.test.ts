/**
 * Issue 43.3 / the participants table: read from a cached copy computed in the background (as the
 * agreement report), never inside the page request; stale after a label, a join, a finish or an
 * exclusion; shown with its age meanwhile. Real SQLite.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser } from "@/lib/users/users";
import { createCampaign, submitLabels } from "@/lib/annotation";
import {
  computeQuality,
  finishParticipant,
  joinCampaign,
  nextWork,
  participantQuality,
  qualityIdle,
  qualitySnapshot,
  setParticipantExcluded,
} from ".";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const KEY = (n: number) => `browser-key-${String(n).padStart(8, "0")}`;

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

async function setup() {
  const t = tempDb();
  cleanup = t.cleanup;
  const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  const c = createCampaign(
    t.db,
    {
      name: "cache",
      kind: "pairwise-dialogue",
      perItem: 2,
      annotatorIds: [],
      link: true,
      crowd: { goldRate: 0, attentionRate: 0.3, quota: 3 },
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    r,
  );
  return { ...t, c, token: c.link!.split("/").pop()! };
}

let sub = 0;
function labelNext(db: Parameters<typeof nextWork>[0], u: number): boolean {
  const w = nextWork(db, u);
  if (w.state !== "item") return false;
  submitLabels(db, u, w.assignmentId, { submissionId: `s-${++sub}-xxxxxxxx`, values: { requirement: "Win", preference: "Win" }, ms: 2000 });
  return true;
}

describe("the participants table in the background", () => {
  it("is computed off the request, stale after labels, joins, finishes and exclusions, and shown old with its age meanwhile", async () => {
    const { db, token, c } = await setup();
    const a = joinCampaign(db, { token, pid: "A", browserKey: KEY(1) }).userId;
    // Nothing computed yet: the page gets no rows and a refresh is queued (never computed in the call).
    const first = qualitySnapshot(db, c.id);
    expect(first).toMatchObject({ rows: null, current: false, refreshing: true, ageMs: null });
    await qualityIdle(db);
    const s1 = qualitySnapshot(db, c.id);
    expect(s1.current).toBe(true);
    expect(s1.rows).toHaveLength(1);
    expect(s1.rows![0]).toMatchObject({ prolificPid: "A", items: 0 });

    // A label: the stored table is stale; the page still shows it (with its age) and asks for a new one.
    labelNext(db, a);
    const s2 = qualitySnapshot(db, c.id);
    expect(s2).toMatchObject({ current: false, refreshing: true });
    expect(s2.rows![0].items).toBe(0);
    expect(s2.ageMs).toBeGreaterThanOrEqual(0);
    await qualityIdle(db);
    expect(qualitySnapshot(db, c.id).rows![0].items).toBe(1);

    // A join (no label yet) makes it stale too.
    const b = joinCampaign(db, { token, pid: "B", browserKey: KEY(2) }).userId;
    expect(qualitySnapshot(db, c.id).current).toBe(false);
    await qualityIdle(db);
    expect(qualitySnapshot(db, c.id).rows).toHaveLength(2);

    // A finish (status) and an exclusion as well.
    while (labelNext(db, a));
    qualitySnapshot(db, c.id); // the page's view asks for a new one
    await qualityIdle(db);
    expect(qualitySnapshot(db, c.id).current).toBe(true);
    finishParticipant(db, a);
    expect(qualitySnapshot(db, c.id).current).toBe(false);
    await qualityIdle(db);
    const done = qualitySnapshot(db, c.id).rows!.find((r) => r.userId === a)!;
    expect(done.status).toBe("completed");
    setParticipantExcluded(db, c.id, done.participantId, true, "test");
    expect(qualitySnapshot(db, c.id).current).toBe(false);
    await qualityIdle(db);
    expect(qualitySnapshot(db, c.id).rows!.find((r) => r.userId === a)!.excluded).toBe(true);
    labelNext(db, b);

    // Read in pages (here of 1 label), it is the same table the one-pass reading gives.
    expect(await computeQuality(db, c.id, 1)).toEqual(participantQuality(db, c.id));
  });
});
