import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asc, eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { PALSET_EN, ROOT } from "@/test/fixtures";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { campaignItems, judgeFailures, judgeLabels, llmCalls } from "@/db/schema";
import type { Db } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm";
import net from "node:net";
import { cancelLlmJudge, resumeLlmJudge } from "./control";
import { createCampaign, exportCampaign, figure2, humanVsJudge, ratingVsJudge, submitLabels } from "@/lib/annotation";
import { estimateLlmJudge, llmJudgeRuns, runLlmJudge } from "./index";
import { campaignAnswerSlots } from "./adapters";

const PAIRWISE = fs.readFileSync(path.join(ROOT, "fixtures/annotation/pairwise-demo.jsonl"), "utf8");
const HICUPID = fs.readFileSync(path.join(ROOT, "fixtures/annotation/hicupid-ab-demo.jsonl"), "utf8");

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
let db: Db;
let researcher: number;
let ann: number[];

beforeEach(async () => {
  fake = await startFakeOpenAI();
  t = tempDb();
  db = t.db;
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("PAL_MODEL_JUDGE", "fake-judge");
  researcher = (await createUser(db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
  ann = [];
  for (const e of ["a1@x.io", "a2@x.io"]) ann.push((await createUser(db, { email: e, role: "annotator", password: "password-123" })).id);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  t.cleanup();
});

const client = () => ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 2000 });
const prompt = (r: ChatRequest) => String(r.messages[0]?.content ?? "");
const firstShown = (r: ChatRequest) => prompt(r).split("# Dialogue with assistant-2")[0].split("# Dialogue with assistant-1")[1] ?? "";
/** The fixture's h2memory dialogues ask "Given that you ..."; vanilla-log's list "ten popular options". */
const isH2 = (dialogue: string) => dialogue.includes("Given that you");
const judgeReply = (s1: number, s2: number) =>
  JSON.stringify({ analysis: { "assistant-1": "a", "assistant-2": "b", overall: "c" }, scores: { "assistant-1": s1, "assistant-2": s2 } });

/**
 * Preference: h2memory's dialogue scores 8, the other 5, whatever the order (so h2memory wins).
 * Requirement: the dialogue shown first scores 7, the second 6 (pure position bias: both orders average to a tie).
 */
function dialogueResponder(r: ChatRequest): string {
  const p = prompt(r);
  if (p.includes("# Dimension: understanding the preferences")) return isH2(firstShown(r)) ? judgeReply(8, 5) : judgeReply(5, 8);
  return judgeReply(7, 6);
}

function pairwiseCampaign() {
  return createCampaign(
    db,
    {
      name: "p",
      kind: "pairwise-dialogue",
      perItem: 2,
      annotatorIds: ann,
      source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
    },
    researcher,
  );
}

const itemSystems = () =>
  db.$client
    .prepare(
      `select i.id, i.external_id as ext, s.slot, s.name from campaign_items i join campaign_outputs o on o.item_id = i.id join campaign_systems s on s.id = o.system_id`,
    )
    .all() as Array<{ id: number; ext: string; slot: string; name: string }>;

