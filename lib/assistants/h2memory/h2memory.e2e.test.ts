import { fakeModelPerTest } from "@/test/fake-model-env";
/**
 * H2Memory end to end: the real builder, memory store, model client (over HTTP) and retrievers,
 * against the fake OpenAI server (test double) answering every H2Memory step validly. Checks the
 * calls it makes (count and content), the memory it stores, what it retrieves per phase, that a
 * 20%-faulty build gives the same memory, and that a second build makes no call.
 */
import { describe, expect, it } from "vitest";
import { type Fault } from "@/test/fake-openai";
import { palResponder } from "@/test/h2memory-responder";
import { importMarkedHicupid } from "@/test/marked-data";
import { enData, writeTemp, zhData } from "@/test/palset";
import { llmCalls, memoryVersions } from "@/db/schema";
import type { Db } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { summarizeCalls } from "@/lib/llm/ledger";
import { buildMemory } from "../core/build";
import { respondInSession } from "../core/respond";
import { datasetByName, listUserKeys, loadSessions } from "../core/sessions";
import { showUserMemory } from "../core/show";
import type { RetrievedItem, TaskInput } from "../core/types";
import { stepOf } from "./prompts";
import type { LogGraphEntry, PrincipleEntry, SituationEntry, TopicOutlineEntry } from "./types";

const m = fakeModelPerTest(palResponder);

const NAME = "H2 PAL-Set";

/**
 * The mini English PAL-Set with marker strings (MK_S<seq>_LOG / _DLG / _TOPIC per session) and user
 * 0000's first session grown to 25 logs (three log-graph windows).
 */
async function h2Db(): Promise<Db> {
  const t = m.db();
  const data = enData();
  for (const [uid, user] of Object.entries(data)) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw published JSON
    [...user.history, ...user.query].forEach((s: any, seq: number) => {
      if (uid === "0000" && seq === 0) {
        const base = s.logs[0];
        s.logs = Array.from({ length: 25 }, (_, i) => ({
          timestamp: `2024-01-01 ${String(8 + Math.floor(i / 6)).padStart(2, "0")}:${String((i % 6) * 10).padStart(2, "0")}`,
          content: `${base.content} (step ${i})`,
        }));
      }
      for (const l of s.logs) l.content += ` (u${uid}) MK_S${seq}_LOG`;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const turn of Object.values<any>(s.dialogue)) {
        turn.user.content += ` (u${uid}) MK_S${seq}_DLG`;
        turn.assistant.content += ` MK_S${seq}_DLG`;
      }
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      for (const topic of Object.values<any>(s.topics)) {
        topic.user_query += ` MK_S${seq}_TOPIC`;
        topic.requirement += ` MK_S${seq}_TOPIC`;
      }
    });
  }
  await importPalset(t.db, { paths: [writeTemp(data)], name: NAME, lang: "en" });
  return t.db;
}

// Three retries may follow a timeout (the default allows one): on a loaded machine an honest reply can
// outlive 1.5 s right after a "hang" fault, and this file tests the memory, not the timeout policy.
const client = (db: Db) => ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500, timeoutRetries: 3 });
const dataset = (db: Db) => datasetByName(db, NAME);
const build = async (db: Db, users = ["0000"], method = "h2memory") => {
  const llm = client(db);
  const results = await buildMemory(db, { dataset: dataset(db), method, users, llm });
  return { results, llm };
};
const show = (db: Db, user = "0000", method = "h2memory") =>
  showUserMemory(db, { dataset: dataset(db), method, userKey: user, llm: client(db) }).entries.map((e) => ({
    kind: e.kind,
    key: e.key,
    from: e.validFromSeq,
    to: e.validToSeq,
    content: e.content,
  }));
const text = (r: { messages: Array<{ content: unknown }> }) => r.messages.map((m) => String(m.content)).join("\n");
const requestsOf = (step: string) => m.fake.chatRequests.filter((r) => stepOf(r.messages as never) === step);

