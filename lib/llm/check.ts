import OpenAI from "openai";
import type { Db } from "@/db/client";
import { isAppError } from "@/lib/errors";
import { listModelConfigs, resolveModelConfig, type ModelConfig } from "./config";
import { recordCall } from "./ledger";
import { diagnose, type Diagnosis } from "./diagnose";
import { extractJson } from "./json";
import { splitReasoning } from "./reasoning";
import { describe, isJsonModeRefusal } from "./retry";
import { weakerJsonMode } from "./endpoints";
import { CUT_OFF, maxTokensFor, tokenParam } from "./max-tokens";
import { cosine, decodeEmbedding, vectorProblem } from "./vectors";
import { keepAliveFetch } from "./http-fetch";

export type ModelCheck = {
  name: string;
  role: string;
  model: string | null;
  baseURL: string;
  status: "ok" | "failed" | "not configured";
  latencyMs?: number;
  /** The start of what answered (a chat reply, or the embedding's dimensions). */
  reply?: string;
  error?: string;
  /** What failed, when it failed (DNS, refused, TLS, 401, model not found, timeout...). */
  kind?: Diagnosis["kind"];
  /** The model the server said answered, when it said one. */
  servedModel?: string;
  /** What a researcher should know though it answered: another model served, JSON mode refused, base64 ignored. */
  notes?: string[];
};

/**
 * Sends one small request to a configuration, bypassing the cache (a cached answer proves nothing
 * about the endpoint), and records it in the ledger under purpose "models.check". A chat role is asked
 * for a JSON object in its JSON mode; the embedding role embeds a pair of texts whose cosines must be
 * sane. The check fails on a reply that would fail the runs (no JSON object, cut off, corrupted or
 * constant vectors) and notes a served model other than the one asked.
 */
export async function checkModel(db: Db, name: string, timeoutMs = 20_000): Promise<ModelCheck> {
  const pub = listModelConfigs(db).find((c) => c.name === name);
  if (!pub?.model) return { name, role: pub?.role ?? name, model: null, baseURL: pub?.baseURL ?? "", status: "not configured" };
  let cfg: ModelConfig;
  try {
    cfg = resolveModelConfig(db, name);
  } catch (e) {
    // E.g. a saved key that cannot be decrypted: this configuration failed, the others are still checked.
    if (!isAppError(e)) throw e;
    return { name, role: pub.role, model: pub.model, baseURL: pub.baseURL, status: "failed", error: e.message };
  }
  // keepAliveFetch reads the whole reply before it resolves, so the timeout bounds the body too (a reply
  // trickling a byte a second fails at the timeout); it follows no redirect (http-fetch.ts).
  const sdk = new OpenAI({
    apiKey: cfg.apiKey ?? "not-set",
    baseURL: cfg.baseURL,
    timeout: timeoutMs,
    maxRetries: 0,
    fetch: keepAliveFetch,
  });
  const started = Date.now();
  const base = {
    origin: {},
    purpose: "models.check",
    role: cfg.role,
    config: cfg.name,
    endpoint: cfg.baseURL,
    model: cfg.model,
    cacheKey: null,
    cacheHit: false,
    replicate: 0,
    attempt: 1,
  };
  try {
    const r = cfg.role === "embedding" ? await checkEmbeddings(sdk, cfg) : await checkChat(sdk, cfg);
    const latencyMs = Date.now() - started;
    // A reply that would fail the runs is recorded as invalid, with why.
    recordCall(db, {
      ...base,
      status: r.problem ? "invalid" : "ok",
      error: r.problem ?? null,
      latencyMs,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
    });
    if (r.served && !sameModel(cfg.model, r.served)) r.notes.push(`the server answered as model "${r.served}" (asked for "${cfg.model}")`);
    const notes = r.notes.length ? { notes: r.notes } : {};
    const served = r.served ? { servedModel: r.served } : {};
    if (r.problem) {
      return {
        name,
        role: cfg.role,
        model: cfg.model,
        baseURL: cfg.baseURL,
        status: "failed",
        latencyMs,
        error: r.problem,
        ...served,
        ...notes,
      };
    }
    const reply = [r.reply, ...r.notes].join(" · ");
    return { name, role: cfg.role, model: cfg.model, baseURL: cfg.baseURL, status: "ok", latencyMs, reply, ...served, ...notes };
  } catch (e) {
    const latencyMs = Date.now() - started;
    const d = diagnose(e, cfg.baseURL, cfg.model);
    recordCall(db, { ...base, status: "failed", latencyMs, error: d.message });
    return { name, role: cfg.role, model: cfg.model, baseURL: cfg.baseURL, status: "failed", latencyMs, error: d.message, kind: d.kind };
  }
}

/** What one check request found: the reply to show, or the problem that fails the check; notes either way. */
type Found = { reply: string; problem?: string; notes: string[]; served?: string; promptTokens: number; completionTokens: number };

