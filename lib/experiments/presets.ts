/**
 * Protocol presets: each paper's experiment as one named config, every setting with where it comes from
 * (the paper's section, table or appendix; "public code" where the paper is silent; "our choice" where
 * both are). `pal run --preset` and Experiments → New experiment start from a preset; what the user then
 * changes is an override, listed on the experiment page (presetOverrides). docs/protocol.md explains the
 * choices and what to expect to differ.
 */
import { InvalidInputError } from "@/lib/errors";
import { canonicalJson, methodKey, parseExperimentConfig, PRESET_IDS, type ExperimentConfig } from "./config";
import { mergeIntoPreset } from "./merge";

export { PRESET_IDS };
export type PresetId = (typeof PRESET_IDS)[number];

export type PresetSetting = { path: string; value: unknown; source: string };

export type PresetDef = {
  id: PresetId;
  label: string;
  /** The data-set kind the preset runs on. */
  datasetKind: "palset" | "hicupid" | "locomo" | "longmemeval";
  description: string;
  /** The config the preset stands for (without `preset`). */
  config: Record<string, unknown>;
  /** Source of every setting, by path ("retriever", "methods.h2memory.options.clusters", ...). */
  sources: Record<string, string>;
};

const MEMPAL_K = "Mem-PAL §5.1 Implementation Details: top k = 3 for every method";
const MEMPAL_BUDGET =
  "public code (Mem-PAL fc9f92b, perassist_framework/code/llm_generation.py lines 45 and 65): every GPT and Qwen request sends max_tokens 8192";

const memPalMethods = [
  { name: "vanilla" },
  { name: "vanilla-log" },
  { name: "turn-rag", options: { k: 3 } },
  { name: "session-rag", options: { k: 3 } },
  { name: "recursum" },
  { name: "conditionmem", options: { k: 3 } },
  { name: "memorybank", options: { k: 3, forget: { kind: "sample", seed: 42, curve: "as-written" } } },
  { name: "h2memory", options: { k: 3, clusters: 8, clusterTries: 100, seed: 42, window: 10 } },
  { name: "h2memory-no-graph", options: { k: 3, clusters: 8, clusterTries: 100, seed: 42, window: 10 } },
  { name: "h2memory-no-background", options: { k: 3, clusters: 8, clusterTries: 100, seed: 42, window: 10 } },
  { name: "h2memory-no-topic", options: { k: 3, clusters: 8, clusterTries: 100, seed: 42, window: 10 } },
  { name: "h2memory-no-principle", options: { k: 3, clusters: 8, clusterTries: 100, seed: 42, window: 10 } },
];

const h2Sources = (m: string): Record<string, string> => ({
  [`methods.${m}.options.k`]: MEMPAL_K,
  [`methods.${m}.options.clusters`]: "Mem-PAL Appendix C: KMeans with n = 8 clusters over all topic outlines",
  [`methods.${m}.options.clusterTries`]:
    "public code (Mem-PAL principle_extraction.py): KMeans refitted from new starts up to 100 times while a cluster has fewer than 2 members; then (our choice) one cluster fewer",
  [`methods.${m}.options.seed`]: "our choice (the paper gives no KMeans seed; fixed and recorded)",
  [`methods.${m}.options.window`]: "Mem-PAL Appendix C: log-graph windows of 10 logs with the 10 before as context",
});

