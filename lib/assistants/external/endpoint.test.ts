import { describe, expect, it, vi } from "vitest";
import { openGrant, type GrantModel } from "./endpoint";
import { withExternalRun } from "./run-scope";

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
    // json_object asks the model for a JSON object: the handle gets a schema that takes an object, not any JSON.
    await post("/chat/completions", { messages: [{ role: "user", content: "json" }], response_format: { type: "json_object" } });
    const schema = (seen[1] as { schema?: { safeParse(v: unknown): { success: boolean } } }).schema!;
    expect([schema.safeParse({ a: 1 }).success, schema.safeParse([1]).success, schema.safeParse("x").success]).toEqual([
      true,
      false,
      false,
    ]);
    seen.pop();
    expect((await post("/chat/completions", { messages: [] })).status).toBe(400);
    expect((await post("/chat/completions", { messages: [{ role: "user", content: "x" }], stream: true })).status).toBe(400);
    expect((await post("/chat/completions", { messages: [{ role: "user", content: "x" }] }, "pal-run-guess")).status).toBe(401);
    g.close();
    expect((await post("/chat/completions", { messages: [{ role: "user", content: "x" }] })).status).toBe(401);
    expect(seen).toHaveLength(1);
    vi.unstubAllEnvs();
  });

  it("inside a run: a key outlives its request until the run stops; a late call goes to the one request of that user in flight, else the run", async () => {
    const seen: string[] = [];
    const model = (who: string): GrantModel => ({
      chat: async () => (seen.push(who), { text: who, cacheKey: `k-${who}`, usage }),
      embed: async (texts) => (seen.push(who), texts.map(() => [1])),
    });
    const call = (g: { access: { baseUrl: string; apiKey: string } }) =>
      fetch(g.access.baseUrl + "/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${g.access.apiKey}` },
        body: JSON.stringify({ messages: [{ role: "user", content: "late" }] }),
      }).then((r) => r.status);
    let stopped = false;
    let kept: Awaited<ReturnType<typeof openGrant>> | null = null;
    await withExternalRun({ id: "run 1", model: model("run"), stopped: () => stopped }, async () => {
      const a = await openGrant(model("job-a"), "mine", "u1");
      expect(await call(a)).toBe(200);
      a.close();
      // Answered, nothing of u1 in flight: the run's own handle.
      expect(await call(a)).toBe(200);
      const b = await openGrant(model("job-b"), "mine", "u1");
      const other = await openGrant(model("job-c"), "mine", "u2");
      // Answered, one request of u1 in flight: that job's handle (not u2's), without counting in its entries' calls.
      expect(await call(a)).toBe(200);
      expect(b.grant.calls).toBe(0);
      const b2 = await openGrant(model("job-b2"), "mine", "u1");
      // Two of u1 in flight: which one caused it is not known, so the run.
      expect(await call(a)).toBe(200);
      for (const g of [b, other, b2]) g.close();
      kept = a;
      // Paused or cancelled from outside: refused (the answer is read at most every 200 ms).
      stopped = true;
      await new Promise((r) => setTimeout(r, 250));
      expect(await call(a)).toBe(401);
      stopped = false;
    });
    expect(seen).toEqual(["job-a", "run", "job-b", "run"]);
    // The run returned: refused.
    expect(await call(kept!)).toBe(401);
    expect(seen).toHaveLength(4);
  });
});
