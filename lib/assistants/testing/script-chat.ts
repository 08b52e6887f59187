/**
 * For unit tests of the build steps: a ChatFn that answers from a function of (purpose, prompt),
 * validates the answer with the call's schema like the model client does, and records every call.
 * End-to-end tests go through the real model client and test/fake-openai.ts instead.
 */
import type { ChatCall, ChatFn } from "../baseline-types";

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
    return c.schema.parse(answer(c.purpose, user));
  };
  return { chat, calls };
}
