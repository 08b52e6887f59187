import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeModelPerTest } from "@/test/fake-model-env";
import { probeResponder } from "@/test/probe-assistant";
import { startMethodServer } from "@/test/method-server";
import { llmCalls, memoryEntries } from "@/db/schema";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { buildMemory } from "../core/build";
import { respondInSession } from "../core/respond";
import { datasetByName, loadSessions } from "../core/sessions";
import { importMarkedHicupid } from "@/test/marked-data";
import type { TaskInput } from "../core/types";
import { ASSISTANTS } from "../registry";
import { checkMethod, preflight } from "./check";
import { externalAssistant } from ".";
import { RunPausedError } from "@/lib/llm/spend-guard";
import { openApiDocument } from "./openapi";
import fs from "node:fs";
import { addExternalMethod, findExternalMethod, listExternalMethods, removeExternalMethod } from "./store";

const m = fakeModelPerTest(probeResponder);
let svc: Awaited<ReturnType<typeof startMethodServer>>;
beforeEach(async () => {
  svc = await startMethodServer();
  // The model client's retry policy, shortened: one retry after about a second.
  vi.stubEnv("PAL_LLM_RETRIES", "1");
});
afterEach(() => svc.close());

const reserved = ASSISTANTS.map((a) => a.id);
const client = (db: Db) => ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500 });
const register = (db: Db, timeoutMs = 1000) =>
  addExternalMethod(
    db,
    { name: "mine", label: "My-method", url: svc.url + "/", headers: { "X-Lab-Key": "s3cret-lab" }, timeoutMs },
    reserved,
  );
const build = (db: Db) =>
  buildMemory(db, { dataset: datasetByName(db, "Marked PAL-Set"), method: "mine", users: ["0000"], llm: client(db) });
const answer = (db: Db, input: TaskInput, seq = 2) =>
  respondInSession(db, { dataset: datasetByName(db, "Marked PAL-Set"), userKey: "0000", method: "mine", seq, input, llm: client(db) });

const INPUTS: TaskInput[] = [
  { type: "query", query: "Any ideas for this weekend?" },
  { type: "requirement", requirement: "A relaxing weekend plan." },
  {
    type: "selection",
    requirement: "A relaxing weekend plan.",
    candidates: [1, 2, 3].map((i) => ({ id: String(i), solution: `option ${i}` })),
  },
  { type: "dialogue", turns: [{ user: "I need some advice." }], action: "requirement_prediction" },
];

describe("external methods: the registry", () => {
  it("adds, lists without header values, refuses built-in names, bad URLs and duplicates, removes", async () => {
    const db = await m.palsetDb();
    const saved = register(db);
    expect(saved).toMatchObject({ name: "mine", label: "My-method", url: svc.url, headerNames: ["X-Lab-Key"] });
    // The header value is stored encrypted, and only the client reads it back.
    expect(JSON.stringify(db.$client.prepare("SELECT * FROM external_methods").all())).not.toContain("s3cret-lab");
    expect(findExternalMethod(db, "mine")?.headers).toEqual({ "X-Lab-Key": "s3cret-lab" });
    expect(JSON.stringify(listExternalMethods(db))).not.toContain("s3cret-lab");
    expect(() => addExternalMethod(db, { name: "vanilla", url: svc.url }, reserved)).toThrow(/built-in/);
    expect(() => addExternalMethod(db, { name: "x", url: "ftp://a" }, reserved)).toThrow(/url: an http/);
    expect(() => addExternalMethod(db, { name: "x", url: "http://u:p@h" }, reserved)).toThrow(/no user:password@/);
    expect(() => addExternalMethod(db, { name: "Bad Name", url: svc.url }, reserved)).toThrow(/name/);
    expect(() => register(db)).toThrow(/already registered/);
    removeExternalMethod(db, "mine");
    expect(listExternalMethods(db)).toEqual([]);
    expect(() => removeExternalMethod(db, "mine")).toThrow(/no external method/);
  });
});

