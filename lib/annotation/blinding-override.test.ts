/**
 * Issue 40.15: blinding cannot be clicked past. What annotators read (their title, the guidelines) may not name a
 * system the campaign compares unless the creator overrides it; the override is recorded, and the agreement report
 * and the export say so. Annotators see their neutral title, never the researchers' name for the campaign.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { createUser } from "@/lib/users/users";
import { campaignAgreement, createCampaign, exportCampaign, myCampaigns, myQueue, type NewCampaign } from "@/lib/annotation";
import { campaigns } from "@/db/schema";
import { newCampaignFromForm } from "./form";
import type { Db } from "@/db/client";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const HICUPID = fs.readFileSync(path.join(ROOT, "fixtures/annotation/hicupid-ab-demo.jsonl"), "utf8");

let t: ReturnType<typeof tempDb>;
let db: Db;
let researcher: number;
let ann: number[];
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  researcher = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  ann = [];
  for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
});
afterEach(() => t.cleanup());

const pairwise = (o: Partial<NewCampaign>) =>
  createCampaign(
    db,
    {
      name: "Pairwise dialogues (H2Memory vs Vanilla-log)",
      kind: "pairwise-dialogue",
      perItem: 2,
      annotatorIds: ann,
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      ...o,
    },
    researcher,
  );

describe("blinding is enforced on the server", () => {
  it("a name naming the systems is the researchers' own: accepted, and annotators see the kind's neutral title instead", () => {
    const c = pairwise({});
    const row = db.select().from(campaigns).all()[0];
    expect(row.blindingOverride).toBeNull();
    expect(myCampaigns(db, ann[0]).map((m) => m.name)).toEqual(["Compare two dialogues"]);
    expect(myQueue(db, ann[0], c.id).campaign.name).toBe("Compare two dialogues");
    expect(JSON.stringify(myQueue(db, ann[0], c.id))).not.toMatch(/h2memory|vanilla/i);
  });

  it("an annotator title or guidelines naming a system are refused, naming the field, and nothing is created", () => {
    expect(() => pairwise({ annotatorTitle: "H2Memory pilot" })).toThrow(
      /^annotatorTitle: the title shown to annotators names “h2memory”.*showSystemNames/,
    );
    expect(() => pairwise({ guidelines: "The left one is vanilla-log." })).toThrow(/^guidelines: the guidelines name “vanilla-log”/);
    expect(db.select().from(campaigns).all()).toEqual([]);
  });

  it("the explicit override creates it, records what was named, and the agreement report and the export say so", () => {
    const c = pairwise({ annotatorTitle: "H2Memory pilot", showSystemNames: true });
    const row = db.select().from(campaigns).all()[0];
    expect(row.blindingOverride).toMatchObject({ named: [{ system: "h2memory", where: "title shown to annotators" }], by: researcher });
    expect(myQueue(db, ann[0], c.id).campaign.name).toBe("H2Memory pilot");
    const w = campaignAgreement(db, c.id, { bootstrap: 10 }).warnings.filter((x) => x.kind === "unblinded");
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ dimension: "*" });
    expect(w[0].message).toMatch(/not blind: the title shown to annotators names “h2memory”/);
    const exported = JSON.parse(exportCampaign(db, c.id, "json"));
    expect(exported.campaign.annotatorTitle).toBe("H2Memory pilot");
    expect(exported.campaign.blindingOverride.named).toEqual([{ system: "h2memory", where: "title shown to annotators" }]);
    expect(exported.agreement.warnings.map((x: { kind: string }) => x.kind)).toContain("unblinded");
  });

  it("a campaign without override exports no override and no unblinded warning", () => {
    const c = pairwise({ annotatorTitle: "Dialogue study" });
    const exported = JSON.parse(exportCampaign(db, c.id, "json"));
    expect(exported.campaign).toMatchObject({ annotatorTitle: "Dialogue study", blindingOverride: null });
    expect(exported.agreement.warnings.map((x: { kind: string }) => x.kind)).not.toContain("unblinded");
  });

  it("HiCUPID A/B's generic side names (model, reference) are words in guidelines, not systems", () => {
    expect(() =>
      createCampaign(
        db,
        {
          name: "ab",
          kind: "hicupid-ab",
          perItem: 1,
          annotatorIds: ann,
          guidelines: "One answer may be the reference; judge which is better.",
          source: { kind: "upload", fileName: "h.jsonl", text: HICUPID },
        },
        researcher,
      ),
    ).not.toThrow();
  });

  it("the form reads the title and the override checkbox", () => {
    const fields: Record<string, string> = {
      source: "upload",
      name: "n",
      kind: "pairwise-dialogue",
      annotatorTitle: "T",
      showSystemNames: "on",
    };
    const form = {
      get: (f: string) => fields[f] ?? null,
      getAll: () => [String(ann[0])],
      file: { name: "p.jsonl", bytes: Buffer.from(PAIRWISE) },
    };
    const parsed = newCampaignFromForm(form as never);
    expect(parsed).toMatchObject({ annotatorTitle: "T", showSystemNames: true });
    delete fields.showSystemNames;
    expect(newCampaignFromForm(form as never).showSystemNames).toBe(false);
  });
});
