import { describe, expect, it } from "vitest";
import { InvalidInputError } from "@/lib/errors";
import {
  logComponents,
  logLabel,
  logWindows,
  mergeEdges,
  parseLogLabel,
  relationsFromWindowOutput,
  windowRelationsSchema,
  type LogEdge,
} from "./log-graph";

describe("logWindows", () => {
  it("splits 25 logs into [0,10) [10,20) [20,25) with contexts [] [0,10) [10,20)", () => {
    expect(logWindows(25)).toEqual([
      { index: 0, start: 0, end: 10, contextStart: 0 },
      { index: 1, start: 10, end: 20, contextStart: 0 },
      { index: 2, start: 20, end: 25, contextStart: 10 },
    ]);
  });

  it("handles the edges: empty, exactly one window, exact multiples, custom sizes", () => {
    expect(logWindows(0)).toEqual([]);
    expect(logWindows(7)).toEqual([{ index: 0, start: 0, end: 7, contextStart: 0 }]);
    expect(logWindows(20).map((w) => [w.contextStart, w.start, w.end])).toEqual([
      [0, 0, 10],
      [0, 10, 20],
    ]);
    expect(logWindows(9, 4, 2).map((w) => [w.contextStart, w.start, w.end])).toEqual([
      [0, 0, 4],
      [2, 4, 8],
      [6, 8, 9],
    ]);
    // never more than 20 logs in one prompt
    for (const w of logWindows(137)) expect(w.end - w.contextStart).toBeLessThanOrEqual(20);
    expect(() => logWindows(-1)).toThrow(InvalidInputError);
    expect(() => logWindows(5, 0)).toThrow(/size must be a positive integer/);
  });
});

describe("labels", () => {
  it("names logs log_i and reads the forms a model writes", () => {
    expect(logLabel(3)).toBe("log_3");
    expect(parseLogLabel("log_12")).toBe(12);
    expect(parseLogLabel("LOG_4")).toBe(4);
    expect(parseLogLabel("7")).toBe(7);
    expect(parseLogLabel(5)).toBe(5);
    expect(parseLogLabel("log-3")).toBeNull();
    expect(parseLogLabel(1.5)).toBeNull();
    expect(parseLogLabel(null)).toBeNull();
  });
});

describe("window output → edges", () => {
  const w = logWindows(25)[2]; // analysed 20..24, context 10..19

  it("turns a valid answer into edges, caused_by winning over follows for one pair", () => {
    const out = {
      log_20: { caused_by: ["log_12"], follows: [] },
      log_21: { caused_by: [], follows: ["log_20", "log_10"] },
      log_23: { caused_by: ["log_21"], follows: ["log_21", 22] },
      // log_22 and log_24 left out: no relations
    };
    expect(relationsFromWindowOutput(out, w)).toEqual({
      edges: [
        { from: 12, to: 20, relation: "caused_by" },
        { from: 10, to: 21, relation: "follows" },
        { from: 20, to: 21, relation: "follows" },
        { from: 21, to: 23, relation: "caused_by" },
        { from: 22, to: 23, relation: "follows" },
      ],
      missing: [22, 24],
      warnings: [],
    });
    // missing lists default to empty
    expect(relationsFromWindowOutput({ log_24: { follows: ["log_23"] } }, w).edges).toEqual([{ from: 23, to: 24, relation: "follows" }]);
  });

  // Window 2 analyses logs 20..24 with context 10..19.
  it("drops ids outside the window with a recorded warning; refuses only what is no log id", () => {
    const r = relationsFromWindowOutput(
      {
        log_20: { caused_by: ["log_21", "log_12"], follows: [] }, // log_21 is later: dropped; log_12 kept
        log_22: { caused_by: ["log_9"], follows: ["log_22"] }, // log_9 out of view, log_22 itself: both dropped
        log_19: { caused_by: [], follows: ["log_18"] }, // not analysed in this window: the entry is dropped
      },
      w,
    );
    expect(r.edges).toEqual([{ from: 12, to: 20, relation: "caused_by" }]);
    expect(r.missing).toEqual([21, 22, 23, 24].filter((i) => i !== 22));
    expect(r.warnings).toEqual([
      'window 2: log_20.caused_by names "log_21", not an earlier log in view (logs 10..19); dropped',
      'window 2: log_22.caused_by names "log_9", not an earlier log in view (logs 10..21); dropped',
      'window 2: log_22.follows names "log_22", not an earlier log in view (logs 10..21); dropped',
      'window 2: "log_19" is not an analysed log of this window (logs 20..24); its entry was dropped',
    ]);
    expect(() => relationsFromWindowOutput({ log_20: { caused_by: ["yesterday"] } }, w)).toThrow(
      'log graph window 2 (logs 20..24).log_20.caused_by[0]: "yesterday" is not a log id (log_<n>)',
    );
    expect(() => relationsFromWindowOutput({ log_20: { caused_by: "log_12" } }, w)).toThrow(InvalidInputError);
    expect(() => relationsFromWindowOutput([], w)).toThrow(InvalidInputError);
    expect(windowRelationsSchema(w).safeParse({ log_20: { caused_by: ["x"] } }).success).toBe(false);
    // Built once per window shape (index, analysed logs, context): another shape is another schema.
    expect(windowRelationsSchema({ ...w })).toBe(windowRelationsSchema(w));
    expect(windowRelationsSchema({ ...w, contextStart: w.contextStart + 1 })).not.toBe(windowRelationsSchema(w));
  });
});

