import { fakeModelPerTest } from "@/test/fake-model-env";
/**
 * The six memory baselines end to end: the real model client over HTTP to the fake OpenAI server
 * (scripted replies), the real builder and memory store on SQLite, the real BM25 retriever.
 */
import { describe, expect, it } from "vitest";
import { type ChatRequest, type Fault } from "@/test/fake-openai";
import { importMarkedHicupid } from "@/test/marked-data";
import { probeResponder } from "@/test/probe-assistant";
import { baselinePurpose, baselineResponder, fakeWorthRemembering } from "@/test/baseline-responder";
import { llmCalls } from "@/db/schema";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { defaultRetrievers as createRetriever } from "../core/context";
import { buildMemory } from "../core/build";
import { respondInSession } from "../core/respond";
import { datasetByName, listUserKeys, loadSessions } from "../core/sessions";
import { showUserMemory } from "../core/show";
import { toBaselineSession } from "./adapter";
import { recursumImpliedCalls } from "../recursum/engine";
import { memorybankImpliedCalls } from "../memorybank/engine";
import { ldAgentImpliedCalls } from "../ld-agent/engine";

const BASELINES = ["turn-rag", "session-rag", "recursum", "conditionmem", "memorybank", "ld-agent"] as const;
type Method = (typeof BASELINES)[number];

const m = fakeModelPerTest(baselineResponder(probeResponder));

const palsetDb = () => m.palsetDb();
async function hicupidDb(): Promise<Db> {
  const t = m.db();
  m.onCleanup((await importMarkedHicupid(t.db)).cleanup);
  return t.db;
}

const client = (db: Db) => ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500 });
const PAL = "Marked PAL-Set";
const USERS = ["0000", "0001"];

function build(db: Db, method: Method, dsName = PAL, users = USERS) {
  const dataset = datasetByName(db, dsName);
  return buildMemory(db, { dataset, method, users, llm: client(db), createRetriever });
}

const promptText = (r: ChatRequest) => r.messages.map((m) => String(m.content)).join("\n");

/** Entries as stored, without ids: what must be identical between two builds. */
function memoryOf(db: Db, method: Method, dsName = PAL, users = USERS) {
  const dataset = datasetByName(db, dsName);
  return users.map((userKey) =>
    showUserMemory(db, { dataset, method, userKey, llm: client(db), createRetriever }).entries.map((e) => ({ ...e, id: undefined })),
  );
}

function impliedBuildCalls(db: Db, method: Method): number {
  const dataset = datasetByName(db, PAL);
  return USERS.reduce((n, u) => {
    const sessions = loadSessions(db, dataset, u).map(toBaselineSession);
    const userInputs = sessions.flatMap((s) => s.turns.map((t) => t.user));
    switch (method) {
      case "turn-rag":
      case "session-rag":
        return n;
      case "recursum":
        return n + recursumImpliedCalls(sessions);
      case "conditionmem":
        return n + userInputs.length + userInputs.filter(fakeWorthRemembering).length;
      case "memorybank":
        return n + memorybankImpliedCalls(sessions);
      case "ld-agent":
        return n + ldAgentImpliedCalls(sessions);
    }
  }, 0);
}

describe.each(BASELINES)("%s over the marked PAL-Set", (method) => {
  it("builds with the calls its algorithm implies, answers from the past only, and rebuilds with zero calls", async () => {
    const db = await palsetDb();
    const results = await build(db, method);
    expect(results.map((r) => r.status)).toEqual(["complete", "complete"]);
    const buildReqs = [...m.fake.chatRequests];
    // Every call the algorithm makes ends in one accepted ledger row (fresh or from the cache, since
    // identical prompts are asked once); fewer requests than that reach the server.
    const accepted = db
      .select()
      .from(llmCalls)
      .all()
      .filter((c) => c.status === "ok");
    expect(accepted.length).toBe(impliedBuildCalls(db, method));
    expect(buildReqs.length).toBeLessThanOrEqual(accepted.length);
    expect(buildReqs.length).toBe(accepted.filter((c) => !c.cacheHit).length);
    // No build prompt carries topics (evaluation material).
    for (const r of buildReqs) expect(promptText(r)).not.toMatch(/MK_S\d_TOPIC/);

    // Answer in the query session (seq 2): its logs yes; its dialogue, topics or later sessions never.
    const before = m.fake.chatRequests.length;
    const out = await respondInSession(db, {
      dataset: datasetByName(db, PAL),
      method,
      userKey: "0000",
      seq: 2,
      input: { type: "query", query: "healthy lunch near the office for topic 1" },
      llm: client(db),
      createRetriever,
    });
    const answerReqs = m.fake.chatRequests.slice(before);
    expect(answerReqs.length).toBe(out.calls);
    const all = answerReqs.map(promptText).join("\n");
    expect(all).toContain("MK_S2_LOG");
    expect(all).not.toMatch(/MK_S2_DLG|MK_S\d_TOPIC|MK_S[3-9]/);
    expect(all).not.toContain("(u0001)");
    if (method !== "recursum") expect(out.retrieved.some((x) => x.kind === "log")).toBe(true);

    const again = m.fake.chatRequests.length;
    const second = await build(db, method);
    expect(second.map((r) => r.built)).toEqual([0, 0]);
    expect(m.fake.chatRequests.length).toBe(again);
  });
});

