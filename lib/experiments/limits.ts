/**
 * What one experiment launch may create, and how often one user may launch (issue 14: one launch of
 * 2,000 method labels × 20 repeats made 1.44 million jobs and stalled the server).
 *
 * Defaults fit the papers' full runs with room to spare: PAL-Set's query set is about 830 topics
 * (100 users × 8.3), so 3 tasks × 830 items × 9 methods/ablations × 3 repeats = 67,230 jobs, plus
 * 830 × 8 × 3 = 19,920 pairwise dialogue judgments: about 87,000 jobs against a default of 250,000.
 * HiCUPID's two test sets (20,000 QA pairs) × 9 settings × 1 repeat = 180,000 also fit. An admin
 * raises any limit on Admin → Settings (up to the ceilings below); `pal run --over-limit` skips the
 * per-launch limits for one run of the CLI (whoever runs it owns the database file).
 */
import { z } from "zod";
import type { Db } from "@/db/client";
import { AppError, TooManyRequestsError } from "@/lib/errors";
import { parseForm } from "@/lib/http/form";
import { readSetting, writeSetting } from "@/lib/settings/store";

export const LIMITS_KEY = "experiments.limits";

export type ExperimentLimits = {
  /** Methods (labels) in one config. */
  maxMethods: number;
  /** Repeats of one config (the config itself allows at most 20). */
  maxRepeats: number;
  /** Jobs one launch creates: items × methods × repeats, plus the pairwise judgments. */
  maxJobs: number;
  /** Launches per user in any 60 seconds. */
  launchesPerMinute: number;
};

export const LIMIT_DEFAULTS: ExperimentLimits = { maxMethods: 20, maxRepeats: 5, maxJobs: 250_000, launchesPerMinute: 10 };

/** The highest value an admin may set: beyond these one launch is a database-sized problem again. */
export const LIMIT_CEILINGS: ExperimentLimits = { maxMethods: 500, maxRepeats: 20, maxJobs: 5_000_000, launchesPerMinute: 600 };

/** How each limit is named on the settings page and in errors. */
export const LIMIT_LABELS: Record<keyof ExperimentLimits, string> = {
  maxMethods: "methods per launch",
  maxRepeats: "repeats per launch",
  maxJobs: "jobs per launch",
  launchesPerMinute: "launches per user per minute",
};

const HOW_TO_RAISE = "an admin can raise it on Admin → Settings";

/** A launch over a limit (400, code "limit_exceeded"); the message names the limit and how to raise it. */
export class LimitExceededError extends AppError {
  constructor(message: string) {
    super(message, 400, "limit_exceeded");
  }
}

export const limitsSchema = z
  .object(
    Object.fromEntries(
      (Object.keys(LIMIT_DEFAULTS) as Array<keyof ExperimentLimits>).map((k) => [
        k,
        z
          .number({ error: "expected a whole number" })
          .int("expected a whole number")
          .min(1, "at least 1")
          .max(LIMIT_CEILINGS[k], `at most ${LIMIT_CEILINGS[k].toLocaleString("en")}`),
      ]),
    ) as Record<keyof ExperimentLimits, z.ZodNumber>,
  )
  .strict();

/** The limits in force: the saved ones over the defaults (a damaged saved value reads as its default). */
export function getExperimentLimits(db: Db): ExperimentLimits {
  const saved = readSetting(db, LIMITS_KEY);
  const out = { ...LIMIT_DEFAULTS };
  if (saved && typeof saved === "object") {
    for (const k of Object.keys(LIMIT_DEFAULTS) as Array<keyof ExperimentLimits>) {
      const r = limitsSchema.shape[k].safeParse((saved as Record<string, unknown>)[k]);
      if (r.success) out[k] = r.data;
    }
  }
  return out;
}

export function setExperimentLimits(db: Db, limits: ExperimentLimits, userId: number | null): ExperimentLimits {
  const r = limitsSchema.parse(limits);
  writeSetting(db, LIMITS_KEY, r, userId);
  return r;
}

export type LaunchSize = { methods: number; repeats: number; jobs: number };

const fmt = (n: number) => n.toLocaleString("en");

/** Each limit the launch is over, as the message a refused launch shows (empty: within every limit). */
export function overLimits(size: LaunchSize, limits: ExperimentLimits): string[] {
  const out: string[] = [];
  if (size.methods > limits.maxMethods)
    out.push(`config.methods: ${fmt(size.methods)} methods, over the limit of ${fmt(limits.maxMethods)} ${LIMIT_LABELS.maxMethods}`);
  if (size.repeats > limits.maxRepeats)
    out.push(`config.repeats: ${fmt(size.repeats)} repeats, over the limit of ${fmt(limits.maxRepeats)} ${LIMIT_LABELS.maxRepeats}`);
  if (size.jobs > limits.maxJobs)
    out.push(
      `this launch would create ${fmt(size.jobs)} jobs (items × methods × repeats), over the limit of ${fmt(limits.maxJobs)} ${LIMIT_LABELS.maxJobs}`,
    );
  return out;
}

/** Refuses a launch over any per-launch limit, naming each and how to raise it. */
export function checkLaunchSize(size: LaunchSize, limits: ExperimentLimits): void {
  const over = overLimits(size, limits);
  if (over.length) throw new LimitExceededError(`${over.join("; ")}. Make the experiment smaller, or ${HOW_TO_RAISE}.`);
}

/**
 * Refuses a user's launch when they launched `launchesPerMinute` experiments in the last 60 s (429).
 * Counted from the experiments they created, so nothing else needs recording; run it in the launch's
 * write transaction so two launches cannot both see the last free slot.
 */
export function checkLaunchRate(db: Db, userId: number, limits: ExperimentLimits, now = Date.now()): void {
  const rows = db.$client
    .prepare("SELECT created_at AS at FROM experiments WHERE created_by = ? AND created_at > ? ORDER BY created_at")
    .all(userId, now - 60_000) as Array<{ at: number }>;
  if (rows.length < limits.launchesPerMinute) return;
  // The slot frees when the oldest launch that counts leaves the window.
  const retry = Math.max(1, Math.ceil((rows[rows.length - limits.launchesPerMinute].at + 60_000 - now) / 1000));
  throw new TooManyRequestsError(
    `launch limit reached: at most ${fmt(limits.launchesPerMinute)} ${LIMIT_LABELS.launchesPerMinute}; try again in ${retry} s, or ${HOW_TO_RAISE}.`,
    retry,
  );
}

const limitField = (k: keyof ExperimentLimits) =>
  z
    .string({ error: `expected ${LIMIT_LABELS[k]}` })
    .trim()
    .regex(/^\d{1,9}$/, "expected a whole number")
    .transform(Number)
    .pipe(limitsSchema.shape[k]);

const limitsForm = z.object(
  Object.fromEntries((Object.keys(LIMIT_DEFAULTS) as Array<keyof ExperimentLimits>).map((k) => [k, limitField(k)])) as Record<
    keyof ExperimentLimits,
    ReturnType<typeof limitField>
  >,
);

/** Admin → Settings: the four limits from the form, each checked against its ceiling. */
export function saveLimitsForm(db: Db, form: FormData, userId: number): { ok: string; limits: ExperimentLimits } {
  const limits = setExperimentLimits(db, parseForm(limitsForm, form), userId);
  return { ok: "Experiment limits saved.", limits };
}
