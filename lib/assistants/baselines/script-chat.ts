/**
 * For unit tests of the build steps: a ChatFn that answers from a function of (purpose, prompt),
 * validates the answer with the call's schema like the model client does, and records every call.
 * Its call key stands in for the client's cache key: derived from the request alone, like the real one.
 * End-to-end tests go through the real model client and test/fake-openai.ts instead.
 */
import { createHash } from "node:crypto";
import type { BaselineSession, ChatCall, ChatFn } from "./types";

export type RecordedCall = { purpose: string; system: string; user: string };

export function scriptChat(answer: (purpose: string, user: string) => unknown): { chat: ChatFn; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const chat: ChatFn = async <T>(c: ChatCall<T>) => {
    const system = c.messages.find((m) => m.role === "system")?.content ?? "";
    const user = c.messages
      .filter((m) => m.role === "user")
      .map((m) => m.content)
      .join("\n");
    calls.push({ purpose: c.purpose, system, user });
    await Promise.resolve();
    const callKey = `${c.purpose}:${createHash("sha256").update(JSON.stringify(c.messages)).digest("hex").slice(0, 12)}`;
    return { value: c.schema.parse(answer(c.purpose, user)), callKey };
  };
  return { chat, calls };
}

const DAY = 86_400_000;

/** A baseline session for the build-step tests: one week apart, logs on the first days of January 2024. */
export const testSession = (seq: number, turns: [string, string][], logs: string[] = []): BaselineSession => ({
  seq,
  sampleKey: `u_sample${seq}`,
  at: Date.UTC(2024, 0, 1) + seq * 7 * DAY,
  date: `2024-01-${String(1 + seq * 7).padStart(2, "0")} 20:00:00`,
  logs: logs.map((content, i) => ({ timestamp: `2024-01-0${1 + i} 09:00`, content })),
  turns: turns.map(([user, assistant]) => ({ user, assistant })),
});
