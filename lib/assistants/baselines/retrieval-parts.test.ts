import { describe, expect, it } from "vitest";
import { createRetriever } from "@/lib/retrieval";
import type { MakeIndex } from "./types";
import { sharedLogContext, type HistoryLog } from "./log-context";
import { conditionmemRecall } from "../conditionmem/recall";
import type { StoredRecord } from "../conditionmem/engine";
import { retrieveEvents } from "../ld-agent/retrieve";
import type { LdEvent } from "../ld-agent/engine";
import { memorybankRecall } from "../memorybank/recall";
import type { Piece } from "../memorybank/engine";
import { scriptChat } from "./script-chat";

const bm25: MakeIndex = <T>() => createRetriever<T>("bm25", {});
const bm25n: MakeIndex = <T>() => createRetriever<T>("bm25", { normalize: true });
const DAY = 86_400_000;

const log = (seq: number, position: number, content: string): HistoryLog => ({ seq, position, timestamp: `d${seq}`, content });

describe("shared log context", () => {
  it("keeps every current log and retrieves top-k from earlier sessions only", async () => {
    const history = [
      log(0, 0, "went running in the park"),
      log(0, 1, "bought running shoes"),
      log(1, 0, "dentist appointment"),
      log(2, 0, "running club meeting"), // the current session: never retrieved
      log(3, 0, "running marathon"), // a later session: never retrieved
    ];
    const r = await sharedLogContext(bm25, 2, "running shoes", 2, history, [{ timestamp: "now", content: "cooked dinner" }]);
    expect(r.current.map((l) => l.content)).toEqual(["cooked dinner"]);
    expect(r.retrieved.map((l) => `${l.seq}:${l.position}`)).toEqual(["0:1", "0:0"]);
    expect(await sharedLogContext(bm25, 3, "running", 0, history, [])).toEqual({ current: [], retrieved: [] });
  });
});

describe("ConditionMem self-reflection", () => {
  const rec = (turn: number, summary: string, note: string): StoredRecord => ({ seq: 0, turn, userInput: "", summary, note });
  const records = [
    rec(1, "user asked about gym schedules", "prefers morning gym"),
    rec(2, "user has a dog", "walks the dog at night"),
    rec(3, "planning a trip", "likes quiet hotels"),
  ];

  it("keeps the model's relevant memory when the first retrieval is enough (one call)", async () => {
    const { chat, calls } = scriptChat(() => ({ memory: "prefers morning gym" }));
    const r = await conditionmemRecall(chat, bm25, "en", 3, "gym time", records);
    expect(calls).toHaveLength(1);
    expect(calls[0].user).toContain("1. user asked about gym schedules prefers morning gym");
    expect(r).toMatchObject({ kept: "prefers morning gym", keywords: null });
    // k = 3 of 3 records: the matching one first, the two sharing no term fill in insertion order
    expect(r.records.map((x) => x.turn)).toEqual([1, 2, 3]);
  });

  it("appends the keywords to the query and retrieves once more when it is not enough", async () => {
    const { chat, calls } = scriptChat(() => ({ query: ["hotels", "trip"] }));
    const r = await conditionmemRecall(chat, bm25, "en", 1, "gym time", records);
    expect(calls).toHaveLength(1); // at most one reflection
    expect(r.keywords).toEqual(["hotels", "trip"]);
    expect(r.records.map((x) => x.turn)).toEqual([3]);
  });
});

describe("LD-Agent event retrieval", () => {
  const ev = (key: string, summary: string, nouns: string[], at: number): LdEvent => ({ key, at, summary, nouns, seqs: [0] });
  it("keeps s_sem > γ only and ranks by e^(−t/τ)(s_sem + s_top)", async () => {
    const events = [
      ev("a", "talked about the gym and knee pain", ["gym", "knee", "pain"], 0),
      ev("b", "planned a birthday party", ["birthday", "party"], 0),
    ];
    const nouns = (t: string) => t.split(/\W+/).filter((w) => ["gym", "knee", "party"].includes(w));
    const hits = await retrieveEvents(bm25n, nouns, "gym knee", 10 * DAY, events, { k: 3, gamma: 0.03, tauSeconds: 1e7 });
    expect(hits.map((h) => h.event.key)).toEqual(["a"]);
    const h = hits[0];
    expect(h.top).toBeCloseTo(0.5 * (2 / 2 + 2 / 3), 12);
    expect(h.decay).toBeCloseTo(Math.exp(-(10 * 86_400) / 1e7), 12);
    expect(h.score).toBeCloseTo(h.decay * (h.sem + h.top), 12);
    expect(await retrieveEvents(bm25n, nouns, "weather", 0, events, { k: 3, gamma: 0.03 })).toEqual([]); // "no relevant memory"
  });
});

describe("MemoryBank answer-time forgetting", () => {
  const piece = (id: string, text: string, strength: number, lastRecalledAt: number): Piece => ({
    id,
    text,
    strength,
    lastRecalledAt,
    kind: "turn",
    seq: 0,
    date: "",
  });
  it("forgets by retention under the threshold rule and retrieves from the rest", async () => {
    // At day 10: R(10 d, S=1) = e^-10 ≈ 4.5e-5 (forgotten); R(10 d, S=5) = e^-2 ≈ 0.135 (kept at 0.1).
    const pieces = [piece("weak", "swimming lessons", 1, 0), piece("strong", "swimming pool pass", 5, 0)];
    const r = await memorybankRecall(bm25, 3, "swimming", pieces, 10 * DAY, { kind: "threshold", threshold: 0.1 });
    expect(r.retrieved.map((p) => p.id)).toEqual(["strong"]);
    expect(r.forgotten).toBe(1);
  });
});
