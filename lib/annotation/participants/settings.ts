/** A crowd campaign's settings (campaigns.crowd): validated on the way in, defaults filled on the way out. */
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors";

const code = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, - or _ (up to 64)");

export const crowdSettingsSchema = z
  .object({
    /** Seconds a served item stays held for its participant; after that it goes back to the pool. */
    // As short as 1 s (a test of a lapsing hold); a real study keeps minutes.
    holdSeconds: z.number().int().min(1).max(86_400).default(600),
    /** Most items one participant labels (gold items included); null: no limit. */
    quota: z.number().int().min(1).max(100_000).nullable().default(null),
    /** Most participants who may join; null: no cap. */
    maxParticipants: z.number().int().min(1).max(1_000_000).nullable().default(null),
    completionCode: code.nullable().default(null),
    screenoutCode: code.nullable().default(null),
    /** Markdown a participant must agree to before the first item; null: no consent step. */
    consent: z.string().max(20_000).nullable().default(null),
    /** Share of served items that are gold items / attention checks (0 to 1). */
    goldRate: z.number().min(0).max(1).default(0.1),
    /**
     * Share of served items that are attention checks generated from the campaign's own items (an identical
     * pair, a broken reply: the kind's `attentionCheck`). 0: none.
     */
    attentionRate: z.number().min(0).max(0.5).default(0),
    /** A participant who fails more attention checks than this is screened out (default: at the second fail, not on one lapse). */
    maxAttentionFails: z.number().int().min(0).max(1000).default(1),
    /**
     * Which item a participant is served next among those still needing labels: the least-labelled, or the
     * one whose current labels disagree most (ties broken by fewest labels, then the campaign's order).
     */
    order: z.enum(["least-labelled", "most-disagreement"]).default("least-labelled"),
    /** A participant whose gold accuracy is below this (once they met gold items) is screened out. */
    minGoldAccuracy: z.number().min(0).max(1).default(0.5),
    /** An answer faster than this many seconds is flagged "too fast". */
    minSeconds: z.number().min(0).max(3600).default(3),
  })
  .strict();

export type CrowdSettings = z.infer<typeof crowdSettingsSchema>;

/** Checks a settings object (from the CLI or the form); a bad field is named. */
export function parseCrowdSettings(input: unknown): CrowdSettings {
  const r = crowdSettingsSchema.safeParse(input ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`crowd.${i.path.join(".") || "settings"}: ${i.message}`);
  }
  return r.data;
}

/** The stored settings of a campaign, defaults filled (a campaign stored before a setting existed gets its default). */
export function crowdSettingsOf(stored: Record<string, unknown> | null | undefined): CrowdSettings {
  const r = crowdSettingsSchema.safeParse(stored ?? {});
  return r.success ? r.data : crowdSettingsSchema.parse({});
}

/** Prolific's return address for a code. */
export function prolificCompletionUrl(code: string): string {
  return `https://app.prolific.com/submissions/complete?cc=${encodeURIComponent(code)}`;
}
