/**
 * H2Memory retrieval by phase: requirement-phase inputs get requirement-only content, solution-phase
 * inputs get solutions, feedback, preferences and principles; situations only from the current
 * session; background only for the aspects of the retrieved situations; ablations drop their part.
 */
import { describe, expect, it } from "vitest";
import { retrieve, type H2View } from "./retrieve";
import { phaseOf } from "./index";
import type { H2Parts } from "./types";

// Word-overlap ranking, so the expected order is easy to compute by hand.
const svc = {
  lang: "en" as const,
  async topK(docs: Array<{ id: string; text: string }>, query: string, k: number) {
    const q = new Set(query.toLowerCase().split(/\W+/));
    const score = (t: string) =>
      t
        .toLowerCase()
        .split(/\W+/)
        .filter((w) => q.has(w)).length;
    return docs
      .map((d, i) => ({ id: d.id, s: score(d.text), i }))
      .filter((d) => d.s > 0)
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, k)
      .map((d) => d.id);
  },
};

const outline = (session: string, index: number, requirement: string) => ({
  key: `${session}/t${index}`,
  content: {
    turn_span: ["turn_1", "turn_4"] as [string, string],
    requirement,
    solution_list: [{ solution: `plan for ${requirement}`, user_feedback: "liked it", feedback_type: "pos" as const }],
    preference: `likes quiet ${requirement}`,
    session,
    index,
    originalRequirement: requirement,
    situations: [],
    callKey: null,
    refineCallKey: null,
  },
});

const view: H2View = {
  session: "s5",
  situations: [
    {
      key: "s4/s0",
      content: { session: "s4", index: 0, situation: "running marathon training", aspects: ["health"], logIds: [], callKey: null },
    },
    {
      key: "s5/s0",
      content: { session: "s5", index: 0, situation: "running in the park every morning", aspects: ["leisure"], logIds: [], callKey: null },
    },
    {
      key: "s5/s1",
      content: { session: "s5", index: 1, situation: "deadline at work project", aspects: ["work"], logIds: [], callKey: null },
    },
  ],
  background: [
    { key: "work", content: { aspect: "work", text: "engineer", timeSpan: "", session: "s1", callKey: null } },
    { key: "leisure", content: { aspect: "leisure", text: "likes running", timeSpan: "", session: "s1", callKey: null } },
    { key: "health", content: { aspect: "health", text: "knee pain", timeSpan: "", session: "s1", callKey: null } },
  ],
  outlines: [outline("s1", 0, "running shoes advice"), outline("s2", 0, "dinner recipe"), outline("s3", 0, "running route plan")],
  principles: [
    {
      key: "cluster-0",
      content: {
        cluster: 0,
        general_requirement: "sport gear",
        principle: "prefers cheap gear",
        members: ["s1/t0", "s3/t0"],
        callKeys: [],
      },
    },
    {
      key: "cluster-1",
      content: { cluster: 1, general_requirement: "cooking", principle: "vegetarian", members: ["s2/t0"], callKeys: [] },
    },
  ],
};
const ALL: H2Parts = { graph: true, background: true, topic: true, principle: true };

describe("H2Memory retrieval", () => {
  it("requirement phase: current-session situations, their aspects' background, outline requirements, requirement types", async () => {
    const r = await retrieve(svc, ALL, 3, view, "running plan", "requirement");
    expect(r.items).toEqual([
      { kind: "situation", key: "s5/s0", text: "running in the park every morning" },
      { kind: "background", key: "leisure", text: "leisure: likes running" },
      { kind: "topic_outline", key: "s3/t0", text: "running route plan" },
      { kind: "topic_outline", key: "s1/t0", text: "running shoes advice" },
      { kind: "principle", key: "cluster-0", text: "sport gear" },
    ]);
    expect(r.text).not.toMatch(/prefers cheap gear|likes quiet|plan for/);
  });

  it("solution phase adds solutions with their feedback and the principles; an outline's own preference line is not shown", async () => {
    // The paper's R(M_T) and the public code's solution prompts: requirement, solutions, the user's feedback.
    const r = await retrieve(svc, ALL, 3, view, "running plan", "solution");
    const outlineItem = r.items.find((i) => i.key === "s3/t0")!;
    expect(outlineItem.text).toContain("plan for running route plan (accepted: liked it)");
    expect(outlineItem.text).not.toContain("likes quiet running route plan");
    expect(r.items.find((i) => i.kind === "principle")!.text).toBe("sport gear: prefers cheap gear");
  });

  it("ablations drop their part", async () => {
    const noGraph = await retrieve(svc, { ...ALL, graph: false }, 3, view, "running plan", "requirement");
    expect(noGraph.items.filter((i) => i.kind === "situation")).toEqual([]);
    expect(noGraph.items.filter((i) => i.kind === "background").map((i) => i.key)).toEqual(["work", "health", "leisure"]);
    const noTopic = await retrieve(svc, { ...ALL, topic: false }, 3, view, "sport gear", "solution");
    expect(noTopic.items.map((i) => i.kind)).not.toContain("topic_outline");
    expect(noTopic.items.filter((i) => i.kind === "principle").map((i) => i.key)).toEqual(["cluster-0"]);
    const noPrinciple = await retrieve(svc, { ...ALL, principle: false, background: false }, 3, view, "running plan", "solution");
    expect(noPrinciple.items.map((i) => i.kind)).toEqual(["situation", "topic_outline", "topic_outline"]);
  });

  // Each ablation changes the prompt's memory only in the part it removes (and, where noted, the part
  // that was chosen through it): everything else is item for item what the full method retrieves.
  describe.each(["requirement", "solution"] as const)("each ablation, %s phase", (phase) => {
    const without = (items: Array<{ kind: string }>, ...kinds: string[]) => items.filter((i) => !kinds.includes(i.kind));
    it.each([
      ["no-background", { background: false }, ["background"], []],
      ["no-principle", { principle: false }, ["principle"], []],
      // the background's aspects are those of the retrieved situations: without M_G, all aspects
      ["no-graph", { graph: false }, ["situation"], ["background"]],
      // principles were reached through the retrieved outlines: without M_T, by their own type
      ["no-topic", { topic: false }, ["topic_outline"], ["principle"]],
    ] as const)("%s removes its part only", async (_name, off, removed, dependent) => {
      const full = await retrieve(svc, ALL, 3, view, "running plan sport gear", phase);
      const abl = await retrieve(svc, { ...ALL, ...off }, 3, view, "running plan sport gear", phase);
      for (const k of removed) {
        expect(full.items.some((i) => i.kind === k)).toBe(true);
        expect(abl.items.some((i) => i.kind === k)).toBe(false);
      }
      expect(without(abl.items, ...removed, ...dependent)).toEqual(without(full.items, ...removed, ...dependent));
      if (_name === "no-graph")
        expect(abl.items.filter((i) => i.kind === "background").map((i) => i.key)).toEqual(["work", "health", "leisure"]);
      if (_name === "no-topic") expect(abl.items.filter((i) => i.kind === "principle").map((i) => i.key)).toEqual(["cluster-0"]);
    });
  });

  it("phase switches turn by turn inside a dialogue", () => {
    const turns = [{ user: "hi" }];
    expect(phaseOf({ type: "query", query: "q" })).toBe("requirement");
    expect(phaseOf({ type: "dialogue", turns, action: "requirement_prediction" })).toBe("requirement");
    expect(phaseOf({ type: "dialogue", turns, action: "solution_proposal" })).toBe("solution");
    expect(phaseOf({ type: "selection", requirement: "r", candidates: [] })).toBe("solution");
  });
});
