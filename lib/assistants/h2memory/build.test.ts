/**
 * H2Memory's session build with an in-process scripted model (the same scripted replies the fake
 * server gives): which calls a session makes, over which windows, and what it stores when.
 */
import { describe, expect, it } from "vitest";
import { buildSession, logsPhase } from "./build";
import { stepOf, type Prompt } from "./prompts";
import { DEFAULT_H2_OPTIONS, emptyState, type H2Services, type H2Session } from "./types";
import { h2memoryReply } from "@/test/h2memory-responder";
import { fakeEmbedding } from "@/test/fake-openai";

function scripted(lang: "zh" | "en" = "en") {
  const calls: Prompt[] = [];
  const svc: H2Services = {
    lang,
    async chat(prompt, schema) {
      calls.push(prompt);
      const reply = h2memoryReply({ model: "m", messages: prompt.messages });
      const value = schema.parse(JSON.parse(reply as string));
      return { value, callKey: `k${calls.length}` };
    },
    async embed(texts) {
      return texts.map((t) => fakeEmbedding(t, 8));
    },
    async topK(docs, _q, k) {
      return docs.slice(0, k).map((d) => d.id);
    },
  };
  return { svc, calls };
}

const session = (seq: number, nLogs: number, nTurns: number, split: "history" | "query" = "history"): H2Session => ({
  seq,
  key: `u_sample${seq}`,
  split,
  timestamp: `2024-0${seq + 1}-28 20:00:00`,
  logs: Array.from({ length: nLogs }, (_, i) => ({
    timestamp: `2024-0${seq + 1}-${String(i + 1).padStart(2, "0")} 09:00`,
    content: `log ${seq}.${i} event`,
  })),
  turns: Array.from({ length: nTurns }, (_, i) => ({
    key: `turn_${i + 1}`,
    user: `user says ${seq}.${i}`,
    assistant: `assistant says ${seq}.${i}`,
  })),
});

describe("H2Memory session build", () => {
  it("a 25-log session makes 3 log-graph calls over the right windows, one situation call per component", async () => {
    const { svc, calls } = scripted();
    const r = await buildSession(svc, DEFAULT_H2_OPTIONS, emptyState(), session(0, 25, 8));
    const lg = calls.filter((c) => c.step === "log-graph");
    expect(lg).toHaveLength(3);
    const shown = lg.map((c) => [...c.messages[1].content.matchAll(/^(log_\d+) \[/gm)].map((m) => m[1]));
    expect(shown[0]).toEqual(Array.from({ length: 10 }, (_, i) => `log_${i}`));
    expect(shown[1]).toEqual(Array.from({ length: 20 }, (_, i) => `log_${i}`)); // 10 analysed + 10 context
    expect(shown[2]).toEqual(Array.from({ length: 15 }, (_, i) => `log_${i + 10}`));
    expect(lg.map((c) => /range (log_\d+ ~ log_\d+)/.exec(c.messages[1].content)?.[1])).toEqual([
      "log_0 ~ log_9",
      "log_10 ~ log_19",
      "log_20 ~ log_24",
    ]);
    // Scripted edges link each run of 3 logs: 25 logs → 9 components → 9 situations.
    const graph = r.entries.find((e) => e.kind === "log_graph")!.content as { components: string[][] };
    expect(graph.components).toHaveLength(9);
    expect(graph.components[0]).toEqual(["log_0", "log_1", "log_2"]);
    expect(calls.filter((c) => c.step === "situation")).toHaveLength(9);
    expect(calls.filter((c) => c.step === "background")).toHaveLength(1);
    expect(calls.filter((c) => c.step === "topic-outline")).toHaveLength(1);
    expect(calls.filter((c) => c.step === "requirement-refinement")).toHaveLength(2); // 8 turns → 2 topics
    // History session: no principles yet.
    expect(calls.filter((c) => stepOf(c.messages)?.includes("abstraction"))).toHaveLength(0);
  });

  it("log-derived entries serve the session itself, dialogue-derived ones only later sessions", async () => {
    const { svc } = scripted();
    const r = await buildSession(svc, DEFAULT_H2_OPTIONS, emptyState(), session(3, 6, 4));
    for (const e of r.entries) {
      if (e.kind === "topic_outline") expect(e.validFrom).toBe(4);
      else expect(e.validFrom).toBe(3);
    }
    expect(r.entries.filter((e) => e.kind === "background")).toHaveLength(1);
    expect(r.state.outlines).toHaveLength(1);
  });

  it("the first query session initialises M_P from the history outlines, then its own requirements join", async () => {
    const { svc, calls } = scripted();
    let state = emptyState();
    for (let s = 0; s < 3; s++) state = (await buildSession(svc, { ...DEFAULT_H2_OPTIONS, clusters: 2 }, state, session(s, 3, 8))).state;
    expect(state.outlines).toHaveLength(6);
    calls.length = 0;
    const q = await buildSession(svc, { ...DEFAULT_H2_OPTIONS, clusters: 2 }, state, session(3, 3, 4, "query"));
    const init = q.entries.filter((e) => e.kind === "principle" && e.validFrom === 3);
    expect(init).toHaveLength(2);
    const members = init.flatMap((e) => (e.content as { members: string[] }).members).sort();
    expect(members).toEqual(state.outlines.map((o) => o.key).sort());
    expect(calls.filter((c) => c.step === "requirement-abstraction")).toHaveLength(2);
    expect(calls.filter((c) => c.step === "preference-abstraction")).toHaveLength(2);
    // The query session's one outline joins one cluster: one type update and one principle update.
    expect(calls.filter((c) => c.step === "requirement-update")).toHaveLength(1);
    expect(calls.filter((c) => c.step === "preference-update")).toHaveLength(1);
    const joined = q.entries.filter((e) => e.kind === "principle" && e.validFrom === 4);
    expect(joined).toHaveLength(1);
    expect((joined[0].content as { members: string[] }).members).toContain("u_sample3/t0");
  });

  it("the logs phase never sees the session's dialogue", async () => {
    const { svc, calls } = scripted();
    await logsPhase(svc, DEFAULT_H2_OPTIONS, emptyState(), session(2, 12, 6));
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) for (const m of c.messages) expect(m.content).not.toMatch(/user says|assistant says/);
  });

  it("dialogue-only mode (HiCUPID): outlines and one principle per dialogue, no log graph, no clustering", async () => {
    const { svc, calls } = scripted();
    const r = await buildSession(svc, { ...DEFAULT_H2_OPTIONS, mode: "dialogue-only" }, emptyState(), session(0, 0, 8, "history"));
    expect(calls.map((c) => c.step)).toEqual(["topic-outline", "requirement-abstraction", "preference-abstraction"]);
    const p = r.entries.find((e) => e.kind === "principle")!;
    expect(p.validFrom).toBe(1);
    expect((p.content as { members: string[] }).members).toEqual(["u_sample0/t0", "u_sample0/t1"]);
  });
});
