/**
 * Task 2, solution proposal. Generation: the full requirement in, {"solution"} out, BLEU-1..4 against each
 * positive solution with the maximum kept. Selection: requirement + the 8 candidates with ids in,
 * {"analysis", "selected_solutions"} out; exactly 2 valid distinct ids, else the answer is regenerated
 * (telling the model why) up to `selectionAttempts`; after that the item is recorded as invalid (it
 * counts 0 in the Selection Score), never guessed. +1 per positive, −1 per negative, 0 neutral.
 */
import { memPalBleu, selectionItemScore, selectionScore, type Feedback } from "@/lib/metrics";
import { selectionMessages, selectionOutput, selectionRetryNote, solutionMessages, solutionOutput } from "./prompts";
import { describePalItem, listQueryTopics, loadPalItem } from "./palset-items";
import { BLEU_VERSION } from "./requirement";
import { mean, type ScoreRow, type TaskDef } from "./types";

export const SELECTION_VERSION = 1;

export const solutionTask: TaskDef = {
  name: "solution",
  label: "Solution proposal (Task 2: generation + selection)",
  datasetKind: "palset",
  items: listQueryTopics,
  describe: describePalItem,
  estimate: () => ({ assistant: 2, "user-simulator": 0, judge: 0, promptTokens: 2000, completionTokens: 200 }),
  async run(ctx, item) {
    const it = loadPalItem(ctx.db, ctx.datasetId, item.itemKey);
    const assistant = await ctx.assistant(it.userKey, it.sessionSeq);
    const memory = await assistant.memory(it.requirement, "solution");
    const gen = await ctx.model.chatJson({
      role: "assistant",
      purpose: "solution.generate",
      messages: solutionMessages({ memory: memory.text, requirement: it.requirement }, ctx.lang),
      schema: solutionOutput,
      replicate: ctx.replicate,
    });
    const [b1, b2, b3, b4] = memPalBleu(it.solutions.pos, gen.value.solution);

    const shown = it.candidates.map(({ id, solution }) => ({ id, solution }));
    const labels: Record<string, Feedback> = Object.fromEntries(it.candidates.map((c) => [c.id, c.feedback]));
    const base = selectionMessages({ memory: memory.text, requirement: it.requirement, candidates: shown }, ctx.lang);
    const attempts: Array<{ selected: unknown; reason?: string }> = [];
    let messages = base;
    let picked: { selected: string[]; analysis: string; score: number } | null = null;
    for (let a = 0; a < ctx.config.selectionAttempts && !picked; a++) {
      const sel = await ctx.model.chatJson({ role: "assistant", purpose: "solution.select", messages, schema: selectionOutput, replicate: ctx.replicate });
      const ids = sel.value.selected_solutions.map(String);
      const s = selectionItemScore(ids, labels);
      if (s.score === null) {
        attempts.push({ selected: ids, reason: s.reason });
        // The reason goes into the next request: a different prompt, so a fresh (paid) answer, not the cached one.
        messages = [...base, { role: "assistant", content: sel.raw }, { role: "user", content: selectionRetryNote(s.reason ?? "", ctx.lang) }];
      } else picked = { selected: ids, analysis: sel.value.analysis, score: s.score };
    }
    const scores: ScoreRow[] = [
      {
        scorer: "bleu",
        version: BLEU_VERSION,
        values: { bleu1: b1 * 100, bleu2: b2 * 100, bleu3: b3 * 100, bleu4: b4 * 100 },
        detail: { references: it.solutions.pos },
      },
      {
        scorer: "selection",
        version: SELECTION_VERSION,
        values: { selection: picked ? picked.score : null },
        detail: { candidates: it.candidates, invalidAttempts: attempts, failed: picked ? undefined : "no valid selection within the attempt limit" },
      },
    ];
    return {
      input: { requirement: it.requirement, memory: memory.text, candidates: shown },
      output: { solution: gen.value.solution, selected_solutions: picked?.selected ?? null, analysis: picked?.analysis ?? null },
      retrieved: memory.retrieved,
      scores,
    };
  },
  metrics(items) {
    const out: Record<string, number | null> = {};
    for (const k of ["bleu1", "bleu2", "bleu3", "bleu4"]) out[k] = mean(items.map((s) => s.bleu?.[k]));
    out.selection = selectionScore(items.map((s) => (typeof s.selection?.selection === "number" ? s.selection.selection : null))).value;
    return out;
  },
};
