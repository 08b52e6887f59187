/**
 * The papers' published rows, transcribed by hand from the papers in shared/papers (the lines they come
 * from are kept in fixtures/paper-tables/, and published.test.ts checks every value against them).
 * Values are in the order of the paper's columns (columns.ts).
 */

export type PublishedRow = { model?: string; method: string; values: number[] };
/** `topics`: the n the paper's rows are means over, when the table says it. */
export type PublishedTable = { source: string; setup: string; rows: PublishedRow[]; topics?: number };

/** Mem-PAL Table 2 (Qwen-Max-0428 assistant; G-Score by GPT-4o): method → B-1..B-4, G-Score | B-1..B-4, S-Score. */
const MEM_PAL_TABLE2: PublishedRow[] = [
  { method: "vanilla", values: [13.59, 5.76, 2.58, 1.41, 17.5, 18.85, 6.96, 3.52, 2.06, 18.95] },
  { method: "vanilla-log", values: [19.71, 8.85, 4.1, 2.29, 23.0, 19.76, 7.68, 4.0, 2.32, 22.88] },
  { method: "turn-rag", values: [22.74, 10.54, 4.94, 2.69, 26.85, 19.15, 7.43, 3.89, 2.29, 24.09] },
  { method: "session-rag", values: [23.81, 11.24, 5.42, 3.06, 29.33, 19.66, 7.8, 4.0, 2.33, 33.78] },
  { method: "recursum", values: [23.29, 10.64, 4.95, 2.75, 28.36, 19.89, 7.59, 3.96, 2.26, 25.61] },
  { method: "conditionmem", values: [23.31, 10.42, 4.86, 2.66, 27.78, 19.42, 7.42, 3.85, 2.22, 25.49] },
  { method: "memorybank", values: [23.89, 11.11, 5.23, 2.91, 28.57, 20.49, 8.12, 4.07, 2.34, 29.85] },
  { method: "h2memory", values: [26.67, 12.18, 5.68, 3.09, 32.54, 22.24, 8.38, 4.39, 2.65, 38.32] },
  { method: "h2memory-no-graph", values: [26.32, 11.93, 5.42, 2.93, 30.9, 22.19, 8.24, 4.35, 2.62, 37.71] },
  { method: "h2memory-no-background", values: [26.22, 11.95, 5.53, 3.05, 31.3, 21.84, 8.17, 4.19, 2.46, 36.69] },
  { method: "h2memory-no-topic", values: [24.04, 11.01, 5.2, 2.82, 28.0, 18.23, 6.49, 3.21, 1.86, 28.09] },
  { method: "h2memory-no-principle", values: [26.33, 11.9, 5.44, 2.9, 31.51, 21.97, 8.16, 4.23, 2.49, 36.26] },
];

/** Mem-PAL Table 3 (H2Memory vs baseline over the 826 query topics): requirement W, T, L | preference W, T, L. */
const MEM_PAL_TABLE3: PublishedRow[] = [
  { method: "vanilla", values: [478, 29, 319, 480, 18, 328] },
  { method: "vanilla-log", values: [447, 33, 346, 452, 22, 352] },
  { method: "recursum", values: [421, 29, 376, 439, 18, 369] },
  { method: "conditionmem", values: [396, 42, 388, 413, 19, 394] },
  { method: "memorybank", values: [449, 33, 344, 452, 25, 349] },
];