describe("the pairwise dialogue judge on a campaign", () => {
  it("makes six distinct paid calls per item and dimension, three in each order, and aggregates them as FairEval", async () => {
    fake.setResponder(dialogueResponder);
    const c = pairwiseCampaign();
    const est = estimateLlmJudge(db, c.id);
    expect(est).toMatchObject({ judge: "dialogue-pair", items: 6, pending: 12, calls: 72, totalCalls: 72, runId: null });

    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r).toMatchObject({ total: 12, judged: 12, failed: 0, newlyJudged: 12, requests: 72 });
    expect(fake.chatRequests).toHaveLength(72);
    // Every call is its own request (distinct replicate → distinct cache key), charged to the run.
    const calls = db.select().from(llmCalls).where(eq(llmCalls.judgeRunId, r.runId)).orderBy(asc(llmCalls.id)).all();
    expect(calls).toHaveLength(72);
    expect(new Set(calls.map((x) => x.cacheKey)).size).toBe(72);
    expect(calls.every((x) => !x.cacheHit && x.status === "ok" && x.role === "judge")).toBe(true);
    // Per item and dimension: replicates 0..5, three shown with h2memory first and three the other way.
    const prefPrompts = fake.chatRequests.filter((q) => prompt(q).includes("understanding the preferences"));
    expect(prefPrompts).toHaveLength(36);
    expect(prefPrompts.filter((q) => isH2(firstShown(q)))).toHaveLength(18);
    // System names never reach the judge.
    for (const q of fake.chatRequests) expect(prompt(q)).not.toMatch(/h2memory|vanilla-log/);

    const labels = db.select().from(judgeLabels).where(eq(judgeLabels.runId, r.runId)).all();
    const sys = itemSystems();
    for (const l of labels) {
      const aIsH2 = sys.find((s) => s.id === l.itemId && s.slot === "A")!.name === "h2memory";
      const js = l.judgments as Array<{ order: string; scoreA: number; scoreB: number; replicate: number }>;
      expect(js.map((j) => j.replicate).sort()).toEqual([0, 1, 2, 3, 4, 5]);
      expect(js.filter((j) => j.order === "AB")).toHaveLength(3);
      if (l.dimension === "preference") {
        // Side A averages 8 when it is h2memory's dialogue: Win; 5 otherwise: Lose.
        expect(l.value).toBe(aIsH2 ? "Win" : "Lose");
        expect(js.every((j) => j.scoreA === (aIsH2 ? 8 : 5))).toBe(true);
      } else {
        // 7 when shown first, 6 when second: equal averages (6.5 each) are a tie.
        expect(l.value).toBe("Tie");
        expect(l.analysis).toContain("mean A 6.50 vs mean B 6.50");
      }
    }
    expect(llmJudgeRuns(db, c.id)[0]).toMatchObject({ runId: r.runId, judged: 12, failed: 0, requests: 72, running: false });
  });

  it("a crowd campaign's attention checks are left to people: the judge reads and charges only its real items", async () => {
    fake.setResponder(dialogueResponder);
    const c = createCampaign(
      db,
      {
        name: "crowd",
        kind: "pairwise-dialogue",
        perItem: 2,
        annotatorIds: [],
        link: true,
        crowd: { completionCode: "DONE1", screenoutCode: "OUT1", goldRate: 0, attentionRate: 0.5 },
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      researcher,
    );
    const checks = db.$client
      .prepare("select count(*) as n from campaign_items where campaign_id = ? and attention is not null")
      .get(c.id) as { n: number };
    expect(checks.n).toBeGreaterThan(0);
    expect(estimateLlmJudge(db, c.id)).toMatchObject({ items: 6, pending: 12, calls: 72 });
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r).toMatchObject({ total: 12, judged: 12, failed: 0, requests: 72 });
    const judged = db.$client
      .prepare(
        "select count(*) as n from judge_labels l join campaign_items i on i.id = l.item_id where l.run_id = ? and i.attention is not null",
      )
      .get(r.runId) as { n: number };
    expect(judged.n).toBe(0);
  });

  it("every call of a judge run carries the run's temperature, and the ledger says so", async () => {
    fake.setResponder(dialogueResponder);
    const c = pairwiseCampaign();
    const r = await runLlmJudge(db, client(), c.id, { temperature: 0.3 }, researcher);
    expect(r.requests).toBeGreaterThan(0);
    expect(new Set(fake.chatRequests.map((q) => q.temperature))).toEqual(new Set([0.3]));
    const sent = db.select().from(llmCalls).where(eq(llmCalls.judgeRunId, r.runId)).all();
    expect(new Set(sent.map((x) => x.temperature))).toEqual(new Set([0.3]));
  });

  it("a margin turns a small average difference into a tie; a second run makes zero calls", async () => {
    // Preference: 7 for both, except the first of the three identical h2memory-first calls, which gives the
    // other dialogue 6: h2memory averages 7, the other 41/6 — a Win without margin, a Tie with 0.5.
    const seen = new Set<string>();
    fake.setResponder((q) => {
      const p = prompt(q);
      if (p.includes("understanding the preferences") && isH2(firstShown(q)) && !seen.has(p)) {
        seen.add(p);
        return judgeReply(7, 6);
      }
      return judgeReply(7, 7);
    });
    const c = pairwiseCampaign();
    const strict = await runLlmJudge(db, client(), c.id, { tieMargin: 0 }, researcher);
    expect(strict.requests).toBe(72);
    const again = await runLlmJudge(db, client(), c.id, { tieMargin: 0 }, researcher);
    expect(again).toMatchObject({ runId: strict.runId, newlyJudged: 0, requests: 0, judged: 12 });
    expect(fake.chatRequests).toHaveLength(72);
    expect(estimateLlmJudge(db, c.id, { tieMargin: 0 })).toMatchObject({ runId: strict.runId, pending: 0, calls: 0 });
    // Another margin is another run; its calls are the same requests, answered by the cache at no cost.
    const loose = await runLlmJudge(db, client(), c.id, { tieMargin: 1 }, researcher);
    expect(loose.runId).not.toBe(strict.runId);
    expect(llmJudgeRuns(db, c.id).map((x) => x.name)).toEqual([
      "LLM dialogue-pair (fake-judge)",
      "LLM dialogue-pair (fake-judge, margin 1)",
    ]);
    expect(loose.requests).toBe(0);
    expect(fake.chatRequests).toHaveLength(72);
    const sys = itemSystems();
    const value = (runId: number) =>
      db
        .select()
        .from(judgeLabels)
        .where(eq(judgeLabels.runId, runId))
        .all()
        .filter((l) => l.dimension === "preference")
        .map((l) => [sys.find((x) => x.id === l.itemId && x.slot === "A")!.name === "h2memory", l.value]);
    for (const [aIsH2, v] of value(strict.runId)) expect(v).toBe(aIsH2 ? "Win" : "Lose");
    for (const [, v] of value(loose.runId)) expect(v).toBe("Tie");
  });

  it("an invalid reply is asked again; one that stays invalid is recorded as a failure, then a later run completes it", async () => {
    let broken = true;
    fake.setResponder((q) => {
      const p = prompt(q);
      // topic-1's dialogues mention "weekend trip": its preference judgments never validate while broken.
      if (broken && p.includes("weekend trip") && p.includes("understanding the preferences")) return "I think assistant-1 is better.";
      // Everything else: the first answer is not JSON, the regenerated one is.
      if (q.messages.length === 1 && p.includes("understanding the need")) return "scores: 8 and 6";
      return dialogueResponder(q);
    });
    const c = pairwiseCampaign();
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r).toMatchObject({ judged: 11, failed: 1 });
    const fails = db.select().from(judgeFailures).where(eq(judgeFailures.runId, r.runId)).all();
    expect(fails).toHaveLength(1);
    expect(fails[0]).toMatchObject({ dimension: "preference" });
    expect(fails[0].error).toMatch(/no valid reply after 3 tries/);
    expect(fails[0].rawReply).toBe("I think assistant-1 is better.");
    const topic1 = itemSystems().find((s) => s.ext === "topic-1")!.id;
    expect(fails[0].itemId).toBe(topic1);
    expect(
      db
        .select()
        .from(judgeLabels)
        .all()
        .some((l) => l.itemId === topic1 && l.dimension === "preference"),
    ).toBe(false);
    // Regenerated replies: the requirement judgments of every item were asked twice and then accepted.
    const reqRows = db.select().from(llmCalls).where(eq(llmCalls.purpose, "campaign.judge.dialogue.requirement")).all();
    expect(reqRows.filter((x) => x.status === "invalid")).toHaveLength(36);
    expect(reqRows.filter((x) => x.status === "ok")).toHaveLength(36);
    expect(llmJudgeRuns(db, c.id)[0].failures).toEqual([expect.objectContaining({ externalId: "topic-1", dimension: "preference" })]);
    const exported = JSON.parse(exportCampaign(db, c.id, "json")).judges[0];
    expect(exported).toMatchObject({ origin: "llm", config: { judge: "dialogue-pair", modelConfig: "judge" } });
    expect(exported.labels).toHaveLength(11);
    expect(exported.failures).toEqual([expect.objectContaining({ item: "topic-1", dimension: "preference" })]);

    broken = false;
    const before = fake.chatRequests.length;
    const r2 = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r2).toMatchObject({ runId: r.runId, judged: 12, failed: 0, newlyJudged: 1 });
    expect(fake.chatRequests.length - before).toBe(6);
    expect(db.select().from(judgeFailures).all()).toHaveLength(0);
  });

  it("feeds Table 11 and the tie-excluded kappa like an imported verdict", async () => {
    fake.setResponder(dialogueResponder);
    const c = pairwiseCampaign();
    const sys = itemSystems();
    // Both annotators agree with the judge on preference (h2memory better) and call requirement a Win for A.
    let n = 0;
    for (const user of ann) {
      const rows = db.$client
        .prepare("select a.id, a.swapped, a.item_id from assignments a where a.annotator_id = ? and a.campaign_id = ?")
        .all(user, c.id) as Array<{ id: number; swapped: number; item_id: number }>;
      for (const a of rows) {
        const aIsH2 = sys.find((s) => s.id === a.item_id && s.slot === "A")!.name === "h2memory";
        const canon = { preference: aIsH2 ? "Win" : "Lose", requirement: "Win" };
        const flip = (v: string) => (v === "Win" ? "Lose" : v === "Lose" ? "Win" : v);
        const values = Object.fromEntries(Object.entries(canon).map(([k, v]) => [k, a.swapped ? flip(v) : v]));
        submitLabels(db, user, a.id, { submissionId: `sub-${String(++n).padStart(6, "0")}`, values });
      }
    }
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    const vs = humanVsJudge(db, c.id, r.runId);
    const pref = vs.dimensions.find((d) => d.dimension === "preference")!;
    const h2AsA = sys.filter((s) => s.slot === "A" && s.name === "h2memory").length;
    expect(pref.table11.judge).toEqual({ Win: h2AsA, Tie: 0, Lose: 6 - h2AsA });
    expect(pref.table11.human).toEqual(pref.table11.judge);
    expect(pref.disagreements).toHaveLength(0);
    const req = vs.dimensions.find((d) => d.dimension === "requirement")!;
    expect(req.table11.judge).toEqual({ Win: 0, Tie: 6, Lose: 0 });
    expect(req.table11.human).toEqual({ Win: 6, Tie: 0, Lose: 0 });
    expect(req.disagreements).toHaveLength(6);
  });
});

