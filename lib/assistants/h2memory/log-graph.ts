/**
 * H2Memory's log graph (M_G), the parts that need no model: the sliding windows in which the model is
 * asked for relations, the validation of its answer into edges, and the connected components of the
 * resulting graph, each of which becomes one situation.
 *
 * Logs are named to the model by their 0-based index within the session, "log_0", "log_1", ... (the
 * paper's prompt uses this form). An edge always points from an earlier log to a later one.
 *
 * Windows (Mem-PAL, Appendix C): at most 10 logs are analysed at a time, shown with the up to 10 logs
 * just before them as context (at most 20 logs in one prompt). A 25-log session gives three windows:
 * analysed [0,10), [10,20), [20,25) with contexts [], [0,10), [10,20). Longer-range relations are
 * still captured as multi-hop paths through the graph.
 *
 * Isolated logs: the paper turns every connected subgraph G_1..G_g into a situation. A log with no
 * edge is a connected component of its own (a one-node subgraph), so it becomes its own situation;
 * dropping it would silently lose a user behaviour from memory.
 */
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors";
import { sendAs } from "@/lib/llm/json-mode";
import { WeightedLru } from "@/lib/lru";

export const LOG_WINDOW_SIZE = 10;
export const LOG_WINDOW_CONTEXT = 10;

export interface LogWindow {
  /** 0-based window number within the session. */
  index: number;
  /** Analysed logs: [start, end). */
  start: number;
  end: number;
  /** Context logs shown before them: [contextStart, start). */
  contextStart: number;
}

/** The windows over a session of `count` logs. */
export function logWindows(count: number, size = LOG_WINDOW_SIZE, context = LOG_WINDOW_CONTEXT): LogWindow[] {
  if (!Number.isInteger(count) || count < 0) throw new InvalidInputError(`log windows: count must be a non-negative integer, got ${count}`);
  if (!Number.isInteger(size) || size < 1) throw new InvalidInputError(`log windows: size must be a positive integer, got ${size}`);
  if (!Number.isInteger(context) || context < 0)
    throw new InvalidInputError(`log windows: context must be a non-negative integer, got ${context}`);
  const out: LogWindow[] = [];
  for (let start = 0; start < count; start += size) {
    out.push({ index: out.length, start, end: Math.min(start + size, count), contextStart: Math.max(0, start - context) });
  }
  return out;
}

export function logLabel(index: number): string {
  return `log_${index}`;
}

/** The log index a label names: "log_7", "7" or 7; null when it is none of these. */
export function parseLogLabel(label: unknown): number | null {
  if (typeof label === "number") return Number.isInteger(label) && label >= 0 ? label : null;
  if (typeof label !== "string") return null;
  const m = /^\s*(?:log_)?(\d+)\s*$/i.exec(label);
  return m ? Number(m[1]) : null;
}

export type LogRelation = "caused_by" | "follows";

export interface LogEdge {
  /** The earlier log (the cause, or the one followed). */
  from: number;
  /** The later log. */
  to: number;
  relation: LogRelation;
}

export interface WindowRelations {
  edges: LogEdge[];
  /** Analysed logs the model gave no entry for (treated as having no relation). */
  missing: number[];
  /**
   * Ids the reply named outside the window (an entry for a log not analysed here, or a relation to a
   * log not earlier in view): dropped, each with a warning recorded with the graph, instead of failing
   * the build over one stray id.
   */
  warnings: string[];
}

const relatedList = z
  .array(z.union([z.string(), z.number()]))
  .optional()
  .default([]);
const relationsEntry = z.object({ caused_by: relatedList, follows: relatedList });

/**
 * What the model is asked to write for a window, as JSON Schema: one key per analysed log, each related id
 * one of the earlier logs in view (constrained decoding can then only name real logs).
 */
