/**
 * The experiment config, validated and hashed: data set users, methods (with options: ablations,
 * retriever), tasks, model settings per role, repeats and seed. A config is stored canonicalised; its
 * hash identifies it.
 */
import crypto from "node:crypto";
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors";
import { methodKey } from "@/lib/tasks/method-key";
import { TASK_NAMES } from "@/lib/tasks/names";

/** The protocol presets (presets.ts): the paper whose protocol a config starts from. */
export const PRESET_IDS = ["mem-pal", "hicupid", "locomo", "longmemeval"] as const;

const modelSetting = z
  .object({
    model: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).optional(),
    /**
     * The role's output budget (max_tokens) for every call of the run; absent: the project's budget per step
     * (lib/llm/max-tokens.ts). The presets set the public code's (issue 40).
     */
    maxTokens: z.number().int().min(1).max(32_768).optional(),
  })
  .strict();

/**
 * A reply cut off at its output budget: "as-returned" keeps it as the reply (the public code's: HiCUPID scores a
 * truncated answer as it is); "re-ask" (absent: the project's rule) asks again with a larger budget.
 */
export const CUT_OFF_RULES = ["as-returned", "re-ask"] as const;

export const experimentConfigSchema = z
  .object({
    /** The protocol preset this config started from (the experiment page lists what differs from it). */
    preset: z.enum(PRESET_IDS).optional(),
    users: z.union([z.literal("all"), z.array(z.string().min(1)).min(1)]).default("all"),
    methods: z
      .array(
        z
          .object({
            name: z.string().min(1),
            /** A display key when one method runs with several option sets (e.g. "rag-utterance-k15"). */
            label: z
              .string()
              .regex(/^[\w.@+-]+$/, "letters, digits and . @ + - _ only")
              .optional(),
            options: z.record(z.string(), z.unknown()).default({}),
          })
          .strict(),
      )
      .min(1, "at least one method"),
    tasks: z.array(z.enum(TASK_NAMES)).min(1, "at least one task"),
    models: z
      .object({ assistant: modelSetting.optional(), "user-simulator": modelSetting.optional(), judge: modelSetting.optional() })
      .strict()
      .default({}),
    retriever: z.enum(["bm25", "dense"]).default("bm25"),
    /**
     * The output budget (max_tokens) of a method's answer to a benchmark question (LoCoMo, LongMemEval), the
     * public code's answer budget; absent: the step's budget (lib/llm/max-tokens.ts). A role's maxTokens wins.
     */
    answerTokens: z.number().int().min(1).max(32_768).optional(),
    /** What a reply cut off at its budget becomes (CUT_OFF_RULES); absent: "re-ask", the project's rule. */
    cutOffs: z.enum(CUT_OFF_RULES).optional(),
    /** Prices per role in USD per million tokens, for the cost column (none: no cost shown). */
    prices: z
      .partialRecord(
        z.enum(["assistant", "user-simulator", "judge", "embedding"]),
        z.object({ prompt: z.number().min(0), completion: z.number().min(0) }).strict(),
      )
      .default({}),
    repeats: z.number().int().min(1).max(20).default(1),
    seed: z.number().int().min(0).default(0),
    /** The method the others are compared with (pairwise dialogue judging, significance tests). */
    reference: z.string().optional(),
    /** Ties in the pairwise dialogue judgment when |mean difference| ≤ margin. */
    tieMargin: z.number().min(0).default(0),
    /** HiCUPID: the QA splits to answer, an optional sample of N items per split (seeded by `seed`), and one or two judges side by side. */
    hicupid: z
      .object({
        splits: z.array(z.string().min(1)).min(1).default(["test_1", "test_2"]),
        perSplit: z.number().int().min(1).optional(),
        judges: z
          .array(z.string().regex(/^judge(:[\w.-]+)?$/, "a judge config name: judge or judge:<name>"))
          .min(1)
          .max(2)
          .default(["judge"]),
        /**
         * How a judge's reply is read (lib/judges/hicupid/shared.ts, VerdictReading): "public", HiCUPID's public
         * scoring (a verdict anywhere, an unparsed reply counted as Tie / NO and counted); "retry" (absent), the
         * project's (the verdict on the last line, an unparsed reply asked again).
         */
        verdicts: z.enum(["public", "retry"]).optional(),
      })
      .strict()
      .default({ splits: ["test_1", "test_2"], judges: ["judge"] }),
    /**
     * The judge calls go through the judge endpoint's Batch API (half the price, up to 24 h): answers are
     * made online, judge calls collected and sent as batches (lib/experiments/judge-batch.ts).
     */
    judgeBatch: z.boolean().optional(),
    /** Job attempts before a job is recorded as failed. */
    maxAttempts: z.number().int().min(1).max(10).default(3),
    /** Optional spend cap: the run pauses itself when its paid calls (or their cost at `prices`) reach it. */
    spendCap: z
      .object({ calls: z.number().int().min(1).optional(), usd: z.number().positive().optional() })
      .strict()
      .optional(),
  })
  .strict();

export type ExperimentConfig = z.infer<typeof experimentConfigSchema>;
export type MethodSpec = ExperimentConfig["methods"][number];

// Written in lib/tasks (tasks name methods too, and must not import lib/experiments); here for the engine's readers.
export { methodKey };

/** The method the paper compares the others with (Mem-PAL Table 3: H2Memory against each baseline). */
export const DEFAULT_REFERENCE = "h2memory";

/**
 * The reference method of a config, the one rule every reader uses (pairwise dialogue judging, W/T/L,
 * significance): the config's `reference` when it names one, else H2Memory when it is among the
 * methods, else the first method. parseExperimentConfig stores it, so a stored experiment keeps its own.
 */
export function referenceMethod(c: { methods: Array<{ name: string; label?: string }>; reference?: string }): string {
  if (c.reference !== undefined) return c.reference;
  const keys = c.methods.map(methodKey);
  return keys.includes(DEFAULT_REFERENCE) ? DEFAULT_REFERENCE : keys[0];
}

/** A parsed config: its reference is always set (referenceMethod). */
export type ParsedExperimentConfig = ExperimentConfig & { reference: string };

/**
 * `selectionAttempts` was a config field that nothing read: a selection is always asked at most 3 times
 * (the model client's 2 regenerations). Configs stored with it (always the default 3) still load; it is
 * dropped. Any other value is refused rather than silently ignored.
 */
function dropLegacyFields(raw: unknown, where: string): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw) || !("selectionAttempts" in raw)) return raw;
  const { selectionAttempts, ...rest } = raw as Record<string, unknown>;
  if (selectionAttempts !== 3) {
    throw new InvalidInputError(
      `${where}.selectionAttempts: no longer a setting (a selection is asked at most 3 times, the model client's 2 regenerations); remove it`,
    );
  }
  return rest;
}

/** Validates; the error names the field. */
export function parseExperimentConfig(raw: unknown, where = "config"): ParsedExperimentConfig {
  const r = experimentConfigSchema.safeParse(dropLegacyFields(raw, where));
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`${where}.${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  const c = r.data;
  const names = c.methods.map(methodKey);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new InvalidInputError(`${where}.methods: method "${dup}" is listed twice`);
  if (c.reference !== undefined && !names.includes(c.reference)) {
    throw new InvalidInputError(`${where}.reference: "${c.reference}" is not one of the methods (${names.join(", ")})`);
  }
  return { ...c, reference: referenceMethod(c) };
}

/** JSON with object keys sorted, so equal configs hash equally. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

export function configHash(c: ExperimentConfig): string {
  return crypto.createHash("sha256").update(canonicalJson(c)).digest("hex");
}