describe("what each baseline stores and retrieves", () => {
  it("recursum: M_j and L_j replace each other session by session; an answer sees M_1 and L_1", async () => {
    const db = await palsetDb();
    await build(db, "recursum", PAL, ["0000"]);
    const [entries] = memoryOf(db, "recursum", PAL, ["0000"]);
    const m = entries.filter((e) => e.kind === "dialogue-summary").map((e) => [e.validFromSeq, e.validToSeq]);
    expect(m).toEqual([
      [1, 2],
      [2, 3],
      [3, null],
    ]);
    const out = await respondInSession(db, {
      dataset: datasetByName(db, PAL),
      method: "recursum",
      userKey: "0000",
      seq: 2,
      input: { type: "query", query: "anything" },
      llm: client(db),
      createRetriever,
    });
    const texts = out.retrieved.map((r) => r.text).join(" ");
    expect(texts).toContain("MK_S1_DLG");
    expect(texts).toContain("MK_S0_DLG"); // folded forward from M_0
    expect(texts).not.toContain("MK_S2");
  });

  it("conditionmem: one record per 'yes', top-3 retrieval, one self-reflection that extends the query", async () => {
    const db = await palsetDb();
    await build(db, "conditionmem", PAL, ["0000"]);
    const [entries] = memoryOf(db, "conditionmem", PAL, ["0000"]);
    const sessions = loadSessions(db, datasetByName(db, PAL), "0000");
    const yes = sessions.flatMap((s) => s.dialogue.filter((t) => fakeWorthRemembering(t.user)).map(() => s.seq));
    expect(entries.filter((e) => e.kind === "record").map((e) => e.validFromSeq)).toEqual(yes.map((s) => s + 1));
    const before = m.fake.chatRequests.length;
    const out = await respondInSession(db, {
      dataset: datasetByName(db, PAL),
      method: "conditionmem",
      userKey: "0000",
      seq: 2,
      input: { type: "query", query: "topic 1" },
      llm: client(db),
      createRetriever,
    });
    const reqs = m.fake.chatRequests.slice(before);
    expect(reqs.map((r) => baselinePurpose(r) ?? "answer")).toEqual(["conditionmem.reflection", "answer"]);
    expect(out.retrieved.filter((r) => r.kind === "record").length).toBeLessThanOrEqual(3);
  });

  it("ld-agent: one event per earlier session, flushed on arrival, with nouns; persona banks per speaker", async () => {
    const db = await palsetDb();
    await build(db, "ld-agent", PAL, ["0000"]);
    const [entries] = memoryOf(db, "ld-agent", PAL, ["0000"]);
    const events = entries.filter((e) => e.kind === "event");
    // Session 1's arrival flushes session 0 (visible from 1), session 2's flushes session 1; session 2 stays cached.
    expect(events.map((e) => [e.key, e.validFromSeq])).toEqual([
      ["event:0", 1],
      ["event:1", 2],
    ]);
    expect((events[0].content as { nouns: string[] }).nouns.length).toBeGreaterThan(0);
    expect(entries.some((e) => e.kind === "persona-user")).toBe(true);
  });

  it("memorybank: turns, events, portraits and globals; pieces are forgotten or recalled as sessions arrive", async () => {
    const db = await palsetDb();
    await build(db, "memorybank", PAL, ["0000"]);
    const [entries] = memoryOf(db, "memorybank", PAL, ["0000"]);
    const kinds = new Set(entries.map((e) => e.kind));
    for (const k of ["turn", "event", "daily-portrait", "global-summary", "global-portrait", "log"]) expect(kinds.has(k)).toBe(true);
    // PAL-Set sessions are days apart, so the default seeded rule forgets most pieces (R = e^(−t/S)) before
    // the next session can recall them; what survives a recall gets stronger (engine.test.ts has the arithmetic).
    const turns = entries.filter((e) => e.kind === "turn").map((e) => e.content as { strength: number; forgottenAt?: number });
    expect(turns.some((p) => p.forgottenAt !== undefined || p.strength > 1)).toBe(true);
    expect(Math.max(...turns.map((p) => p.strength))).toBeLessThanOrEqual(3);
  });
});