describe("components → situations", () => {
  it("merges edges across windows, one per pair", () => {
    const a: LogEdge[] = [
      { from: 1, to: 3, relation: "follows" },
      { from: 0, to: 2, relation: "caused_by" },
    ];
    const b: LogEdge[] = [
      { from: 1, to: 3, relation: "caused_by" },
      { from: 0, to: 2, relation: "follows" },
    ];
    expect(mergeEdges([a, b])).toEqual([
      { from: 0, to: 2, relation: "caused_by" },
      { from: 1, to: 3, relation: "caused_by" },
    ]);
  });

  it("finds connected components in order of their first log; isolated logs stand alone", () => {
    // 8 logs: 0-2-5 (via 0→2, 2→5), 1-3 (1→3), 4 alone, 6-7 (6→7), plus a long-range 3→6 joining {1,3} and {6,7}
    const edges: LogEdge[] = [
      { from: 2, to: 5, relation: "follows" },
      { from: 0, to: 2, relation: "caused_by" },
      { from: 6, to: 7, relation: "follows" },
      { from: 1, to: 3, relation: "follows" },
      { from: 3, to: 6, relation: "caused_by" },
    ];
    expect(logComponents(8, edges)).toEqual([
      {
        logs: [0, 2, 5],
        edges: [
          { from: 0, to: 2, relation: "caused_by" },
          { from: 2, to: 5, relation: "follows" },
        ],
      },
      {
        logs: [1, 3, 6, 7],
        edges: [
          { from: 1, to: 3, relation: "follows" },
          { from: 3, to: 6, relation: "caused_by" },
          { from: 6, to: 7, relation: "follows" },
        ],
      },
      { logs: [4], edges: [] },
    ]);
  });

  it("gives one component per log without edges, none for no logs, and refuses bad edges", () => {
    expect(logComponents(3, []).map((c) => c.logs)).toEqual([[0], [1], [2]]);
    expect(logComponents(0, [])).toEqual([]);
    expect(() => logComponents(3, [{ from: 2, to: 1, relation: "follows" }])).toThrow(/earlier → later/);
    expect(() => logComponents(3, [{ from: 0, to: 3, relation: "follows" }])).toThrow(InvalidInputError);
  });

  it("does not depend on the order of the edges", () => {
    const edges: LogEdge[] = [
      { from: 0, to: 4, relation: "follows" },
      { from: 2, to: 3, relation: "follows" },
      { from: 3, to: 4, relation: "caused_by" },
    ];
    const one = logComponents(6, edges);
    expect(logComponents(6, [...edges].reverse())).toEqual(one);
    expect(one.map((c) => c.logs)).toEqual([[0, 2, 3, 4], [1], [5]]);
  });
});
