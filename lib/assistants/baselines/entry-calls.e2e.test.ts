/**
 * Every baseline entry links to exactly the model calls whose replies it was made from, not to the
 * other calls of its build phase: built with the real client over HTTP against the fake OpenAI
 * server, each entry's links are read back the way the inspector reads them (the ledger and the
 * cached request and reply of each key), and compared with the requests the method's prompts make
 * for that entry's own inputs. A rebuild from the cache stores the same links.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "@/test/fake-openai";
import { importMarkedHicupid, importMarkedPalset } from "@/test/marked-data";
import { probeResponder } from "@/test/probe-assistant";
import { baselinePurpose, baselineResponder } from "@/test/baseline-responder";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { callDetail } from "@/lib/llm/call-detail";
import { callPurposes, showMemory, type ShownEntry } from "@/lib/memory/show";
import { defaultRetrievers as createRetriever } from "../core/context";
import { buildMemory } from "../core/build";
import { datasetByName, listUserKeys, loadSessions } from "../core/sessions";
import { toBaselineSession } from "./adapter";
import type { BaselineSession } from "./types";
import { speaker, type ChatMessage } from "./history-text";
import { dialogueSummaryPrompt, logSummaryPrompt } from "../recursum/prompts";
import { decisionPrompt, recordPrompt } from "../conditionmem/prompts";
import { dailyPortraitPrompt, eventSummaryPrompt, globalPortraitPrompt, globalSummaryPrompt } from "../memorybank/prompts";
import { eventSummaryPrompt as ldEventPrompt, personaPrompt } from "../ld-agent/prompts";
import type { StoredRecord } from "../conditionmem/engine";
import type { Piece } from "../memorybank/engine";
import type { LdEvent, PersonaTrait } from "../ld-agent/engine";

/** PAL-Set (logs and dialogues) and HiCUPID (dialogues only: the methods run their dialogue parts). */
const DATASETS = ["Marked PAL-Set", "Marked HiCUPID"];

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
let cleanups: Array<() => void>;

/**
 * The shared fake finds traits in user sentences only; here some assistant sentences reveal one too,
 * so the assistant's persona bank is built from a few of its session's extraction calls, not all.
 */
function respond(req: ChatRequest): string {
  const sentence = /Sentence: ([^\n]*)/.exec(String(req.messages.at(-1)?.content ?? ""))?.[1] ?? "";
  const proposes = sentence.startsWith("Assistant replies") && sentence.includes("(Solution Proposal)");
  if (baselinePurpose(req) === "ld-agent.persona" && proposes)
    return JSON.stringify({ traits: [`proposes solutions ${/MK_S\d+_DLG/.exec(sentence)?.[0] ?? ""}`.trim()] });
  // HiCUPID: its user lines (marked) with a question, and its (unmarked) assistant lines of even length.
  const hicupid = sentence.includes("MK_HC_DLG") ? sentence.includes("?") : !sentence.includes("MK_") && sentence.length % 2 === 0;
  if (baselinePurpose(req) === "ld-agent.persona" && hicupid) return JSON.stringify({ traits: ["gives or seeks advice"] });
  return baselineResponder(probeResponder)(req);
}

beforeEach(async () => {
  fake = await startFakeOpenAI({ respond });
  vi.stubEnv("OPENAI_BASE_URL", fake.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test-key");
  vi.stubEnv("PAL_MODEL_ASSISTANT", "fake-assistant");
  vi.stubEnv("PAL_MODEL_EMBEDDING", "fake-embedding");
  t = tempDb();
  cleanups = [(await importMarkedPalset(t.db, DATASETS[0])).cleanup, (await importMarkedHicupid(t.db, DATASETS[1])).cleanup];
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  t.cleanup();
  for (const c of cleanups) c();
});

async function build(db: Db, dataset: string, users: string[], method: string) {
  const results = await buildMemory(db, {
    dataset: datasetByName(db, dataset),
    method,
    users,
    llm: ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500 }),
    createRetriever,
  });
  expect(results.map((r) => r.status)).toEqual(["complete", "complete"]);
  return results;
}