describe("the HiCUPID A/B judge on a campaign", () => {
  it("shows the model's answer in a seeded random slot, records it, and maps the verdict to canonical terms", async () => {
    const c = createCampaign(
      db,
      { name: "h", kind: "hicupid-ab", perItem: 1, annotatorIds: ann, source: { kind: "upload", fileName: "h.jsonl", text: HICUPID } },
      researcher,
    );
    const refs = HICUPID.trim()
      .split("\n")
      .map((l) => JSON.parse(l).reference as string);
    let n = 0;
    fake.setResponder((q) => {
      const p = prompt(q);
      // First reply of the first item breaks the format: the judge is asked again.
      if (n++ === 0) return "Both are fine.";
      const refInA = refs.some((ref) => p.includes(`Answer (A): ${ref}`));
      return `1. Personalization: the reference fits\n2. Logical Validity: fine\n\nBetter Response: ${refInA ? "A" : "B"}`;
    });
    // The answer-slot rule (lib/judges/hicupid/ab.ts, balancedSlots) over the campaign's items.
    const judgeModelSlot = (seed: number, id: string) =>
      campaignAnswerSlots(db.select().from(campaignItems).where(eq(campaignItems.campaignId, c.id)).all(), seed).get(id)!;
    expect(estimateLlmJudge(db, c.id)).toMatchObject({ judge: "hicupid-ab", calls: 4, pending: 8 });
    const r = await runLlmJudge(db, client(), c.id, { seed: 3 }, researcher);
    expect(r).toMatchObject({ judged: 8, failed: 0, requests: 5 });
    const slots = HICUPID.trim()
      .split("\n")
      .map((l) => judgeModelSlot(3, JSON.parse(l).id));
    expect(new Set(slots).size).toBe(2);
    for (const q of fake.chatRequests) expect(prompt(q)).not.toContain("demo-model");
    const labels = db.select().from(judgeLabels).where(eq(judgeLabels.runId, r.runId)).all();
    expect(labels.every((l) => l.value === "Lose")).toBe(true);
    const ext = new Map(itemSystems().map((s) => [s.id, s.ext]));
    for (const l of labels) expect((l.judgments as Array<{ modelSlot: string }>)[0].modelSlot).toBe(judgeModelSlot(3, ext.get(l.itemId)!));
    const fig = figure2(db, c.id);
    expect(fig[0].rows.find((x) => x.source.startsWith("LLM hicupid-ab"))).toMatchObject({ n: 4, referenceWin: 1, score: 0 });
  });
});