const MEM_PAL: PresetDef = {
  id: "mem-pal",
  label: "Reproduce Mem-PAL",
  datasetKind: "palset",
  description:
    "Mem-PAL Tables 2 and 3: H2Memory, its four ablations and the baselines on the three PAL-Bench tasks, dense top-3 retrieval, 3 runs.",
  config: {
    users: "all",
    methods: memPalMethods,
    tasks: ["requirement", "solution", "dialogue"],
    retriever: "dense",
    models: {
      assistant: { temperature: 0.7, maxTokens: 8192 },
      "user-simulator": { temperature: 0.7, maxTokens: 8192 },
      judge: { temperature: 0, maxTokens: 8192 },
    },
    cutOffs: "as-returned",
    repeats: 3,
    seed: 0,
    reference: "h2memory",
    tieMargin: 0,
  },
  sources: {
    users: "Mem-PAL §3: all 100 PAL-Set users, query sessions as evaluation samples",
    methods:
      "Mem-PAL Table 2 (Vanilla w/o and with log, Turn- and Session-level RAG, RecurSum, ConditionMem, MemoryBank, H2Memory and its four ablations); LD-Agent is not in Mem-PAL's tables",
    tasks: "Mem-PAL §4 and Tables 2-3: requirement restatement, solution proposal, multi-turn dialogue",
    retriever:
      "Mem-PAL §5.1: paraphrase-multilingual-mpnet-base-v2 sentence encoder, cosine similarity, for H2Memory and every baseline (Appendix D) — needs the embedding role",
    "models.assistant.temperature": "public code (Mem-PAL llm_generation.py): the Qwen models (assistant) are called at temperature 0.7",
    "models.user-simulator.temperature":
      "public code (Mem-PAL llm_generation.py): the Qwen models (user simulator) are called at temperature 0.7",
    "models.judge.temperature":
      "public code (Mem-PAL llm_generation.py): GPT (G-Score and the FairEval dialogue judge) is called at temperature 0; its six judgments per pair (k_mec = 3, both orders) are still six requests",
    "models.assistant.maxTokens": MEMPAL_BUDGET,
    "models.user-simulator.maxTokens": MEMPAL_BUDGET,
    "models.judge.maxTokens": MEMPAL_BUDGET,
    cutOffs:
      "public code (Mem-PAL fc9f92b, llm_generation.py: llm_request_gpt / llm_request_qwen return the message content, the finish reason never read): a reply is read as the endpoint returns it; the project's re-ask with a larger budget is an option (cutOffs: re-ask), a deviation",
    repeats: "Mem-PAL Appendix (Table 10): averages over 3 runs, significance p < 0.01",
    seed: "our choice (dialogue templates are imported with PAL-Set; the seed only draws missing ones)",
    reference: "Mem-PAL Table 3: Win/Tie/Lose of H2Memory (ours) against each baseline",
    tieMargin: "Mem-PAL Appendix: a tie only when the six-judgment averages are equal",
    "methods.turn-rag.options.k": MEMPAL_K,
    "methods.session-rag.options.k": MEMPAL_K,
    "methods.conditionmem.options.k": MEMPAL_K,
    "methods.memorybank.options.k": MEMPAL_K,
    "methods.memorybank.options.forget":
      "public code (MemoryBank-SiliconFriend commit 3869efc, memory_bank/memory_retrieval/forget_memory.py): keep a turn with probability R = math.exp(-t / 5*S) as written (line 36, = e^(−t·S/5), t in days), strength +1 per recall with no cap (line 69), no age limit, a day's summary dropped only with the day's last turn (lines 129-131); the draw is seeded here (seed 42: our choice); curve: intended (e^(−t/(5S))) and 0cc7111 (the first upload's e^(−t/S), 3 levels, 30 days) are options",
    ...h2Sources("h2memory"),
    ...h2Sources("h2memory-no-graph"),
    ...h2Sources("h2memory-no-background"),
    ...h2Sources("h2memory-no-topic"),
    ...h2Sources("h2memory-no-principle"),
  },
};

const HC_RAG = "HiCUPID Appendix A7: utterance-level retrieval, main results with k = 5";
const HC_RAG_PROMPT =
  "public code (HiCUPID configs/inference_*.yaml prompt zero/system; the scripts pass only --rag): the RAG runs use the zero-shot prompt with the instruction as the system prompt";

