/**
 * JSON mode per endpoint (issue 17 item 1), through the real openai client against the test double:
 * json_schema sends the call's zod schema; a 400 for response_format is detected once, the endpoint
 * falls back (json_schema → json_object → off) and every client on the database remembers it.
 */
import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { openDb } from "@/db/client";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { saveModelSetting } from "./config";
import { listEndpoints, saveEndpoint } from "./endpoints";
import { DeferredCallError, ModelClient, type CollectedCall } from "./client";
import { submitBatch } from "./batch";
import { jsonSchemaOf } from "./json-mode";
import { stubModelEnv } from "@/test/model-env";

let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;

beforeEach(() => {
  t = tempDb();
  stubModelEnv(t.file, { PAL_MODEL_JUDGE: "judge-model" });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  t.cleanup();
});

const Verdict = z.object({ score: z.number().min(0).max(2), reason: z.string() });
const ask = [{ role: "user" as const, content: "Judge this." }];
const answer = () => JSON.stringify({ score: 1.5, reason: "fits" });
const formats = () => fake.chatRequests.map((r) => (r.response_format as { type: string } | undefined)?.type ?? "none");

async function endpointAt(jsonMode: "off" | "json_object" | "json_schema", reject?: true | "json_schema") {
  fake = await startFakeOpenAI({ respond: answer, rejectJsonMode: reject });
  const id = saveEndpoint(t.db, { name: "lab", baseUrl: fake.baseURL, apiKey: "k", jsonMode });
  saveModelSetting(t.db, { name: "judge", endpointId: id });
  return id;
}

describe("JSON mode per endpoint", () => {
  it("json_schema sends the call's schema as response_format (name, schema, strict)", async () => {
    await endpointAt("json_schema");
    const c = ModelClient.create(t.db, { retryBaseMs: 5 });
    const r = await c.chat({ role: "judge", messages: ask, schema: Verdict, purpose: "judge.gscore" });
    expect(r.value).toEqual({ score: 1.5, reason: "fits" });
    expect(fake.chatRequests[0].response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "judge_gscore",
        strict: true,
        schema: {
          type: "object",
          properties: { score: { type: "number", minimum: 0, maximum: 2 }, reason: { type: "string" } },
          required: ["score", "reason"],
          additionalProperties: false,
        },
      },
    });
    // A call without a schema asks for plain text.
    await c.chat({ role: "judge", messages: [{ role: "user", content: "Say hi." }], purpose: "plain" });
    expect(fake.chatRequests[1].response_format).toBeUndefined();
    // Strict mode needs every field required: a schema with an optional one is sent with strict false.
    expect(jsonSchemaOf(z.object({ a: z.string(), b: z.string().optional() })).strict).toBe(false);
  });

  it("json_object sends response_format json_object", async () => {
    await endpointAt("json_object");
    await ModelClient.create(t.db).chat({ role: "judge", messages: ask, schema: Verdict, purpose: "judge" });
    expect(formats()).toEqual(["json_object"]);
  });

  it("an endpoint without structured outputs refuses json_schema once; it falls back to json_object, remembered in the database", async () => {
    const id = await endpointAt("json_schema", "json_schema");
    const a = ModelClient.create(t.db, { retryBaseMs: 5 });
    expect((await a.chat({ role: "judge", messages: ask, schema: Verdict, purpose: "judge" })).value.score).toBe(1.5);
    expect(formats()).toEqual(["json_schema", "json_object"]);
    // Another process (its own client and connection) asks json_object straight away.
    const second = openDb(t.file);
    try {
      await ModelClient.create(second).chat({
        role: "judge",
        messages: [{ role: "user", content: "Again." }],
        schema: Verdict,
        purpose: "judge",
      });
    } finally {
      second.$client.close();
    }
    expect(formats()).toEqual(["json_schema", "json_object", "json_object"]);
    const e = listEndpoints(t.db).find((x) => x.id === id)!;
    expect(e).toMatchObject({ jsonMode: "json_schema", jsonModeFallback: "json_object" });
    expect(e.jsonModeNote).toMatch(/json_schema refused .*HTTP 400.*; using json_object/);
  });

  it("an endpoint with no JSON mode at all: json_schema → json_object → off, each refused once; choosing another mode tries afresh", async () => {
    const id = await endpointAt("json_schema", true);
    const c = ModelClient.create(t.db, { retryBaseMs: 5 });
    await c.chat({ role: "judge", messages: ask, schema: Verdict, purpose: "judge" });
    await c.chat({ role: "judge", messages: [{ role: "user", content: "Next." }], schema: Verdict, purpose: "judge" });
    expect(formats()).toEqual(["json_schema", "json_object", "none", "none"]);
    expect(listEndpoints(t.db)[0]).toMatchObject({
      jsonModeFallback: "off",
      jsonModeNote: expect.stringMatching(/json_object refused.*plain replies/),
    });
    // Saving the same mode keeps the remembered fallback; another mode clears it.
    saveEndpoint(t.db, { name: "lab", baseUrl: fake.baseURL, jsonMode: "json_schema" });
    expect(listEndpoints(t.db)[0].jsonModeFallback).toBe("off");
    saveEndpoint(t.db, { name: "lab", baseUrl: fake.baseURL, jsonMode: "json_object" });
    expect(listEndpoints(t.db)[0]).toMatchObject({ id, jsonMode: "json_object", jsonModeFallback: null, jsonModeNote: null });
  });

  it("a batch asks with the endpoint's JSON mode, as its online calls do", async () => {
    await endpointAt("json_schema");
    const c = ModelClient.create(t.db, { retryBaseMs: 5 });
    const calls: CollectedCall[] = [];
    const collect = c.collecting((call) => calls.push(call));
    await expect(collect.chat({ role: "judge", messages: ask, schema: Verdict, purpose: "judge.gscore" })).rejects.toThrow(
      DeferredCallError,
    );
    await submitBatch(t.db, c, calls, null);
    await vi.waitFor(() => expect(fake.batch.batches[0]?.status).toBe("completed"));
    expect(fake.chatRequests[0].response_format).toMatchObject({ type: "json_schema", json_schema: { name: "judge_gscore" } });
  });

  it("a bad JSON mode names the endpoint and changes nothing", async () => {
    await endpointAt("off");
    expect(() => saveEndpoint(t.db, { name: "lab", baseUrl: "http://x/v1", jsonMode: "yaml" as never })).toThrow(
      /endpoint "lab": JSON mode "yaml"/,
    );
    expect(listEndpoints(t.db)[0]).toMatchObject({ baseUrl: fake.baseURL, jsonMode: "off" });
  });
});

