/**
 * What a judge is: one complete unit (prompt, model calls, reply parsing, verdict, version) that both
 * front ends use through lib/judges/registry.ts: the experiments' tasks (lib/tasks, verdict → score row)
 * and campaign judging (lib/annotation/llm-judge, verdict → judge label). A front end only turns its item
 * into the judge's input, binds the model (configuration, temperature, ledger origin) and stores the verdict.
 */
import type { ZodType } from "zod";
import type { ChatMessage, Lang } from "@/lib/llm/types";

/**
 * The judges' temperature when the experiment or judge run sets none: 0, as the public code calls its judges
 * (Mem-PAL's llm_generation.py sends GPT requests at temperature 0, HiCUPID Figure A15 evaluates with τ = 0).
 * FairEval's six calls per pair stay six separate requests at 0 (docs/protocol.md, "Judge calls").
 */
export const JUDGE_TEMPERATURE = 0;

/** One call a judge makes. */
export type JudgeRequest = { purpose: string; messages: ChatMessage[]; replicate: number; language?: Lang };
export type JudgeReply<T> = { value: T; raw: string };

/**
 * The judge role of the model client as a judge sees it, bound by the front end to a configuration and
 * temperature. A reply is validated (schema) or parsed (parse) and asked again with what was wrong; a call
 * that never gives a usable reply throws ModelCallError (the front end records it).
 */
export interface JudgeModel {
  json<T>(req: JudgeRequest & { schema: ZodType<T> }): Promise<JudgeReply<T>>;
  text<T>(req: JudgeRequest & { parse: (text: string) => T }): Promise<JudgeReply<T>>;
}

/** Where a verdict's calls go: the bound model, the run's replicate index, the ledger purpose's stem. */
export type JudgeBinding = {
  model: JudgeModel;
  /** The experiment replicate (0, 1, ...); a campaign's LLM judge run is replicate 0. */
  replicate: number;
  /**
   * The stem of the ledger purpose, chosen by the front end ("dialogue.judge", "campaign.judge.dialogue");
   * a judge that asks about one dimension or item type appends it ("dialogue.judge.requirement").
   */
  purpose: string;
};

/** A judge as the registry lists it. */
export interface JudgeInfo {
  /** The registry key, also recorded with campaign judge runs. */
  name: string;
  label: string;
  /** Stored with every score row / verdict: a changed prompt or parser gets a new version. */
  version: number;
  /** Model calls one verdict takes (dry runs and estimates). */
  calls: number;
}

export interface Judge<I, V> extends JudgeInfo {
  verdict(at: JudgeBinding, input: I): Promise<V>;
}

/**
 * THE replicate rule (docs/protocol.md, "Judge calls"): call k (0-based) of a verdict that takes n calls,
 * made for run replicate r, uses replicate index r·n + k. The n calls of one verdict are separately
 * sampled (distinct cache keys, none a cached copy of another) and no two run replicates share a call.
 * A single-call judge uses r; a campaign judge run (r = 0) uses 0..n−1.
 */
export function callReplicate(replicate: number, calls: number, k: number): number {
  return replicate * calls + k;
}

/** How a one-call judge asks: the prompt, the reply's schema or parser, and what it adds to the purpose. */
export type OneCall<I, T> = {
  messages(input: I): ChatMessage[];
  /** Appended to the binding's purpose stem (a dimension, an item type). */
  purposePart?(input: I): string;
  /** The language the reply must be in. */
  language?(input: I): Lang;
} & ({ schema: ZodType<T> } | { parse: (text: string, input: I) => T });

/** A judge whose verdict is one call's reply (G-Score, HiCUPID A/B and schedule, rating). */
export function oneCallJudge<I, T, V>(
  info: Omit<JudgeInfo, "calls">,
  call: OneCall<I, T>,
  toVerdict: (reply: JudgeReply<T>, input: I) => V,
): Judge<I, V> {
  return {
    ...info,
    calls: 1,
    async verdict(at, input) {
      const req: JudgeRequest = {
        purpose: call.purposePart ? `${at.purpose}.${call.purposePart(input)}` : at.purpose,
        messages: call.messages(input),
        replicate: callReplicate(at.replicate, 1, 0),
        language: call.language?.(input),
      };
      const reply =
        "schema" in call
          ? await at.model.json({ ...req, schema: call.schema })
          : await at.model.text({ ...req, parse: (text) => call.parse(text, input) });
      return toVerdict(reply, input);
    },
  };
}
