import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { tempDb } from "@/test/db";
import type { Db } from "@/db/client";
import { palRequirementTypes, palSamples, palTopics, palUsers } from "@/db/schema";
import { importPalset } from "./import";
import { linkUser, normaliseBackground, profileKindOf, requirementTypes } from "./profile";
import { ReportBuilder } from "./report";
import { EN_DIR, ZH_DIR, enData, tempDir, writeTemp } from "@/test/palset";

describe("profile files", () => {
  it("are told by name, with or without _en, - or _", () => {
    expect(profileKindOf("x/background_en.json")).toBe("background");
    expect(profileKindOf("Background.json")).toBe("background");
    expect(profileKindOf("requirement-framework_en.json")).toBe("requirement_framework");
    expect(profileKindOf("solution_preference.json")).toBe("solution_preference");
    expect(profileKindOf("dialogue_template.json")).toBe("dialogue_template");
    expect(profileKindOf("input.json")).toBeNull();
    expect(profileKindOf("0003.json")).toBeNull();
  });

  it("background keys: English, Chinese, case, underscores, plural/singular, small typos; levels normalised", () => {
    const rb = new ReportBuilder();
    const out = normaliseBackground(
      {
        Name: "A",
        GENDER: "F",
        age: 3,
        Occupation: "x",
        health_status: "h",
        family_member: "f",
        Hobby: "r",
        Personaltiy: { Openess: "High", 尽责性: "中", Extroversion: "低", agreeableness: " medium ", neuroticism: "very high" },
        "favourite colour": "green",
      },
      "0001",
      rb,
    );
    expect(out).toEqual({
      name: "A",
      gender: "F",
      age: 3,
      occupation: "x",
      "health status": "h",
      "family members": "f",
      hobbies: "r",
      personality: {
        openness: "high",
        conscientiousness: "medium",
        extraversion: "low",
        agreeableness: "medium",
        neuroticism: "very high",
      },
      "favourite colour": "green",
    });
    expect(rb.toReport().unrecognised).toEqual([
      'background personality value "very high" (1×, e.g. 0001.neuroticism)',
      'background key "favourite colour" (1×, e.g. 0001)',
    ]);
    const zh = normaliseBackground(
      {
        姓名: "李明",
        性别: "男",
        年龄: 34,
        职业: "x",
        健康状况: "h",
        家庭成员: "f",
        爱好: "r",
        性格: { 开放性: "高", 外向性: "中", 宜人性: "低", 神经质: "高" },
      },
      "0000",
      rb,
    );
    expect(Object.keys(zh)).toEqual(["name", "gender", "age", "occupation", "health status", "family members", "hobbies", "personality"]);
    expect(zh.personality).toEqual({ openness: "high", extraversion: "medium", agreeableness: "low", neuroticism: "high" });
  });

  it("requirement + preference → requirement types (pos/neg as lists), flat and Chinese aspect keys too", () => {
    const rb = new ReportBuilder();
    const rows = requirementTypes(
      { 工作: { "work-1": "Time" }, health: { "health-1": "Sleep" }, "leisure-2": "Hobby" },
      {
        work: {
          "work-1": {
            requirement: "Time",
            preference: { Positive: "likes lists", negative: ["hates apps", "hates meetings"] },
            analysis: "why",
          },
        },
      },
      "0000",
      rb,
    );
    expect(rows).toEqual([
      {
        aspect: "work",
        typeKey: "work-1",
        requirementType: "Time",
        preferencePos: ["likes lists"],
        preferenceNeg: ["hates apps", "hates meetings"],
      },
      { aspect: "health", typeKey: "health-1", requirementType: "Sleep", preferencePos: null, preferenceNeg: null },
      { aspect: "leisure", typeKey: "leisure-2", requirementType: "Hobby", preferencePos: null, preferenceNeg: null },
    ]);
    expect(rb.toReport().unrecognised).toBeUndefined();
  });

  it("links a situation to the sample whose dialogue timestamp equals its end timestamp; date keys leniently", () => {
    const rb = new ReportBuilder();
    const at = (s: string) => Date.parse(`${s}Z`.replace(" ", "T"));
    const samples = [
      { sampleKey: "s0", dialogueAt: at("2024-01-05 20:00:00"), topicKeys: ["topic-1", "topic-2"] },
      { sampleKey: "s1", dialogueAt: at("2024-01-11 19:00:00"), topicKeys: ["topic-1"] },
    ];
    const { links, unlinked } = linkUser(
      "0000",
      samples,
      {
        situation: {
          "2024-01-05": {
            start_timestamp: "2024-01-01 09:00:00",
            end_timestamp: "2024-01-05 20:00:00",
            requirement_ids: ["work-2", "health-1"],
            situation: "busy",
          },
          "2024-01-08": {
            "Start Time": "2024-01-06 09:00:00",
            "end time": "2024-01-08 18:00:00",
            requirement_ids: ["family-1"],
            situation: "no dialogue",
          },
          "2024/01/11": {
            start_timestamp: "2024-01-09 09:00",
            end_timestamp: "2024-01-11T19:00",
            requirement_ids: ["leisure-1"],
            situation: "T and slashes",
          },
        },
        requirement_framework: {
          "2024-01-05": { "topic-1": { requirement: "r1" }, topic_2: { requirement: "r2" } },
          "2024-01-11 19:00:00": { "Topic 1": { requirement: "r3" } },
        },
        solution_preference: { "2024-01-11": { "topic-1": { pos_list: [] } }, "2024-02-01": { "topic-1": {} } },
      },
      rb,
    );
    expect(links[0].situation).toMatchObject({ situation: "busy" });
    expect(links[1].situation).toMatchObject({ situation: "T and slashes" });
    expect(links[0].topics.map((t) => t.requirementTypeKey)).toEqual(["work-2", "health-1"]);
    expect(links[1].topics[0].requirementTypeKey).toBe("leisure-1");
    expect(links[0].topics.map((t) => t.framework)).toEqual([{ requirement: "r1" }, { requirement: "r2" }]);
    expect(links[1].topics[0].framework).toEqual({ requirement: "r3" });
    expect(links[1].topics[0].solutionPreference).toEqual({ pos_list: [] });
    expect(unlinked).toEqual({ situation: { "2024-01-08": expect.any(Object) }, solution_preference: { "2024-02-01": { "topic-1": {} } } });
    expect(rb.counts).toMatchObject({
      situationsLinked: 2,
      situationsUnlinked: 1,
      frameworksLinked: 3,
      solutionPreferencesLinked: 1,
      solutionPreferencesUnlinked: 1,
    });
  });
});

