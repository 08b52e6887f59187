/**
 * The output budget (max_tokens) every chat call sends. Without one a model that loops (a judge at
 * temperature 0 repeating itself) writes until the request times out, and each try costs minutes.
 * The budget follows the size of what the step writes (a verdict is short, a memory outline long),
 * chosen by the call's purpose; a role may fix it or add headroom for a reasoning model, whose
 * thinking counts against the same limit.
 */

/** Budgets by the purpose of a call, the first match wins; `label` is what docs/endpoints.md lists. */
export const TOKEN_BUDGETS: ReadonlyArray<{ match: RegExp; tokens: number; label: string }> = [
  // LongMemEval's evaluate_qa.py calls its judge with max_tokens 10.
  { match: /^longmemeval\.judge/, tokens: 10, label: "LongMemEval's yes/no judge (10 tokens, as its public code)" },
  // LoCoMo's evaluate_gpts.py answers a single question with 32 tokens.
  // LongMemEval's run_generation.py: max_tokens = gen_length, 800 for its recommended chain-of-note reading (500 direct).
  {
    match: /\.respond\.question\.longmemeval$/,
    tokens: 800,
    label: "a method's answer to a LongMemEval question (800 tokens, as its public code reads)",
  },
  { match: /\.respond\.question\.locomo$/, tokens: 32, label: "a method's answer to a LoCoMo question (32 tokens, as its public code)" },
  { match: /decision|\.check$/, tokens: 256, label: "a yes/no decision" },
  { match: /judge|gscore|rating|verdict|\.ab(\.|$)/, tokens: 1024, label: "a judge's verdict with its analysis" },
  { match: /simulator/, tokens: 512, label: "a simulated user's turn" },
  { match: /respond|answer/, tokens: 1024, label: "an assistant's answer" },
  { match: /^h2memory\./, tokens: 4096, label: "an H2Memory outline, log graph or summary" },
  { match: /summary|portrait|persona|event|reflection|record|features/, tokens: 2048, label: "a memory note or summary" },
  { match: /^(requirement|solution|dialogue|hicupid)\./, tokens: 1024, label: "an assistant's answer in a task" },
];

/** A method's answer to a benchmark question: its budget is the run's answerTokens when it declares one. */
export const BENCHMARK_ANSWER = /\.respond\.question\.(locomo|longmemeval)$/;

/** Any other step. */
export const DEFAULT_BUDGET = 2048;

/** Added to every budget of a model seen thinking (reasoning_content or a <think> block) unless its role sets its own headroom. */
export const REASONING_HEADROOM = 4096;

/** A cut-off reply is asked again with up to this many times its first budget (doubling per try). */
const GROWTH_CAP = 4;

/** The largest budget ever sent (well inside every current model's output limit). */
const CEILING = 32_768;

/** The ledger's reason for a reply that ended at the budget (finish_reason "length"). */
export const CUT_OFF = "cut off at max_tokens";

/**
 * A role parameter the client reads and never sends: "as-returned" keeps a reply cut off at its budget as the
 * reply (no larger re-ask), as the papers' public code does; absent, a cut-off reply is asked again (GROWTH_CAP).
 */
export const CUT_OFF_PARAM = "cut_off";

/** The ledger note on an accepted reply that was cut off and kept as returned. */
export const KEPT_AS_RETURNED = "cut off at max_tokens, kept as returned";

export function budgetFor(purpose: string): number {
  return TOKEN_BUDGETS.find((b) => b.match.test(purpose))?.tokens ?? DEFAULT_BUDGET;
}

export type BudgetInput = {
  purpose: string;
  /** The call site's own budget (ChatOptions.maxTokens). */
  explicit?: number;
  /** The role's fixed budget (its params' max_tokens or max_completion_tokens). */
  role?: number | null;
  /** The role's headroom (its params' max_tokens_headroom); null: REASONING_HEADROOM once the model was seen thinking. */
  headroom?: number | null;
  /** The model was seen thinking in this process. */
  reasoning?: boolean;
  /** Replies of this call already cut off (each try after one doubles the budget, up to GROWTH_CAP). */
  cutOffs?: number;
};

/** The max_tokens of one try. */
export function maxTokensFor(o: BudgetInput): number {
  const base = o.role ?? o.explicit ?? budgetFor(o.purpose);
  const headroom = o.headroom ?? (o.reasoning ? REASONING_HEADROOM : 0);
  const grown = base * Math.min(GROWTH_CAP, 2 ** (o.cutOffs ?? 0));
  return Math.min(CEILING, Math.max(1, Math.round(grown + headroom)));
}

/**
 * A 400 saying the model takes max_completion_tokens instead of max_tokens (OpenAI's reasoning
 * models): the call is asked again with that name, and so is every later call to that model.
 */
export function isMaxTokensRefusal(message: string): boolean {
  return /max_tokens/.test(message) && /max_completion_tokens/.test(message);
}

/** A positive whole number from a role's params, else null. */
export function tokenParam(v: unknown): number | null {
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : null;
}
