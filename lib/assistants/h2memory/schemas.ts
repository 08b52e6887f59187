/**
 * Output shapes of H2Memory's construction steps (Mem-PAL, Appendix E), with the papers' JSON keys.
 * The model client validates every reply against these and retries what does not fit.
 */
import { z } from "zod";
import { sendAs } from "@/lib/llm/json-mode";

export const ASPECTS = ["work", "health", "family", "leisure"] as const;
export type Aspect = (typeof ASPECTS)[number];

// Step 1-1 (the log-graph reply) is validated by log-graph.ts's windowRelationsSchema, which checks
// it against the window it was asked for.

const aspect = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.enum(ASPECTS));

/** Step 1-2: one situation per connected component of the log graph. */
export const situationOutput = z.object({
  situation: z.string().min(1),
  situation_aspects: z.array(aspect).min(1),
});
export type SituationOutput = z.infer<typeof situationOutput>;

/** A turn id as written ("turn_3", or 3); sent as one of the dialogue's turn ids when they are known. */
function turnId(turnKeys?: string[]) {
  const id = z.union([z.string(), z.number()]).transform((v) => (typeof v === "number" ? `turn_${v}` : v.trim()));
  return turnKeys?.length ? sendAs(id, { type: "string", enum: turnKeys }) : id;
}

/** The paper's topic outline list (its keys exactly). */
function topicOutlineList(turnKeys?: string[]) {
  return z
    .array(
      z.object({
        turn_span: z.tuple([turnId(turnKeys), turnId(turnKeys)]),
        requirement: z.string().min(1),
        solution_list: z
          .array(
            z.object({
              solution: z.string().min(1),
              user_feedback: z.string().default(""),
              feedback_type: z.enum(["pos", "neg", "others"]),
            }),
          )
          .default([]),
        preference: z.string().default(""),
      }),
    )
    .min(1);
}

/** The key that holds the list: every reply is a JSON object, so an object-only JSON mode can serve the step. */
export const TOPIC_OUTLINES_KEY = "topic_outlines";

/**
 * Step 2-1: the topic outlines of one dialogue, as `{"topic_outlines": [...]}` (the paper's list under one key).
 * A bare list (a model that kept the paper's shape) is accepted as the same.
 */
export function topicOutlineOutputFor(turnKeys?: string[]) {
  return z.preprocess(
    (v) => (Array.isArray(v) ? { [TOPIC_OUTLINES_KEY]: v } : v),
    z.object({ [TOPIC_OUTLINES_KEY]: topicOutlineList(turnKeys) }),
  );
}
export const topicOutlineOutput = topicOutlineOutputFor();
export type TopicOutlineOutput = z.infer<typeof topicOutlineOutput>;
export type TopicOutline = TopicOutlineOutput[typeof TOPIC_OUTLINES_KEY][number];

/** Step 2-2: the requirement rewritten with background and situations. */
export const requirementRefinementOutput = z.object({ requirement: z.string().min(1) });

/** Step 3: which background aspects change, and their new one-sentence summaries. */
export const backgroundUpdateOutput = z
  .object({
    updating_aspects: z.array(aspect).default([]),
    // Keyed by aspect: sent with the four aspects as its keys.
    updating_content: sendAs(z.record(z.string(), z.string()).default({}), {
      type: "object",
      properties: Object.fromEntries(ASPECTS.map((a) => [a, { type: "string" }])),
      additionalProperties: false,
    }),
  })
  .refine((o) => o.updating_aspects.every((a) => typeof o.updating_content[a] === "string" && o.updating_content[a].trim() !== ""), {
    message: "every aspect in updating_aspects needs its text in updating_content",
  });
export type BackgroundUpdateOutput = z.infer<typeof backgroundUpdateOutput>;

/** Step 4-1. */
export const requirementAbstractionOutput = z.object({ general_requirement: z.string().min(1) });
/** Step 4-2. */
export const preferenceAbstractionOutput = z.object({ principle: z.string().min(1) });

// Sent as the prompt writes it ("Yes" or "No"); read in any case.
const yesNo = sendAs(
  z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(["yes", "no"])),
  { type: "string", enum: ["Yes", "No"] },
);

/** Step 4-3: keep the requirement type, or revise it. */
export const requirementUpdateOutput = z
  .object({ adjust: yesNo, general_requirement: z.string().optional() })
  .refine((o) => o.adjust === "no" || (o.general_requirement ?? "").trim() !== "", {
    message: 'adjust "Yes" needs general_requirement',
  });
/** Step 4-4: keep the principle, or revise it. */
export const preferenceUpdateOutput = z
  .object({ adjust: yesNo, principle: z.string().optional() })
  .refine((o) => o.adjust === "no" || (o.principle ?? "").trim() !== "", { message: 'adjust "Yes" needs principle' });

/** Multi-turn task: the requirement expressed so far, used as the retrieval query. */
export const queryGenerationOutput = z.object({ requirement: z.string().min(1) });