describe("the 1–3 rating judge", () => {
  it("sees exactly the guidelines and the item's visible content, and stores the score", async () => {
    const ds = await importPalset(db, { paths: [PALSET_EN], name: "en", lang: "en" });
    const guidelines = "## Rate it\n\nBe strict: **1** unless the logs clearly show the situation's key events.";
    const c = createCampaign(
      db,
      {
        name: "q",
        kind: "session-quality",
        perItem: 1,
        guidelines,
        annotatorIds: ann,
        source: { kind: "palset-session", datasetId: ds.datasetId, users: 1, sessionsPerUser: 2, seed: 7 },
      },
      researcher,
    );
    fake.setResponder((q) =>
      JSON.stringify({ analysis: "the logs match", score: prompt(q).includes("The dimension to rate: Logs") ? 3 : 2 }),
    );
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r).toMatchObject({ total: 4, judged: 4, requests: 4 });
    const items = db.$client.prepare("select id, external_id, content from campaign_items where campaign_id = ?").all(c.id) as Array<{
      id: number;
      external_id: string;
      content: string;
    }>;
    for (const q of fake.chatRequests) {
      const p = prompt(q);
      expect(p).toContain(`"""\n${guidelines}\n"""`);
      const item = items.find((i) => p.includes(`"""\n${JSON.stringify(JSON.parse(i.content), null, 2)}\n"""`));
      expect(item).toBeDefined();
      // The researcher-only source id (user/session key) is not part of what annotators see.
      expect(p).not.toContain(item!.external_id);
      // Nothing but the fixed frame, the guidelines, the dimension and the content.
      const rest = p.replace(guidelines, "").replace(JSON.stringify(JSON.parse(item!.content), null, 2), "");
      expect(rest.length).toBeLessThan(1200);
    }
    const values = db
      .select()
      .from(judgeLabels)
      .all()
      .map((l) => `${l.dimension}=${l.value}`)
      .sort();
    expect(values).toEqual(["dialogue=2", "dialogue=2", "logs=3", "logs=3"]);
  });

  it("writes the prompt in Chinese for a Chinese item and rejects a score off the scale", async () => {
    const text = [
      JSON.stringify({ id: "o1", context: { question: "周末去哪里玩？" }, output: "建议去郊外的安静公园散步。" }),
      JSON.stringify({ id: "o2", context: { question: "推荐一本书" }, output: "可以读一本经典科幻小说。" }),
    ].join("\n");
    const c = createCampaign(
      db,
      { name: "o", kind: "output-rating", perItem: 1, annotatorIds: ann, source: { kind: "upload", fileName: "o.jsonl", text } },
      researcher,
    );
    fake.setResponder((q) =>
      q.messages.length === 1 ? JSON.stringify({ analysis: "符合", score: 5 }) : JSON.stringify({ analysis: "基本符合用户需求", score: 2 }),
    );
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r).toMatchObject({ judged: 2, failed: 0, requests: 4 });
    expect(prompt(fake.chatRequests[0])).toContain("# 任务说明");
    expect(
      db
        .select()
        .from(judgeLabels)
        .all()
        .map((l) => l.value),
    ).toEqual(["2", "2"]);
  });

  it("compares the judge's ratings with the annotators' (numbers worked out by hand)", async () => {
    const text = [
      JSON.stringify({ id: "o1", context: { question: "Weekend plan?" }, output: "A quiet walk in the park." }),
      JSON.stringify({ id: "o2", context: { question: "A book?" }, output: "A cookbook." }),
    ].join("\n");
    const c = createCampaign(
      db,
      { name: "o", kind: "output-rating", perItem: 2, annotatorIds: ann, source: { kind: "upload", fileName: "o.jsonl", text } },
      researcher,
    );
    const human: Record<string, [string, string]> = { o1: ["3", "3"], o2: ["2", "1"] };
    let n = 0;
    for (const [k, user] of ann.entries()) {
      const rows = db.$client
        .prepare("select a.id, i.external_id as ext from assignments a join campaign_items i on i.id = a.item_id where a.annotator_id = ?")
        .all(user) as Array<{ id: number; ext: string }>;
      for (const a of rows)
        submitLabels(db, user, a.id, { submissionId: `sub-${String(++n).padStart(6, "0")}`, values: { quality: human[a.ext][k] } });
    }
    fake.setResponder((q) => JSON.stringify({ analysis: "x", score: prompt(q).includes("quiet walk") ? 3 : 2 }));
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    const [d] = ratingVsJudge(db, c.id, r.runId).dimensions;
    // Pairs (judge, human): (3,3) (3,3) (2,2) (2,1): 3/4 exact; judge 2.5 vs humans 2.25.
    expect(d).toMatchObject({ dimension: "quality", n: 2, judgeMean: 2.5, humanMean: 2.25, exact: 0.75, disagreements: [] });
    // p_o = .75; judge marginals (0, .5, .5), human (.25, .25, .5): p_e = .375; kappa = .375 / .625.
    expect(d.kappa.plain.value).toBeCloseTo(0.6, 10);
    expect(d.kappa.linear.value).toBeGreaterThan(0.6);
  });

  it("refuses an unknown judge configuration before anything is written", async () => {
    const c = pairwiseCampaign();
    expect(() => estimateLlmJudge(db, c.id, { modelConfig: "judge:nope" })).toThrow(/not a judge configuration/);
    await expect(runLlmJudge(db, client(), c.id, { modelConfig: "assistant" }, researcher)).rejects.toThrow(/not a judge configuration/);
    expect(llmJudgeRuns(db, c.id)).toEqual([]);
  });
});

