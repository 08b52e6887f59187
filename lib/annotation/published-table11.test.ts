/** Mem-PAL's own Table 11 beside a campaign's: the paper's comparison only for the paper's systems, else reference. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import { createUser } from "@/lib/users/users";
import { createCampaign, exportCampaign } from "@/lib/annotation";
import { publishedTable11For } from "./published-table11";

describe("Mem-PAL Table 11 beside a campaign's", () => {
  it("the paper's W / T / L and κ per dimension, as the paper's comparison for H2Memory vs Vanilla (with log)", () => {
    const p = publishedTable11For("pairwise-dialogue", { A: "h2memory", B: "vanilla-log" }, { judgeModel: "gpt-4-turbo-2024-04-09" })!;
    expect(p.sameComparison).toBe(true);
    expect(p.label).toBe("Mem-PAL, Table 11 (the same comparison, 80 topics)");
    expect(p.dimensions.requirement).toEqual({
      judge: { Win: 45, Tie: 4, Lose: 31 },
      human: { Win: 31, Tie: 26, Lose: 23 },
      fleissKappa: 0.54,
    });
    expect(p.dimensions.preference).toEqual({
      judge: { Win: 44, Tie: 1, Lose: 35 },
      human: { Win: 41, Tie: 11, Lose: 28 },
      fleissKappa: 0.62,
    });
    expect(p.notes).toHaveLength(1);
    expect(p.notes[0]).toContain("80 sampled topics, H2Memory vs Vanilla (with log)");
    // The paper's names as well as the method keys.
    expect(publishedTable11For("pairwise-dialogue", { A: "H2Memory", B: "Vanilla (with log)" })!.sameComparison).toBe(true);
  });

  it("another comparison, judge or reading: reference only, each difference said", () => {
    const p = publishedTable11For(
      "pairwise-dialogue",
      { A: "memorybank", B: "vanilla-log" },
      { judgeModel: "gpt-4o-mini", humans: "adjudication", variant: "either" },
    )!;
    expect(p.sameComparison).toBe(false);
    expect(p.label).toBe("Mem-PAL, Table 11, for reference only (another comparison)");
    expect(p.notes.slice(1)).toEqual([
      "This campaign compares memorybank (A) with vanilla-log (B), not the paper's H2Memory with Vanilla (with log): the paper's rows are for reference only.",
      "This run's judge: gpt-4o-mini; the paper's Evaluation-LLM is GPT-4-turbo-2024-04-09.",
      "The paper takes its humans by vote; these humans are by adjudication.",
      "The paper's κ drops the items both call a tie; this one drops those either calls a tie.",
    ]);
    // The sides swapped are not the paper's comparison either.
    expect(publishedTable11For("pairwise-dialogue", { A: "vanilla-log", B: "h2memory" })!.sameComparison).toBe(false);
    expect(publishedTable11For("hicupid-ab", { A: "model", B: "reference" })).toBeNull();
  });
});

describe("the campaign's JSON export", () => {
  let t: ReturnType<typeof tempDb>;
  beforeAll(() => (t = tempDb()));
  afterAll(() => t.cleanup());

  it("carries the paper's Table 11 beside the report's judge views, for pairwise dialogues only", async () => {
    const admin = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    const a = (await createUser(t.db, { email: "a@x.io", role: "annotator", password: "password-123" })).id;
    const text = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
    const c = createCampaign(
      t.db,
      { name: "p", kind: "pairwise-dialogue", perItem: 1, annotatorIds: [a], source: { kind: "upload", fileName: "p.jsonl", text } },
      admin,
    );
    const out = JSON.parse(exportCampaign(t.db, c.id, "json"));
    expect(out.systems).toEqual({ A: "h2memory", B: "vanilla-log" });
    expect(out.publishedTable11).toMatchObject({
      source: "Mem-PAL, Table 11",
      sameComparison: true,
      dimensions: { requirement: { judge: { Win: 45, Tie: 4, Lose: 31 }, fleissKappa: 0.54 } },
    });
    const hc = createCampaign(
      t.db,
      {
        name: "h",
        kind: "hicupid-ab",
        perItem: 1,
        annotatorIds: [a],
        source: {
          kind: "upload",
          fileName: "h.jsonl",
          text: fs.readFileSync(path.join(ROOT, "fixtures/annotation/hicupid-ab-demo.jsonl"), "utf8"),
        },
      },
      admin,
    );
    expect(JSON.parse(exportCampaign(t.db, hc.id, "json"))).not.toHaveProperty("publishedTable11");
  });
});
