import { describe, expect, it } from "vitest";
import { systemsInJsonl, systemsNamedIn } from "./blinding";

describe("campaign blinding checks", () => {
  it("finds the systems of a pairwise upload, skipping broken lines", () => {
    const text = [
      '{"id": "1", "a": {"system": "h2memory", "output": []}, "b": {"system": "vanilla-log", "output": []}}',
      "not json",
      '{"id": "2", "a": {"system": "vanilla-log"}, "b": {"system": "h2memory"}}',
    ].join("\n");
    expect(systemsInJsonl(text).sort()).toEqual(["h2memory", "vanilla-log"]);
  });

  it("warns when the annotator title or the guidelines name a system, as a whole word, ignoring case", () => {
    expect(systemsNamedIn(["h2memory", "rag"], ["H2Memory vs RAG pilot", "Compare the two dialogues."])).toEqual([
      { system: "h2memory", where: "title shown to annotators" },
      { system: "rag", where: "title shown to annotators" },
    ]);
    expect(systemsNamedIn(["rag"], ["Pilot", "Judge storage and leverage."])).toEqual([]);
    expect(systemsNamedIn(["vanilla-log"], ["Pilot", "The left one is vanilla-log."])).toEqual([
      { system: "vanilla-log", where: "guidelines" },
    ]);
  });
});