describe("the judge-run request body", () => {
  it("reads numbers given as text and names a bad field", async () => {
    const { judgeRequest } = await import("./request");
    expect(judgeRequest({ modelConfig: "judge:x", temperature: "0.2", tieMargin: 0.5, dryRun: true })).toEqual({
      modelConfig: "judge:x",
      temperature: 0.2,
      tieMargin: 0.5,
      seed: undefined,
      dryRun: true,
      batch: false,
    });
    expect(() => judgeRequest({ temperature: "warm" })).toThrow(/temperature: expected a number, got "warm"/);
    expect(() => judgeRequest({ modelConfig: 3 })).toThrow(/modelConfig: expected a string/);
    expect(() => judgeRequest([])).toThrow(/expected a JSON object/);
    const c = createCampaign(
      db,
      {
        name: "p",
        kind: "pairwise-dialogue",
        perItem: 1,
        annotatorIds: ann,
        source: { kind: "upload", fileName: "p.jsonl", text: PAIRWISE },
      },
      researcher,
    );
    expect(() => estimateLlmJudge(db, c.id, { temperature: 5 })).toThrow(/temperature: expected 0..2, got 5/);
    expect(() => estimateLlmJudge(db, c.id, { tieMargin: -1 })).toThrow(/tieMargin/);
  });
});