const HICUPID: PresetDef = {
  id: "hicupid",
  label: "Reproduce HiCUPID",
  datasetKind: "hicupid",
  description:
    "HiCUPID Table 3 (Test Set 1): 0-shot and 3-shot with the whole history, BM25 and dense utterance retrieval (k = 5), GPT-4o A/B judge.",
  config: {
    users: "all",
    methods: [
      { name: "full-history", label: "0-shot", options: { instruction: "user", shots: 0 } },
      { name: "full-history", label: "3-shot", options: { instruction: "user", shots: 3 } },
      { name: "rag-utterance", label: "bm25-k5", options: { instruction: "system", shots: 0, retriever: "bm25", bm25: "rank_bm25", k: 5 } },
      { name: "rag-utterance", label: "dense-k5", options: { instruction: "system", shots: 0, retriever: "dense", k: 5 } },
    ],
    tasks: ["hicupid"],
    models: { assistant: { temperature: 0.6, maxTokens: 200 }, judge: { temperature: 0, maxTokens: 512 } },
    cutOffs: "as-returned",
    repeats: 1,
    seed: 0,
    reference: "0-shot",
    hicupid: { splits: ["test_1"], judges: ["judge"], verdicts: "public" },
  },
  sources: {
    users: "HiCUPID §3: every user of the split",
    methods: "HiCUPID Table 3: 0-shot, 3-shot, BM25 and Contriever (dense) for the prompted models",
    "methods.0-shot.options.instruction": "HiCUPID Figure A11: the instruction in the user turn is the default",
    "methods.0-shot.options.shots": "HiCUPID Table 3: 0-shot",
    "methods.3-shot.options.instruction": "HiCUPID Figure A12: the instruction in the user turn is the default",
    "methods.3-shot.options.shots":
      "HiCUPID Table 3 and Appendix A7: 3 example sets, randomly sampled from train and fixed; the public code's fixed train QAs when the train split holds them (else a seeded draw, recorded)",
    "methods.bm25-k5.options.instruction": HC_RAG_PROMPT,
    "methods.bm25-k5.options.shots": HC_RAG_PROMPT,
    "methods.bm25-k5.options.retriever": "HiCUPID Appendix A7: BM25",
    "methods.bm25-k5.options.bm25":
      "public code (HiCUPID src/utils/bm25.py): rank_bm25's BM25Okapi over whitespace tokens (str.split()) of the user messages; the project's tokenizer stays an option (bm25: project)",
    "methods.bm25-k5.options.k": HC_RAG,
    "methods.dense-k5.options.instruction": HC_RAG_PROMPT,
    "methods.dense-k5.options.shots": HC_RAG_PROMPT,
    "methods.dense-k5.options.retriever":
      "HiCUPID Appendix A7: Contriever (model-based cosine); here the embedding role's model — needs the embedding role",
    "methods.dense-k5.options.k": HC_RAG,
    tasks: "HiCUPID §4: personalized QA (persona, multi-info, schedule)",
    "models.assistant.temperature": "HiCUPID Figures A11-A13: τ = 0.6, top-p 1.0",
    "models.judge.temperature": "HiCUPID Figure A15: GPT-4o evaluation with τ = 0 (greedy)",
    "models.assistant.maxTokens":
      "public code (HiCUPID 1e784c4, configs/inference_openai.yaml line 22): max_completion_tokens 200 for an answer",
    "models.judge.maxTokens":
      "public code (HiCUPID 1e784c4, configs/evaluate_openai.yaml line 19): max_completion_tokens 512 for a verdict",
    cutOffs:
      "public code (HiCUPID 1e784c4, src/utils/openai.py: generate sends one request per item and extract_completions keeps choices[0].message.content, the finish reason never read): an answer cut off at 200 tokens is scored as returned; the project's re-ask with a larger budget is an option (cutOffs: re-ask), a deviation",
    repeats: "HiCUPID Table 3: one run per setting",
    seed: "our choice (draws the few-shot examples, the A/B slots and any perSplit sample)",
    reference: "our choice (0-shot, the paper's first row, as the comparison baseline)",
    "hicupid.splits": "HiCUPID Table 3: Test Set 1 (seen users, unseen QA); Table 4 is test_2",
    "hicupid.verdicts":
      "public code (HiCUPID src/utils/evaluate.py): the verdict found anywhere in the reply, an unparsed reply counted as Tie (A/B) or NO (schedule), no second request; the project's retry (verdicts: retry) stays an option",
    "hicupid.judges": "HiCUPID Table 3 S_GPT (GPT-4o); add a second judge config (judge:<name>) for S_Llama, the distilled Llama-3.2-3B",
  },
};