/** A linked call as the inspector's call page shows it: purpose from the ledger, request and reply from the cache. */
type Linked = { key: string; purpose: string; messages: ChatMessage[]; reply: Record<string, unknown> };

function linkedCalls(db: Db, versionId: number, e: ShownEntry): Linked[] {
  return e.callKeys.map((key) => {
    const d = callDetail(db, key);
    const ok = d.attempts.filter((a) => a.memoryVersionId === versionId && a.status === "ok");
    expect(ok.length, `${e.kind} ${e.key}: ${key} has no accepted ledger row of its memory`).toBeGreaterThan(0);
    expect(d.cached, `${e.kind} ${e.key}: ${key} not cached`).not.toBeNull();
    const request = d.cached!.request as { messages: ChatMessage[] };
    const reply = JSON.parse(d.cached!.response) as Record<string, unknown>;
    // The inspector labels the link with the same purpose.
    expect(callPurposes(db, versionId)[key]).toBe(ok[0].purpose);
    return { key, purpose: ok[0].purpose, messages: request.messages, reply };
  });
}

/** The purposes of an entry's calls, sorted (the store keeps keys sorted, not in call order). */
const purposes = (calls: Linked[]) => calls.map((c) => c.purpose).sort();
/** Requests compared as a set: the same prompt twice is one call (one cache key). */
const requestSet = (ms: ChatMessage[][]) => [...new Set(ms.map((m) => JSON.stringify(m)))].sort();

/** The phase-mates an entry must not link to: every accepted call of its memory with a purpose. */
function ledgerKeys(db: Db, versionId: number, purpose: string): Set<string> {
  const rows = db.$client
    .prepare("select distinct cache_key as k from llm_calls where memory_version_id = ? and purpose = ? and status = 'ok'")
    .all(versionId, purpose) as Array<{ k: string }>;
  return new Set(rows.map((r) => r.k));
}

type Check = {
  db: Db;
  versionId: number;
  entries: ShownEntry[];
  sessions: BaselineSession[];
  calls: (e: ShownEntry) => Linked[];
  /** The entry of the same kind and key that this one replaced (its span ends where this one's begins). */
  previous: (e: ShownEntry) => ShownEntry | undefined;
};

/** The session whose dialogue phase wrote an entry (that phase writes from seq + 1 on). */
const dialogueSeq = (e: ShownEntry) => e.validFromSeq - 1;

