/**
 * Every JSON Schema the app sends (issue 27 item 3): a Mem-PAL protocol run (every method of the preset plus
 * LD-Agent, its tasks and judges) on one demo user against the test double, on an endpoint set to json_schema,
 * and the campaign rating judge. Each schema must be one real servers accept: an object root (so json_object
 * mode can serve the step too), no prefixItems / items:false / propertyNames, and the enums and ranges kept
 * (H2Memory's aspects, the G-Score scale, the log graph's keys).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { protocolResponder } from "@/test/protocol-responder";
import { stubModelEnv } from "@/test/model-env";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { saveEndpoint } from "@/lib/llm/endpoints";
import { saveModelSetting } from "@/lib/llm/config";
import { jsonSchemaOf } from "@/lib/llm/json-mode";
import { ratingJudgeOutput } from "@/lib/judges/rating";
import { bindDeps } from "./deps";
import { knownMethod } from "./method-choices";
import { createExperiment } from "./create";
import { runExperiment } from "./worker";
import { experimentProgress } from "./progress";
import { applyPreset, PRESETS } from "./presets";

type Node = { [k: string]: unknown };
let fake: FakeOpenAI;
let t: ReturnType<typeof tempDb>;
/** purpose → the schema it was sent with (the first of each purpose). */
const sent = new Map<string, Node>();

/** Every sub-schema with its path. */
function* walk(node: unknown, path = "#"): Generator<[string, Node]> {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const [i, x] of node.entries()) yield* walk(x, `${path}/${i}`);
    return;
  }
  const o = node as Node;
  yield [path, o];
  for (const [k, v] of Object.entries(o)) {
    if (k === "enum" || k === "const" || k === "default") continue;
    if (k === "properties") for (const [name, sub] of Object.entries(v as Node)) yield* walk(sub, `${path}/properties/${name}`);
    else yield* walk(v, `${path}/${k}`);
  }
}

/** What a server that accepts only the portable subset would refuse, one line per problem. */
function problems(schema: Node): string[] {
  const out: string[] = [];
  if (schema.type !== "object") out.push(`# root is ${JSON.stringify(schema.type ?? schema)}, not an object`);
  for (const [path, n] of walk(schema)) {
    if ("prefixItems" in n) out.push(`${path}: prefixItems`);
    if (n.items === false) out.push(`${path}: items false`);
    if (Array.isArray(n.items)) out.push(`${path}: items is a tuple array`);
    if ("propertyNames" in n) out.push(`${path}: propertyNames`);
    if ("$schema" in n) out.push(`${path}: $schema`);
    if (Array.isArray(n.enum) && n.enum.length === 0) out.push(`${path}: empty enum`);
  }
  return out;
}

beforeAll(async () => {
  t = tempDb();
  fake = await startFakeOpenAI({ respond: protocolResponder });
  stubModelEnv(t.file, { OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test", PAL_MODEL_EMBEDDING: "embed-model" });
  const id = saveEndpoint(t.db, { name: "lab", baseUrl: fake.baseURL, apiKey: "k", jsonMode: "json_schema" });
  for (const [role, model] of [
    ["assistant", "assistant-model"],
    ["user-simulator", "sim-model"],
    ["judge", "judge-model"],
  ])
    saveModelSetting(t.db, { name: role, endpointId: id, model });
  const datasetId = (await importPalset(t.db, { paths: [PALSET_EN], name: "demo", lang: "en" })).datasetId;
  const preset = PRESETS["mem-pal"].config as { methods: object[] };
  const config = applyPreset("mem-pal", { users: ["0000"], repeats: 1, methods: [...preset.methods, { name: "ld-agent" }] });
  const { id: exp } = createExperiment(t.db, { name: "schemas", datasetId, config, knownMethod: knownMethod() });
  const deps = bindDeps(t.db, { client: ModelClient.create(t.db, { retryBaseMs: 5 }) });
  expect(await runExperiment(t.db, exp, deps, { concurrency: 8 })).toBe("done");
  expect(experimentProgress(t.db, exp).failed).toBe(0);
  for (const r of fake.chatRequests) {
    const f = r.response_format as { type: string; json_schema?: { name: string; schema: Node } } | undefined;
    expect(f?.type, `a call without json_schema: ${r.messages.at(-1)?.content}`.slice(0, 200)).toBe("json_schema");
    if (!sent.has(f!.json_schema!.name)) sent.set(f!.json_schema!.name, f!.json_schema!.schema);
  }
  sent.set("campaign_rating", jsonSchemaOf(ratingJudgeOutput).schema as Node);
}, 600_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await fake.close();
  t.cleanup();
});

describe("every schema the app sends", () => {
  it("covers the methods' build steps, the tasks and the judges", () => {
    const names = [...sent.keys()].join(" ");
    for (const step of ["h2memory", "memorybank", "recursum", "conditionmem", "ld-agent", "gscore", "dialogue"])
      expect(names, `no schema for ${step} in ${names}`).toMatch(new RegExp(step.replace("-", "[-_]")));
    expect(sent.size).toBeGreaterThan(15);
  });

  it("has an object root and nothing a real server refuses (prefixItems, items:false, tuple arrays, propertyNames)", () => {
    const found = [...sent].flatMap(([name, schema]) => problems(schema).map((p) => `${name}: ${p}`));
    expect(found).toEqual([]);
  });

  it("keeps the enums and ranges: H2Memory's aspects, the topic outline's turn ids, the G-Score scale, the log graph's keys", () => {
    const of = (re: RegExp) => {
      const hit = [...sent].find(([n]) => re.test(n));
      expect(hit, `no schema matching ${re}`).toBeDefined();
      return JSON.stringify(hit![1]);
    };
    expect(of(/situation/)).toContain('"enum":["work","health","family","leisure"]');
    expect(of(/background/)).toMatch(/"updating_content":\{"type":"object","properties":\{"work":/);
    expect(of(/topic[-_]outline/)).toMatch(/"topic_outlines":\{.*"turn_span":\{"type":"array","items":\{"type":"string","enum":\["turn_/);
    expect(of(/topic[-_]outline/)).toMatch(/"minItems":2,"maxItems":2/);
    expect(of(/gscore/)).toContain('"score":{"type":"number","enum":[0,0.5,1,1.5,2]}');
    expect(of(/log[-_]graph/)).toMatch(/"properties":\{"log_0":\{"type":"object","properties":\{"caused_by":/);
    expect(of(/campaign_rating/)).toContain('"enum":[1,2,3]');
  });
});