/** HiCUPID Tables 3 and 4: model, method → BLEU, ROUGE-L, S_GPT persona, schedule, multi-info, total, S_Llama the same four. */
const HICUPID_TABLE3: PublishedRow[] = [
  { model: "GPT-4o-mini", method: "0-shot", values: [8.2, 19.7, 42.1, 9.5, 4.4, 28.0, 44.7, 8.8, 10.8, 30.4] },
  { model: "GPT-4o-mini", method: "3-shot", values: [16.1, 30.0, 40.5, 76.1, 4.2, 35.3, 42.6, 75.4, 11.4, 37.5] },
  { model: "Llama-3.1-8B", method: "0-shot", values: [8.2, 19.2, 38.0, 13.9, 3.5, 25.9, 39.7, 9.4, 8.1, 27.0] },
  { model: "Llama-3.1-8B", method: "3-shot", values: [16.3, 29.6, 39.4, 49.8, 6.3, 31.6, 38.8, 48.3, 12.3, 31.8] },
  { model: "Llama-3.1-8B", method: "BM25", values: [9.4, 21.8, 29.7, 84.3, 2.3, 29.4, 34.1, 78.5, 6.1, 31.9] },
  { model: "Llama-3.1-8B", method: "Contriever", values: [9.5, 22.1, 38.8, 75.4, 4.2, 34.2, 42.6, 70.3, 9.8, 36.6] },
  { model: "Llama-3.1-8B", method: "SFT", values: [24.9, 38.5, 36.2, 88.0, 12.4, 35.2, 36.5, 87.5, 15.8, 35.7] },
  { model: "Llama-3.1-8B", method: "DPO", values: [7.6, 17.9, 24.8, 4.9, 2.1, 16.4, 34.8, 4.2, 6.4, 23.1] },
  { model: "Llama-3.1-8B", method: "SFT+DPO", values: [27.6, 42.7, 49.1, 98.6, 14.5, 44.8, 48.1, 98.1, 18.4, 44.6] },
  { model: "Mistral-7B", method: "0-shot", values: [8.6, 19.1, 20.9, 0.0, 1.5, 13.3, 30.5, 0.0, 3.8, 19.5] },
  { model: "Mistral-7B", method: "3-shot", values: [10.3, 21.6, 28.6, 6.3, 3.5, 19.1, 36.2, 5.6, 7.6, 24.2] },
  { model: "Mistral-7B", method: "BM25", values: [7.3, 18.0, 41.0, 8.6, 4.9, 27.3, 43.7, 6.3, 9.0, 29.2] },
  { model: "Mistral-7B", method: "Contriever", values: [7.5, 18.5, 48.8, 7.9, 7.4, 32.4, 51.6, 5.9, 13.6, 34.7] },
  { model: "Mistral-7B", method: "SFT", values: [32.1, 46.0, 27.6, 99.8, 15.1, 31.6, 31.2, 99.8, 19.7, 34.4] },
  { model: "Mistral-7B", method: "DPO", values: [8.4, 16.9, 8.2, 2.2, 0.2, 5.4, 6.4, 1.4, 0.5, 4.2] },
  { model: "Mistral-7B", method: "SFT+DPO", values: [32.4, 46.7, 44.7, 99.7, 17.6, 42.6, 44.8, 99.8, 20.4, 43.0] },
  { model: "Qwen-2.5-7B", method: "0-shot", values: [8.1, 18.6, 26.6, 0.0, 3.0, 17, 34.6, 0.0, 6.1, 22.4] },
  { model: "Qwen-2.5-7B", method: "3-shot", values: [12.5, 24.2, 24.6, 29.8, 2.1, 19.4, 32.6, 28.7, 4.8, 24.6] },
  { model: "Qwen-2.5-7B", method: "BM25", values: [7.5, 18.1, 30.6, 0.4, 3.0, 19.6, 37.7, 0.1, 6.8, 24.4] },
  { model: "Qwen-2.5-7B", method: "Contriever", values: [7.6, 18.4, 33.6, 0.2, 3.4, 21.5, 39.6, 0.1, 7.4, 25.7] },
  { model: "Qwen-2.5-7B", method: "SFT", values: [32.1, 45.8, 35.7, 99.7, 25.4, 37.9, 38.3, 99.8, 33.3, 40.6] },
  { model: "Qwen-2.5-7B", method: "DPO", values: [4.4, 12.7, 36.6, 0.0, 8.8, 24.0, 38.0, 0.0, 12.4, 25.3] },
  { model: "Qwen-2.5-7B", method: "SFT+DPO", values: [31.8, 45.3, 43.1, 99.8, 34.0, 43.6, 43.2, 99.9, 38.1, 44.2] },
];

