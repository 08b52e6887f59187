/**
 * M_T: topic outlines of one dialogue (turn span, requirement, solutions with feedback, preference),
 * each requirement rewritten with the background and the session's k most relevant situations.
 */
import { requirementRefinementPrompt, topicOutlinePrompt, type PromptTurn } from "./prompts";
import { requirementRefinementOutput, TOPIC_OUTLINES_KEY, topicOutlineOutputFor } from "./schemas";
import { backgroundText } from "./background";
import { WeightedLru } from "@/lib/lru";
import type { H2Services, H2Session, H2State, SituationEntry, TopicOutlineEntry } from "./types";

/** The reply checked against the dialogue: spans name existing turns (sent as their enum), in order. */
export function outlineSchema(turns: PromptTurn[]) {
  // Built once per list of turn keys (it depends on nothing else): each dialogue's extraction is asked
  // by every method and ablation that builds outlines, and building the schema cost more than using it.
  const keys = turns.map((t) => t.key);
  const key = keys.join("\u0000");
  let schema = outlineSchemas.get(key);
  if (!schema) outlineSchemas.set(key, (schema = buildOutlineSchema(keys)));
  return schema;
}
const outlineSchemas = new WeightedLru<string, ReturnType<typeof buildOutlineSchema>>(2_000);

function buildOutlineSchema(keys: string[]) {
  const pos = new Map(keys.map((k, i) => [k, i]));
  return topicOutlineOutputFor(keys).superRefine((reply, ctx) => {
    reply[TOPIC_OUTLINES_KEY].forEach((o, i) => {
      const [a, b] = o.turn_span.map((k) => pos.get(k));
      if (a === undefined || b === undefined)
        ctx.addIssue({ code: "custom", message: `topic ${i + 1}: turn_span names a turn not in the dialogue` });
      else if (a > b) ctx.addIssue({ code: "custom", message: `topic ${i + 1}: turn_span ends before it starts` });
    });
  });
}

/** Step 2-1 for one dialogue; independent of the logs, so it runs beside the session's log graph. */
export async function extractOutlines(svc: H2Services, session: H2Session) {
  if (session.turns.length === 0) return { outlines: [], callKey: null };
  const r = await svc.chat(topicOutlinePrompt(svc.lang, session.turns), outlineSchema(session.turns));
  return { outlines: r.value[TOPIC_OUTLINES_KEY], callKey: r.callKey };
}

/**
 * Step 2-2 for every outline of the session (concurrently): the requirement is rewritten with the k
 * situations of the session closest to it and the background of those situations' aspects only
 * (F_GB(R(M_G^j)), as at answer time), not the whole background. Without background or situations (an
 * ablation, or data without logs) there is nothing to rewrite with and the requirement stays.
 */
export async function refineOutlines(
  svc: H2Services,
  session: H2Session,
  extracted: Awaited<ReturnType<typeof extractOutlines>>,
  background: H2State["background"]["background"] | null,
  situations: SituationEntry[],
  k: number,
): Promise<TopicOutlineEntry[]> {
  const docs = situations.map((s) => ({ id: `${s.session}/s${s.index}`, text: s.situation, aspects: s.aspects }));
  return Promise.all(
    extracted.outlines.map(async (o, index) => {
      const base = { ...o, session: session.key, index, originalRequirement: o.requirement, callKey: extracted.callKey };
      const ids = docs.length ? await svc.topK(docs, o.requirement, k) : [];
      const hits = ids.map((id) => docs.find((d) => d.id === id)!);
      const bgText = background ? backgroundText(background, [...new Set(hits.flatMap((d) => d.aspects))]) : "";
      if (hits.length === 0 && !bgText) return { ...base, situations: [], refineCallKey: null };
      const text = hits.map((d) => d.text).join("\n");
      const r = await svc.chat(requirementRefinementPrompt(svc.lang, bgText, text, o.requirement), requirementRefinementOutput);
      return { ...base, requirement: r.value.requirement, situations: ids, refineCallKey: r.callKey };
    }),
  );
}
