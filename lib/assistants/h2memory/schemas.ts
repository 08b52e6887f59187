/**
 * Output shapes of H2Memory's construction steps (Mem-PAL, Appendix E), with the papers' JSON keys.
 * The model client validates every reply against these and retries what does not fit.
 */
import { z } from "zod";

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

const turnId = z.union([z.string(), z.number()]).transform((v) => (typeof v === "number" ? `turn_${v}` : v.trim()));

/** Step 2-1: the topic outlines of one dialogue. */
export const topicOutlineOutput = z
  .array(
    z.object({
      turn_span: z.tuple([turnId, turnId]),
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
export type TopicOutlineOutput = z.infer<typeof topicOutlineOutput>;
export type TopicOutline = TopicOutlineOutput[number];

/** Step 2-2: the requirement rewritten with background and situations. */
export const requirementRefinementOutput = z.object({ requirement: z.string().min(1) });

/** Step 3: which background aspects change, and their new one-sentence summaries. */
export const backgroundUpdateOutput = z
  .object({
    updating_aspects: z.array(aspect).default([]),
    updating_content: z.record(z.string(), z.string()).default({}),
  })
  .refine((o) => o.updating_aspects.every((a) => typeof o.updating_content[a] === "string" && o.updating_content[a].trim() !== ""), {
    message: "every aspect in updating_aspects needs its text in updating_content",
  });
export type BackgroundUpdateOutput = z.infer<typeof backgroundUpdateOutput>;

/** Step 4-1. */
export const requirementAbstractionOutput = z.object({ general_requirement: z.string().min(1) });
/** Step 4-2. */
export const preferenceAbstractionOutput = z.object({ principle: z.string().min(1) });

const yesNo = z
  .string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(z.enum(["yes", "no"]));

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