const HICUPID_TABLE4: PublishedRow[] = [
  { model: "GPT-4o-mini", method: "0-shot", values: [8.2, 19.7, 42.0, 9.2, 4.9, 28.0, 45.5, 8.8, 11.9, 31.0] },
  { model: "GPT-4o-mini", method: "3-shot", values: [16.1, 29.9, 40.7, 76.2, 5.1, 35.6, 43.7, 75.2, 11.6, 38.1] },
  { model: "Llama-3.1-8B", method: "0-shot", values: [8.2, 19.3, 38.6, 13.9, 3.2, 26.2, 40.6, 9.8, 8.7, 27.7] },
  { model: "Llama-3.1-8B", method: "3-shot", values: [16.3, 29.6, 39.3, 49.2, 7.5, 31.6, 39.8, 47.8, 14.1, 32.6] },
  { model: "Llama-3.1-8B", method: "BM25", values: [9.4, 22.1, 29.9, 84.0, 2.7, 29.6, 35.0, 78.0, 7.0, 32.5] },
  { model: "Llama-3.1-8B", method: "Contriever", values: [9.5, 22.2, 37.9, 77.4, 4.5, 33.9, 43.1, 71.8, 9.1, 37.1] },
  { model: "Llama-3.1-8B", method: "SFT", values: [24.9, 38.4, 34.4, 88.4, 12.0, 34.0, 34.8, 87.5, 14.4, 34.5] },
  { model: "Llama-3.1-8B", method: "DPO", values: [7.5, 18.0, 25.1, 5.8, 2.4, 16.7, 35.1, 5.1, 6.3, 23.4] },
  { model: "Llama-3.1-8B", method: "SFT+DPO", values: [27.5, 42.6, 47.1, 98.7, 18.6, 44.1, 47.0, 98.1, 22.4, 44.4] },
  { model: "Mistral-7B", method: "0-shot", values: [8.6, 19.1, 21.8, 0.0, 1.8, 13.8, 30.8, 0.0, 5.0, 19.9] },
  { model: "Mistral-7B", method: "3-shot", values: [10.3, 21.5, 28.9, 8.0, 3.8, 19.5, 36.6, 6.6, 8.2, 24.7] },
  { model: "Mistral-7B", method: "BM25", values: [7.3, 18.1, 40.6, 8.2, 5.9, 27.1, 43.6, 5.9, 10.4, 29.3] },
  { model: "Mistral-7B", method: "Contriever", values: [7.5, 18.5, 48.6, 8.6, 8.4, 32.5, 50.9, 6.4, 15.1, 34.5] },
  { model: "Mistral-7B", method: "SFT", values: [32.1, 45.5, 27.6, 99.9, 13.3, 31.4, 31.5, 100.0, 18.1, 34.4] },
  { model: "Mistral-7B", method: "DPO", values: [8.3, 16.8, 8.1, 2.0, 0.3, 5.3, 6.5, 1.4, 0.6, 4.3] },
  { model: "Mistral-7B", method: "SFT+DPO", values: [32.0, 46.2, 43.2, 99.9, 17.8, 41.7, 43.6, 99.9, 22.5, 42.5] },
  { model: "Qwen-2.5-7B", method: "0-shot", values: [8.1, 18.6, 27.8, 0.0, 2.5, 17.7, 34.9, 0.0, 6.4, 22.6] },
  { model: "Qwen-2.5-7B", method: "3-shot", values: [12.5, 23.9, 25.1, 27.3, 2.1, 19.4, 33.4, 25.4, 6.2, 24.8] },
  { model: "Qwen-2.5-7B", method: "BM25", values: [7.5, 18.1, 31.1, 0.4, 3.1, 19.9, 38.1, 0.2, 7.8, 24.8] },
  { model: "Qwen-2.5-7B", method: "Contriever", values: [7.6, 18.3, 34.0, 0.4, 4.0, 21.8, 40.8, 0.1, 8.1, 26.5] },
  { model: "Qwen-2.5-7B", method: "SFT", values: [32.1, 45.6, 34.2, 99.9, 24.9, 37.0, 38.3, 99.9, 30.8, 40.3] },
  { model: "Qwen-2.5-7B", method: "DPO", values: [4.3, 12.6, 37.0, 0.2, 8.8, 24.3, 39.0, 0.1, 12.6, 26.0] },
  { model: "Qwen-2.5-7B", method: "SFT+DPO", values: [31.6, 44.9, 41.9, 99.8, 33.9, 42.9, 42.9, 99.8, 37.8, 44.0] },
];

/** Mem-PAL Table 10 (Appendix D, the DeepSeek-V3.1 supplement; mean of 3 runs): method → G-Score, S-Score. */
const MEM_PAL_TABLE10: PublishedRow[] = [
  { method: "vanilla", values: [25.61, 22.48] },
  { method: "vanilla-log", values: [39.91, 25.46] },
  { method: "recursum", values: [33.96, 34.48] },
  { method: "conditionmem", values: [38.94, 29.98] },
  { method: "memorybank", values: [40.73, 36.92] },
  { method: "h2memory", values: [49.77, 40.4] },
];

