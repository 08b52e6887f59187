import { describe, expect, it } from "vitest";
import { createRetriever } from "@/lib/retrieval";
import type { MakeIndex } from "../baselines/types";
import { scriptChat } from "../baselines/script-chat";
import { conditionmemRecall } from "./recall";
import type { StoredRecord } from "./engine";

const bm25: MakeIndex = <T>() => createRetriever<T>("bm25", {});

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