/** The built-in memory methods on the two conversational-memory benchmarks (top-k where a method retrieves). */
const benchMethods = (k: number) => [
  { name: "vanilla" },
  { name: "turn-rag", options: { k } },
  { name: "session-rag", options: { k } },
  { name: "recursum" },
  { name: "conditionmem", options: { k } },
  { name: "memorybank", options: { k } },
  { name: "ld-agent" },
  { name: "h2memory", options: { k } },
];
const BENCH_METHODS =
  "our choice: every built-in memory method (H2Memory's ablations and vanilla-log, which equals vanilla on a data set without logs, on request with --method)";
const kSources = (k: string) =>
  Object.fromEntries(["turn-rag", "session-rag", "conditionmem", "memorybank", "h2memory"].map((m) => [`methods.${m}.options.k`, k]));

const LOCOMO_K =
  "public code (LoCoMo task_eval/evaluate_gpts.py, commit 9228632): --top-k defaults to 5 retrieved contexts for the RAG runs";
const LOCOMO: PresetDef = {
  id: "locomo",
  label: "LoCoMo QA",
  datasetKind: "locomo",
  description:
    "LoCoMo (ACL 2024) question answering: every built-in method answers each QA item after the whole conversation; F1 per category as task_eval/evaluation.py computes it, evidence recall where a method retrieves dialogue.",
  config: {
    users: "all",
    methods: benchMethods(5),
    tasks: ["locomo"],
    retriever: "dense",
    models: { assistant: { temperature: 0 }, judge: { temperature: 0 } },
    answerTokens: 32,
    repeats: 1,
    seed: 0,
    reference: "vanilla",
  },
  sources: {
    users: "LoCoMo: every conversation of the release (ten in locomo10.json)",
    methods: BENCH_METHODS,
    tasks: "LoCoMo §4 question answering, categories 1-5 (task_eval/evaluation.py)",
    retriever:
      "LoCoMo §5 RAG baselines retrieve with a dense retriever (DRAGON) — here the embedding role's model; needs the embedding role",
    "models.assistant.temperature":
      "public code (LoCoMo task_eval/evaluate_gpts.py): answers are generated at temperature 0 (32 output tokens per single question, 50 per question in batches)",
    "models.judge.temperature": "our choice: LoCoMo's F1 needs no judge; 0 for any judge run on its answers",
    answerTokens:
      "public code (LoCoMo task_eval/evaluate_gpts.py, commit 9228632): 32 output tokens for the answer to a single question (memory builds keep the project's budget per step)",
    repeats: "LoCoMo reports one run per model",
    seed: "our choice (orders category 5's two options, which the public code draws at random)",
    reference: "our choice (vanilla, the full-context answer, as the comparison baseline)",
    ...kSources(LOCOMO_K),
  },
};

const LME_K =
  "our choice among the k the public code reports (LongMemEval src/retrieval/run_retrieval.py, commit 6a92d1a: recall/NDCG at 1, 3, 5, 10, 30, 50): 10";
