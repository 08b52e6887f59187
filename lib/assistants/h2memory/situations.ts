/**
 * M_G: the log graph of one session and its situations (Mem-PAL "Log Graph"; Appendix C windows).
 * The windows of a session are independent calls and run concurrently, and so do the situations of
 * its components: the chain per session is two calls deep whatever its length.
 */
import { z } from "zod";
import { logGraphWindows, connectedComponents } from "./structure";
import { logGraphPrompt, situationPrompt, type PromptLog } from "./prompts";
import { logGraphOutput, situationOutput } from "./schemas";
import type { H2Services, H2Session, LogEdge, LogGraphEntry, SituationEntry } from "./types";

export const logId = (i: number) => `log_${i}`;
const logIndex = (id: string) => Number(/^log_(\d+)$/.exec(id)?.[1] ?? NaN);

/**
 * The reply for one window, checked against the window: keys are logs of the window, related logs
 * are earlier logs the model was shown. Anything else is invalid and the client asks again.
 */
export function windowSchema(first: number, last: number, contextStart: number) {
  return logGraphOutput.superRefine((out, ctx) => {
    for (const [key, rel] of Object.entries(out)) {
      const i = logIndex(key);
      if (!(i >= first && i <= last)) {
        ctx.addIssue({ code: "custom", message: `"${key}" is not a log of ${logId(first)}..${logId(last)}` });
        continue;
      }
      for (const id of [...rel.caused_by, ...rel.follows]) {
        const j = logIndex(id);
        if (!(j >= contextStart && j < i)) ctx.addIssue({ code: "custom", message: `${key}: "${id}" is not an earlier log shown` });
      }
    }
  });
}

/** Edges from one window's reply; caused_by wins when a pair is listed under both (as the prompt says). */
export function edgesOf(out: z.infer<typeof logGraphOutput>): LogEdge[] {
  const edges: LogEdge[] = [];
  for (const [to, rel] of Object.entries(out)) {
    const caused = new Set(rel.caused_by);
    for (const from of caused) edges.push({ from, to, type: "caused_by" });
    for (const from of new Set(rel.follows)) if (!caused.has(from)) edges.push({ from, to, type: "follows" });
  }
  return edges;
}

export type SessionGraph = { graph: LogGraphEntry; situations: SituationEntry[] };

/** Builds M_G^j for one session: log-graph calls per window, then one situation call per component. */
export async function buildSessionGraph(svc: H2Services, session: H2Session, window: number): Promise<SessionGraph> {
  const logs: PromptLog[] = session.logs.map((l, i) => ({ id: logId(i), timestamp: l.timestamp, content: l.content }));
  if (logs.length === 0) return { graph: { logs: [], edges: [], components: [], windows: [] }, situations: [] };
  const windows = logGraphWindows(logs.length, window, window);
  const replies = await Promise.all(
    windows.map(async (w) => {
      const shown = logs.slice(w.contextStart, w.end);
      const span = { first: logId(w.start), last: logId(w.end - 1) };
      const r = await svc.chat(logGraphPrompt(svc.lang, shown, span), windowSchema(w.start, w.end - 1, w.contextStart));
      return { w, span, r };
    }),
  );
  const edges = replies.flatMap(({ r }) => edgesOf(r.value));
  const components = connectedComponents(
    logs.length,
    edges.map((e) => [logIndex(e.from), logIndex(e.to)] as [number, number]),
  ).map((c) => c.map(logId));
  const situations = await Promise.all(
    components.map(async (ids, index) => {
      const members = new Set(ids);
      const sub = logs.filter((l) => members.has(l.id));
      const subEdges = edges.filter((e) => members.has(e.to));
      const r = await svc.chat(situationPrompt(svc.lang, sub, subEdges), situationOutput);
      return {
        session: session.key,
        index,
        situation: r.value.situation,
        aspects: [...new Set(r.value.situation_aspects)],
        logIds: ids,
        callKey: r.callKey,
      } satisfies SituationEntry;
    }),
  );
  return {
    graph: {
      logs,
      edges,
      components,
      windows: replies.map(({ w, span, r }) => ({ ...span, context: w.start - w.contextStart, callKey: r.callKey })),
    },
    situations,
  };
}
