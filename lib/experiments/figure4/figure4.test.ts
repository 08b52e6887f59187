/**
 * Figure 4 for a paper, on a real experiment run against the fake OpenAI server (TEST DOUBLE): the chosen
 * turns and fields, each reply's action and the memory it used under readable labels, a compact profile,
 * highlights with their notes, both widths, and bad options refused with the field named.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { demoExperiment, type DemoExperiment } from "@/test/demo-experiment";
import { and, eq } from "drizzle-orm";
import { jobs, users } from "@/db/schema";
import { addMark, deleteMark } from "../marks";
import { starJob } from "../service";
import { caseStudiesHtml } from "../case-studies";
import { clipSpans } from "./model";
import { defaultMethods, defaultTurns } from "./defaults";
import { printScale } from "./print";
import { blockId } from "../mark-segments";
import { itemView } from "../item-view";
import { exportFigure, figureModel, figureOptions } from ".";
import { LEGEND_SWATCH, textWidth, wrap } from "./svg";

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
    expect(profile.every((f) => f.text.map((x) => x.text).join("").length <= 90)).toBe(true);
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
    expect(opts({ turns: "1,all" }).turns).toBe("all");
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

  describe("keeps what the researcher prepared", () => {
    let jobId: number;
    let alice: number;
    beforeAll(() => {
      jobId = t.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.experimentId, id), eq(jobs.task, "dialogue"), eq(jobs.method, "vanilla-log"), eq(jobs.itemKey, itemKey)))
        .get()!.id;
      alice = t.db.select().from(users).where(eq(users.email, "alice@x")).get()!.id;
      const v = itemView(t.db, id, "dialogue", itemKey);
      const field = (card: string, label?: string) =>
        v.cards.find((c) => c.title === card)!.fields.find((f) => !label || f.label === label)!;
      // A highlight on the first profile field and one inside the situation, past the compact cut of a short window.
      const prof = field("Profile");
      addMark(t.db, id, alice, {
        task: "dialogue",
        itemKey,
        block: blockId.info("Profile", prof.label),
        start: 0,
        end: Math.min(4, prof.text.length),
        quote: prof.text.slice(0, Math.min(4, prof.text.length)),
        colour: "preference",
        note: "her age matters",
      });
      const sit = field("Situation", "Situation");
      const at = Math.max(0, sit.text.length - 12);
      addMark(t.db, id, alice, {
        task: "dialogue",
        itemKey,
        block: blockId.info("Situation", "Situation"),
        start: at,
        end: at + 8,
        quote: sit.text.slice(at, at + 8),
        colour: "contradicts",
        note: "the situation says otherwise",
      });
      starJob(t.db, id, jobId, { starred: true, note: "Vanilla + logs remembers the night shifts." });
    });

    it("draws highlights on the profile and the situation and lists their notes; the star note is the caption", () => {
      const m = figureModel(t.db, id, opts({}));
      const colours = (label: string) =>
        m.info
          .find((f) => f.label === label)!
          .text.filter((x) => x.colour)
          .map((x) => x.colour);
      expect(colours(m.info[0].label)).toEqual(["preference"]);
      expect(colours("Situation")).toEqual(["contradicts"]);
      expect(m.notes.map((x) => x.note)).toEqual(
        expect.arrayContaining(["her age matters", "the situation says otherwise", "picks up her shift work"]),
      );
      expect(m.caption).toBe("Vanilla + logs remembers the night shifts.");
      const svg = exportFigure(t.db, id, "figure-svg", new URLSearchParams({ task: "dialogue", item: itemKey })).body;
      expect(svg).toContain(`fill="#bfdbfe"`); // the profile highlight
      expect(svg).toContain(`fill="#d1d5db"`); // the situation highlight
      expect(svg).toContain("night shifts.");
      const html = exportFigure(t.db, id, "figure-html", new URLSearchParams({ task: "dialogue", item: itemKey })).body;
      expect(html).toMatch(/<dd><mark class="preference">/);
      expect(html).toContain("<figcaption>Vanilla + logs remembers the night shifts.</figcaption>");
      // Without the caption field, no caption.
      expect(figureModel(t.db, id, opts({ fields: "profile,highlights" })).caption).toBeNull();
    });

    it("always shows a highlighted field, whole, however far down the card (issue 44.1)", () => {
      const v = itemView(t.db, id, "dialogue", itemKey);
      const cardFields = (card: string) => v.cards.find((c) => c.title === card)?.fields ?? [];
      // The last field of the profile and of the personality: past the compact cut whenever the card is long.
      const targets = (["Profile", "Personality"] as const)
        .map((card) => ({ card, f: cardFields(card).at(-1) }))
        .filter((x): x is { card: "Profile" | "Personality"; f: NonNullable<typeof x.f> } => x.f !== undefined);
      expect(targets.length).toBeGreaterThan(0);
      const marks: number[] = [];
      for (const { card, f } of targets) {
        const at = Math.max(0, f.text.length - 6);
        marks.push(
          addMark(t.db, id, alice, {
            task: "dialogue",
            itemKey,
            block: blockId.info(card, f.label),
            start: at,
            end: f.text.length,
            quote: f.text.slice(at),
            colour: "need",
          }).id,
        );
      }
      try {
        const m = figureModel(t.db, id, opts({}));
        for (const { card, f } of targets) {
          const label = card === "Profile" ? f.label : `Personality · ${f.label}`;
          const line = m.info.find((x) => x.label === label);
          expect(line, `${label} is shown`).toBeDefined();
          // Whole: every character of the field, no "…".
          expect(line!.text.map((x) => x.text).join("")).toBe(f.text.replace(/\s+/g, " ").trim());
          expect(line!.text.some((x) => x.colour === "need")).toBe(true);
        }
        // The figure and the case-studies export agree: every mark on these fields is in both.
        const figure = exportFigure(t.db, id, "figure-html", new URLSearchParams({ task: "dialogue", item: itemKey })).body;
        const cases = caseStudiesHtml(t.db, id);
        for (const { f } of targets) {
          const quote = f.text
            .slice(Math.max(0, f.text.length - 6))
            .replace(/&/g, "&amp;")
            .replace(/</g, "&lt;")
            .replace(/>/g, "&gt;");
          expect(figure).toMatch(new RegExp(`<mark class="need"[^>]*>${quote.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</mark>`));
          expect(cases).toMatch(new RegExp(`<mark class="need"[^>]*>${quote.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</mark>`));
        }
      } finally {
        for (const mid of marks) deleteMark(t.db, id, mid, { id: alice, role: "researcher" });
      }
    });

    it("defaults to the starred method and the reference over three turns (the highlighted one among them); all turns on request", () => {
      const m = figureModel(t.db, id, opts({}));
      expect(m.columnIds).toEqual(["vanilla", "vanilla-log"]);
      expect(m.shownTurns).toEqual(m.allTurns.slice(0, 3));
      expect(m.shownTurns).toContain(1);
      expect(figureModel(t.db, id, opts({ turns: "all" })).shownTurns).toEqual(m.allTurns);
    });

    it("prints on one A4 page: a tall figure is scaled down, a short one is not", () => {
      expect(printScale(672, 500)).toBe(1);
      expect(printScale(672, 3600)).toBeCloseTo(((297 - 27) * 96) / 25.4 / 3600, 5);
      const print = exportFigure(t.db, id, "figure-print", new URLSearchParams({ task: "dialogue", item: itemKey, turns: "all" }));
      expect(print.contentType).toMatch(/text\/html/);
      expect(print.body).toContain("@page{size:A4 portrait;margin:12mm}");
      expect(print.body).toMatch(/<div class="fig" data-scale="[\d.]+"><svg /);
    });

    it("refuses control characters in notes at input, and drops them from every export if one got stored", () => {
      expect(() => starJob(t.db, id, jobId, { starred: true, note: "bad\u0001note" })).toThrow(
        /^body\.note: holds the control character U\+0001/,
      );
      expect(() =>
        addMark(t.db, id, alice, {
          task: "dialogue",
          itemKey,
          block: blockId.info("Situation", "Situation"),
          start: 0,
          end: 1,
          quote: "x",
          colour: "need",
          note: "a\u0001b",
        }),
      ).toThrow(/^body\.note: holds the control character U\+0001/);
      // Stored before the check existed: the exports still write XML.
      t.db.update(jobs).set({ starNote: "old\u0001note\u001f" }).where(eq(jobs.id, jobId)).run();
      for (const format of ["figure-svg", "figure-html", "figure-print"] as const) {
        const body = exportFigure(t.db, id, format, new URLSearchParams({ task: "dialogue", item: itemKey })).body;
        expect(body).toContain("oldnote");
        expect(body).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
      }
      starJob(t.db, id, jobId, { starred: true, note: "Vanilla + logs remembers the night shifts." });
    });
  });
});

describe("Figure 4 defaults and clipping (worked by hand)", () => {
  const config = {
    methods: ["vanilla", "vanilla-log", "turn-rag", "session-rag", "memorybank", "ld-agent", "h2memory-no-graph", "h2memory"].map(
      (name) => ({ name }),
    ),
  };
  const all = config.methods.map((m) => m.name);

  it("picks the starred method, the reference and two real baselines, in the experiment's order", () => {
    expect(defaultMethods(all, config, ["ld-agent"])).toEqual(["memorybank", "ld-agent", "h2memory-no-graph", "h2memory"]);
    expect(defaultMethods(all, config, [])).toEqual(["memorybank", "ld-agent", "h2memory"]);
    expect(defaultMethods(all, { ...config, reference: "vanilla" }, ["h2memory"])).toEqual([
      "vanilla",
      "memorybank",
      "ld-agent",
      "h2memory",
    ]);
    // Only controls besides the reference: they fill the two places.
    expect(defaultMethods(["vanilla", "vanilla-log", "turn-rag", "h2memory"], config, [])).toEqual(["vanilla", "vanilla-log", "h2memory"]);
  });

  it("shows the highlighted turns topped up with the earliest, three in all", () => {
    expect(defaultTurns([1, 2, 3, 4, 5, 6], [5])).toEqual([1, 2, 5]);
    expect(defaultTurns([1, 2, 3, 4, 5, 6], [6, 4, 5, 2])).toEqual([2, 4, 5]);
    expect(defaultTurns([1, 2], [])).toEqual([1, 2]);
  });

  it("clips a long field around its first highlight", () => {
    const long = "x".repeat(100);
    expect(clipSpans([{ text: "short", colour: null }], 90)).toEqual([{ text: "short", colour: null }]);
    expect(clipSpans([{ text: long, colour: null }], 10)).toEqual([
      { text: "x".repeat(9), colour: null },
      { text: "…", colour: null },
    ]);
    const out = clipSpans(
      [
        { text: long, colour: null },
        { text: "key", colour: "need" },
        { text: long, colour: null },
      ],
      30,
    );
    expect(out[0]).toEqual({ text: "…", colour: null });
    expect(out.find((x) => x.colour)).toEqual({ text: "key", colour: "need" });
    expect(out.at(-1)).toEqual({ text: "…", colour: null });
  });
});

describe("the SVG legend (issue 44.1)", () => {
  it("keeps each meaning's colour swatch at the start of its line", () => {
    const [line] = wrap(
      [
        { text: LEGEND_SWATCH, colour: "need" },
        { text: " Matches background / need", colour: null },
      ],
      400,
      8,
    );
    expect(line[0].fill).not.toBeNull();
    expect(line[0].text).toBe(LEGEND_SWATCH);
  });
});
