import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import type { Db } from "@/db/client";
import { generatePalset } from "@/bench/gen-palset";
import { importPalset } from "./import";
import { getPalSample, getPalUser, listDatasets, listPalUsers } from "./queries";
import { EN_DIR, ZH_DIR, tempDir } from "@/test/palset";

let db: Db;
let cleanup: () => void;
let en: number;
let big: number;
beforeAll(async () => {
  ({ db, cleanup } = tempDb());
  en = (await importPalset(db, { paths: [EN_DIR] })).datasetId;
  await importPalset(db, { paths: [ZH_DIR] });
  // Two full-size users (about a thousand logs each), as in the published set.
  const file = path.join(tempDir(), "big.json");
  generatePalset(file, 3);
  big = (await importPalset(db, { paths: [file], name: "big" })).datasetId;
});
afterAll(() => cleanup());

describe("read model", () => {
  it("lists data sets of both kinds with stats", () => {
    const list = listDatasets(db);
    expect(list.map((d) => d.name).sort()).toEqual(["big", "mini-en", "mini-zh"]);
    expect(list.find((d) => d.name === "mini-en")).toMatchObject({ kind: "palset", language: "en", stats: { users: 2, logs: 24 } });
  });

  it("lists users with counts and time span; sorts, filters, paginates in SQL", () => {
    const { rows, total } = listPalUsers(db, en);
    expect(total).toBe(2);
    expect(rows[0]).toEqual({
      userKey: "0000",
      name: "Li Ming",
      sessions: 3,
      logs: 12,
      turns: 18,
      topics: 5,
      firstAt: Date.UTC(2024, 0, 1, 9, 0),
      lastAt: Date.UTC(2024, 0, 17, 20, 0),
    });
    expect(listPalUsers(db, en, { sort: "name", dir: "desc" }).rows.map((r) => r.name)).toEqual(["Wang Fang", "Li Ming"]);
    expect(listPalUsers(db, en, { sort: "span", dir: "desc" }).rows.map((r) => r.userKey)).toEqual(["0001", "0000"]);
    expect(listPalUsers(db, en, { filter: "wang" }).rows.map((r) => r.userKey)).toEqual(["0001"]);
    expect(listPalUsers(db, en, { filter: "%" }).total).toBe(0); // LIKE wildcards are literal
    expect(listPalUsers(db, en, { filter: "0001" }).total).toBe(1);
    const p2 = listPalUsers(db, en, { pageSize: 1, page: 2 });
    expect(p2).toMatchObject({ total: 2, rows: [{ userKey: "0001" }] });
    expect(listPalUsers(db, big, { sort: "logs", dir: "desc", pageSize: 2 }).rows.map((r) => r.logs)).toEqual([997, 996]);
  });

  it("a user: profile, requirement types with preferences, timeline with counts", () => {
    const u = getPalUser(db, en, "0000")!;
    // The user page's time span is the list's: the first log, not the first session's dialogue.
    const listed = listPalUsers(db, en).rows.find((r) => r.userKey === "0000")!;
    expect([u.firstAt, u.lastAt]).toEqual([listed.firstAt, listed.lastAt]);
    expect(u.firstAt).toBeLessThan(u.timeline[0].dialogueAt!);
    expect(u).toMatchObject({ userKey: "0000", name: "Li Ming", background: { occupation: "Sales manager." } });
    expect(u.requirementTypes[0]).toEqual({
      aspect: "work",
      typeKey: "work-1",
      requirementType: "Time management",
      preferencePos: ["Likes simple steps for work-1."],
      preferenceNeg: ["Dislikes long plans for work-1."],
    });
    expect(u.timeline.map((s) => [s.sampleKey, s.split, s.logCount, s.turnCount, s.topicCount, s.hasSituation])).toEqual([
      ["0000_sample0", "history", 4, 7, 2, true],
      ["0000_sample1", "history", 4, 4, 1, true],
      ["0000_sample2", "query", 4, 7, 2, true],
    ]);
    expect(u.timeline[2].topics.map((t) => t.requirementTypeKey)).toEqual(["family-1", "leisure-1"]);
    expect(Object.values(u.logTypes).reduce((a, b) => a + b, 0)).toBe(12);
    expect(getPalUser(db, en, "9999")).toBeNull();
  });

  it("a sample: situation, logs with types, turns with actions and topics, topics with candidates and requirement type", () => {
    const s = getPalSample(db, en, "0000", "0000_sample2")!;
    expect(s).toMatchObject({
      split: "query",
      seq: 2,
      prevSampleKey: "0000_sample1",
      nextSampleKey: null,
      situation: { requirement_ids: ["family-1", "leisure-1"] },
    });
    expect(s.logs).toHaveLength(4);
    expect(s.logs[0]).toMatchObject({ position: 0, logType: expect.any(String) });
    expect(s.turns.map((t) => t.topicIndex)).toEqual([0, 0, 0, 0, 1, 1, 1]);
    expect(s.turns[0]).toMatchObject({
      turnKey: "turn_1",
      userAction: "Topic Inquiry",
      userActionCode: "topic_inquiry",
      assistantActionCode: "requirement_prediction",
    });
    expect(s.topics[0]).toMatchObject({
      topicKey: "topic-1",
      requirementTypeKey: "family-1",
      requirementType: { aspect: "family", requirementType: "Time with family" },
    });
    expect(s.topics[0].candidates.map((c) => c.feedback)).toEqual(["neu", "pos", "neg", "neu", "pos", "neu", "neg", "neu"]);
    expect(s.topics[0].dialogueTemplate).not.toBeNull();
    expect(getPalSample(db, en, "0000", "0001_sample0")).toBeNull();
    expect(getPalSample(db, en + 1, "0000", "0000_sample0")).not.toBeNull(); // the zh set has the same ids
  });

  // Speed is measured by `npm run bench user-page`, not asserted here (a timed unit test is flaky under load).
  it("reads a user with 1,000+ logs, their samples and the users list", () => {
    const u = getPalUser(db, big, "0000")!;
    expect(u.timeline.reduce((n, s) => n + s.logCount, 0)).toBeGreaterThan(990);
    for (const s of u.timeline.slice(0, 3)) {
      const sample = getPalSample(db, big, "0000", s.sampleKey)!;
      expect(sample.logs.length).toBe(s.logCount);
    }
    expect(listPalUsers(db, big, { sort: "firstAt" }).rows.length).toBeGreaterThan(0);
  });
});
