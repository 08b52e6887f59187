import { describe, expect, it } from "vitest";
import { outlineSchema, refineOutlines } from "./topic-outline";
import { jsonSchemaOf } from "@/lib/llm/json-mode";
import type { H2Services, SituationEntry } from "./types";

const situation = (index: number, text: string, aspects: SituationEntry["aspects"]): SituationEntry => ({
  session: "s1",
  index,
  situation: text,
  aspects,
  logIds: [],
  callKey: null,
});

describe("requirement rewrite (step 2-2)", () => {
  // k = 1: the requirement retrieves one situation, whose aspect is health; the rewrite sees the health
  // background only, not work, family or leisure (F_GB of the retrieved situations).
  it("gets the background of the retrieved situations' aspects only", async () => {
    const prompts: string[] = [];
    const svc: H2Services = {
      lang: "en",
      chat: async (prompt, schema) => {
        prompts.push(prompt.messages.map((m) => String(m.content)).join("\n"));
        return { value: schema.parse({ requirement: "rewritten" }), callKey: "c" };
      },
      embed: async () => [],
      topK: async (docs, _q, k) => docs.slice(0, k).map((d) => d.id),
    };
    const background = { work: "WORK-BG nurse", health: "HEALTH-BG sore knee", family: "FAMILY-BG two kids", leisure: "LEISURE-BG hiking" };
    const out = await refineOutlines(
      svc,
      { seq: 1, key: "s1", split: "history", timestamp: "", logs: [], turns: [] },
      { outlines: [{ turn_span: ["t1", "t1"], requirement: "a gentle workout", solutions: [], preference: "" }], callKey: "x" } as never,
      background,
      [situation(0, "SIT-0 knee hurts after running", ["health"]), situation(1, "SIT-1 long shifts", ["work", "family"])],
      1,
    );
    expect(out[0].requirement).toBe("rewritten");
    expect(out[0].situations).toEqual(["s1/s0"]);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("HEALTH-BG sore knee");
    expect(prompts[0]).toContain("SIT-0");
    for (const other of ["WORK-BG", "FAMILY-BG", "LEISURE-BG", "SIT-1"]) expect(prompts[0]).not.toContain(other);
  });
});

describe("topic outline reply (step 2-1)", () => {
  const turns = ["turn_0", "turn_1", "turn_2"].map((key) => ({ key, user: "u", assistant: "a" }));
  const topic = { turn_span: ["turn_0", 1], requirement: "a gentle workout", solution_list: [], preference: "" };

  it("is an object holding the paper's list under topic_outlines; a bare list (the paper's shape) reads the same", () => {
    const wrapped = outlineSchema(turns).parse({ topic_outlines: [topic] });
    expect(wrapped.topic_outlines[0].turn_span).toEqual(["turn_0", "turn_1"]);
    expect(outlineSchema(turns).parse([topic])).toEqual(wrapped);
    expect(outlineSchema(turns).safeParse({ topic_outlines: [{ ...topic, turn_span: ["turn_2", "turn_0"] }] }).success).toBe(false);
  });

  it("is built once per list of turn ids: the same schema for the same dialogue turns, another for others", () => {
    const same = ["turn_0", "turn_1", "turn_2"].map((key) => ({ key, user: "other words", assistant: "" }));
    expect(outlineSchema(same)).toBe(outlineSchema(turns));
    const two = turns.slice(0, 2);
    expect(outlineSchema(two)).not.toBe(outlineSchema(turns));
    expect(outlineSchema(two).safeParse({ topic_outlines: [{ ...topic, turn_span: ["turn_0", "turn_2"] }] }).success).toBe(false);
    expect(outlineSchema(turns).safeParse({ topic_outlines: [{ ...topic, turn_span: ["turn_0", "turn_2"] }] }).success).toBe(true);
  });

  it("is sent as an object whose turn ids are the dialogue's, a span two of them (no tuple keywords)", () => {
    const { schema } = jsonSchemaOf(outlineSchema(turns));
    expect(schema.type).toBe("object");
    const span = (schema as { properties: { topic_outlines: { items: { properties: { turn_span: unknown } } } } }).properties.topic_outlines
      .items.properties.turn_span;
    expect(span).toEqual({ type: "array", items: { type: "string", enum: ["turn_0", "turn_1", "turn_2"] }, minItems: 2, maxItems: 2 });
  });
});
