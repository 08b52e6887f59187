import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser } from "@/lib/users/users";
import { createCampaign, exportCampaign, myQueue, submitLabels } from "@/lib/annotation";
import { adjudicate } from "./item-view";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

describe("item outcomes in the export", () => {
  it("marks each item and dimension unanimous, majority, adjudicated, unresolved or unlabelled", async () => {
    const t = tempDb();
    cleanup = t.cleanup;
    const r = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    const a: number[] = [];
    for (const e of ["a1@x.io", "a2@x.io", "a3@x.io"])
      a.push((await createUser(t.db, { email: e, role: "annotator", password: "password-123" })).id);
    const c = createCampaign(
      t.db,
      {
        name: "o",
        kind: "pairwise-dialogue",
        perItem: 3,
        annotatorIds: a,
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      r,
    );
    // Per item position: the three annotators' "requirement" answers (canonical, so read the swap back).
    const plan: Array<[string, string, string] | null> = [
      ["Win", "Win", "Win"],
      ["Win", "Win", "Lose"],
      ["Win", "Tie", "Lose"],
      ["Win", "Tie", "Lose"],
      null,
      null,
    ];
    a.forEach((u, ai) =>
      myQueue(t.db, u, c.id).entries.forEach((e, n) => {
        const row = t.db.$client
          .prepare("select i.position p, a.swapped s from assignments a join campaign_items i on i.id = a.item_id where a.id = ?")
          .get(e.assignmentId) as { p: number; s: number };
        const want = plan[row.p]?.[ai];
        if (!want) return;
        const shown = row.s ? ({ Win: "Lose", Lose: "Win", Tie: "Tie" } as Record<string, string>)[want] : want;
        submitLabels(t.db, u, e.assignmentId, { submissionId: `o-${u}-${n}-xxxxx`, values: { requirement: shown, preference: "Tie" } });
      }),
    );
    const item3 = t.db.$client.prepare("select id from campaign_items where campaign_id = ? and position = 3").get(c.id) as { id: number };
    adjudicate(t.db, c.id, item3.id, "requirement", "Tie", "ambiguous item", r);
    const out = JSON.parse(exportCampaign(t.db, c.id, "json")).itemOutcomes as Array<{
      dimension: string;
      outcome: string;
      value: string | null;
      labels: number;
    }>;
    expect(out.filter((o) => o.dimension === "requirement").map((o) => [o.outcome, o.value])).toEqual([
      ["unanimous", "Win"],
      ["majority", "Win"],
      ["unresolved", null],
      ["adjudicated", "Tie"],
      ["unlabelled", null],
      ["unlabelled", null],
    ]);
  });
});