describe("profile import", () => {
  let db: Db;
  let cleanup: () => void;
  beforeEach(() => ({ db, cleanup } = tempDb()));
  afterEach(() => cleanup());

  it("stores the normalised background, the raw records and the requirement types with preferences", async () => {
    const r = await importPalset(db, { paths: [EN_DIR] });
    const u = db
      .select()
      .from(palUsers)
      .where(and(eq(palUsers.datasetId, r.datasetId), eq(palUsers.userKey, "0001")))
      .get()!;
    expect(u.name).toBe("Wang Fang");
    expect(u.background).toMatchObject({
      name: "Wang Fang",
      "health status": "Dry eyes.",
      "family members": "Lives with husband.",
      personality: { extraversion: "medium", openness: "high" },
    });
    expect(u.profileRaw).toMatchObject({
      background: { health_status: "Dry eyes." },
      requirement: { work: { "work-1": "Time management" } },
    });
    const types = db
      .select()
      .from(palRequirementTypes)
      .where(eq(palRequirementTypes.userId, u.id))
      .orderBy(asc(palRequirementTypes.id))
      .all();
    expect(types.map((t) => t.typeKey)).toEqual(["work-1", "work-2", "health-1", "family-1", "leisure-1"]);
    expect(types[0]).toMatchObject({
      aspect: "work",
      requirementType: "Time management",
      preferencePos: ["Likes simple steps for work-1."],
      preferenceNeg: ["Dislikes long plans for work-1."],
    });
    expect(r.report.unrecognised).toEqual(['background key "favourite colour" (1×, e.g. 0001)']);
  });

  it("Chinese profile keys map to the same English keys", async () => {
    const r = await importPalset(db, { paths: [ZH_DIR] });
    const u = db
      .select()
      .from(palUsers)
      .where(and(eq(palUsers.datasetId, r.datasetId), eq(palUsers.userKey, "0000")))
      .get()!;
    expect(u.background).toEqual({
      name: "李明",
      gender: "男",
      age: 34,
      occupation: "销售经理。",
      "health status": "轻度胃炎。",
      "family members": "已婚，有一个儿子。",
      hobbies: "跑步。",
      personality: { openness: "medium", conscientiousness: "high", extraversion: "high", agreeableness: "low", neuroticism: "high" },
    });
    expect(r.report.unrecognised).toBeUndefined();
  });

  it("works without profile files, and picks the file of the data set's language when both are there", async () => {
    const bare = await importPalset(db, { paths: [path.join(EN_DIR, "input.json")], name: "bare" });
    expect(bare.report.counts.usersWithBackground).toBeUndefined();
    const t = db
      .select({ k: palTopics.requirementTypeKey })
      .from(palTopics)
      .innerJoin(palSamples, eq(palTopics.sampleId, palSamples.id))
      .where(eq(palSamples.datasetId, bare.datasetId))
      .all();
    expect(t.every((x) => x.k === null)).toBe(true);

    const both = await importPalset(db, {
      paths: [path.join(EN_DIR, "input.json"), path.join(ZH_DIR, "background.json"), path.join(EN_DIR, "background_en.json")],
      name: "both",
    });
    const u = db
      .select()
      .from(palUsers)
      .where(and(eq(palUsers.datasetId, both.datasetId), eq(palUsers.userKey, "0000")))
      .get()!;
    expect(u.name).toBe("Li Ming");
  });

  it("reports profile entries of unknown users and unmatched templates", async () => {
    const dir = tempDir();
    writeTemp(enData(), "input.json", dir);
    writeTemp({ "0000": { name: "A" }, "0099": { name: "Ghost" } }, "background_en.json", dir);
    writeTemp({ "0000_sample9_topic-1": { turn_1: { user: "<话题询问>", assistant: "<需求推测>" } } }, "dialogue_template.json", dir);
    const r = await importPalset(db, { paths: [dir], name: "x" });
    const codes = Object.fromEntries(r.report.warnings.map((w) => [w.code, w.examples]));
    expect(codes["profile-unknown-user"]).toEqual(["background_en.json: 0099"]);
    expect(codes["profile-unlinked"]).toEqual(["dialogue_template 0000_sample9_topic-1"]);
  });
});