const checks: Record<string, (c: Check) => void> = {
  "turn-rag": ({ entries }) => {
    for (const e of entries) expect(e.callKeys, `${e.kind} ${e.key}`).toEqual([]);
  },
  "session-rag": ({ entries }) => {
    for (const e of entries) expect(e.callKeys, `${e.kind} ${e.key}`).toEqual([]);
  },
  recursum: ({ entries, sessions, calls, previous }) => {
    const kinds = entries.map((e) => e.kind);
    expect(kinds).toContain("dialogue-summary");
    expect(kinds.includes("log-summary")).toBe(sessions.some((s) => s.logs.length > 0));
    for (const e of entries) {
      if (e.kind === "log") {
        expect(e.callKeys).toEqual([]);
        continue;
      }
      const s = sessions[dialogueSeq(e)];
      const c = e.content as { seq: number; summary: string };
      const prev = (previous(e)?.content as { summary: string } | undefined)?.summary ?? null;
      const linked = calls(e);
      // Its own summary call only: not the other chain's call of the same session.
      expect(purposes(linked), `${e.kind} of session ${s.seq}`).toEqual([`recursum.${e.kind}`]);
      const expected = e.kind === "dialogue-summary" ? dialogueSummaryPrompt("en", prev, s.turns) : logSummaryPrompt("en", prev, s.logs);
      expect(linked[0].messages).toEqual(expected);
      expect(linked[0].reply.summary).toBe(c.summary);
    }
  },
  conditionmem: ({ db, versionId, entries, sessions, calls }) => {
    const records = entries.filter((e) => e.kind === "record");
    expect(records.length).toBeGreaterThan(1);
    // The phase made more decision calls than there are records, so linking the phase's calls would show.
    expect(ledgerKeys(db, versionId, "conditionmem.decision").size).toBeGreaterThan(2);
    for (const e of entries) {
      if (e.kind === "log") {
        expect(e.callKeys).toEqual([]);
        continue;
      }
      const r = e.content as StoredRecord;
      const s = sessions[r.seq];
      const linked = calls(e);
      expect(purposes(linked), `record ${e.key}`).toEqual(["conditionmem.decision", "conditionmem.record"]);
      expect(requestSet(linked.map((l) => l.messages))).toEqual(
        requestSet([decisionPrompt("en", r.userInput), recordPrompt("en", s.turns.slice(0, r.turn - 1), r.userInput)]),
      );
      expect(linked.find((l) => l.purpose === "conditionmem.decision")!.reply).toEqual({ decision: "yes" });
      const record = linked.find((l) => l.purpose === "conditionmem.record")!.reply;
      expect([record.summary, record.note]).toEqual([r.summary, r.note]);
    }
  },
  memorybank: ({ entries, sessions, calls, previous }) => {
    let recalled = 0;
    const at = (kind: string, key: string, validFromSeq: number) =>
      entries.find((x) => x.kind === kind && x.key === key && x.validFromSeq === validFromSeq)!;
    for (const e of entries) {
      if (e.kind === "log" || e.kind === "turn") {
        expect(e.callKeys, `${e.kind} ${e.key}`).toEqual([]);
        if (e.kind === "turn" && e.validFromSeq > (e.content as Piece).seq + 1) recalled++;
        continue;
      }
      const linked = calls(e);
      if (e.kind === "event") {
        const p = e.content as Piece;
        if (e.validFromSeq > p.seq + 1) {
          // A later session recalled it: only its strength changed, which no call did.
          expect(e.callKeys, `recalled ${e.key}`).toEqual([]);
          recalled++;
          continue;
        }
        const s = sessions[p.seq];
        expect(purposes(linked)).toEqual(["memorybank.event"]);
        expect(linked[0].messages).toEqual(eventSummaryPrompt("en", s.date, s.turns));
        expect(linked[0].reply.summary).toBe(p.text);
        continue;
      }
      const s = sessions[dialogueSeq(e)];
      if (e.kind === "daily-portrait") {
        expect(purposes(linked)).toEqual(["memorybank.daily-portrait"]);
        expect(linked[0].messages).toEqual(dailyPortraitPrompt("en", s.date, s.turns));
        expect(linked[0].reply.portrait).toBe(e.content);
        continue;
      }
      // The global updates: the session's reply they fold in (the very call its own entry links to) and their own call.
      const prev = (previous(e)?.content as string | undefined) ?? null;
      if (e.kind === "global-summary") {
        const event = at("event", `event:${s.seq}`, s.seq + 1);
        expect(purposes(linked)).toEqual(["memorybank.event", "memorybank.global-summary"]);
        expect(linked.find((l) => l.purpose === "memorybank.event")!.key).toBe(event.callKeys[0]);
        const own = linked.find((l) => l.purpose === "memorybank.global-summary")!;
        expect(own.messages).toEqual(globalSummaryPrompt("en", prev, s.date, (event.content as Piece).text));
        expect(own.reply.summary).toBe(e.content);
      } else {
        expect(e.kind).toBe("global-portrait");
        const daily = at("daily-portrait", `portrait:${s.seq}`, s.seq + 1);
        expect(purposes(linked)).toEqual(["memorybank.daily-portrait", "memorybank.global-portrait"]);
        expect(linked.find((l) => l.purpose === "memorybank.daily-portrait")!.key).toBe(daily.callKeys[0]);
        const own = linked.find((l) => l.purpose === "memorybank.global-portrait")!;
        expect(own.messages).toEqual(globalPortraitPrompt("en", prev, s.date, daily.content as string));
        expect(own.reply.portrait).toBe(e.content);
      }
    }
    // Recall happened in this build, so the "no call" rule for strength changes was exercised.
    expect(recalled).toBeGreaterThan(0);
  },
  "ld-agent": ({ db, versionId, entries, sessions, calls }) => {
    expect(entries.some((e) => e.kind === "event")).toBe(true);
    expect(entries.some((e) => e.kind === "persona-user")).toBe(true);
    expect(entries.some((e) => e.kind === "persona-assistant")).toBe(true);
    const personaCalls = ledgerKeys(db, versionId, "ld-agent.persona");
    for (const e of entries) {
      if (e.kind === "log" || e.kind === "cache") {
        expect(e.callKeys, `${e.kind} ${e.key}`).toEqual([]);
        continue;
      }
      const linked = calls(e);
      if (e.kind === "event") {
        const ev = e.content as LdEvent;
        // Each session's utterances share its time, so a flushed batch is whole sessions.
        const lines = ev.seqs.flatMap((seq) =>
          sessions[seq].turns.flatMap((u) => [`${speaker("en", "user")}: ${u.user}`, `${speaker("en", "assistant")}: ${u.assistant}`]),
        );
        expect(purposes(linked), e.key).toEqual(["ld-agent.event-summary"]);
        expect(linked[0].messages).toEqual(ldEventPrompt("en", lines));
        expect(linked[0].reply.summary).toBe(ev.summary);
        continue;
      }
      const traits = e.content as PersonaTrait[];
      const s = sessions[traits[0].seq];
      const who = e.kind === "persona-user" ? "user" : "assistant";
      // Exactly the extraction calls over this speaker's utterances in this session that found a trait.
      const sentences = s.turns.map((u) => u[who]).filter((_, i) => traits.some((tr) => tr.turn === i + 1));
      expect(linked.every((l) => l.purpose === "ld-agent.persona")).toBe(true);
      expect(requestSet(linked.map((l) => l.messages))).toEqual(requestSet(sentences.map((x) => personaPrompt("en", x))));
      const replied = linked.flatMap((l) => l.reply.traits as string[]);
      for (const tr of traits) expect(replied, `${e.key}: where does "${tr.trait}" come from?`).toContain(tr.trait);
      // The session's other speaker was asked too: those calls are in the ledger but not linked here.
      expect(personaCalls.size).toBeGreaterThan(linked.length);
    }
  },
};