const LME_GEN = "public code (LongMemEval src/generation/run_generation.py, commit 283612f)";
const LONGMEMEVAL: PresetDef = {
  id: "longmemeval",
  label: "LongMemEval QA",
  datasetKind: "longmemeval",
  description:
    "LongMemEval (ICLR 2025): every built-in method answers each question after its haystack, at the question's date; GPT-4o-style yes/no judge per question type (temperature 0, 10 tokens), retrieval recall and NDCG where a method retrieves dialogue.",
  config: {
    users: "all",
    methods: benchMethods(10),
    tasks: ["longmemeval"],
    retriever: "dense",
    models: { assistant: { temperature: 0 }, judge: { temperature: 0 } },
    answerTokens: 800,
    cutOffs: "as-returned",
    repeats: 1,
    seed: 0,
    reference: "vanilla",
  },
  sources: {
    users: "LongMemEval: every question of the file (500 in S, M and oracle), each with its own haystack",
    methods: BENCH_METHODS,
    tasks: `LongMemEval README, Testing Your System: answer each question after its timestamped history, scored by src/evaluation/evaluate_qa.py; the prompt as ${LME_GEN} shapes it: one user message, the history (there the sessions by date, each with its date, as JSON turns of both roles, has_answer removed; here the method's memory) then the current date and the question, extract-then-reason reading`,
    retriever:
      "LongMemEval §5 retrieves with dense retrievers (Stella, Contriever, GTE) — here the embedding role's model; needs the embedding role",
    "models.assistant.temperature": `${LME_GEN}: the reader answers at temperature 0 (n = 1)`,
    answerTokens: `${LME_GEN}: max_tokens = gen_length, 800 for the chain-of-note reading the README recommends (run_generation.sh READING_METHOD con = --cot true; 500 for direct reading); memory builds keep the project's budget per step`,
    cutOffs: `${LME_GEN}: the answer is choices[0].message.content, the finish reason never read; the project's re-ask with a larger budget is an option (cutOffs: re-ask), a deviation`,
    "models.judge.temperature":
      'public code (LongMemEval src/evaluation/evaluate_qa.py, commit b11ff72): the judge (gpt-4o-2024-08-06 there; the judge role\'s model here) at temperature 0, max_tokens 10, correct when the reply contains "yes"',
    repeats: "LongMemEval reports one run per system",
    seed: "our choice (nothing in the task is drawn)",
    reference: "our choice (vanilla, the full-history answer, as the comparison baseline)",
    ...kSources(LME_K),
  },
};

export const PRESETS: Record<PresetId, PresetDef> = { "mem-pal": MEM_PAL, hicupid: HICUPID, locomo: LOCOMO, longmemeval: LONGMEMEVAL };

export function isPresetId(s: string): s is PresetId {
  return (PRESET_IDS as readonly string[]).includes(s);
}

export function getPreset(id: string, where = "preset"): PresetDef {
  if (!isPresetId(id)) throw new InvalidInputError(`${where}: unknown preset "${id}" (one of ${PRESET_IDS.join(", ")})`);
  return PRESETS[id];
}

/** The value at a settings path; "methods.<key>" finds a method by its label or name. */
export function valueAt(config: Record<string, unknown>, path: string): unknown {
  const parts = path.split(".");
  let v: unknown = config;
  for (let i = 0; i < parts.length; i++) {
    if (v === null || typeof v !== "object") return undefined;
    if (i === 1 && parts[0] === "methods" && Array.isArray(v)) {
      v = (v as Array<{ name: string; label?: string }>).find((m) => methodKey(m) === parts[1]);
      continue;
    }
    v = (v as Record<string, unknown>)[parts[i]];
  }
  return v;
}

/** Every sourced setting of a preset with its value, in the order the sources list them. */
export function presetSettings(id: PresetId): PresetSetting[] {
  const p = PRESETS[id];
  return Object.entries(p.sources).map(([path, source]) => ({ path, value: valueAt(p.config, path), source }));
}

/**
 * A config from a preset and overrides, merged (merge.ts): objects key by key (`models.judge.temperature`
 * alone), arrays replaced, methods completed from the preset's method of the same key. The result
 * records the preset (`preset`), so the experiment page can list what differs from it.
 */
export function applyPreset(id: string, overrides: Record<string, unknown> = {}, where = "preset"): Record<string, unknown> {
  const p = getPreset(id, where);
  const { preset: _named, ...rest } = overrides;
  return { ...mergeIntoPreset(p.config, rest), preset: p.id };
}

/** The preset a data set of this kind runs by default (mem-pal for PAL-Set, hicupid for HiCUPID); null when none. */
export function presetForKind(kind: string): PresetDef | null {
  return PRESET_IDS.map((id) => PRESETS[id]).find((p) => p.datasetKind === kind) ?? null;
}

/**
 * A launch's config as the browser sends it: with `preset`, the overrides merged into that preset
 * (applyPreset); without, the config as it is.
 */
export function resolvePresetConfig(raw: Record<string, unknown>, where = "config"): Record<string, unknown> {
  if (raw.preset === undefined) return raw;
  return applyPreset(String(raw.preset), raw, `${where}.preset`);
}

