import { describe, expect, it } from "vitest";
import { segment } from "@/lib/metrics/segment";
import { detectLanguage, tokenize } from "./tokenize";

describe("tokenize (retrieval terms)", () => {
  it("lower-cases English, strips punctuation, possessives and stop words, and stems", () => {
    expect(tokenize("The user's dogs don't like running in the rain, but she loves hiking.")).toEqual([
      "user",
      "dog",
      "dont", // negation kept on purpose
      "like",
      "run",
      "rain",
      "love",
      "hike",
    ]);
  });

  it("keeps numbers and dotted versions whole", () => {
    expect(tokenize("Price is 3.5 dollars, v1.2 version")).toEqual(["price", "3.5", "dollar", "v1.2", "version"]);
  });

  it("cuts Chinese with jieba and drops Chinese stop words and punctuation", () => {
    expect(tokenize("我最近在准备考研，每天去图书馆复习英语和数学。")).toEqual([
      "最近",
      "准备",
      "考研",
      "每天",
      "去",
      "图书馆",
      "复习",
      "英语",
      "数学",
    ]);
  });

  it("handles mixed text and folds full-width letters", () => {
    expect(tokenize("我想用Keep app记录running数据，ＡＰＰ很好用")).toEqual([
      "用",
      "keep",
      "app",
      "记录",
      "run",
      "数据",
      "app",
      "好",
      "用",
    ]);
    const mixed = "I want to learn 太极拳 with my grandma";
    expect(tokenize(mixed, { language: "en" })).toEqual(["want", "learn", "太极拳", "grandma"]);
    expect(tokenize(mixed, { language: "zh" })).toEqual(["want", "learn", "太极拳", "grandma"]);
  });

  it("can keep stop words and skip stemming", () => {
    expect(tokenize("The dogs are running", { stem: false, stopWords: false })).toEqual(["the", "dogs", "are", "running"]);
    expect(tokenize("我的书", { stopWords: false })).toEqual(["我", "的", "书"]);
  });

  it("detects the language by content share", () => {
    expect(detectLanguage("我想用Keep记录跑步")).toBe("zh");
    expect(detectLanguage("Booked a table at 海底捞 for Friday night")).toBe("en");
    expect(detectLanguage("")).toBe("en");
  });

  it("does not change BLEU's segmentation", () => {
    tokenize("The user wants 3-5 options 每周3-5次");
    expect(segment("The user wants 3-5 options", { whitespace: "drop" })).toEqual(["The", "user", "wants", "3", "-", "5", "options"]);
    expect(segment("每周3-5次")).toEqual(["每周", "3", "-", "5", "次"]);
  });
});
