import OpenAI from "openai";
import type { Db } from "@/db/client";
import { isAppError } from "@/lib/errors";
import { listModelConfigs, resolveModelConfig, type ModelConfig } from "./config";
import { recordCall } from "./ledger";
import { diagnose, type Diagnosis } from "./diagnose";

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
};

/**
 * Sends one tiny request to a configuration, bypassing the cache (a cached answer proves nothing
 * about the endpoint), and records it in the ledger under purpose "models.check".
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
  const sdk = new OpenAI({ apiKey: cfg.apiKey ?? "not-set", baseURL: cfg.baseURL, timeout: timeoutMs, maxRetries: 0 });
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
    let reply: string;
    let promptTokens = 0;
    let completionTokens = 0;
    if (cfg.role === "embedding") {
      const r = await sdk.embeddings.create({ model: cfg.model, input: ["ping"] });
      reply = `${r.data[0]?.embedding.length ?? 0} dimensions`;
      promptTokens = r.usage?.prompt_tokens ?? 0;
    } else {
      const r = await sdk.chat.completions.create({
        model: cfg.model,
        messages: [{ role: "user", content: "Reply with the single word OK." }],
        max_tokens: 5,
      });
      reply = (r.choices[0]?.message?.content ?? "").slice(0, 60);
      promptTokens = r.usage?.prompt_tokens ?? 0;
      completionTokens = r.usage?.completion_tokens ?? 0;
    }
    const latencyMs = Date.now() - started;
    recordCall(db, { ...base, status: "ok", latencyMs, promptTokens, completionTokens });
    return { name, role: cfg.role, model: cfg.model, baseURL: cfg.baseURL, status: "ok", latencyMs, reply };
  } catch (e) {
    const latencyMs = Date.now() - started;
    const d = diagnose(e, cfg.baseURL, cfg.model);
    recordCall(db, { ...base, status: "failed", latencyMs, error: d.message });
    return { name, role: cfg.role, model: cfg.model, baseURL: cfg.baseURL, status: "failed", latencyMs, error: d.message, kind: d.kind };
  }
}

/** Every role and named judge, one request each (in parallel). */
export async function checkAllModels(db: Db): Promise<ModelCheck[]> {
  return Promise.all(listModelConfigs(db).map((c) => checkModel(db, c.name)));
}
