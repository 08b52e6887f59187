/** The answer-correctness campaign kind: it reads `pal export experiment --items` lines, keeps no method, task or score. */
import { describe, expect, it } from "vitest";
import { parseItemsJsonl } from "../upload";
import { kindDef } from "./index";

const line = (o: Record<string, unknown>) => JSON.stringify(o);

describe("answer-correctness campaigns", () => {
  const def = kindDef("answer-correctness");

  it("takes export lines as they are and keeps only the question, reference and answer", () => {
    const text = [
      line({
        task: "locomo",
        method: "turn-rag",
        replicate: 0,
        item: "conv-1#0",
        category: 4,
        question: "Dog's name?",
        output: "Pepper",
        reference: "Pepper",
        scores: { "locomo.f1": 1 },
      }),
      line({ id: "x-2", question: "Year?", output: "2024", reference: 2024 }),
      line({ item: "q-ku", question: "Car?", output: "A Mazda", reference: { requirement: "r" } }),
    ].join("\n");
    const items = parseItemsJsonl(def, text, "items.jsonl");
    expect(items.map((i) => i.externalId)).toEqual(["conv-1#0", "x-2", "q-ku"]);
    expect(items[0].content).toEqual({ context: { question: "Dog's name?", reference: "Pepper" }, output: "Pepper" });
    expect(JSON.stringify(items)).not.toMatch(/turn-rag|locomo\.f1|"task"/);
    expect(items[1].content).toMatchObject({ context: { reference: "2024" } });
    expect(def.dimensions[0].categories.map((c) => c.value)).toEqual(["wrong", "partly", "correct"]);
  });

  it("names the line and field of a bad record", () => {
    expect(() => parseItemsJsonl(def, line({ item: "a", question: "q?", output: "o" }), "items.jsonl")).toThrow(
      /items\.jsonl:1.*"reference" is missing/,
    );
    expect(() =>
      parseItemsJsonl(def, line({ item: "a", question: "q?", reference: "r", output: { requirement: "x" } }), "items.jsonl"),
    ).toThrow(/items\.jsonl:1.*"output" must be the answer text/);
  });
});

describe("answer-correctness LLM judge", () => {
  it("is LongMemEval's yes/no judge, one call per item", async () => {
    const { judgeForKind } = await import("../llm-judge/adapters");
    const j = judgeForKind("answer-correctness");
    expect([j.name, j.calls(["correctness"])]).toEqual(["longmemeval", 1]);
  });
});
