/**
 * Case-study review at the library level, on a real experiment run against the fake OpenAI server (TEST
 * DOUBLE): the item view renders turns with per-turn memory and calls, the compare view's verdicts, marks
 * (validated, per author), star notes and tags, the filtered list and both exports, the Items table's scores.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { jobs, users } from "@/db/schema";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "./deps";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { itemView } from "./item-view";
import { addMark, deleteMark, describeBlock, listMarks } from "./marks";
import { starJob } from "./service";
import { caseStudiesHtml, caseStudiesMarkdown, listCaseStudies } from "./case-studies";
import { listItemRows } from "./items";
import { blockId, markSegments } from "./mark-segments";
import { clipTitle } from "./item-titles";
import { escapeXml } from "@/lib/xml-text";
import { readableFields } from "@/lib/tasks/readable";
import { importDemoPalsetEn } from "@/test/demo-palset";

/** JSON printed as text: a brace or bracket opening a string, object or list, or a quoted key followed by a JSON value. */
const JSON_TEXT = /[{[]\s*["{[]|"[^"\n]{1,60}"\s*:\s*["{[\d]/;

describe("case-study review", () => {
  let t: ReturnType<typeof tempDb>;
  let fake: FakeOpenAI;
  let id: number;
  let alice: number;
  let bob: number;

  beforeAll(async () => {
    t = tempDb();
    const datasetId = await importDemoPalsetEn(t.db);
    fake = await startFakeOpenAI();
    fake.setResponder(experimentReplies());
    vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
    for (const [k, v] of Object.entries({ ASSISTANT: "assistant-model", USER_SIMULATOR: "simulator-model", JUDGE: "judge-model" }))
      vi.stubEnv(`PAL_MODEL_${k}`, v);
    const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5, timeoutMs: 2000 }) });
    id = createExperiment(t.db, {
      name: "review",
      datasetId,
      config: {
        methods: [{ name: "vanilla" }, { name: "vanilla-log" }, { name: "turn-rag" }],
        tasks: ["requirement", "dialogue"],
        users: ["0000"],
        reference: "vanilla",
      },
    }).id;
    expect(await runExperiment(t.db, id, deps, { concurrency: 3 })).toBe("done");
    const mk = (email: string) => t.db.insert(users).values({ email, role: "researcher", passwordHash: "x" }).returning().get().id;
    alice = mk("alice@x");
    bob = mk("bob@x");
  }, 60_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await fake.close();
    t.cleanup();
  });

  const dialogueItem = () =>
    t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.experimentId, id), eq(jobs.task, "dialogue"), eq(jobs.method, "vanilla-log")))
      .get()!;

  it("renders a dialogue turn by turn with each reply's memory and model call, and no JSON anywhere", () => {
    const j = dialogueItem();
    const v = itemView(t.db, id, "dialogue", j.itemKey, { methods: ["vanilla-log"] });
    const o = v.outputs[0];
    expect(o.turns!.length).toBeGreaterThanOrEqual(10);
    const replies = o.turns!.filter((x) => x.role === "assistant");
    expect(replies.map((x) => x.turn)).toEqual(replies.map((_, i) => i + 1));
    // vanilla-log retrieves the session's logs for every reply; each reply links the call that wrote it.
    expect(replies.every((x) => x.retrieved.length > 0 && x.retrieved[0].kind === "log")).toBe(true);
    expect(replies.every((x) => /^[0-9a-f]+$/.test(x.call?.cacheKey ?? ""))).toBe(true);
    expect(new Set(replies.map((x) => x.call!.cacheKey)).size).toBe(replies.length);
    expect(replies[0].text).toBe("reply B");
    expect(o.turns![0].action).toBe("Topic Inquiry");
    expect(v.input[0]).toMatchObject({ label: "Dialogue template" });
    expect(v.cards.map((c) => c.title)).toEqual([
      "Profile",
      "Personality",
      "Situation",
      "Topic and references (never shown to the assistant)",
    ]);
    expect(v.cards[0].fields.find((f) => f.label === "Occupation")?.text).toMatch(/pharmacist/);
    const everything = [
      ...v.cards.flatMap((c) => c.fields),
      ...v.input,
      ...o.turns!.flatMap((x) => [x.text, ...x.retrieved.map((m) => m.text)]),
    ]
      .map((x) => (typeof x === "string" ? x : `${x.label} ${x.text}`))
      .join("\n");
    expect(everything).not.toMatch(JSON_TEXT);
  });

  it("compares any number of methods with the verdicts between them, judges' analyses named by method", () => {
    const j = dialogueItem();
    const all = itemView(t.db, id, "dialogue", j.itemKey);
    expect(all.outputs.map((o) => o.method)).toEqual(["vanilla", "vanilla-log", "turn-rag"]); // the config's order
    expect(all.pairs.map((p) => `${p.a}~${p.b}`).sort()).toEqual(["vanilla~turn-rag", "vanilla~vanilla-log"]);
    const p = all.pairs.find((x) => x.b === "vanilla-log")!;
    expect(p.dimensions.map((d) => d.dimension).length).toBeGreaterThan(0);
    const judgment = p.dimensions[0].judgments[0];
    expect(judgment.analysis.map((f) => f.label)).toEqual(["vanilla", "vanilla-log", "Overall"]);
    const two = itemView(t.db, id, "dialogue", j.itemKey, { methods: ["vanilla-log", "turn-rag"] });
    expect(two.outputs.map((o) => o.method)).toEqual(["vanilla-log", "turn-rag"]);
    expect(two.pairs).toEqual([]);
    expect(() => itemView(t.db, id, "dialogue", "nope/nope/nope")).toThrow(/has no item dialogue · nope/);
  });

  it("a single answer comes with its reference and metric values", () => {
    const j = t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.experimentId, id), eq(jobs.task, "requirement"), eq(jobs.method, "vanilla")))
      .get()!;
    const v = itemView(t.db, id, "requirement", j.itemKey, { methods: ["vanilla"] });
    expect(v.outputs[0].answer).toEqual([{ label: "Requirement", text: "The user wants a plan for the weekend." }]);
    expect(v.reference[0].label).toBe("Requirement (reference)");
    expect(v.outputs[0].scores.find((s) => s.scorer === "gscore")!.values).toEqual([{ metric: "gscore", value: 1.5 }]);
    const rows = listItemRows(t.db, id).rows;
    expect(rows.find((r) => r.id === j.id)).toMatchObject({ score: 1.5, scoreLabel: "G-Score points (0-2)" });
    expect(rows.find((r) => r.method === "vanilla~vanilla-log")).toMatchObject({ scoreLabel: "W/T/L sum" });
    // A failed item carries its error to the Items table.
    t.db.update(jobs).set({ status: "failed", error: "assistant: reply was not JSON after 3 attempts" }).where(eq(jobs.id, j.id)).run();
    expect(listItemRows(t.db, id).rows.find((r) => r.id === j.id)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/not JSON/),
      score: 1.5,
    });
    t.db.update(jobs).set({ status: "done", error: null }).where(eq(jobs.id, j.id)).run();
  });

  it("marks: validated against the block's item, listed with their author for everyone, removed only by the author", () => {
    const j = dialogueItem();
    const v = itemView(t.db, id, "dialogue", j.itemKey, { methods: ["vanilla-log"] });
    const text = v.outputs[0].turns![1].text;
    const body = {
      task: "dialogue",
      itemKey: j.itemKey,
      block: blockId.utterance(j.id, 1),
      start: 0,
      end: 5,
      quote: text.slice(0, 5),
      colour: "need",
      note: "her need",
    };
    const m = addMark(t.db, id, alice, body);
    expect(m).toMatchObject({ author: "alice@x", colour: "need", note: "her need", where: "Vanilla + logs · turn 1 reply" });
    expect(() => addMark(t.db, id, alice, { ...body, colour: "red" })).toThrow(/body\.colour/);
    expect(() => addMark(t.db, id, alice, { ...body, end: 9 })).toThrow(/body\.quote/);
    expect(() => addMark(t.db, id, alice, { ...body, itemKey: "x/y/z" })).toThrow(/no item dialogue · x\/y\/z/);
    const other = t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.experimentId, id), eq(jobs.task, "requirement")))
      .get()!;
    expect(() => addMark(t.db, id, alice, { ...body, block: blockId.utterance(other.id, 1) })).toThrow(
      /body\.block: job \d+ is not an output/,
    );
    expect(listMarks(t.db, id, { task: "dialogue", itemKey: j.itemKey })).toHaveLength(1);
    expect(() => deleteMark(t.db, id, m.id, { id: bob, role: "researcher" })).toThrow(/belongs to another user/);
    const second = addMark(t.db, id, bob, { ...body, colour: "contradicts", note: undefined });
    deleteMark(t.db, id, second.id, { id: bob, role: "researcher" });
    expect(listMarks(t.db, id).map((x) => x.id)).toEqual([m.id]);
  });

  it("stars carry a note and tags; the list filters; Markdown and the self-contained HTML figure show notes and marks", () => {
    const j = dialogueItem();
    expect(starJob(t.db, id, j.id, { starred: true, note: "  Figure 4 candidate  ", tags: ["Figure", "schedule", "figure"] })).toEqual({
      starred: true,
      note: "Figure 4 candidate",
      tags: ["figure", "schedule"],
    });
    expect(() => starJob(t.db, id, j.id, { starred: true, tags: "figure" })).toThrow(/body\.tags/);
    expect(() => starJob(t.db, id, 999999, { starred: true })).toThrow(/has no job/);
    expect(listCaseStudies(t.db, id).map((c) => c.itemKey)).toEqual([j.itemKey]);
    expect(listCaseStudies(t.db, id, { tag: "schedule" })).toHaveLength(1);
    expect(listCaseStudies(t.db, id, { tag: "other" })).toHaveLength(0);
    expect(listCaseStudies(t.db, id, { task: "requirement" })).toHaveLength(0);
    expect(listCaseStudies(t.db, id, { method: "turn-rag", q: "her need" })).toHaveLength(1);
    expect(listCaseStudies(t.db, id, { q: "no such words" })).toHaveLength(0);

    const md = caseStudiesMarkdown(t.db, id);
    // Titled by the user's query (issue 34.3), the key on the line below; methods by their display names.
    const query = itemView(t.db, id, "dialogue", j.itemKey)
      .cards.flatMap((c) => c.fields)
      .find((f) => f.label === "User query")!.text;
    expect(md).toContain(`## ${clipTitle(query)}\n\ndialogue · ${j.itemKey}`);
    expect(md).toContain("*Figure 4 candidate* (Vanilla + logs)");
    expect(md).toContain("Tags: figure, schedule");
    expect(md).toMatch(/### Pairwise verdicts\n\n(- Vanilla vs (Vanilla \+ logs|Turn-level RAG): \w+ (Win|Tie|Lose) \(.*\n){2}/);
    expect(md).toMatch(/- ".{5}" \(Vanilla \+ logs · turn 1 reply\) — matches the user's background or need: her need \(alice@x\)/);
    expect(md).not.toMatch(JSON_TEXT);

    const html = caseStudiesHtml(t.db, id);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<figcaption>Figure 4 candidate");
    expect(html).toMatch(
      /<mark class="need" title="matches the user&#39;s background or need: her need">|<mark class="need" title="matches the user's background or need: her need">/,
    );
    for (const m of ["Vanilla", "Vanilla + logs", "Turn-level RAG"]) expect(html).toContain(`<h3>${m}</h3>`);
    expect(html).not.toMatch(/>(vanilla-log|turn-rag)</);
    expect(html).toContain(`<h2>Case 1: ${escapeXml(clipTitle(query))}</h2>`);
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    // Notes and passages are text, never markup, in the HTML figure.
    starJob(t.db, id, j.id, { starred: true, note: "<script>alert(1)</script> & more" });
    const escaped = caseStudiesHtml(t.db, id, { itemKey: j.itemKey });
    expect(escaped).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
    expect(escaped).not.toContain("<script>");
    // The Markdown export likewise (issue 23, item 9): raw HTML in a note, a tag-like text or a highlight note is shown, not run.
    const hostile = `<img src=x onerror="alert(1)">`;
    starJob(t.db, id, j.id, { starred: true, note: `<script>alert(1)</script> ${hostile}` });
    const mdEscaped = caseStudiesMarkdown(t.db, id, { itemKey: j.itemKey });
    expect(mdEscaped).toContain('*&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror="alert(1)"&gt;* (Vanilla + logs)');
    expect(mdEscaped).not.toMatch(/<script|<img/);
    // Unstarring keeps the note for a later star; the list forgets the item.
    starJob(t.db, id, j.id, { starred: false });
    expect(listCaseStudies(t.db, id)).toEqual([]);
    expect(starJob(t.db, id, j.id, { starred: true }).note).toBe(`<script>alert(1)</script> ${hostile}`);
  });

  it("block ids in words", () => {
    const m = (id: number) => ({ 7: "vanilla", 8: "vanilla~turn-rag" })[id];
    expect(describeBlock(blockId.info("Profile", "Occupation"), m)).toBe("Profile › Occupation");
    expect(describeBlock(blockId.input("User query"), m)).toBe("Input › User query");
    expect(describeBlock(blockId.utterance(7, 2), m)).toBe("vanilla · turn 2 user");
    expect(describeBlock(blockId.memory(7, "t3", 0), m)).toBe("vanilla · memory of turn 3");
    expect(describeBlock(blockId.answer(7, "Requirement"), m)).toBe("vanilla › Requirement");
    expect(describeBlock(blockId.analysis(8, "preference", 4, "Overall"), m)).toBe("vanilla vs turn-rag · preference judgment 5");
  });

  it("readable fields and mark segments", () => {
    expect(readableFields({ healthStatus: "ok", family_members: ["a", "b"], nested: { deepKey: 1 }, list: [{ x: 1 }] })).toEqual([
      { label: "Health status", text: "ok" },
      { label: "Family members", text: "a\nb" },
      { label: "Nested › Deep key", text: "1" },
      { label: "List 1 › X", text: "1" },
    ]);
    const seg = markSegments("abcdefgh", [
      { start: 2, end: 4, quote: "cd" },
      { start: 3, end: 6, quote: "def" },
      { start: 0, end: 1, quote: "zz" },
      { start: 0, end: 2, quote: "gh" },
    ]);
    expect(seg.map((s) => [s.text, !!s.mark])).toEqual([
      ["ab", false],
      ["cd", true],
      ["ef", false],
      ["gh", true],
    ]);
  });
});