describe.each(DATASETS.flatMap((d) => Object.keys(checks).map((m) => [d, m])))("%s, %s", (dataset, method) => {
  it("links each entry to exactly the calls it was made from, and a rebuild from the cache stores the same links", async () => {
    const db = t.db;
    const ds = datasetByName(db, dataset);
    const users = listUserKeys(db, ds).slice(0, 2);
    const results = await build(db, dataset, users, method);
    const stored: ShownEntry[][] = [];
    for (const [i, r] of results.entries()) {
      const entries = showMemory(db, r.versionId);
      expect(entries.length).toBeGreaterThan(0);
      const sessions = loadSessions(db, ds, users[i]).map(toBaselineSession);
      checks[method]({
        db,
        versionId: r.versionId,
        entries,
        sessions,
        calls: (e) => linkedCalls(db, r.versionId, e),
        previous: (e) => entries.find((p) => p.kind === e.kind && p.key === e.key && p.validToSeq === e.validFromSeq),
      });
      stored.push(entries);
    }

    // Rebuild from scratch: every call is answered by the cache, and the same links are stored.
    const before = fake.chatRequests.length;
    db.$client.prepare("delete from memory_versions where id in (?, ?)").run(results[0].versionId, results[1].versionId);
    const again = await build(db, dataset, users, method);
    expect(fake.chatRequests.length).toBe(before);
    expect(again.map((r) => showMemory(db, r.versionId))).toEqual(stored);
  });
});