/** A dated snapshot of the model asked for ("gpt-4o" answered as "gpt-4o-2024-08-06") is the same model. */
const sameModel = (asked: string, served: string) => served === asked || served.startsWith(`${asked}-`) || served.endsWith(`/${asked}`);

/**
 * One JSON request in the role's JSON mode (as the runs ask): the reply must hold a JSON object and
 * not be cut off. A refused JSON mode is asked again without it, and noted: runs step down the same way.
 */
async function checkChat(sdk: OpenAI, cfg: ModelConfig): Promise<Found> {
  const notes: string[] = [];
  const ask = (mode: ModelConfig["jsonMode"]) =>
    sdk.chat.completions.create({
      model: cfg.model,
      messages: [{ role: "user", content: 'Reply with exactly this JSON object and nothing else: {"ok": true}' }],
      max_tokens: maxTokensFor({ purpose: "models.check", headroom: cfg.maxTokensHeadroom }),
      ...(mode === "json_object" ? { response_format: { type: "json_object" as const } } : {}),
      ...(mode === "json_schema"
        ? {
            response_format: {
              type: "json_schema" as const,
              json_schema: {
                name: "check",
                strict: true,
                schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false },
              },
            },
          }
        : {}),
    });
  let mode = cfg.jsonMode;
  let r: OpenAI.Chat.Completions.ChatCompletion;
  for (;;) {
    try {
      r = await ask(mode);
      break;
    } catch (e) {
      if (mode === "off" || !isJsonModeRefusal(e)) throw e;
      const weaker = weakerJsonMode(mode);
      notes.push(
        `JSON mode ${mode} refused (${describe(e).slice(0, 160)}): runs fall back to ${weaker === "off" ? "plain replies" : weaker}`,
      );
      mode = weaker;
    }
  }
  const choice = r.choices?.[0];
  const split = splitReasoning(choice?.message?.content ?? "", null);
  const found: Found = {
    reply: `JSON mode ${mode}: ${split.answer.trim().slice(0, 60)}`,
    notes,
    served: typeof r.model === "string" && r.model ? r.model : undefined,
    promptTokens: r.usage?.prompt_tokens ?? 0,
    completionTokens: r.usage?.completion_tokens ?? 0,
  };
  if (choice?.finish_reason === "length") found.problem = `the reply was ${CUT_OFF}: ${JSON.stringify(split.answer.slice(0, 60))}`;
  else {
    let v: unknown;
    try {
      v = extractJson(split.answer);
    } catch {
      v = undefined;
    }
    if (!v || typeof v !== "object" || Array.isArray(v))
      found.problem = `asked for a JSON object (JSON mode ${mode}), it answered ${JSON.stringify(split.answer.slice(0, 80))}`;
  }
  return found;
}

/** Two texts, the first twice: identical text must embed alike (cosine ~1), different text less so; every vector finite, of one dimension. */
const PAIR = ["The user prefers vegetarian restaurants near the office.", "Quarterly tax filing is due at the end of March."];

async function checkEmbeddings(sdk: OpenAI, cfg: ModelConfig): Promise<Found> {
  // base64 asked for, as the client asks; the SDK then hands the reply over untouched (vectors.ts).
  const r = await sdk.embeddings.create({ model: cfg.model, input: [PAIR[0], PAIR[0], PAIR[1]], encoding_format: "base64" });
  const found: Found = {
    reply: "",
    notes: [],
    served: typeof r.model === "string" && r.model ? r.model : undefined,
    promptTokens: r.usage?.prompt_tokens ?? 0,
    completionTokens: 0,
  };
  const raw = [...(r.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding as unknown);
  if (raw.length !== 3) return { ...found, problem: `asked for 3 vectors, got ${raw.length}` };
  if (raw.some((v) => Array.isArray(v)))
    found.notes.push("the server ignores encoding_format=base64 (it sent JSON arrays; PAL Studio reads either)");
  let vs: number[][];
  try {
    vs = raw.map(decodeEmbedding);
  } catch (e) {
    return { ...found, problem: `the vectors cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  const declared = tokenParam(cfg.params.dimensions) ?? vs[0].length;
  const bad = vs.map((v) => vectorProblem(v, declared)).find((p) => p !== null);
  if (bad) return { ...found, problem: `a vector is unusable: ${bad}` };
  const same = cosine(vs[0], vs[1]);
  const different = cosine(vs[0], vs[2]);
  found.reply = `${vs[0].length} dimensions; cosine ${same.toFixed(3)} for the same text, ${different.toFixed(3)} for different texts`;
  if (same < 0.99) found.problem = `the same text embeds differently (cosine ${same.toFixed(3)}): the vectors are corrupted or random`;
  else if (different > 0.999)
    found.problem = `different texts embed alike (cosine ${different.toFixed(3)}): the server does not embed the text`;
  return found;
}

/** Every role and named judge, one request each (in parallel). */
export async function checkAllModels(db: Db): Promise<ModelCheck[]> {
  return Promise.all(listModelConfigs(db).map((c) => checkModel(db, c.name)));
}
