/**
 * Server actions with bad input (issue 14, item 10): every action's form command through the one
 * translation (actionResult, which runAction uses) answers 400 or 404 with the reason, changes nothing,
 * and never throws (a thrown error is Next's 500). Real database, real lib functions.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { ROOT } from "@/test/fixtures";
import type { Db } from "@/db/client";
import { createUser, getUser } from "@/lib/users/users";
import { createCampaign, getCampaign } from "@/lib/annotation";
import { adjudicateForm, setCampaignStatusForm } from "@/lib/annotation/forms";
import { deleteModelForm, saveModelForm, testModelForm } from "@/lib/llm/model-forms";
import { addUserForm, setDisabledForm, setRoleForm } from "@/lib/users/user-forms";
import { startBuildForm } from "@/lib/assistants/core/build-form";
import { actionResult } from "./action-result";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");

let t: ReturnType<typeof tempDb>;
let db: Db;
let me: number;
let campaignId: number;
beforeEach(async () => {
  t = tempDb();
  db = t.db;
  me = (await createUser(db, { email: "admin@x.io", role: "admin", password: "password-123" })).id;
  const ann = (await createUser(db, { email: "a1@x.io", role: "annotator", password: "password-123" })).id;
  campaignId = createCampaign(
    db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 1,
      annotatorIds: [ann],
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    me,
  ).id;
});
afterEach(() => t.cleanup());

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

describe("server-action forms answer 400/404 with the reason", () => {
  it("campaign status: status=bogus is a 400 naming the field, the campaign unchanged", async () => {
    const r = await actionResult(() => setCampaignStatusForm(db, form({ campaignId: String(campaignId), status: "bogus" })));
    expect(r).toMatchObject({ status: 400, code: "invalid_input" });
    expect(r.error).toBe("status: expected open or closed");
    expect(getCampaign(db, campaignId).status).toBe("open");
  });

  it("campaign status: an unknown campaign is a 404, a malformed id a 400, a missing field a 400", async () => {
    const unknown = await actionResult(() => setCampaignStatusForm(db, form({ campaignId: "999999", status: "closed" })));
    expect(unknown).toMatchObject({ status: 404, code: "not_found" });
    expect(unknown.error).toMatch(/999999/);
    const malformed = await actionResult(() => setCampaignStatusForm(db, form({ campaignId: "1 OR 1=1", status: "closed" })));
    expect(malformed).toMatchObject({ status: 400, error: "campaignId: expected the campaign id as a positive whole number" });
    const missing = await actionResult(() => setCampaignStatusForm(db, form({ status: "closed" })));
    expect(missing).toMatchObject({ status: 400, error: "campaignId: expected the campaign id" });
    expect(getCampaign(db, campaignId).status).toBe("open");
  });

  it("campaign status: a good form closes the campaign", async () => {
    const r = await actionResult(() => setCampaignStatusForm(db, form({ campaignId: String(campaignId), status: "closed" })));
    expect(r).toEqual({ campaignId, ok: "Campaign closed." });
    expect(getCampaign(db, campaignId).status).toBe("closed");
  });

  it("adjudication: unknown campaign 404, bad item id 400", async () => {
    const base = { dimension: "need", value: "Win", reason: "ambiguous-item", note: "" };
    expect(await actionResult(() => adjudicateForm(db, form({ ...base, campaignId: "424242", itemId: "1" }), me))).toMatchObject({
      status: 404,
    });
    expect(await actionResult(() => adjudicateForm(db, form({ ...base, campaignId: String(campaignId), itemId: "-1" }), me))).toMatchObject(
      { status: 400, error: "itemId: expected the item id as a positive whole number" },
    );
  });

  it("models: an unknown judge name is a 404 (remove, test), a name that is no role a 400", async () => {
    const del = await actionResult(() => deleteModelForm(db, form({ name: "judge:nobody" })));
    expect(del).toMatchObject({ status: 404, error: 'no saved settings for "judge:nobody"' });
    const test = await actionResult(() => testModelForm(db, form({ name: "judge:nobody" })));
    expect(test).toMatchObject({ status: 404, error: 'no model configuration "judge:nobody"' });
    const bogus = await actionResult(() => deleteModelForm(db, form({ name: "bogus" })));
    expect(bogus).toMatchObject({ status: 400 });
    expect(bogus.error).toMatch(/unknown role "bogus"/);
    const params = await actionResult(() => saveModelForm(db, form({ name: "judge:x", model: "m", params: "{not json" })));
    expect(params).toMatchObject({ status: 400, error: "judge:x: parameters: not valid JSON" });
    expect(await actionResult(() => saveModelForm(db, form({ name: "judge:x", model: "m" })))).toEqual({ ok: "Saved judge:x." });
    expect(await actionResult(() => deleteModelForm(db, form({ name: "judge:x" })))).toEqual({ ok: "Removed judge:x." });
  });

  it("users: a bogus role or flag is a 400, an unknown user a 404, nothing changes", async () => {
    const other = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    expect(await actionResult(() => setRoleForm(db, form({ id: String(other), role: "superuser" }), me))).toMatchObject({
      status: 400,
      error: "role: expected one of admin, researcher, annotator",
    });
    expect(await actionResult(() => setRoleForm(db, form({ id: "987654", role: "annotator" }), me))).toMatchObject({ status: 404 });
    expect(await actionResult(() => setDisabledForm(db, form({ id: String(other), disabled: "maybe" }), me))).toMatchObject({
      status: 400,
      error: "disabled: expected true or false",
    });
    expect(await actionResult(() => addUserForm(db, form({ email: "n@x.io", role: "root" })))).toMatchObject({ status: 400 });
    expect(getUser(db, other)).toMatchObject({ role: "researcher", disabled: false });
  });

  it("memory build: an unknown data set is a 404", async () => {
    const r = await actionResult(() => startBuildForm(db, form({ datasetId: "31337", method: "vanilla", users: "" }), me));
    expect(r).toMatchObject({ status: 404, code: "not_found" });
  });

  it("repeated or file fields are refused; a bug (not an AppError) is still thrown", async () => {
    const twice = form({ campaignId: String(campaignId), status: "closed" });
    twice.append("status", "open");
    expect(await actionResult(() => setCampaignStatusForm(db, twice))).toMatchObject({ status: 400, error: "status: sent more than once" });
    await expect(
      actionResult(() => {
        throw new TypeError("a bug");
      }),
    ).rejects.toThrow("a bug");
  });
});
