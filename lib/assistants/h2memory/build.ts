/**
 * One session's step of H2Memory's construction, in the order the paper gives and with every
 * independent call concurrent:
 *
 *   phase 1 (logs):      log-graph windows ─▶ situations ─▶ background update
 *   phase 2 (dialogue):  topic outlines ─▶ requirement rewrites (background + top-k situations) ─▶ principles
 *
 * What the session's logs give (graph, situations, background) is valid from this session on; what
 * its dialogue gives (outlines, principle updates) only from the next session, so answering in
 * session j never sees session j's dialogue. M_P is initialised from all history outlines when the
 * first query session is built.
 */
import { updateBackground } from "./background";
import { dialoguePrinciple, initPrinciples, updatePrinciples } from "./principles";
import { buildSessionGraph } from "./situations";
import { extractOutlines, refineOutlines } from "./topic-outline";
import type { H2Entry, H2Options, H2Services, H2Session, H2State, PrincipleEntry, SituationEntry } from "./types";

export type SessionBuild = { entries: H2Entry[]; state: H2State };

const outlineKey = (session: string, i: number) => `${session}/t${i}`;

function principleEntries(ps: PrincipleEntry[], validFrom: number, prev: PrincipleEntry[] | null = null): H2Entry[] {
  const before = new Map((prev ?? []).map((p) => [p.cluster, JSON.stringify(p)]));
  return ps
    .filter((p) => before.get(p.cluster) !== JSON.stringify(p))
    .map((p) => ({ kind: "principle" as const, key: `cluster-${p.cluster}`, content: p, validFrom }));
}

/**
 * Phase 1 (the session's logs; visible from this session on): log graph, situations, background,
 * and, at the first query session, M_P from all history outlines (it does not depend on the logs,
 * so it runs alongside).
 */
export async function logsPhase(svc: H2Services, opts: H2Options, state: H2State, session: H2Session): Promise<SessionBuild> {
  const seq = session.seq;
  const needInit = opts.mode === "full" && opts.parts.principle && state.principles === null && session.split === "query";
  const initPart = needInit
    ? initPrinciples(svc, state.outlines, opts.clusters, opts.seed, opts.clusterTries)
    : Promise.resolve(state.principles);
  const logsPart = (async () => {
    if (opts.mode === "dialogue-only") return null;
    const g = await buildSessionGraph(svc, session, opts.window);
    const bg = opts.parts.background ? await updateBackground(svc, state.background, session, g.situations) : null;
    return { ...g, bg };
  })();
  const [g, principles] = await Promise.all([logsPart, initPart]);
  const entries: H2Entry[] = g
    ? [
        { kind: "log_graph", key: session.key, content: g.graph, validFrom: seq },
        ...g.situations.map((s) => ({ kind: "situation" as const, key: `${session.key}/s${s.index}`, content: s, validFrom: seq })),
        ...(g.bg?.changed ?? []).map((b) => ({ kind: "background" as const, key: b.aspect, content: b, validFrom: seq })),
      ]
    : [];
  if (needInit && principles) entries.push(...principleEntries(principles, seq));
  return { entries, state: { ...state, background: g?.bg?.state ?? state.background, principles: principles ?? null } };
}

/**
 * Phase 2 (the session's dialogue; visible from the next session on): topic outlines, each
 * requirement rewritten with the background and the session's situations; then the new
 * requirements join M_P (query sessions), or make their own principle (dialogue-only mode).
 */
export async function dialoguePhase(
  svc: H2Services,
  opts: H2Options,
  state: H2State,
  session: H2Session,
  situations: SituationEntry[],
): Promise<SessionBuild> {
  const next = session.seq + 1;
  const extracted = await extractOutlines(svc, session);
  const full = opts.mode === "full";
  const outlines = await refineOutlines(
    svc,
    session,
    extracted,
    full && opts.parts.background ? state.background.background : null,
    full ? situations : [],
    opts.k,
  );
  const added = outlines.map((o) => ({ key: outlineKey(session.key, o.index), requirement: o.requirement, preference: o.preference }));
  const entries: H2Entry[] = outlines.map((o) => ({
    kind: "topic_outline" as const,
    key: outlineKey(session.key, o.index),
    content: o,
    validFrom: next,
  }));
  let principles = state.principles;
  if (!opts.parts.principle) {
    // ablation without M_P: nothing to abstract
  } else if (!full) {
    const p = await dialoguePrinciple(svc, session.seq, added, opts.seed);
    if (p) {
      entries.push({ kind: "principle", key: session.key, content: p, validFrom: next });
      principles = [...(principles ?? []), p];
    }
  } else if (principles && session.split === "query") {
    // Once M_P exists, a used query session's requirements join it for the sessions after it.
    const updated = await updatePrinciples(svc, principles, added);
    entries.push(...principleEntries(updated, next, principles));
    principles = updated;
  }
  return { entries, state: { ...state, outlines: [...state.outlines, ...added], principles } };
}

/** Both phases of one session, in order (as the memory builder runs them). */
export async function buildSession(svc: H2Services, opts: H2Options, state: H2State, session: H2Session): Promise<SessionBuild> {
  const a = await logsPhase(svc, opts, state, session);
  const situations = a.entries.filter((e) => e.kind === "situation").map((e) => e.content as SituationEntry);
  const b = await dialoguePhase(svc, opts, a.state, session, situations);
  return { entries: [...a.entries, ...b.entries], state: b.state };
}