/**
 * Issue 31 item 3: a run's config on a data set of `kind` starts from that kind's preset; what `raw` names
 * overrides it (applyPreset), so a run that names its methods keeps the preset's per-role parameters,
 * retrieval, k and repeats. `preset: "none"` is the one way to the project's defaults (their deviations
 * are listed by the run record). The launch API uses it; `pal run` applies the same rule to its flags.
 */
export function startFromKindPreset(raw: Record<string, unknown>, kind: string, where = "config"): Record<string, unknown> {
  if (raw.preset === "none") {
    const { preset: _none, ...rest } = raw;
    return rest;
  }
  if (raw.preset !== undefined) return applyPreset(String(raw.preset), raw, `${where}.preset`);
  const p = presetForKind(kind);
  return p ? applyPreset(p.id, raw, `${where}.preset`) : raw;
}

export type PresetOverride = { path: string; preset: unknown; value: unknown };

/** How a run is run, not what it measures (the numbers do not depend on them): not changes of the protocol. */
export const RUN_SETTINGS = /^(spendCap|prices|maxAttempts|judgeBatch)(\.|$)/;

/**
 * The settings a run changes from its preset, by name, as a caption lists them: a method added or left
 * out is "methods" once (not one entry per method), and how the run is run (RUN_SETTINGS) is no change.
 */
export function deviationSettings(overrides: readonly PresetOverride[]): string[] {
  const names = overrides.filter((o) => !RUN_SETTINGS.test(o.path)).map((o) => (/^methods\.[^.]+$/.test(o.path) ? "methods" : o.path));
  return [...new Set(names)];
}

/** Leaf paths of a JSON value (arrays compared whole). */
function leaves(v: unknown, prefix: string, out: Map<string, unknown>): void {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    if (!entries.length) out.set(prefix, {});
    for (const [k, x] of entries) leaves(x, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out.set(prefix, v);
}

function diff(a: Map<string, unknown>, b: Map<string, unknown>, out: PresetOverride[]): void {
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(path);
    const y = b.get(path);
    if (canonicalJson(x) !== canonicalJson(y)) out.push({ path, preset: x, value: y });
  }
}

/**
 * What a config changes from its preset: every setting (after defaults are applied to both) whose value
 * differs. Methods are matched by label or name: a method added or removed is one entry
 * ("methods.<key>", the whole spec on one side), a kept method's changed options one entry each.
 * Empty for a config without a preset or equal to it.
 */
export function presetOverrides(config: ExperimentConfig): PresetOverride[] {
  if (!config.preset) return [];
  const base = parseExperimentConfig(applyPreset(config.preset));
  const out: PresetOverride[] = [];
  const rest = (c: ExperimentConfig) => {
    const m = new Map<string, unknown>();
    leaves({ ...c, preset: undefined, methods: undefined }, "", m);
    return m;
  };
  diff(rest(base), rest(config), out);
  const byKey = (c: ExperimentConfig) => new Map(c.methods.map((m) => [methodKey(m), m]));
  const pa = byKey(base);
  const pb = byKey(config);
  for (const key of new Set([...pa.keys(), ...pb.keys()])) {
    const x = pa.get(key);
    const y = pb.get(key);
    if (!x || !y) {
      out.push({ path: `methods.${key}`, preset: x, value: y });
      continue;
    }
    const la = new Map<string, unknown>();
    const lb = new Map<string, unknown>();
    leaves(x, `methods.${key}`, la);
    leaves(y, `methods.${key}`, lb);
    diff(la, lb, out);
  }
  return out;
}

/**
 * The presets as the New experiment form shows them (plain data: label, config, sourced settings, and
 * the methods with their display names, to pick a subset of).
 */
export function presetOptions(displayName: (m: { name: string; label?: string }) => string = methodKey) {
  return PRESET_IDS.map((id) => {
    const p = PRESETS[id];
    const methods = (p.config.methods as Array<{ name: string; label?: string }>).map((m) => ({
      key: methodKey(m),
      label: displayName(m),
    }));
    return {
      id,
      label: p.label,
      description: p.description,
      datasetKind: p.datasetKind,
      config: p.config,
      settings: presetSettings(id),
      methods,
    };
  });
}
