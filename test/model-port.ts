/**
 * TEST ADAPTER: a ModelPort for tests of the experiments engine, over the real `openai` client talking to
 * test/fake-openai.ts. It validates and retries like the port's contract says but has no cache or ledger:
 * the production binding is lib/llm's client (lib/jobs/bind.ts). Never used by the app.
 */
import OpenAI from "openai";
import type { BoundModel } from "@/lib/jobs/worker";
import type { ChatRequest } from "@/lib/tasks/ports";
import type { AssistantPort } from "@/lib/tasks/ports";

export function testModelPort(baseURL: string): () => BoundModel {
  const client = new OpenAI({ baseURL, apiKey: "test", maxRetries: 0 });
  return () => {
    let calls = 0;
    let promptTokens = 0;
    let completionTokens = 0;
    async function ask<T>(req: ChatRequest, parse: (text: string) => T) {
      let last = "";
      for (let attempt = 1; attempt <= 3; attempt++) {
        const r = await client.chat.completions.create({
          model: `${req.role}-model`,
          messages: req.messages,
          temperature: req.temperature ?? 0,
          seed: req.replicate ?? 0,
        });
        calls++;
        promptTokens += r.usage?.prompt_tokens ?? 0;
        completionTokens += r.usage?.completion_tokens ?? 0;
        const raw = r.choices[0]?.message?.content ?? "";
        try {
          return { value: parse(raw), raw };
        } catch (e) {
          last = e instanceof Error ? e.message : String(e);
        }
      }
      throw new Error(`${req.purpose}: no valid reply after 3 attempts (${last})`);
    }
    return {
      chatJson: (req) => ask(req, (t) => req.schema.parse(JSON.parse(t))),
      chatText: (req) => ask(req, req.parse),
      usage: () => ({ calls, cacheHits: 0, promptTokens, completionTokens }),
    };
  };
}

/** A memory port that shows a fixed text per method (the tests check what reaches the prompt). */
export function fixedMemory(method: string, text: string): AssistantPort {
  return { method, memory: async () => ({ text, retrieved: [{ kind: "note", content: text }] }) };
}