/** Refusals as the real servers word them (issue 27 item 3); each must step json_schema down to json_object. */
const REFUSALS: Array<[server: string, status: 400 | 422, message: string]> = [
  [
    "llama.cpp (a tuple sent as prefixItems + items:false)",
    400,
    "JSON schema error at #/items/properties/turn_span/items: schema must be an object",
  ],
  ["llama.cpp (a schema that is no object)", 400, "JSON schema error at #: schema must be an object"],
  [
    "llama.cpp (an older build without json_schema)",
    400,
    'response_format type must be one of "text" or "json_object", but got: json_schema',
  ],
  ["llama.cpp (an older build's converter)", 400, 'JSON schema conversion failed:\nUnrecognized schema: {"prefixItems":[]}'],
  ["vLLM (xgrammar)", 400, "The provided JSON schema contains features not supported by xgrammar."],
  ["vLLM (grammar conversion)", 400, "Failed to transform json schema into a grammar: unsupported keyword prefixItems"],
  ["vLLM (guided decoding backend)", 400, "Grammar error: unsatisfiable schema"],
  [
    "OpenAI (invalid schema)",
    400,
    "Invalid schema for response_format 'judge': In context=('properties', 'span'), 'prefixItems' is not permitted.",
  ],
  [
    "OpenAI (model without structured outputs)",
    400,
    "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
  ],
  ["TGI", 422, "Input validation error: grammar is not supported"],
];

describe("refusals of response_format as real servers word them", () => {
  it.each(REFUSALS)("%s: %#", async (_server, status, message) => {
    fake = await startFakeOpenAI({
      respond: (req) =>
        (req.response_format as { type?: string } | undefined)?.type === "json_schema"
          ? { kind: "status", status: status as 400, message }
          : answer(),
    });
    const id = saveEndpoint(t.db, { name: "lab", baseUrl: fake.baseURL, apiKey: "k", jsonMode: "json_schema" });
    saveModelSetting(t.db, { name: "judge", endpointId: id });
    const r = await ModelClient.create(t.db, { retryBaseMs: 5 }).chat({ role: "judge", messages: ask, schema: Verdict, purpose: "judge" });
    expect(r.value.score).toBe(1.5);
    expect(formats()).toEqual(["json_schema", "json_object"]);
    expect(listEndpoints(t.db)[0]).toMatchObject({ jsonModeFallback: "json_object" });
  });

  it("a 400 about something else (the context length) is no refusal of JSON mode: nothing steps down", async () => {
    fake = await startFakeOpenAI({
      respond: () => ({ kind: "status", status: 400, message: "the request exceeds the available context size, try increasing it" }),
    });
    const id = saveEndpoint(t.db, { name: "lab", baseUrl: fake.baseURL, apiKey: "k", jsonMode: "json_schema" });
    saveModelSetting(t.db, { name: "judge", endpointId: id });
    await expect(
      ModelClient.create(t.db, { retryBaseMs: 5 }).chat({ role: "judge", messages: ask, schema: Verdict, purpose: "judge" }),
    ).rejects.toThrow(/context size/);
    expect(formats()).toEqual(["json_schema"]);
    expect(listEndpoints(t.db)[0].jsonModeFallback).toBeNull();
  });
});