describe("spending safety of a judge run", () => {
  it("pauses within 20 paid attempts when every reply is invalid, records no failure for what it did not ask, and resumes", async () => {
    fake.setResponder(() => "no JSON here, sorry");
    const c = pairwiseCampaign();
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r.paused).toMatch(/spend guard: the first 20 attempts all failed/);
    expect(fake.chatRequests).toHaveLength(20);
    const rows = db.select().from(llmCalls).where(eq(llmCalls.judgeRunId, r.runId)).all();
    expect(rows).toHaveLength(20);
    // Items the guard stopped are not recorded as failed: they wait for the resumed run.
    const failures = db.select().from(judgeFailures).where(eq(judgeFailures.runId, r.runId)).all();
    expect(failures.every((f) => !f.error.startsWith("run paused:"))).toBe(true);
    const [info] = llmJudgeRuns(db, c.id);
    expect(info.pausedReason).toMatch(/first 20 attempts all failed/);
    expect(info.finishedAt).toBeNull();
    expect(info.unusableAttempts).toBe(20);

    fake.setResponder(dialogueResponder);
    const again = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(again.paused).toBeUndefined();
    expect(again).toMatchObject({ runId: r.runId, total: 12, judged: 12, failed: 0 });
    expect(llmJudgeRuns(db, c.id)[0].pausedReason).toBeNull();
  });
});

