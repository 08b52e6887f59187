/**
 * The judges' view of the one model client: every call carries the judge run as its ledger origin, uses the
 * run's model configuration and temperature, and goes through the client's cache, retries and validation.
 */
import type { ZodType } from "zod";
import { ModelCallError, type ModelClient } from "@/lib/llm";
import { correctionMessage } from "@/lib/llm/correction";
import type { ChatMessage, Lang } from "@/lib/judges/types";

export type JudgeCall = { purpose: string; messages: ChatMessage[]; replicate?: number; language?: Lang };

export interface JudgeModel {
  json<T>(call: JudgeCall & { schema: ZodType<T> }): Promise<{ value: T; raw: string }>;
  text<T>(call: JudgeCall & { parse: (text: string) => T }): Promise<{ value: T; raw: string }>;
}

/** Asks for a free-text reply parsed by `parse`: a rejected reply is asked again with the reason, up to 3 tries. */
const TEXT_TRIES = 3;

export function judgeModel(client: ModelClient, runId: number, modelConfig: string, temperature: number): JudgeModel {
  const llm = client.withOrigin({ judgeRunId: runId });
  const base = (c: JudgeCall) => ({
    role: "judge" as const,
    config: modelConfig,
    purpose: c.purpose,
    replicate: c.replicate ?? 0,
    language: c.language,
    params: { temperature },
  });
  return {
    async json(c) {
      const r = await llm.chat({ ...base(c), messages: c.messages, schema: c.schema });
      return { value: r.value, raw: r.text };
    },
    async text(c) {
      let messages = c.messages;
      let last = "";
      let raw: string | null = null;
      for (let round = 0; round < TEXT_TRIES; round++) {
        const r = await llm.chat<string>({ ...base(c), messages });
        try {
          return { value: c.parse(r.text), raw: r.text };
        } catch (e) {
          last = e instanceof Error ? e.message : String(e);
          raw = r.text;
          messages = [
            ...c.messages,
            { role: "assistant", content: r.text },
            { role: "user", content: correctionMessage(last, c.language, false) },
          ];
        }
      }
      throw new ModelCallError(`${c.purpose}: no parsable reply after ${TEXT_TRIES} tries (${last})`, c.purpose, raw, "invalid");
    },
  };
}
