/**
 * Figure 4 for a paper, on a real experiment run against the fake OpenAI server (TEST DOUBLE): the chosen
 * turns and fields, each reply's action and the memory it used under readable labels, a compact profile,
 * highlights with their notes, both widths, and bad options refused with the field named.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { demoExperiment, type DemoExperiment } from "@/test/demo-experiment";
import { and, eq } from "drizzle-orm";
import { jobs, users } from "@/db/schema";
import { addMark } from "../marks";
import { blockId } from "../mark-segments";
import { itemView } from "../item-view";
import { exportFigure, figureModel, figureOptions } from ".";
import { textWidth, wrap } from "./svg";

describe("Figure 4 export", () => {
  const run = demoExperiment("figure", {
    methods: [{ name: "vanilla" }, { name: "vanilla-log" }],
    tasks: ["dialogue"],
    users: ["0000"],
    reference: "vanilla",
  });
  let t: DemoExperiment["t"];
  let id: number;
  let itemKey: string;

  beforeAll(() => {
    ({ t, id } = run);
    const j = t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.experimentId, id), eq(jobs.task, "dialogue"), eq(jobs.method, "vanilla-log")))
      .get()!;
    itemKey = j.itemKey;
    const alice = t.db.insert(users).values({ email: "alice@x", role: "researcher", passwordHash: "x" }).returning().get().id;
    // A highlight with a note on the first reply of vanilla-log (utterance 1: the user speaks first).
    const text = itemView(t.db, id, "dialogue", itemKey, { methods: ["vanilla-log"] }).outputs[0].turns![1].text;
    addMark(t.db, id, alice, {
      task: "dialogue",
      itemKey,
      block: blockId.utterance(j.id, 1),
      start: 0,
      end: 5,
      quote: text.slice(0, 5),
      colour: "need",
      note: "picks up her shift work",
    });
  });

  const opts = (q: Record<string, string | string[]>) => {
    const sp = new URLSearchParams();
    for (const [k, v] of Object.entries({ task: "dialogue", item: itemKey, ...q })) for (const x of [v].flat()) sp.append(k, x);
    return figureOptions(sp);
  };

  it("shows the chosen turns with their actions and the memory each reply used, by kind, never an entry id", () => {
    const m = figureModel(t.db, id, opts({ m: ["vanilla", "vanilla-log"], turns: "1,2" }));
    // Methods by their display names (lib/assistants: Vanilla, Vanilla + logs), not their ids.
    expect(m.columns.map((c) => c.method)).toEqual(["Vanilla", "Vanilla + logs"]);
    const log = m.columns[1];
    expect([...new Set(log.turns.map((x) => x.turn))]).toEqual([1, 2]);
    const reply = log.turns.find((x) => x.role === "assistant")!;
    expect(reply.action).toBeTruthy();
    expect(reply.memory.length).toBeGreaterThan(0);
    // At most 5 entries, the rest counted ("… and N more"), each labelled by its kind.
    expect(reply.memory.length).toBeLessThanOrEqual(6);
    expect(reply.memory.slice(0, 5).every((x) => x.label === "Log" && !/#\d+$/.test(x.text))).toBe(true);
    if (reply.memory.length === 6) expect(reply.memory[5]).toEqual({ label: "", text: expect.stringMatching(/^… and \d+ more$/) });
    // The highlight sits on its passage and its note is listed.
    expect(reply.text.some((s) => s.colour === "need")).toBe(true);
    expect(m.notes).toEqual([expect.objectContaining({ colour: "need", note: "picks up her shift work" })]);
    // Compact profile: a few short lines, not the whole profile.
    const profile = m.info.filter((f) => !["Situation", "User query"].includes(f.label) && !f.label.startsWith("Personality"));
    expect(profile.length).toBeLessThanOrEqual(6);
    expect(profile.every((f) => f.text.length <= 90)).toBe(true);
  });

  it("leaves out the fields not chosen", () => {
    const m = figureModel(t.db, id, opts({ m: "vanilla-log", fields: "query", turns: "1" }));
    expect(m.info.map((f) => f.label)).toEqual(["User query"]);
    const reply = m.columns[0].turns.find((x) => x.role === "assistant")!;
    expect(reply.action).toBeNull();
    expect(reply.memory).toEqual([]);
    expect(m.notes).toEqual([]);
  });

  it("writes HTML sized to a column or the page and an SVG with the same text, scores as the papers name them", () => {
    const html = exportFigure(
      t.db,
      id,
      "figure-html",
      new URLSearchParams({ task: "dialogue", item: itemKey, width: "column", fields: "query,memory,scores,actions", turns: "1" }),
    );
    expect(html.contentType).toMatch(/text\/html/);
    expect(html.body).toContain("width:320px");
    expect(html.body).not.toMatch(/<script|src=|url\(/i);
    expect(html.body).not.toMatch(/bleu\.bleu1 =/);
    const svg = exportFigure(
      t.db,
      id,
      "figure-svg",
      new URLSearchParams({ task: "dialogue", item: itemKey, m: "vanilla-log", turns: "1,2" }),
    );
    expect(svg.contentType).toBe("image/svg+xml; charset=utf-8");
    expect(svg.body).toMatch(/^<\?xml[^>]*>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="672" height="\d+"/);
    expect(svg.body).toContain(`fill="#fde68a"`); // the highlight behind its passage
    expect(svg.body).toMatch(/Log: /);
    expect(svg.body).not.toMatch(/<script|<foreignObject/i);
  });

  it("refuses bad options naming the field", () => {
    expect(() => opts({ width: "poster" })).toThrow(/^width: expected column or full/);
    expect(() => opts({ fields: "profile,scripts" })).toThrow(/^fields/);
    expect(() => opts({ turns: "1,x" })).toThrow(/^turns: expected turn numbers/);
    expect(() => opts({ m: ["a", "b", "c", "d", "e"] })).toThrow(/^m: at most 4 methods/);
    expect(() => figureModel(t.db, id, opts({ turns: "99" }))).toThrow(/^turns: the dialogue has turns 1–\d+, not 99/);
  });

  it("wraps text to the width, CJK one character at a time, keeping highlights (widths worked out by hand)", () => {
    // "ab cd" at 10 px: a, b, c, d are 5.2 px each and the space 3 px: "ab " is 13.4 px, "ab cd" 23.8 px.
    expect(textWidth("ab cd", 10)).toBeCloseTo(23.8, 5);
    expect(wrap([{ text: "ab cd", colour: null }], 20, 10).map((l) => l.map((p) => p.text).join(""))).toEqual(["ab ", "cd"]);
    expect(wrap([{ text: "你好世界", colour: null }], 25, 10).map((l) => l.map((p) => p.text).join(""))).toEqual(["你好", "世界"]);
    const lines = wrap(
      [
        { text: "keep ", colour: null },
        { text: "this", colour: "need" },
      ],
      500,
      10,
    );
    expect(lines[0]).toEqual([
      { text: "keep ", fill: null },
      { text: "this", fill: "#fde68a" },
    ]);
  });
});