describe("h2memory against the fake model server", () => {
  it("makes the calls the algorithm implies, over the right log windows, and stores M_G, M_B, M_T and M_P", async () => {
    const db = await h2Db();
    const sessions = loadSessions(db, dataset(db), "0000");
    expect(sessions.map((s) => [s.logs.length, s.dialogue.length, s.split])).toEqual([
      [25, 7, "history"],
      [4, 4, "history"],
      [4, 7, "query"],
    ]);
    const { results } = await build(db);
    expect(results[0]).toMatchObject({ status: "complete", built: 3 });

    // Log graph: windows of 10 with the 10 before as context → 3 + 1 + 1 calls.
    const graphCalls = requestsOf("log-graph");
    expect(graphCalls).toHaveLength(5);
    const s0 = graphCalls.filter((r) => text(r).includes("MK_S0_LOG"));
    const spans = s0.map((r) => /(log_\d+ ~ log_\d+)/.exec(text(r))![1]).sort();
    expect(spans).toEqual(["log_0 ~ log_9", "log_10 ~ log_19", "log_20 ~ log_24"]);
    const shown = (span: string) => {
      const t = text(s0.find((r) => text(r).includes(span))!);
      return [...t.matchAll(/^(log_\d+) \[/gm)].map((m) => Number(m[1].slice(4)));
    };
    expect(shown("log_0 ~ log_9")).toEqual(range(0, 10));
    expect(shown("log_10 ~ log_19")).toEqual(range(0, 20));
    expect(shown("log_20 ~ log_24")).toEqual(range(10, 25));

    // The responder links log_i to log_{i-1} unless i % 3 == 0: components of 3 logs, across windows.
    expect(requestsOf("situation")).toHaveLength(9 + 2 + 2);
    expect(requestsOf("background")).toHaveLength(3);
    // One outline call per dialogue; one rewrite per outline (one topic per 4 turns: 2 + 1 + 2).
    expect(requestsOf("topic-outline")).toHaveLength(3);
    // The outline call needs only the dialogue: it is sent beside the logs phase (before the
    // session's background update), once, and the dialogue phase takes it from the cache.
    const steps = m.fake.chatRequests.map((r) => stepOf(r.messages as never));
    expect(steps.indexOf("topic-outline")).toBeLessThan(steps.indexOf("background"));
    expect(requestsOf("requirement-refinement")).toHaveLength(5);

    const mem = show(db);
    const graph = mem.find((e) => e.kind === "log_graph" && e.key === sessions[0].key)!;
    const g = graph.content as LogGraphEntry;
    expect(g.components).toHaveLength(9);
    expect(g.components[3]).toEqual(["log_9", "log_10", "log_11"]);
    expect(g.edges).toContainEqual({ from: "log_9", to: "log_10", type: "follows" });
    expect(g.edges).toContainEqual({ from: "log_9", to: "log_11", type: "caused_by" });
    expect(g.windows.map((w) => [w.first, w.last, w.context])).toEqual([
      ["log_0", "log_9", 0],
      ["log_10", "log_19", 10],
      ["log_20", "log_24", 10],
    ]);
    // Every entry carries the cache key of the call that made it, and that call is in the ledger.
    const ledgerKeys = new Set(
      db
        .select({ k: llmCalls.cacheKey })
        .from(llmCalls)
        .all()
        .map((r) => r.k),
    );
    for (const w of g.windows) expect(ledgerKeys.has(w.callKey!)).toBe(true);
    const situations = mem.filter((e) => e.kind === "situation");
    expect(situations).toHaveLength(13);
    expect(situations.every((s) => s.from === sessions.findIndex((x) => x.key === (s.content as SituationEntry).session))).toBe(true);
    for (const s of situations) expect(ledgerKeys.has((s.content as SituationEntry).callKey!)).toBe(true);
    expect(mem.some((e) => e.kind === "background")).toBe(true);

    const outlines = mem.filter((e) => e.kind === "topic_outline");
    expect(outlines.map((o) => [o.key, o.from])).toEqual([
      [`${sessions[0].key}/t0`, 1],
      [`${sessions[0].key}/t1`, 1],
      [`${sessions[1].key}/t0`, 2],
      [`${sessions[2].key}/t0`, 3],
      [`${sessions[2].key}/t1`, 3],
    ]);
    // M_P: KMeans over the 3 history requirements at the query session: two distinct texts give clusters
    // of 2 and 1; a one-member cluster is no abstraction, so it is redone with one cluster: all three.
    const req = (o: (typeof outlines)[number]) => (o.content as TopicOutlineEntry).requirement;
    expect(req(outlines[0])).toBe(req(outlines[2]));
    expect(req(outlines[0])).not.toBe(req(outlines[1]));
    const principles = mem.filter((e) => e.kind === "principle");
    const initial = principles.filter((p) => p.from === 2);
    expect(initial).toHaveLength(1);
    expect((initial[0].content as PrincipleEntry).clustering).toEqual({ seed: 42, redone: [{ n: 8, sizes: [2, 1], tries: 100 }] });
    expect(requestsOf("requirement-abstraction")).toHaveLength(1);
    expect(requestsOf("preference-abstraction")).toHaveLength(1);
    expect(initial.flatMap((p) => (p.content as PrincipleEntry).members).sort()).toEqual(
      outlines
        .slice(0, 3)
        .map((o) => o.key)
        .sort(),
    );
    // The query session's 2 requirements join their nearest centres; each cluster that gained
    // members gets one type update and one principle update, and a new version from session 3.
    const gained = principles.filter((p) => p.from === 3);
    expect(gained.length).toBeGreaterThanOrEqual(1);
    expect(requestsOf("requirement-update")).toHaveLength(gained.length);
    expect(requestsOf("preference-update")).toHaveLength(gained.length);
    expect(gained.flatMap((p) => (p.content as PrincipleEntry).members)).toEqual(
      expect.arrayContaining(outlines.slice(3).map((o) => o.key)),
    );

    // A second build makes no call at all.
    const again = await build(db);
    expect(again.llm.stats.requests).toBe(0);
    expect(again.results[0]).toMatchObject({ status: "complete", built: 0 });
  });

  it("retrieves per phase: requirement-only content for a query, solutions and principles for a requirement, turn by turn in a dialogue", async () => {
    const db = await h2Db();
    await build(db);
    const sessions = loadSessions(db, dataset(db), "0000");
    const ask = (input: TaskInput) =>
      respondInSession(db, { dataset: dataset(db), userKey: "0000", method: "h2memory", seq: 2, input, llm: client(db) });
    const query = "Any ideas for topic 1 of sample 0?";

    m.fake.chatRequests.length = 0;
    const q = await ask({ type: "query", query });
    expect(q.output).toEqual({ type: "query", requirement: "The user wants a plan that suits them." });
    const kinds = (items: RetrievedItem[]) => [...new Set(items.map((i) => i.kind))].sort();
    expect(kinds(q.retrieved)).toEqual(
      ["background", "principle", "situation", "topic_outline"].filter((k) => q.retrieved.some((i) => i.kind === k)),
    );
    // Situations only from the current session (M_G^j), outlines only from earlier dialogues.
    for (const s of q.retrieved.filter((i) => i.kind === "situation")) expect(s.key.startsWith(`${sessions[2].key}/`)).toBe(true);
    const outlinesQ = q.retrieved.filter((i) => i.kind === "topic_outline");
    expect(outlinesQ.length).toBeGreaterThan(0);
    expect(outlinesQ.length).toBeLessThanOrEqual(3);
    for (const o of outlinesQ) expect(o.key.startsWith(sessions[2].key)).toBe(false);
    // Requirement phase: no solutions, feedback, preferences or principles' text.
    for (const o of outlinesQ) expect(o.text).not.toMatch(/Plan: |the user agreed|Prefers plans/);
    for (const p of q.retrieved.filter((i) => i.kind === "principle")) expect(p.text).not.toMatch(/Principle: /);
    // One call: the task prompt, which carries the retrieved memory.
    expect(m.fake.chatRequests).toHaveLength(1);
    for (const item of q.retrieved) expect(text(m.fake.chatRequests[0])).toContain(item.text.split("\n")[0]);

    m.fake.chatRequests.length = 0;
    const r = await ask({ type: "requirement", requirement: "The user wants a practical plan for topic 1." });
    const outlinesR = r.retrieved.filter((i) => i.kind === "topic_outline");
    expect(outlinesR.length).toBeGreaterThan(0);
    // Requirement, solutions and feedback (the paper's R(M_T)); the outline's preference line is left to the principles.
    expect(outlinesR.some((o) => /Plan: /.test(o.text) && /the user agreed/.test(o.text))).toBe(true);
    expect(outlinesR.some((o) => /Prefers plans/.test(o.text))).toBe(false);
    const principlesR = r.retrieved.filter((i) => i.kind === "principle");
    expect(principlesR.length).toBeGreaterThan(0);
    for (const p of principlesR) expect(p.text).toMatch(/Principle: /);
    expect(m.fake.chatRequests).toHaveLength(1);

    // Dialogue: a query-generation call, then the turn; the phase follows the turn's action.
    m.fake.chatRequests.length = 0;
    const turns = [{ user: "I need a practical plan for topic 1." }];
    const d1 = await ask({ type: "dialogue", turns, action: "requirement_prediction" });
    expect(m.fake.chatRequests.map((x) => stepOf(x.messages as never) ?? "task")).toEqual(["query-generation", "task"]);
    expect(d1.output.type).toBe("dialogue");
    const d2 = await ask({ type: "dialogue", turns, action: "solution_proposal" });
    const o1 = d1.retrieved.filter((i) => i.kind === "topic_outline");
    const o2 = d2.retrieved.filter((i) => i.kind === "topic_outline");
    expect(o1.map((o) => o.key)).toEqual(o2.map((o) => o.key));
    for (const o of o1) expect(o.text).not.toMatch(/Plan: /);
    expect(o2.some((o) => /Plan: /.test(o.text))).toBe(true);
  });

  it("no prompt for session j holds session j's dialogue or topics or a later session", async () => {
    const db = await h2Db();
    await build(db);
    const sessions = loadSessions(db, dataset(db), "0000");
    for (const s of sessions) {
      m.fake.chatRequests.length = 0;
      const inputs: TaskInput[] = [
        { type: "query", query: "Any ideas for this weekend?" },
        { type: "requirement", requirement: "A relaxing weekend plan." },
        { type: "dialogue", turns: [{ user: "I need some advice." }], action: "solution_proposal" },
      ];
      for (const input of inputs)
        await respondInSession(db, { dataset: dataset(db), userKey: "0000", method: "h2memory", seq: s.seq, input, llm: client(db) });
      const all = m.fake.chatRequests.map(text).join("\n");
      expect(all).not.toMatch(new RegExp(`MK_S${s.seq}_(DLG|TOPIC)`));
      for (let later = s.seq + 1; later < sessions.length; later++) expect(all).not.toContain(`MK_S${later}_`);
      expect(all).not.toMatch(/MK_S\d+_TOPIC/);
    }
  });

  it("HiCUPID: outlines and one principle per dialogue, and no QA material or dialogue metadata in any prompt", async () => {
    const t = m.db();
    m.onCleanup((await importMarkedHicupid(t.db)).cleanup);
    const ds = datasetByName(t.db, "Marked HiCUPID");
    const all = await buildMemory(t.db, { dataset: ds, method: "h2memory", users: listUserKeys(t.db, ds).slice(0, 2), llm: client(t.db) });
    expect(all.every((r) => r.status === "complete")).toBe(true);
    const steps = new Set(m.fake.chatRequests.map((r) => stepOf(r.messages as never)));
    expect([...steps].sort()).toEqual(["preference-abstraction", "requirement-abstraction", "topic-outline"]);
    const user = all[0].userKey;
    const n = loadSessions(t.db, ds, user).length;
    const mem = showUserMemory(t.db, { dataset: ds, method: "h2memory", userKey: user, llm: client(t.db) }).entries;
    expect(mem.filter((e) => e.kind === "principle")).toHaveLength(n);
    expect(mem.some((e) => e.kind === "log_graph" || e.kind === "situation" || e.kind === "background")).toBe(false);
    await respondInSession(t.db, {
      dataset: ds,
      userKey: user,
      method: "h2memory",
      seq: n,
      input: { type: "question", question: "What should I do tonight?" },
      llm: client(t.db),
    });
    const prompts = m.fake.chatRequests.map(text).join("\n");
    expect(prompts).toContain("MK_HC_DLG");
    expect(prompts).not.toMatch(/MK_QA_|MK_DLG_META/);
  });

  it("with 20% faulty replies (429, 500, hang, drop, invalid JSON) builds the same memory; the ledger shows the retries", async () => {
    const clean = await h2Db();
    await build(clean, ["0000", "0001"]);
    const expected = [show(clean, "0000"), show(clean, "0001")];

    const faulty = await h2Db();
    const kinds: Array<Fault | "invalid"> = [
      { kind: "status", status: 429, retryAfterSeconds: 0 },
      { kind: "status", status: 500 },
      "invalid",
      { kind: "hang" },
      { kind: "drop" },
    ];
    const faultOf = (i: number) => (i % 5 === 0 ? kinds[Math.floor(i / 5) % kinds.length] : undefined);
    m.fake.setFault((_req, i) => {
      const k = faultOf(i);
      return k === "invalid" ? undefined : k;
    });
    m.fake.setResponder((req, i) => (faultOf(i) === "invalid" ? '{"broken": ' : palResponder(req)));
    const { results } = await build(faulty, ["0000", "0001"]);
    expect(results.map((r) => r.status)).toEqual(["complete", "complete"]);
    expect([show(faulty, "0000"), show(faulty, "0001")]).toEqual(expected);

    const versions = faulty.select().from(memoryVersions).all();
    const sums = versions.map((v) => summarizeCalls(faulty, { memoryVersionId: v.id }));
    const total = (k: "retry" | "invalid") => sums.reduce((n, s) => n + s.byStatus[k], 0);
    expect(total("retry")).toBeGreaterThanOrEqual(3);
    expect(total("invalid")).toBeGreaterThanOrEqual(1);
    const errors = faulty
      .select({ e: llmCalls.error })
      .from(llmCalls)
      .all()
      .map((r) => r.e ?? "");
    expect(errors.some((e) => e.startsWith("HTTP 429"))).toBe(true);
    expect(errors.some((e) => e.startsWith("HTTP 500"))).toBe(true);

    m.fake.setFault(undefined);
    const again = await build(faulty, ["0000", "0001"]);
    expect(again.llm.stats.requests).toBe(0);
  });

  it("a Chinese data set builds with the Chinese prompts (the log-graph reply, ids only, is not language-checked)", async () => {
    const t = m.db();
    await importPalset(t.db, { paths: [writeTemp(zhData())], name: "zh", lang: "zh" });
    const ds = datasetByName(t.db, "zh");
    const [r] = await buildMemory(t.db, { dataset: ds, method: "h2memory", users: [listUserKeys(t.db, ds)[0]], llm: client(t.db) });
    expect(r).toMatchObject({ status: "complete", error: null });
    expect(r.entries.log_graph).toBeGreaterThan(0);
    expect(r.entries.principle).toBeGreaterThan(0);
    for (const req of m.fake.chatRequests) expect(text(req)).toMatch(/[\u4e00-\u9fff]/);
    const a = await respondInSession(t.db, {
      dataset: ds,
      userKey: r.userKey,
      method: "h2memory",
      seq: 2,
      input: { type: "query", query: "周末有什么安排建议？" },
      llm: client(t.db),
    });
    expect(a.output).toEqual({ type: "query", requirement: "用户想要一个适合自己的安排。" });
  });

  it("the ablations build and retrieve only their parts", async () => {
    const db = await h2Db();
    for (const method of ["h2memory-no-background", "h2memory-no-principle", "h2memory-no-graph", "h2memory-no-topic"]) {
      await build(db, ["0000"], method);
      const kinds = new Set(show(db, "0000", method).map((e) => e.kind));
      expect(kinds.has("background"), method).toBe(method !== "h2memory-no-background");
      expect(kinds.has("principle"), method).toBe(method !== "h2memory-no-principle");
      const r = await respondInSession(db, {
        dataset: dataset(db),
        userKey: "0000",
        method,
        seq: 2,
        input: { type: "requirement", requirement: "A practical plan for topic 1." },
        llm: client(db),
      });
      const got = new Set(r.retrieved.map((i) => i.kind));
      if (method === "h2memory-no-graph") expect(got.has("situation")).toBe(false);
      if (method === "h2memory-no-topic") expect(got.has("topic_outline")).toBe(false);
      if (method === "h2memory-no-background") expect(got.has("background")).toBe(false);
      if (method === "h2memory-no-principle") expect(got.has("principle")).toBe(false);
    }
  });
});

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a }, (_, i) => a + i);
}