describe("a judge run against a dead endpoint (issue 44.3)", () => {
  it("pauses after a few attempts that could not connect, says why with Test connection's hint; Resume finishes it, Cancel marks it", async () => {
    const c = pairwiseCampaign();
    // A port nothing listens on: every attempt is refused.
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const dead = `http://127.0.0.1:${port}/v1`;
    vi.stubEnv("OPENAI_BASE_URL", dead);
    const r = await runLlmJudge(db, client(), c.id, {}, researcher);
    expect(r.paused).toMatch(
      /the endpoint could not be reached \(http:\/\/127\.0\.0\.1:\d+\/v1\): 5 attempts in a row could not connect \(.*ECONNREFUSED/,
    );
    expect(r.judged).toBe(0);
    // 5 attempts (one call and its retries), not 20 calls with their retries each.
    expect(db.select().from(llmCalls).where(eq(llmCalls.judgeRunId, r.runId)).all()).toHaveLength(5);
    const [info] = llmJudgeRuns(db, c.id);
    expect(info.pauseHint).toBe(`${dead}: connection refused by 127.0.0.1:${port}; is the server running on that port?`);

    // Cancel marks it (not resumed at server start); Resume, the endpoint back, finishes it.
    cancelLlmJudge(db, c.id, r.runId);
    expect(llmJudgeRuns(db, c.id)[0]).toMatchObject({ pausedReason: "cancelled", pauseHint: null });
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    fake.setResponder(dialogueResponder);
    expect(resumeLlmJudge(db, client(), c.id, r.runId)).toEqual({ runId: r.runId, started: true });
    await vi.waitFor(() => expect(llmJudgeRuns(db, c.id)[0]).toMatchObject({ running: false, judged: 12, pausedReason: null }), {
      timeout: 20_000,
    });
    expect(() => cancelLlmJudge(db, c.id, 99999)).toThrow(/no LLM judge run 99999/);
  });
});
