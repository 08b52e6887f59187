/**
 * M_P: requirement types and preference principles. Initialised by KMeans over the requirements of
 * all history dialogues (one type + principle per cluster); each later requirement joins its nearest
 * centre, which moves, and the cluster's type and principle are revised when the model says so.
 * On data without logs (dialogue-only mode) each dialogue gets its own principle, no clustering.
 */
import { assignRequirement, clusterRequirements } from "./principle-clusters";
import { preferenceAbstractionPrompt, preferenceUpdatePrompt, requirementAbstractionPrompt, requirementUpdatePrompt } from "./prompts";
import { preferenceAbstractionOutput, preferenceUpdateOutput, requirementAbstractionOutput, requirementUpdateOutput } from "./schemas";
import type { H2Services, H2State, PrincipleEntry } from "./types";
import { hashSeed, seededShuffle } from "@/lib/random";

type Outline = H2State["outlines"][number];

/** At most this many members of a cluster go into one abstraction prompt. */
export const MAX_PROMPT_MEMBERS = 10;

/** The members a cluster's abstraction prompt shows: all up to 10, else a seeded sample of 10 in member order. */
export function promptMembers<T extends { key: string }>(members: readonly T[], seed: number, cluster: number): T[] {
  if (members.length <= MAX_PROMPT_MEMBERS) return [...members];
  const keep = new Set(
    seededShuffle(
      members.map((m) => m.key),
      hashSeed(`${seed}|principle|${cluster}`),
    ).slice(0, MAX_PROMPT_MEMBERS),
  );
  return members.filter((m) => keep.has(m.key));
}

/** Steps 4-1 then 4-2 for one group of outlines (at most 10 of them in the prompts, recorded in `prompted`). */
async function abstractGroup(
  svc: H2Services,
  cluster: number,
  members: Outline[],
  seed: number,
  centre?: number[],
): Promise<PrincipleEntry> {
  const shown = promptMembers(members, seed, cluster);
  const gr = await svc.chat(
    requirementAbstractionPrompt(
      svc.lang,
      shown.map((m) => m.requirement),
    ),
    requirementAbstractionOutput,
  );
  const pr = await svc.chat(
    preferenceAbstractionPrompt(svc.lang, gr.value.general_requirement, shown.map((m) => m.preference).filter(Boolean)),
    preferenceAbstractionOutput,
  );
  return {
    cluster,
    general_requirement: gr.value.general_requirement,
    principle: pr.value.principle,
    members: members.map((m) => m.key),
    ...(shown.length < members.length ? { prompted: shown.map((m) => m.key) } : {}),
    ...(centre ? { centre } : {}),
    callKeys: [gr.callKey, pr.callKey].filter((k): k is string => k !== null),
  };
}

/** Embeds the outlines that have no features yet (requirement text, as the paper clusters). */
export async function withFeatures(svc: H2Services, outlines: Outline[]): Promise<Outline[]> {
  const missing = outlines.filter((o) => !o.feature);
  if (missing.length === 0) return outlines;
  const vectors = await svc.embed(missing.map((o) => o.requirement));
  const byKey = new Map(missing.map((o, i) => [o.key, vectors[i]]));
  return outlines.map((o) => (o.feature ? o : { ...o, feature: byKey.get(o.key) }));
}

/** KMeans over the history requirements, then one type + principle per non-empty cluster (concurrently). */
export async function initPrinciples(
  svc: H2Services,
  outlines: Outline[],
  n: number,
  seed: number,
  tries?: number,
): Promise<PrincipleEntry[]> {
  if (outlines.length === 0) return [];
  const featured = await withFeatures(svc, outlines);
  const {
    assignments,
    centroids,
    redone,
    restarts,
    seed: kept,
  } = clusterRequirements(
    featured.map((o) => o.feature!),
    { n, seed, tries },
  );
  // Clusters are numbered by first appearance and never empty, so each one takes its two calls.
  const groups = centroids.map((_, c) => featured.filter((_, i) => assignments[i] === c));
  const entries = await Promise.all(groups.map((members, c) => abstractGroup(svc, c, members, seed, centroids[c])));
  // Recorded with the first principle: the restarts at n and the n given up on for a cluster under 2 members.
  const clustering =
    redone || restarts
      ? { seed, ...(kept !== seed ? { kept } : {}), ...(restarts ? { restarts } : {}), ...(redone ? { redone } : {}) }
      : null;
  return clustering && entries.length ? [{ ...entries[0], clustering }, ...entries.slice(1)] : entries;
}

/**
 * New outlines join their nearest centres one by one (each move counts for the next), then every
 * cluster that gained members gets one requirement-type update and one principle update.
 */
export async function updatePrinciples(svc: H2Services, principles: PrincipleEntry[], added: Outline[]): Promise<PrincipleEntry[]> {
  if (added.length === 0 || principles.length === 0) return principles;
  const featured = await withFeatures(svc, added);
  const next = principles.map((p) => ({ ...p, members: [...p.members], centre: p.centre ? [...p.centre] : undefined }));
  const joined = new Map<number, Outline[]>();
  for (const o of featured) {
    // The members' count is the centre's weight: the centre stays the mean of its members.
    const state = { seed: 0, centroids: next.map((p) => p.centre!), counts: next.map((p) => p.members.length) };
    const { cluster: i, state: moved } = assignRequirement(state, o.feature!);
    next[i].centre = moved.centroids[i];
    next[i].members.push(o.key);
    joined.set(i, [...(joined.get(i) ?? []), o]);
  }
  await Promise.all(
    [...joined].map(async ([i, outs]) => {
      const p = next[i];
      const ru = await svc.chat(
        requirementUpdatePrompt(
          svc.lang,
          p.general_requirement,
          outs.map((o) => o.requirement),
        ),
        requirementUpdateOutput,
      );
      if (ru.value.adjust === "yes") p.general_requirement = ru.value.general_requirement!.trim();
      const pu = await svc.chat(
        preferenceUpdatePrompt(svc.lang, p.general_requirement, p.principle, outs.map((o) => o.preference).filter(Boolean)),
        preferenceUpdateOutput,
      );
      if (pu.value.adjust === "yes") p.principle = pu.value.principle!.trim();
      p.callKeys = [...p.callKeys, ...[ru.callKey, pu.callKey].filter((k): k is string => k !== null)];
    }),
  );
  return next as PrincipleEntry[];
}

/** Dialogue-only mode: one type + principle from one dialogue's outlines. */
export async function dialoguePrinciple(svc: H2Services, index: number, outlines: Outline[], seed: number): Promise<PrincipleEntry | null> {
  if (outlines.length === 0) return null;
  return abstractGroup(svc, index, outlines, seed);
}
