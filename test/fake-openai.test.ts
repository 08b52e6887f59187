import { afterEach, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai";

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const client = (f: FakeOpenAI, extra: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
  new OpenAI({ baseURL: f.baseURL, apiKey: "test-key", maxRetries: 0, ...extra });

describe("fake OpenAI-compatible server (test double)", () => {
  it("answers chat completions with scripted replies, then the responder, through the real client", async () => {
    fake = await startFakeOpenAI({ respond: (req) => `model=${req.model}` });
    fake.enqueue('{"requirement": "a quiet weekend"}', { content: "second", promptTokens: 7, completionTokens: 3 });
    const c = client(fake);
    const msg = (content: string) => ({ model: "m1", messages: [{ role: "user" as const, content }] });
    const a = await c.chat.completions.create(msg("hi"));
    const b = await c.chat.completions.create(msg("again"));
    const d = await c.chat.completions.create({ ...msg("third"), temperature: 0.7, seed: 3 });
    expect(a.choices[0].message.content).toBe('{"requirement": "a quiet weekend"}');
    expect(b.choices[0].message.content).toBe("second");
    expect(b.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect(d.choices[0].message.content).toBe("model=m1");
    expect(fake.chatRequests).toHaveLength(3);
    expect(fake.chatRequests[2]).toMatchObject({ temperature: 0.7, seed: 3, messages: [{ role: "user", content: "third" }] });
  });

  it("returns deterministic unit-length embeddings", async () => {
    fake = await startFakeOpenAI({ dimensions: 8 });
    const r = await client(fake).embeddings.create({ model: "e", input: ["alpha", "beta", "alpha"] });
    expect(r.data).toHaveLength(3);
    expect(r.data[0].embedding).toHaveLength(8);
    expect(r.data[0].embedding).toEqual(r.data[2].embedding);
    expect(r.data[0].embedding).not.toEqual(r.data[1].embedding);
    expect(Math.hypot(...r.data[1].embedding)).toBeCloseTo(1, 5);
  });

  it("injects 429 with Retry-After and 500, which the client surfaces as API errors", async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ kind: "status", status: 429, retryAfterSeconds: 2 }, { kind: "status", status: 500 });
    const c = client(fake);
    const req = { model: "m", messages: [{ role: "user" as const, content: "x" }] };
    const e1 = await c.chat.completions.create(req).catch((e) => e);
    expect(e1).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e1.headers.get("retry-after")).toBe("2");
    const e2 = await c.chat.completions.create(req).catch((e) => e);
    expect(e2).toBeInstanceOf(OpenAI.InternalServerError);
    // the client's own retry reaches the scripted reply after a fault
    fake.enqueue({ kind: "status", status: 500 }, "recovered");
    const ok = await client(fake, { maxRetries: 1 }).chat.completions.create(req);
    expect(ok.choices[0].message.content).toBe("recovered");
  });

  it("injects a hang (client timeout), a dropped connection and a malformed body", async () => {
    fake = await startFakeOpenAI();
    const req = { model: "m", messages: [{ role: "user" as const, content: "x" }] };
    fake.enqueue({ kind: "hang" });
    const t = await client(fake, { timeout: 300 })
      .chat.completions.create(req)
      .catch((e) => e);
    expect(t).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    fake.enqueue({ kind: "drop" });
    const d = await client(fake)
      .chat.completions.create(req)
      .catch((e) => e);
    expect(d).toBeInstanceOf(OpenAI.APIConnectionError);
    fake.enqueue({ kind: "malformed" });
    const m = await client(fake)
      .chat.completions.create(req)
      .catch((e) => e);
    expect(m).toBeInstanceOf(Error);
    expect(fake.chatRequests).toHaveLength(3);
  });

  it("adds a fixed latency and a per-request fault hook", async () => {
    fake = await startFakeOpenAI({ latencyMs: 120, fault: (_r, i) => (i === 0 ? { kind: "status", status: 503 } : undefined) });
    const c = client(fake);
    const req = { model: "m", messages: [{ role: "user" as const, content: "slow" }] };
    await expect(c.chat.completions.create(req)).rejects.toBeInstanceOf(OpenAI.APIError);
    const t0 = Date.now();
    const r = await c.chat.completions.create(req);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    expect(r.choices[0].message.content).toBe("echo: slow");
  });
});
