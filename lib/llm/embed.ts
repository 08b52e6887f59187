/**
 * Embeddings through the same pipeline: vectors cached per (endpoint, model, text), only the missing
 * ones requested, in batches, each in a slot with transport retries and a ledger row.
 */
import type OpenAI from "openai";
import type { View } from "./client-types";
import { cachedVectors, storeVectors, vectorsByText } from "./cache";
import { vectorKeyOf } from "./hash";
import { configOf, type Core } from "./core";
import { ModelCallError } from "./errors";
import type { LedgerRow, Origin } from "./ledger";
import { recordHit, recordRow } from "./ledger-write";
import { checkUsage, usageTokens } from "./usage-check";
import { describe } from "./retry";
import { inSlot } from "./slot";
import { RunPausedError } from "./spend-guard";
import { retrying } from "./tries";
import { sdkOf } from "./transport";
import { decodeEmbedding } from "./vectors";
import { recordVectorUses } from "./vector-uses";

export type EmbedOptions = { purpose: string; origin?: Origin; config?: string; batchSize?: number };

/** Embeds texts with the embedding role (or a named config), one vector per text in order. */
export async function embedTexts(core: Core, view: View, texts: string[], o: EmbedOptions): Promise<number[][]> {
  const cfg = configOf(core, o.config ?? "embedding");
  const db = core.db;
  const base = {
    origin: o.origin ?? view.origin,
    purpose: o.purpose,
    role: "embedding" as const,
    config: cfg.name,
    endpoint: cfg.baseURL,
    model: cfg.model,
    replicate: 0,
    cacheKey: null,
  };
  const recordAllCached = async () => {
    core.stats.cacheHits++;
    const row: LedgerRow = { ...base, cacheHit: true, attempt: 1, status: "ok" };
    await recordHit(core, view, row);
  };
  // Every text's vector known by its text (cache.ts): no hashing, no key lookups, the same ledger row.
  const byText = vectorsByText(db, cfg.baseURL, cfg.model);
  const known = allKnown(byText, texts);
  const origin = o.origin ?? view.origin;
  if (known) {
    await recordAllCached();
    recordVectorUses(db, origin, known);
    return known;
  }
  const keys = texts.map(vectorKeyOf(cfg.baseURL, cfg.model));
  const found = cachedVectors(db, keys);
  texts.forEach((t, i) => {
    const v = found.get(keys[i]);
    if (v) byText.set(t, v);
  });
  const missing = [...new Map(texts.map((t, i) => [keys[i], t])).entries()].filter(([k]) => !found.has(k));
  if (missing.length === 0 && texts.length > 0) await recordAllCached();
  const batch = o.batchSize ?? 64;
  const sdk = sdkOf(core, cfg);
  const chunks = Array.from({ length: Math.ceil(missing.length / batch) }, (_, b) => missing.slice(b * batch, (b + 1) * batch));
  await Promise.all(
    chunks.map((chunk) =>
      inSlot(core, view, "embedding", cfg, async () => {
        const started = Date.now();
        const tries = { n: 0 };
        let res: OpenAI.Embeddings.CreateEmbeddingResponse;
        try {
          res = await retrying(
            core,
            view,
            // base64 asked for explicitly, so the SDK hands the reply over as it came (vectors.ts decodes either form).
            () => sdk.embeddings.create({ model: cfg.model, input: chunk.map(([, t]) => t), encoding_format: "base64" }),
            { row: base, tries, limits: cfg.endpoint, tokensOf: (r) => usageTokens(r.usage) },
          );
        } catch (e) {
          if (e instanceof RunPausedError) throw e;
          core.stats.failed++;
          throw new ModelCallError(`${o.purpose}: the embedding endpoint failed (${describe(e)})`, o.purpose, null, "transport");
        }
        // Negative, fractional or impossible counts are not believed (usage-check.ts).
        const usage = checkUsage(res.usage, { prompt: chunk.map(([, t]) => t), embedding: true });
        core.stats.promptTokens += usage.promptTokens;
        recordRow(core, view, {
          ...base,
          cacheHit: false,
          attempt: tries.n + 1,
          status: "ok",
          ...usage,
          latencyMs: Date.now() - started,
        });
        const entries = res.data.map((d) => ({ key: chunk[d.index][0], vector: decodeEmbedding(d.embedding) }));
        const stored = storeVectors(db, cfg.model, entries);
        entries.forEach((e, i) => found.set(e.key, stored[i]));
      }),
    ),
  );
  const vectors = keys.map((k) => {
    const v = found.get(k);
    if (!v) throw new ModelCallError(`${o.purpose}: the embedding endpoint returned no vector for a text`, o.purpose, null, "invalid");
    return v;
  });
  // Which vectors this run used: a bundle exports those (vector-uses.ts).
  recordVectorUses(db, origin, vectors);
  return vectors;
}

/** The vectors of all `texts` when each is known by its text, else null (also for no texts). */
function allKnown(byText: ReturnType<typeof vectorsByText>, texts: readonly string[]): number[][] | null {
  if (texts.length === 0) return null;
  const out: number[][] = new Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const v = byText.get(texts[i]);
    if (v === undefined) return null;
    out[i] = v;
  }
  return out;
}
