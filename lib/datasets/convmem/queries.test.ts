/** The browse queries of LoCoMo / LongMemEval data sets: search in keys and questions, sort, paging of a thread's sessions. */
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { LOCOMO_DEMO, LONGMEMEVAL_DEMO } from "@/test/fixtures";
import { importLocomo } from "../locomo/import";
import { importLongMemEval } from "../longmemeval/import";
import { getThread, listThreads } from "./queries";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());
const st = (o: Partial<Parameters<typeof listThreads>[2]> = {}) => ({
  sort: "position" as const,
  dir: "asc" as const,
  filter: "",
  page: 1,
  pageSize: 25,
  ...o,
});

describe("conversational-memory browse queries", () => {
  it("lists threads, searches keys and question text (LIKE wildcards literal), sorts", async () => {
    t = tempDb();
    const { datasetId } = await importLongMemEval(t.db, { paths: [LONGMEMEVAL_DEMO], name: "lme" });
    expect(listThreads(t.db, datasetId, st()).total).toBe(5);
    expect(listThreads(t.db, datasetId, st({ filter: "motorbike" })).rows.map((r) => r.threadKey)).toEqual(["q-demo-ssu_abs"]);
    expect(listThreads(t.db, datasetId, st({ filter: "_abs" })).rows.map((r) => r.threadKey)).toEqual(["q-demo-ssu_abs"]);
    expect(listThreads(t.db, datasetId, st({ filter: "%" })).total).toBe(0);
    const bySessions = listThreads(t.db, datasetId, st({ sort: "sessions", dir: "desc" })).rows;
    expect(bySessions[0]).toMatchObject({ threadKey: "q-demo-ku", sessions: 4, firstQuestion: "What car do I drive now?" });
  });

  it("one thread: a page of its sessions with turns, and its QA", async () => {
    t = tempDb();
    const { datasetId } = await importLocomo(t.db, { paths: [LOCOMO_DEMO], name: "loc" });
    const p1 = getThread(t.db, datasetId, "conv-demo-1", 1, 1)!;
    expect(p1.sessions.map((s) => [s.seq, s.label, s.turns.length])).toEqual([[0, "session_1", 4]]);
    expect(p1.qa.length).toBe(6);
    expect(p1.qa[2].evidence).toEqual(["D1:2", "D2:1"]);
    const p2 = getThread(t.db, datasetId, "conv-demo-1", 2, 1)!;
    expect(p2.sessions.map((s) => [s.seq, s.label, s.date])).toEqual([[1, "session_2", "6:30 pm on 20 April, 2023"]]);
    expect(getThread(t.db, datasetId, "nope")).toBeNull();
  });
});
