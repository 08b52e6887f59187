import { describe, expect, it, vi } from "vitest";
import { openGrant, type GrantModel } from "./endpoint";

const usage = { promptTokens: 3, completionTokens: 2, cachedTokens: 0, reasoningTokens: 0 };

describe("the run's model endpoint for external methods", () => {
  it("listens where PAL_METHOD_ENDPOINT says, serves chat and embeddings with the request's key only, refuses it once closed", async () => {
    vi.stubEnv("PAL_METHOD_ENDPOINT", "http://127.0.0.1:3165");
    const seen: unknown[] = [];
    const model: GrantModel = {
      chat: async (o) => (seen.push(o), { text: "hello", cacheKey: "k1", usage }),
      embed: async (texts) => texts.map(() => [1, 0]),
    };
    const g = await openGrant(model, "mine");
    expect(g.access.baseUrl).toBe("http://127.0.0.1:3165/v1");
    const post = (path: string, body: unknown, key = g.access.apiKey) =>
      fetch(g.access.baseUrl + path, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    const chat = await post("/chat/completions", { model: "assistant", messages: [{ role: "user", content: "hi" }], temperature: 0.2 });
    expect(chat.status).toBe(200);
    expect(await chat.json()).toMatchObject({
      choices: [{ message: { role: "assistant", content: "hello" } }],
      usage: { total_tokens: 5 },
    });
    // Only what the method sends overrides the role's parameters; the purpose names the method.
    expect(seen[0]).toMatchObject({ purpose: "mine.llm", params: { temperature: 0.2 }, messages: [{ role: "user", content: "hi" }] });
    const emb = await post("/embeddings", { input: ["a", "b"] });
    expect((await emb.json()).data.map((d: { index: number }) => d.index)).toEqual([0, 1]);
    expect(g.grant.calls).toBe(2);
    expect(g.grant.callKeys).toEqual(["k1"]);
    expect((await post("/chat/completions", { messages: [] })).status).toBe(400);
    expect((await post("/chat/completions", { messages: [{ role: "user", content: "x" }], stream: true })).status).toBe(400);
    expect((await post("/chat/completions", { messages: [{ role: "user", content: "x" }] }, "pal-run-guess")).status).toBe(401);
    g.close();
    expect((await post("/chat/completions", { messages: [{ role: "user", content: "x" }] })).status).toBe(401);
    expect(seen).toHaveLength(1);
    vi.unstubAllEnvs();
  });
});
