import type { CampaignKindDef } from "./types";
import { output, str } from "./fields";
import { InvalidInputError } from "@/lib/errors";
import { brokenText } from "./attention";

/**
 * Human judgments of benchmark answers (LoCoMo, LongMemEval, any QA): each answer read beside its question
 * and reference, judged correct, partly correct or wrong. The upload takes the lines of
 * `pal export experiment ID --items` as they are: `item` (or `id`), `question`, `reference`, `output`; the
 * method, task and scores on those lines are dropped, never stored or shown (annotators stay blind). Or straight
 * from an experiment's LoCoMo / LongMemEval answers of one method (lib/annotation/experiment-items.ts).
 */
export const answerCorrectness: CampaignKindDef = {
  kind: "answer-correctness",
  label: "Answer correctness",
  annotatorTitle: "Check answers against a reference",
  description: "Answers to benchmark questions, each judged correct, partly correct or wrong against the reference.",
  pairwise: false,
  // LongMemEval's yes/no judge (plain template): yes → correct, no → wrong.
  llmJudge: "longmemeval",
  sources: ["upload", "experiment"],
  dimensions: [
    {
      key: "correctness",
      title: "Correctness",
      question: "Does the answer give what the reference says (equivalent wording counts)?",
      scale: "ordinal",
      categories: [
        { value: "wrong", label: "Wrong" },
        { value: "partly", label: "Partly correct" },
        { value: "correct", label: "Correct" },
      ],
    },
  ],
  keys: [
    { key: "1", shown: "wrong", label: "wrong", asksComment: true },
    { key: "2", shown: "partly", label: "partly correct" },
    { key: "3", shown: "correct", label: "correct" },
  ],
  uploadExample: '{"item": "conv-26#3", "question": "...", "reference": "...", "output": "..."}',
  parseUpload(obj, where) {
    const id = obj.item !== undefined ? str(obj, "item", where)! : str(obj, "id", where)!;
    const question = str(obj, "question", where)!;
    const ref = obj.reference;
    if (ref === undefined || ref === null) throw new InvalidInputError(`${where}: field "reference" is missing`);
    const reference = typeof ref === "string" || typeof ref === "number" ? String(ref) : JSON.stringify(ref);
    if (typeof obj.output !== "string") throw new InvalidInputError(`${where}: field "output" must be the answer text`);
    // Only what the annotator needs: no method, task or scores (they would unblind the judgment).
    return { externalId: id, content: { context: { question, reference }, output: output(obj.output, "output", where) } };
  },
  // The answer replaced by word salad of the question, none of the reference's words in it: "wrong".
  attentionCheck: (item, _n, rng) => {
    const ctx = item.content.context as { question: string; reference: string };
    return {
      check: "broken-reply",
      content: { ...item.content, output: brokenText(ctx.question, rng, ctx.reference) },
      gold: { correctness: "wrong" },
    };
  },
  defaultTieRule: "adjudicate",
  defaultGuidelines:
    "Read the question, the reference answer and the assistant's answer. Press **3** when the answer gives what the reference says (other words are fine), **2** when it gives part of it or hedges between the right and a wrong answer, **1** when it is wrong or missing (add a comment). For a question the reference calls unanswerable, an answer that says so is correct.",
};