describe("external methods: the protocol over HTTP", () => {
  it("sends each session phase in time order, never evaluation material, stores the entries handed back, and answers every task", async () => {
    const db = await m.palsetDb();
    register(db);
    const [r] = await build(db);
    expect(r.status).toBe("complete");
    const sessions = svc.requests.filter((q) => q.path === "/sessions");
    expect(sessions.map((q) => `${(q.body!.session as { seq: number }).seq}:${q.body!.phase}`)).toEqual([
      "0:logs",
      "0:dialogue",
      "1:logs",
      "1:dialogue",
      "2:logs",
      "2:dialogue",
    ]);
    for (const q of sessions) {
      expect(q.headers["x-lab-key"]).toBe("s3cret-lab");
      expect(q.body).toMatchObject({ user: "0000", language: "en", datasetKind: "palset" });
      const text = JSON.stringify(q.body);
      expect(text).not.toMatch(/MK_S\d_TOPIC/);
      // The logs phase never carries the session's dialogue.
      if (q.body!.phase === "logs") expect(text).not.toMatch(/MK_S\d_DLG/);
    }
    // The entries the method handed back are its memory, linked to the calls they came from.
    const entries = db.select().from(memoryEntries).all();
    expect(entries.map((e) => e.key)).toEqual(["0:logs", "0:dialogue", "1:logs", "1:dialogue", "2:logs", "2:dialogue"]);
    expect(entries.every((e) => e.callKeys.length === 1)).toBe(true);
    // Its model calls are in the ledger under the memory version, purpose "<method>.llm".
    const calls = db
      .select()
      .from(llmCalls)
      .all()
      .filter((c) => c.purpose === "mine.llm");
    expect(calls.length).toBe(6);
    expect(calls.every((c) => c.memoryVersionId === r.versionId)).toBe(true);

    for (const input of INPUTS) {
      const out = await answer(db, input, 1);
      expect(out.output.type).toBe(input.type);
      expect(out.calls).toBe(1);
    }
    const responds = svc.requests.filter((q) => q.path === "/respond");
    expect(responds).toHaveLength(INPUTS.length);
    for (const q of responds) {
      const text = JSON.stringify(q.body);
      // Session 1's answer sees session 0 whole and session 1's logs, never session 1's dialogue or any topic.
      expect(text).toContain("MK_S0_DLG");
      expect(text).toContain("MK_S1_LOG");
      expect(text).not.toMatch(/MK_S1_DLG|MK_S2_|MK_S\d_TOPIC/);
      expect(q.body!.session).not.toHaveProperty("dialogue");
    }
    expect(responds[2].body!.input).toEqual(INPUTS[2]);
  });

  it("HiCUPID: dialogue phases only, and no QA material or dialogue metadata ever sent", async () => {
    const t = m.db();
    m.onCleanup((await importMarkedHicupid(t.db)).cleanup);
    register(t.db);
    const dataset = datasetByName(t.db, "Marked HiCUPID");
    const [r] = await buildMemory(t.db, { dataset, method: "mine", users: ["0"], llm: client(t.db) });
    expect(r.status).toBe("complete");
    const n = loadSessions(t.db, dataset, "0").length;
    const out = await respondInSession(t.db, {
      dataset,
      userKey: "0",
      method: "mine",
      seq: n,
      input: { type: "question", question: "What should I do tonight?" },
      llm: client(t.db),
    });
    expect(out.output).toMatchObject({ type: "question", answer: expect.any(String) });
    expect(new Set(svc.requests.filter((q) => q.path === "/sessions").map((q) => q.body!.phase))).toEqual(new Set(["dialogue"]));
    const everything = JSON.stringify(svc.requests.map((q) => q.body));
    expect(everything).toContain("MK_HC_DLG");
    expect(everything).not.toMatch(/MK_QA_|MK_DLG_META/);
  });

  it("refuses the run-scoped key once the run it was made for (the memory build) returned", async () => {
    const db = await m.palsetDb();
    register(db);
    await build(db);
    const llm = svc.requests[0].body!.llm as { baseUrl: string; apiKey: string };
    expect(llm.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(llm.apiKey).not.toBe("test-key");
    const r = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${llm.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(r.status).toBe(401);
    expect(m.fake.chatRequests.map((q) => q.messages.at(-1)?.content)).not.toContain("hi");
  });

  it("answers a method's identical calls from the cache, and serves a stateful method by namespace", async () => {
    const db = await m.palsetDb();
    register(db);
    svc.setMode("stateful");
    await build(db);
    expect(db.select().from(memoryEntries).all()).toEqual([]);
    svc.setMode("llm-twice");
    const out = await answer(db, INPUTS[0], 2);
    expect(out.calls).toBe(2);
    const rows = db
      .select()
      .from(llmCalls)
      .all()
      .filter((c) => c.purpose === "mine.llm");
    expect(rows.filter((c) => c.cacheHit)).toHaveLength(1);
    const ns = svc.requests.filter((q) => q.path !== "/").map((q) => q.body!.namespace);
    expect(new Set(ns).size).toBe(1);
  });

  it("builds without an embedding model configured (the method then calls chat only)", async () => {
    const db = await m.palsetDb();
    register(db);
    vi.stubEnv("PAL_MODEL_EMBEDDING", "");
    const [r] = await build(db);
    expect(r.status).toBe("complete");
    const v = db.$client.prepare("SELECT settings FROM memory_versions WHERE id = ?").get(r.versionId) as { settings: string };
    expect(Object.keys(JSON.parse(v.settings).models)).toEqual(["assistant"]);
  });

  it.each([
    ["hang", /no reply within 1000 ms/],
    ["500", /answered HTTP 500: .*the index is corrupt/],
    ["badjson", /not JSON/],
    ["wrongkeys", /the reply's output.*(requirement|answer_text)/],
  ] as const)("a method that answers %s fails the answer with what went wrong, after a retry", async (mode, message) => {
    const db = await m.palsetDb();
    register(db);
    await build(db);
    svc.setMode(mode);
    const before = svc.requests.length;
    await expect(answer(db, INPUTS[0], 1)).rejects.toThrow(message);
    expect(svc.requests.length - before).toBe(2);
  });
});

describe("external methods: a reply too large", () => {
  it("is cut off at 8 MB while it arrives and fails the answer without a retry", async () => {
    const db = await m.palsetDb();
    register(db);
    await build(db);
    svc.setMode("huge");
    const before = svc.requests.length;
    await expect(answer(db, INPUTS[0], 1)).rejects.toThrow(/the reply is too large: more than \d+ bytes sent/);
    expect(svc.requests.length - before).toBe(1);
  });
});

describe("external methods: timeouts", () => {
  it("retries a request that timed out once, as the model client does, however many retries are allowed", async () => {
    vi.stubEnv("PAL_LLM_RETRIES", "4");
    const db = await m.palsetDb();
    register(db);
    await build(db);
    svc.setMode("hang");
    const before = svc.requests.length;
    await expect(answer(db, INPUTS[0], 1)).rejects.toThrow(/no reply within 1000 ms/);
    expect(svc.requests.length - before).toBe(2);
  });
});

describe("external methods: pal methods check and the OpenAPI document", () => {
  it("passes a conforming method, with every call and task type it claims", async () => {
    const db = await m.palsetDb();
    register(db);
    const r = await checkMethod(findExternalMethod(db, "mine")!);
    expect(r.violations).toEqual([]);
    expect(r.conforms).toBe(true);
    expect(r.steps.map((s) => s.step)).toEqual([
      "GET /",
      "POST /sessions (session 0, logs)",
      "POST /sessions (session 0, dialogue)",
      "POST /sessions (session 1, logs)",
      ...["query", "requirement", "selection", "dialogue", "question"].map((t) => `POST /respond (${t})`),
      "POST /respond (query) while every model call fails",
    ]);
    // The check pays for nothing: no request reached the model server.
    expect(m.fake.chatRequests).toEqual([]);
  });

  it("names each violation: wrong keys, and an answer invented after its model calls failed", async () => {
    const db = await m.palsetDb();
    register(db);
    svc.setMode("wrongkeys");
    const wrong = await checkMethod(findExternalMethod(db, "mine")!);
    expect(wrong.conforms).toBe(false);
    expect(wrong.violations.filter((v) => v.startsWith("POST /respond ("))).toHaveLength(5);
    expect(wrong.violations[0]).toMatch(/POST \/respond \(query\): .*output/);
    svc.setMode("invent");
    const invented = await checkMethod(findExternalMethod(db, "mine")!);
    expect(invented.violations).toEqual([expect.stringMatching(/answered although all 1 of its model calls failed/)]);
  });

  it("before a run: names the service, or says it does not answer", async () => {
    const db = await m.palsetDb();
    register(db);
    const ok = await preflight([findExternalMethod(db, "mine")!], ["query", "dialogue"]);
    expect(ok).toEqual([`external method mine: test-method 1 at ${svc.url}`]);
    const down = { ...findExternalMethod(db, "mine")!, url: "http://127.0.0.1:9" };
    const lines = await preflight([down], ["query"]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^external method mine: GET \/: .*\(is the service running\? pal methods check mine\)$/);
  });

  it("publishes the protocol as OpenAPI 3.1, the copy in docs/ equal to it", () => {
    const doc = openApiDocument();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths as object)).toEqual(["/", "/sessions", "/respond", "/reset"]);
    expect(JSON.parse(fs.readFileSync("docs/external-methods.openapi.json", "utf8"))).toEqual(doc);
  });
});

describe("external methods: a run paused on its spend cap", () => {
  it("ends the answer with the pause even when the method answers anyway", async () => {
    const db = await m.palsetDb();
    register(db);
    svc.setMode("invent"); // answers 200 after its model call was refused
    const paused = new RunPausedError("the spend cap of 4 paid calls was reached");
    const llm = { chat: () => Promise.reject(paused), embed: () => Promise.reject(paused) };
    const a = externalAssistant(findExternalMethod(db, "mine")!);
    const ctx = {
      llm,
      options: {},
      language: "en",
      datasetKind: "palset",
      userKey: "0000",
      memory: { versionId: 1, list: () => [] },
      current: { seq: 0, key: "s0", split: "query", timestamp: null, logs: [] },
    } as unknown as Parameters<typeof a.respond>[0];
    await expect(a.respond(ctx, INPUTS[0])).rejects.toBe(paused);
    // Not retried: one request reached the method.
    expect(svc.requests.filter((q) => q.path === "/respond")).toHaveLength(1);
  });
});
