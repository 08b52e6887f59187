import { describe, expect, it } from "vitest";
import { extractNouns } from "./nouns";
import { ldAgent, personaItems } from "./index";
import { LD_AGENT_BETA_SECONDS, LD_AGENT_GAMMA, LD_AGENT_TAU_SECONDS, pushUtterance, rankMemories, timeDecay, topicOverlap } from "./score";

describe("extractNouns", () => {
  it("keeps English nouns and proper nouns as lower-cased lemmas", () => {
    expect([...extractNouns("I went hiking in the mountains with my dogs. My doctor in Paris recommended running shoes.")]).toEqual([
      "hiking",
      "mountain",
      "dog",
      "doctor",
      "paris",
      "shoe",
    ]);
    expect([...extractNouns("The meetings were long; the meeting room was cold.")]).toEqual(["meeting", "room"]);
  });

  it("keeps Chinese words whose jieba tag starts with n (places and people included)", () => {
    expect([...extractNouns("我最近在准备考研，每天去图书馆复习英语和数学，周末和妈妈去北京看电影。")]).toEqual([
      "图书馆",
      "英语",
      "数学",
      "妈妈",
      "北京",
      "电影",
    ]);
  });

  it("handles mixed text and returns a set", () => {
    const v = extractNouns("膝盖疼，想买Nike running shoes，跑步shoes");
    expect(v.has("膝盖")).toBe(true);
    expect(v.has("nike")).toBe(true);
    expect(v.has("shoe")).toBe(true);
    expect([...v].filter((n) => n === "shoe").length).toBe(1);
    expect(extractNouns("")).toEqual(new Set());
    expect(extractNouns("！？…")).toEqual(new Set());
  });
});

describe("LD-Agent score", () => {
  it("topic overlap ½(|∩|/|Vq| + |∩|/|Vk|)", () => {
    // |Vq| = 2, |Vk| = 4, 1 shared: ½(1/2 + 1/4) = 0.375
    expect(topicOverlap(new Set(["shoe", "knee"]), new Set(["shoe", "run", "park", "dog"]))).toBe(0.375);
    expect(topicOverlap(new Set(["a"]), new Set(["a"]))).toBe(1);
    expect(topicOverlap(new Set(), new Set(["a"]))).toBe(0);
    expect(topicOverlap(new Set(["a"]), new Set(["b"]))).toBe(0);
  });

  it("decays with τ = 10^7 s by default", () => {
    expect(LD_AGENT_TAU_SECONDS).toBe(1e7);
    expect(timeDecay(1e7)).toBeCloseTo(Math.exp(-1), 12);
    expect(timeDecay(86_400 * 30)).toBeCloseTo(0.771669, 6); // 30 days = 2,592,000 s: e^(−0.2592)
    expect(timeDecay(-5)).toBe(1);
    expect(timeDecay(10, 10)).toBeCloseTo(Math.exp(-1), 12);
    expect(() => timeDecay(1, 0)).toThrow(/τ must be positive/);
  });

  it("ranks by λ_t·(s_sem + s_top) among memories above γ", () => {
    const now = Date.UTC(2024, 5, 1);
    const day = 86_400_000;
    const q = { nouns: new Set(["shoe", "knee"]), time: now };
    const candidates = [
      // 0.30 + 0.375 = 0.675, 10^7 s old → ·e^−1 = 0.248319
      { id: "old", semantic: 0.3, nouns: new Set(["shoe", "run", "park", "dog"]), time: now - 1e10 },
      // 0.26 + 0 = 0.26, fresh
      { id: "fresh", semantic: 0.26, nouns: new Set(["cake"]), time: now },
      // below γ: dropped however good its topic overlap
      { id: "low", semantic: 0.2, nouns: new Set(["shoe", "knee"]), time: now },
      // 0.5 + 1 = 1.5, 1 day old → ·e^(−0.00864) = 1.487096
      { id: "best", semantic: 0.5, nouns: new Set(["knee", "shoe"]), time: now - day },
    ];
    const out = rankMemories(q, candidates, { gamma: LD_AGENT_GAMMA.dense });
    expect(out.map((m) => m.id)).toEqual(["best", "fresh", "old"]);
    expect(out[0].score).toBeCloseTo(1.487096, 6);
    expect(out[1].score).toBeCloseTo(0.26, 12);
    expect(out[2].score).toBeCloseTo(0.248319, 6);
    expect(out[2]).toMatchObject({ semantic: 0.3, topic: 0.375 });
    expect(rankMemories(q, candidates, { gamma: 0.25, k: 1 }).map((m) => m.id)).toEqual(["best"]);
    // nothing above γ: "no relevant memory"
    expect(rankMemories(q, candidates, { gamma: 0.9 })).toEqual([]);
    // s_sem must be strictly greater than γ
    expect(rankMemories(q, [{ id: "eq", semantic: 0.25, nouns: new Set(), time: now }], { gamma: 0.25 })).toEqual([]);
  });

  it("flushes the short-term cache when the gap exceeds β (one hour)", () => {
    const t = Date.UTC(2024, 0, 1, 9);
    expect(LD_AGENT_BETA_SECONDS).toBe(3600);
    let s = pushUtterance([], { time: t, text: "hi" });
    expect(s).toEqual({ cache: [{ time: t, text: "hi" }], flushed: null });
    s = pushUtterance(s.cache, { time: t + 3600_000, text: "exactly one hour later" }); // not more than β
    expect(s.flushed).toBeNull();
    expect(s.cache.length).toBe(2);
    const before = s.cache;
    s = pushUtterance(s.cache, { time: t + 2 * 3600_000 + 1, text: "next day" });
    expect(s.flushed).toEqual(before);
    expect(s.cache).toEqual([{ time: t + 2 * 3600_000 + 1, text: "next day" }]);
    expect(pushUtterance([{ time: 0, text: "a" }], { time: 11_000, text: "b" }, 10).flushed).toEqual([{ time: 0, text: "a" }]);
  });
});

describe("LD-Agent persona banks", () => {
  // LD-Agent's response prompt holds the user's and the agent's whole persona banks: 25 traits over two
  // sessions (12 + 13) all reach the answer unless a cap is set.
  const bank = [0, 1].map((seq) => Array.from({ length: seq ? 13 : 12 }, (_, turn) => ({ seq, turn, trait: `trait ${seq}.${turn}` })));
  it("are used whole by default; a cap keeps the latest traits", () => {
    const cap = ldAgent.options.parse({}).maxPersonas;
    expect(cap).toBeUndefined();
    const all = personaItems(bank, cap);
    expect(all).toHaveLength(25);
    expect(all[0]).toBe("trait 0.0");
    expect(personaItems(bank, 20)).toEqual(all.slice(5));
  });
});
