/**
 * LongMemEval's QA judge (xiaowu0162/LongMemEval src/evaluation/evaluate_qa.py, commit b11ff72; docs/metrics.md):
 * one user message per question, its template chosen by question type — the plain check for single-session-user,
 * single-session-assistant and multi-session; temporal-reasoning forgiving off-by-one counts of days (weeks,
 * months); knowledge-update accepting older information beside the updated answer; single-session-preference
 * judged against a rubric; abstention questions (`_abs` ids) on whether the response says the question cannot
 * be answered. Inputs as the public code's: the question, the reference (answer, rubric or explanation) and the
 * response. The verdict: correct when the reply contains "yes" in any case. Called at temperature 0 with at most
 * 10 output tokens (lib/llm/max-tokens.ts, purpose "longmemeval.judge"). The wording is this project's own.
 */
import type { ChatMessage } from "@/lib/llm/types";
import { oneCallJudge, type Judge } from "./judge";

export const LONGMEMEVAL_JUDGE_VERSION = 1;

export type LmeJudgeInput = { questionType: string; abstention: boolean; question: string; reference: string; response: string };
export type LmeJudgeVerdict = { correct: boolean; reply: string };

const CLOSE = "Reply with yes or no and nothing else.";
const BASE =
  "You check one answer of a chat assistant. Say yes if the response gives the correct answer below — stated outright, " +
  "or reached through steps that all appear in the response, or in words that mean the same. Say no if it gives only " +
  "part of what the correct answer needs, or something else.";

function instructions(i: LmeJudgeInput): { intro: string; refLabel: string; ask: string } {
  if (i.abstention)
    return {
      intro:
        "You check one answer of a chat assistant to a question that cannot be answered from what the user told it. " +
        "Say yes if the response recognises that it cannot answer — for example by saying the information is missing, " +
        "or that it knows something related but not what was asked. Say no otherwise.",
      refLabel: "Why it cannot be answered",
      ask: "Does the response recognise that the question cannot be answered?",
    };
  switch (i.questionType) {
    case "temporal-reasoning":
      return {
        intro: `${BASE} When the question asks how many days, weeks, months or similar, a count that is off by one from the correct one still counts as correct (say 19 days where the answer is 18).`,
        refLabel: "Correct answer",
        ask: "Is the response correct?",
      };
    case "knowledge-update":
      return {
        intro: `${BASE} The user's information changed over time: a response that also mentions earlier information is still correct as long as the answer it gives is the updated one below.`,
        refLabel: "Correct answer",
        ask: "Is the response correct?",
      };
    case "single-session-preference":
      return {
        intro:
          "You check whether a chat assistant's response is personalised the way the rubric below describes. Say yes if it " +
          "remembers the user's personal information and uses it correctly; it need not cover every point of the rubric. Say no otherwise.",
        refLabel: "Rubric",
        ask: "Does the response meet the rubric?",
      };
    case "single-session-user":
    case "single-session-assistant":
    case "multi-session":
      return { intro: BASE, refLabel: "Correct answer", ask: "Is the response correct?" };
    default:
      throw new Error(`LongMemEval judge: no template for question type "${i.questionType}"`);
  }
}

export function lmeJudgeMessages(i: LmeJudgeInput): ChatMessage[] {
  const t = instructions(i);
  const content = `${t.intro}\n\nQuestion: ${i.question}\n\n${t.refLabel}: ${i.reference}\n\nResponse: ${i.response}\n\n${t.ask} ${CLOSE}`;
  return [{ role: "user", content }];
}

/** The public decision: "yes" anywhere in the reply, any case. */
export const lmeYes = (reply: string) => reply.trim().toLowerCase().includes("yes");

export const longmemevalJudge: Judge<LmeJudgeInput, LmeJudgeVerdict> = oneCallJudge(
  { name: "longmemeval", label: "LongMemEval yes/no judge (per question type)", version: LONGMEMEVAL_JUDGE_VERSION },
  {
    messages: lmeJudgeMessages,
    purposePart: (i) => (i.abstention ? "abstention" : i.questionType),
    parse: (text: string) => text,
  },
  (reply) => ({ correct: lmeYes(reply.value), reply: reply.raw }),
);