function windowJsonSchema(window: LogWindow) {
  const properties: Record<string, unknown> = {};
  for (let i = window.start; i < window.end; i++) {
    const earlier = Array.from({ length: i - window.contextStart }, (_, k) => logLabel(window.contextStart + k));
    const related = earlier.length
      ? { type: "array", items: { type: "string", enum: earlier } }
      : { type: "array", items: { type: "string" }, maxItems: 0 };
    properties[logLabel(i)] = {
      type: "object",
      properties: { caused_by: related, follows: related },
      required: ["caused_by", "follows"],
      additionalProperties: false,
    };
  }
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * The schema of the model's answer for one window: `{ "log_i": { caused_by: [...], follows: [...] } }`
 * for the analysed logs, each related log an earlier one in view (context or window). It parses into
 * edges, so the model client can validate, retry on a broken answer (an id that is no log label), and
 * record a failure after its limit. A well-formed id outside the window is dropped with a warning
 * (WindowRelations.warnings). A pair named under both relations keeps "caused_by" (the prompt ranks it first).
 */
export function windowRelationsSchema(window: LogWindow) {
  // Built once per window shape: the same windows recur for every session, method and ablation, and
  // building a zod schema cost more than validating with it (issue 35's profile).
  const key = `${window.index}:${window.start}:${window.end}:${window.contextStart}`;
  let schema = windowSchemas.get(key);
  if (!schema) windowSchemas.set(key, (schema = buildWindowRelationsSchema(window)));
  return schema;
}
const windowSchemas = new WeightedLru<string, ReturnType<typeof buildWindowRelationsSchema>>(2_000);

function buildWindowRelationsSchema(window: LogWindow) {
  const schema = z
    .record(z.string(), relationsEntry)
    .superRefine((out, ctx) => {
      // Only ids that are no log label at all are asked again; a well-formed id out of range is dropped below.
      for (const [key, entry] of Object.entries(out)) {
        if (parseLogLabel(key) === null) ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is not a log id (log_<n>)` });
        for (const relation of ["caused_by", "follows"] as const)
          entry[relation].forEach((ref, i) => {
            if (parseLogLabel(ref) === null)
              ctx.addIssue({ code: "custom", path: [key, relation, i], message: `${JSON.stringify(ref)} is not a log id (log_<n>)` });
          });
      }
    })
    .transform((out): WindowRelations => {
      const byPair = new Map<string, LogEdge>();
      const seen = new Set<number>();
      const warnings: string[] = [];
      const span = `logs ${window.start}..${window.end - 1}`;
      for (const [key, entry] of Object.entries(out)) {
        const to = parseLogLabel(key)!;
        if (to < window.start || to >= window.end) {
          warnings.push(`window ${window.index}: "${key}" is not an analysed log of this window (${span}); its entry was dropped`);
          continue;
        }
        seen.add(to);
        for (const relation of ["caused_by", "follows"] as const) {
          for (const ref of entry[relation]) {
            const from = parseLogLabel(ref)!;
            if (from >= to || from < window.contextStart) {
              warnings.push(
                `window ${window.index}: ${key}.${relation} names ${JSON.stringify(ref)}, not an earlier log in view (logs ${window.contextStart}..${to - 1}); dropped`,
              );
              continue;
            }
            const pair = `${from}>${to}`;
            if (!byPair.has(pair) || relation === "caused_by") byPair.set(pair, { from, to, relation });
          }
        }
      }
      const missing: number[] = [];
      for (let i = window.start; i < window.end; i++) if (!seen.has(i)) missing.push(i);
      return { edges: sortEdges([...byPair.values()]), missing, warnings };
    });
  return sendAs(schema, windowJsonSchema(window));
}

/** Validates one window's answer; a broken answer throws naming the window and the field. */
export function relationsFromWindowOutput(output: unknown, window: LogWindow): WindowRelations {
  const r = windowRelationsSchema(window).safeParse(output);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue.path.length ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("") : "";
  throw new InvalidInputError(`log graph window ${window.index} (logs ${window.start}..${window.end - 1})${where}: ${issue.message}`);
}

function sortEdges(edges: LogEdge[]): LogEdge[] {
  return edges.sort((a, b) => a.to - b.to || a.from - b.from);
}

/**
 * The edges of all windows of a session as one list: one edge per (from, to) pair ("caused_by" wins
 * over "follows"), ordered by (to, from).
 */
export function mergeEdges(lists: readonly (readonly LogEdge[])[]): LogEdge[] {
  const byPair = new Map<string, LogEdge>();
  for (const list of lists) {
    for (const e of list) {
      const pair = `${e.from}>${e.to}`;
      const had = byPair.get(pair);
      if (!had || (had.relation === "follows" && e.relation === "caused_by")) byPair.set(pair, { ...e });
    }
  }
  return sortEdges([...byPair.values()]);
}

/** One connected subgraph of the log graph: the logs of one situation. */
export interface LogComponent {
  /** Log indices, ascending. */
  logs: number[];
  /** The edges among them, ordered by (to, from). */
  edges: LogEdge[];
}

/**
 * Connected components (union-find, edges taken as undirected) of a session of `count` logs. Every
 * log belongs to exactly one component; isolated logs are one-log components. Repeated pairs are
 * merged as in mergeEdges. Components are ordered
 * by their first (smallest) log, so the situations of a session come out in time order.
 */
export function logComponents(count: number, edges: readonly LogEdge[]): LogComponent[] {
  const parent = Array.from({ length: count }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (const e of edges) {
    if (!Number.isInteger(e.from) || !Number.isInteger(e.to) || e.from < 0 || e.to >= count || e.from >= e.to) {
      throw new InvalidInputError(
        `log graph: edge ${e.from} → ${e.to} is not between two logs of a ${count}-log session (earlier → later)`,
      );
    }
    const a = find(e.from);
    const b = find(e.to);
    // The smaller root wins, so a component's root is its first log.
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const byRoot = new Map<number, LogComponent>();
  for (let i = 0; i < count; i++) {
    const root = find(i);
    let c = byRoot.get(root);
    if (!c) byRoot.set(root, (c = { logs: [], edges: [] }));
    c.logs.push(i);
  }
  for (const e of mergeEdges([edges])) byRoot.get(find(e.from))!.edges.push(e);
  // Map iteration follows insertion, i.e. each component's first log: already in order.
  return [...byRoot.values()];
}