describe("calls that read one session alone start ahead", () => {
  it("memorybank: later sessions' event summaries are asked before the first global update; the ledger has one row per call", async () => {
    const db = await palsetDb();
    const dataset = datasetByName(db, PAL);
    const sessions = loadSessions(db, dataset, "0000");
    expect(sessions.filter((s) => s.dialogue.length).length).toBeGreaterThanOrEqual(3);
    // Slots for all six calls of sessions 0-2, and replies slow enough that all six are asked first.
    const reply = baselineResponder(probeResponder);
    m.fake.setResponder((req) => ({ content: reply(req), delayMs: 40 }));
    const llm = ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500, concurrency: { assistant: 8 } });
    const r = await buildMemory(db, { dataset, method: "memorybank", users: ["0000"], llm, createRetriever });
    expect(r[0].status).toBe("complete");
    const purposes = m.fake.chatRequests.map((q) => ({ purpose: baselinePurpose(q), text: promptText(q) }));
    const firstGlobal = purposes.findIndex((p) => p.purpose === "memorybank.global-summary");
    // With a look-ahead of two sessions, the event summaries of sessions 0, 1 and 2 are all asked first.
    const early = purposes.slice(0, firstGlobal).filter((p) => p.purpose === "memorybank.event");
    expect(early.map((p) => /MK_S(\d)_DLG/.exec(p.text)?.[1])).toEqual(["0", "1", "2"]);
    // Prefetched or not, every call the algorithm makes is one accepted ledger row.
    const accepted = db
      .select()
      .from(llmCalls)
      .all()
      .filter((c) => c.status === "ok");
    expect(accepted.length).toBe(memorybankImpliedCalls(sessions.map(toBaselineSession)));
    expect(accepted.every((c) => !c.cacheHit)).toBe(true);
  });
});

describe("the dense retriever setting", () => {
  it.each(["turn-rag", "ld-agent"] as const)("%s retrieves through the embedding role when --retriever dense", async (method) => {
    const db = await palsetDb();
    const dataset = datasetByName(db, PAL);
    const r = await buildMemory(db, { dataset, method, users: ["0000"], llm: client(db), createRetriever, retriever: "dense" });
    expect(r[0].status).toBe("complete");
    const embedBefore = m.fake.embeddingRequests.length;
    const out = await respondInSession(db, {
      dataset,
      method,
      userKey: "0000",
      seq: 2,
      retriever: "dense",
      input: { type: "query", query: "healthy lunch near the office" },
      llm: client(db),
      createRetriever,
    });
    expect(m.fake.embeddingRequests.length).toBeGreaterThan(embedBefore);
    expect(out.retrieved.filter((x) => x.kind === "log")).toHaveLength(3);
    // The dense memory is a different version from the BM25 one (the retriever is part of its settings).
    await expect(
      respondInSession(db, {
        dataset,
        method,
        userKey: "0000",
        seq: 2,
        input: { type: "query", query: "x" },
        llm: client(db),
        createRetriever,
      }),
    ).rejects.toThrow(/not been built|not built/);
  });
});

describe("faults and HiCUPID", () => {
  const faults: Fault[] = [{ kind: "status", status: 429, retryAfterSeconds: 0 }, { kind: "status", status: 500 }, { kind: "hang" }];
  it.each(["recursum", "conditionmem", "memorybank", "ld-agent"] as const)(
    "%s: with 20%% faulty replies the memory is identical to a fault-free build and the ledger shows retries",
    async (method) => {
      const clean = await palsetDb();
      await build(clean, method);
      const expected = memoryOf(clean, method);

      const db = await palsetDb();
      let n = 0;
      const seen = new Set<string>();
      m.fake.setFault((req) => {
        // Each distinct prompt is faulted once at most (every fifth one), so retries succeed.
        const key = promptText(req);
        if (seen.has(key)) return undefined;
        seen.add(key);
        return n++ % 5 === 0 ? faults[((n / 5) % faults.length) | 0] : undefined;
      });
      let invalid = 0;
      const base = baselineResponder(probeResponder);
      m.fake.setResponder((req) => (invalid++ % 10 === 0 && baselinePurpose(req) ? "not json at all" : base(req)));
      const results = await build(db, method);
      expect(results.map((r) => r.status)).toEqual(["complete", "complete"]);
      expect(memoryOf(db, method)).toEqual(expected);
      const rows = db.select().from(llmCalls).all();
      expect(rows.some((r) => r.status === "retry")).toBe(true);
    },
    60_000,
  );

  it.each(BASELINES)("%s on HiCUPID: dialogue parts only; no metadata or QA reaches a prompt", async (method) => {
    const db = await hicupidDb();
    const dataset = datasetByName(db, "Marked HiCUPID");
    const users = listUserKeys(db, dataset).slice(0, 1);
    const results = await build(db, method, "Marked HiCUPID", users);
    expect(results.map((r) => r.status)).toEqual(["complete"]);
    const n = loadSessions(db, dataset, users[0]).length;
    await respondInSession(db, {
      dataset,
      method,
      userKey: users[0],
      seq: n,
      input: { type: "question", question: "What do I like?" },
      llm: client(db),
      createRetriever,
    });
    for (const r of m.fake.chatRequests) expect(promptText(r)).not.toMatch(/MK_DLG_META|MK_QA_/);
    expect(m.fake.chatRequests.map(promptText).join("\n")).toContain("MK_HC_DLG");
  });
});
