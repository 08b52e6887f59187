/**
 * M_G: the log graph of one session and its situations (Mem-PAL "Log Graph"; Appendix C windows).
 * The windows of a session are independent calls and run concurrently, and so do the situations of
 * its components: the chain per session is two calls deep whatever its length.
 */
import { logComponents, logLabel, logWindows, mergeEdges, windowRelationsSchema } from "./log-graph";
import { situationPrompt, logGraphPrompt, type PromptLog } from "./prompts";
import { situationOutput } from "./schemas";
import type { H2Services, H2Session, LogEdge, LogGraphEntry, SituationEntry } from "./types";

export const logId = logLabel;

export type SessionGraph = { graph: LogGraphEntry; situations: SituationEntry[] };

/** Builds M_G^j for one session: log-graph calls per window, then one situation call per component. */
export async function buildSessionGraph(svc: H2Services, session: H2Session, window: number): Promise<SessionGraph> {
  const logs: PromptLog[] = session.logs.map((l, i) => ({ id: logId(i), timestamp: l.timestamp, content: l.content }));
  if (logs.length === 0) return { graph: { logs: [], edges: [], components: [], windows: [] }, situations: [] };
  const windows = logWindows(logs.length, window, window);
  const replies = await Promise.all(
    windows.map(async (w) => {
      const shown = logs.slice(w.contextStart, w.end);
      const span = { first: logId(w.start), last: logId(w.end - 1) };
      // The schema checks the reply against the window and turns it into edges (earlier → later).
      const r = await svc.chat(logGraphPrompt(svc.lang, shown, span), windowRelationsSchema(w));
      return { w, span, r };
    }),
  );
  const merged = mergeEdges(replies.map(({ r }) => r.value.edges));
  const edges: LogEdge[] = merged.map((e) => ({ from: logId(e.from), to: logId(e.to), type: e.relation }));
  const components = logComponents(logs.length, merged).map((c) => c.logs.map(logId));
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
      ...(replies.some(({ r }) => r.value.warnings.length) ? { warnings: replies.flatMap(({ r }) => r.value.warnings) } : {}),
    },
    situations,
  };
}