/** HiCUPID Table A2 (Appendix A9): retriever, unit, k → persona, schedule, multi-info persona, multi-info profile, total hit (%). */
export type RetrievalRow = { retriever: "BM25" | "Contriever"; unit: "dialogue" | "utterance"; k: number; values: number[] };
const A2_SETTINGS: Array<[RetrievalRow["unit"], number]> = [
  ["dialogue", 1],
  ["dialogue", 3],
  ["dialogue", 5],
  ["utterance", 5],
  ["utterance", 15],
  ["utterance", 25],
];
// Each line of the paper's table: BM25's five values, then Contriever's.
const A2_LINES = [
  [42.4, 93.3, 34.5, 8.6, 52.5, 64.3, 40.3, 42.8, 22.1, 54.3],
  [58.0, 99.7, 49.2, 19.4, 65.4, 80.6, 79.9, 59.7, 45.0, 76.9],
  [65.4, 100.0, 57.1, 27.1, 71.1, 86.0, 94.1, 66.8, 59.6, 85.2],
  [50.0, 99.6, 38.0, 23.0, 60.0, 82.1, 91.2, 65.4, 29.1, 80.0],
  [72.7, 100.0, 63.8, 46.4, 77.3, 92.6, 100.0, 79.2, 48.4, 90.8],
  [83.6, 100.0, 78.8, 63.9, 86.1, 96.0, 100.0, 85.0, 59.4, 94.0],
];
const HICUPID_TABLE_A2: RetrievalRow[] = (["BM25", "Contriever"] as const).flatMap((retriever, r) =>
  A2_SETTINGS.map(([unit, k], i) => ({ retriever, unit, k, values: A2_LINES[i].slice(r * 5, r * 5 + 5) })),
);

/** The published row name of a Table A2 setting ("BM25, utterance, k = 5"). */
export const a2Key = (retriever: string, unit: string, k: number) => `${retriever}, ${unit}, k = ${k}`;

/**
 * Mem-PAL Table 11 (Appendix D): the Evaluation-LLM and two students (by vote) on 80 sampled topics,
 * H2Memory vs Vanilla (with log); W / T / L per dimension. The kappas are from the paragraph after the
 * table (Fleiss, items both call a tie dropped).
 */
export const MEM_PAL_TABLE11 = {
  source: "Mem-PAL, Table 11",
  setup:
    "80 sampled topics, H2Memory vs Vanilla (with log); Evaluation-LLM: GPT-4-turbo-2024-04-09, six judgments (FairEval); Human: two students, by vote",
  systems: { A: "h2memory", B: "vanilla-log" },
  items: 80,
  dimensions: {
    requirement: { judge: { Win: 45, Tie: 4, Lose: 31 }, human: { Win: 31, Tie: 26, Lose: 23 }, fleissKappa: 0.54 },
    preference: { judge: { Win: 44, Tie: 1, Lose: 35 }, human: { Win: 41, Tie: 11, Lose: 28 }, fleissKappa: 0.62 },
  } as Record<string, { judge: Wtl; human: Wtl; fleissKappa: number }>,
};
type Wtl = { Win: number; Tie: number; Lose: number };

export const PUBLISHED = {
  memPalTable2: {
    source: "Mem-PAL, Table 2",
    setup: "Qwen-Max-0428 assistant, paraphrase-multilingual-mpnet-base-v2 retriever (k = 3), G-Score by GPT-4o",
    /** The query topics of the paper's test set (the n its rows are means over; Table 3's W + T + L). */
    topics: 826,
    rows: MEM_PAL_TABLE2,
  },
  memPalTable3: {
    source: "Mem-PAL, Table 3",
    setup: "H2Memory vs each baseline over the 826 query topics, judged by GPT-4-turbo (FairEval, six judgments)",
    rows: MEM_PAL_TABLE3,
  },
  memPalTable10: {
    source: "Mem-PAL, Table 10",
    setup: "DeepSeek-V3.1 assistant, bge-base-zh retriever, mean of 3 runs",
    rows: MEM_PAL_TABLE10,
  },
  hicupidTableA2: {
    source: "HiCUPID, Table A2",
    setup: "retrieval over each user's whole dialogue history, the question as the query; the test set is not named",
    rows: HICUPID_TABLE_A2.map((r) => ({ method: a2Key(r.retriever, r.unit, r.k), values: r.values })),
  },
  hicupidTable3: { source: "HiCUPID, Table 3", setup: "Test Set 1 (seen users, unseen QA pairs)", rows: HICUPID_TABLE3 },
  hicupidTable4: { source: "HiCUPID, Table 4", setup: "Test Set 2 (unseen users, unseen QA pairs)", rows: HICUPID_TABLE4 },
} satisfies Record<string, PublishedTable>;

/** HiCUPID's four models (Tables 3-4). */
export const HICUPID_MODELS = ["GPT-4o-mini", "Llama-3.1-8B", "Mistral-7B", "Qwen-2.5-7B"] as const;
