/**
 * One session's step of H2Memory's construction, in the order the paper gives and with every
 * independent call concurrent:
 *
 *   logs:      log-graph windows ─▶ situations ─▶ background update ─┐
 *   dialogue:  topic outlines ──────────────────────────────────────┴▶ requirement rewrites ─▶ principles
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
import type { H2Entry, H2Options, H2Services, H2Session, H2State, PrincipleEntry } from "./types";

export type SessionBuild = { entries: H2Entry[]; state: H2State };

const outlineKey = (session: string, i: number) => `${session}/t${i}`;

function principleEntries(ps: PrincipleEntry[], validFrom: number, prev: PrincipleEntry[] | null = null): H2Entry[] {
  const before = new Map((prev ?? []).map((p) => [p.cluster, JSON.stringify(p)]));
  return ps
    .filter((p) => before.get(p.cluster) !== JSON.stringify(p))
    .map((p) => ({ kind: "principle" as const, key: `cluster-${p.cluster}`, content: p, validFrom }));
}

export async function buildSession(svc: H2Services, opts: H2Options, state: H2State, session: H2Session): Promise<SessionBuild> {
  const seq = session.seq;
  if (opts.mode === "dialogue-only") return buildDialogueOnly(svc, state, session);

  const logsPart = (async () => {
    const g = await buildSessionGraph(svc, session, opts.window);
    const bg = opts.parts.background ? await updateBackground(svc, state.background, session, g.situations) : null;
    return { ...g, bg };
  })();
  const dialoguePart = extractOutlines(svc, session);
  // M_P starts from every history dialogue; it does not depend on this session, so it runs alongside.
  const needInit = opts.parts.principle && state.principles === null && session.split === "query";
  const initPart = needInit ? initPrinciples(svc, state.outlines, opts.clusters, opts.seed) : Promise.resolve(state.principles);

  const [g, extracted, initial] = await Promise.all([logsPart, dialoguePart, initPart]);
  const background = g.bg?.state ?? state.background;
  const outlines = await refineOutlines(svc, session, extracted, opts.parts.background ? background.background : null, g.situations, opts.k);
  const added = outlines.map((o) => ({ key: outlineKey(session.key, o.index), requirement: o.requirement, preference: o.preference }));

  const entries: H2Entry[] = [
    { kind: "log_graph", key: session.key, content: g.graph, validFrom: seq },
    ...g.situations.map((s) => ({ kind: "situation" as const, key: `${session.key}/s${s.index}`, content: s, validFrom: seq })),
    ...(g.bg?.changed ?? []).map((b) => ({ kind: "background" as const, key: b.aspect, content: b, validFrom: seq })),
    ...outlines.map((o) => ({ kind: "topic_outline" as const, key: outlineKey(session.key, o.index), content: o, validFrom: seq + 1 })),
  ];

  let principles = initial ?? null;
  if (needInit && principles) entries.push(...principleEntries(principles, seq));
  // Once M_P exists, a used query session's requirements join it for the sessions after it.
  if (principles && session.split === "query") {
    const updated = await updatePrinciples(svc, principles, added);
    entries.push(...principleEntries(updated, seq + 1, principles));
    principles = updated;
  }
  return {
    entries,
    state: { background, outlines: [...state.outlines, ...added], principles },
  };
}

async function buildDialogueOnly(svc: H2Services, state: H2State, session: H2Session): Promise<SessionBuild> {
  const extracted = await extractOutlines(svc, session);
  const outlines = await refineOutlines(svc, session, extracted, null, [], 0);
  const added = outlines.map((o) => ({ key: outlineKey(session.key, o.index), requirement: o.requirement, preference: o.preference }));
  const principle = await dialoguePrinciple(svc, session.seq, added);
  const entries: H2Entry[] = [
    ...outlines.map((o) => ({ kind: "topic_outline" as const, key: outlineKey(session.key, o.index), content: o, validFrom: session.seq + 1 })),
    ...(principle ? [{ kind: "principle" as const, key: session.key, content: principle, validFrom: session.seq + 1 }] : []),
  ];
  return {
    entries,
    state: { ...state, outlines: [...state.outlines, ...added], principles: [...(state.principles ?? []), ...(principle ? [principle] : [])] },
  };
}
