/**
 * CSV injection: every export (campaign labels, agreement, experiment results) writes text that
 * begins with = + - @ tab or CR as an inert, quote-prefixed cell, while numbers stay numbers.
 */
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { createUser } from "@/lib/users/users";
import { createCampaign, exportCampaign, submitLabels } from "@/lib/annotation";
import { PAYLOADS, expectInert, parseCsv } from "@/test/csv";
import { csvCell, toCsv } from "./csv";

describe("the CSV writer", () => {
  it.each(PAYLOADS)("neutralises %j and keeps it readable", (p) => {
    const cell = csvCell(p);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(parseCsv(cell)[0][0]).toBe(`'${p}`);
  });

  it("leaves numbers, plain text and empties alone, quotes separators", () => {
    expect(toCsv([{ a: -0.125, b: "plain", c: null, d: 'say "hi", twice' }], ["a", "b", "c", "d"])).toBe(
      'a,b,c,d\n-0.125,plain,,"say ""hi"", twice"\n',
    );
  });
});

describe("campaign exports", () => {
  let t: ReturnType<typeof tempDb>;
  afterEach(() => t.cleanup());

  it.each(PAYLOADS)("labels and agreement CSV neutralise %j in item ids, comments and annotator names", async (p) => {
    t = tempDb();
    const db = t.db;
    const owner = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    const ann = [];
    for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
    const text = [JSON.stringify({ id: p, output: "first" }), JSON.stringify({ id: "plain-2", output: "second" })].join("\n");
    const c = createCampaign(
      db,
      { name: "csv", kind: "output-rating", perItem: 2, annotatorIds: ann, source: { kind: "upload", fileName: "x.jsonl", text } },
      owner,
    );
    let n = 0;
    for (const a of db.$client.prepare("select id, annotator_id from assignments where campaign_id = ?").all(c.id) as Array<{
      id: number;
      annotator_id: number;
    }>) {
      submitLabels(db, a.annotator_id, a.id, {
        submissionId: `csv-sub-${++n}-xxxx`,
        values: { quality: n % 2 ? "1" : "3" },
        comments: { quality: `${p} comment` },
      });
    }
    // A stored annotator name (email) that starts with the payload, as older data could hold.
    db.$client.prepare("update users set email = ? where id = ?").run(`${p}a1@x.io`, ann[0]);

    const stored = (db.$client.prepare("select external_id from campaign_items where position = 0").get() as { external_id: string })
      .external_id;
    expect(stored.trim()).toBe(p.trim());
    const labelsCsv = exportCampaign(db, c.id, "csv", "labels");
    expectInert(labelsCsv, stored); // the item id
    expectInert(labelsCsv, `${p.trim()} comment`); // comments are stored trimmed
    expectInert(labelsCsv, `${p}a1@x.io`); // the annotator
    const agreement = exportCampaign(db, c.id, "csv", "agreement");
    expectInert(agreement, `${p}a1@x.io x a2@x.io`); // the rater pair of Cohen's kappa
  });
});
