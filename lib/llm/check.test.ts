/**
 * `pal models check` (and Admin → Models' test button) against the test double: a chat role is asked
 * for a JSON object in its JSON mode, the embedding role embeds a pair of texts; what would fail a run
 * fails the check, and a served model other than the one asked is named.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from "@/test/fake-openai";
import { stubModelEnv } from "@/test/model-env";
import { checkModel } from "./check";

let fake: FakeOpenAI | undefined;
let t: ReturnType<typeof tempDb> | undefined;

async function setup(opts: FakeOpenAIOptions = {}, env: Record<string, string> = {}) {
  fake = await startFakeOpenAI(opts);
  t = tempDb();
  stubModelEnv(t.file, {
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "k",
    PAL_MODEL_ASSISTANT: "asked-model",
    PAL_MODEL_EMBEDDING: "embed-model",
    ...env,
  });
  return { fake, db: t.db };
}
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  t?.cleanup();
});

describe("checking a chat role", () => {
  it("asks for JSON in the role's mode (PAL_<ROLE>_JSON_MODE=json_schema) with a budget, and accepts a JSON object", async () => {
    const { fake, db } = await setup({ respond: () => '{"ok": true}' }, { PAL_ASSISTANT_JSON_MODE: "json_schema" });
    const c = await checkModel(db, "assistant");
    expect(c).toMatchObject({ status: "ok", servedModel: "asked-model" });
    expect(c.reply).toMatch(/^JSON mode json_schema: /);
    expect(c.notes).toBeUndefined();
    const req = fake.chatRequests[0];
    expect((req.response_format as { type: string }).type).toBe("json_schema");
    expect(req.max_tokens).toBe(256);
  });

  it("names the model the server says answered when it is not the one asked", async () => {
    const { db } = await setup({ respond: () => '{"ok": true}', servedModel: "qwen2-synthetic.gguf" });
    const c = await checkModel(db, "assistant");
    expect(c.status).toBe("ok");
    expect(c.notes).toEqual(['the server answered as model "qwen2-synthetic.gguf" (asked for "asked-model")']);
    expect(c.reply).toContain("qwen2-synthetic.gguf");
  });

  it("fails on a reply cut off at max_tokens, and on one that holds no JSON object", async () => {
    const { fake, db } = await setup();
    fake.enqueue({ content: '{"ok": tr', finishReason: "length" }, "OK");
    expect(await checkModel(db, "assistant")).toMatchObject({ status: "failed", error: expect.stringMatching(/cut off at max_tokens/) });
    expect(await checkModel(db, "assistant")).toMatchObject({
      status: "failed",
      error: 'asked for a JSON object (JSON mode off), it answered "OK"',
    });
  });

  it("notes a refused JSON mode and the mode runs fall back to, and checks in that one", async () => {
    const { fake, db } = await setup(
      { respond: () => '{"ok": true}', rejectJsonMode: "json_schema" },
      { PAL_ASSISTANT_JSON_MODE: "json_schema" },
    );
    const c = await checkModel(db, "assistant");
    expect(c.status).toBe("ok");
    expect(c.notes?.[0]).toMatch(/^JSON mode json_schema refused \(HTTP 400: .*\): runs fall back to json_object$/);
    expect(fake.chatRequests.map((r) => (r.response_format as { type: string }).type)).toEqual(["json_schema", "json_object"]);
  });

  it("refuses a PAL_<ROLE>_JSON_MODE that names no mode, naming the variable", async () => {
    const { db } = await setup({}, { PAL_ASSISTANT_JSON_MODE: "yes" });
    const c = await checkModel(db, "assistant");
    expect(c).toMatchObject({ status: "failed" });
    expect(c.error).toBe('assistant: PAL_ASSISTANT_JSON_MODE "yes" is not a JSON mode (expected off, json_object, json_schema)');
  });
});

describe("checking the embedding role: one pair of texts", () => {
  it("passes sane vectors: the same text alike, different texts less so", async () => {
    const { fake, db } = await setup({ dimensions: 8 });
    const c = await checkModel(db, "embedding");
    expect(c.status).toBe("ok");
    expect(c.reply).toMatch(/^8 dimensions; cosine 1\.000 for the same text, -?0\.\d{3} for different texts$/);
    expect(fake.embeddingRequests[0].input).toHaveLength(3);
  });

  it("reads vectors from a server that ignores base64, and says so", async () => {
    const { db } = await setup({ ignoreBase64: true });
    const c = await checkModel(db, "embedding");
    expect(c.status).toBe("ok");
    expect(c.notes).toEqual(["the server ignores encoding_format=base64 (it sent JSON arrays; PAL Studio reads either)"]);
  });

  it("fails corrupted vectors (the same text embeds differently) and constant ones (different texts alike)", async () => {
    const a = await setup({ corruptEmbedding: true });
    expect(await checkModel(a.db, "embedding")).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^the same text embeds differently \(cosine -?\d\.\d{3}\): the vectors are corrupted or random$/),
    });
    await fake?.close();
    t?.cleanup();
    const b = await setup({ constantEmbedding: true });
    expect(await checkModel(b.db, "embedding")).toMatchObject({
      status: "failed",
      error: "different texts embed alike (cosine 1.000): the server does not embed the text",
    });
  });
});

describe("a check against a misbehaving server", () => {
  /** A server whose every reply is `handle`'s; the database's roles point at it. */
  async function bare(handle: (res: http.ServerResponse) => void) {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => handle(res));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = tempDb();
    stubModelEnv(t.file, { OPENAI_BASE_URL: `${base}/v1`, OPENAI_API_KEY: "k", PAL_MODEL_ASSISTANT: "m" });
    return { db: t.db, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
  }

  it("gives up at its timeout on a reply that trickles a byte a second (issue 30.3)", async () => {
    const ticks: NodeJS.Timeout[] = [];
    const s = await bare((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const tick = setInterval(() => (res.destroyed ? clearInterval(tick) : res.write(" ")), 1000);
      ticks.push(tick);
    });
    try {
      const t0 = Date.now();
      const c = await checkModel(s.db, "assistant", 1500);
      expect(Date.now() - t0).toBeLessThan(6000);
      expect(c).toMatchObject({ status: "failed", kind: "timeout" });
    } finally {
      ticks.forEach(clearInterval);
      await s.close();
    }
  }, 20_000);

  it("follows no redirect and says where it pointed (issue 30.8)", async () => {
    const s = await bare((res) => {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
    });
    try {
      const c = await checkModel(s.db, "assistant", 5000);
      expect(c.status).toBe("failed");
      expect(c.error).toMatch(/redirect \(HTTP 302\) to http:\/\/169\.254\.169\.254\/latest\/meta-data\//);
    } finally {
      await s.close();
    }
  });
});
