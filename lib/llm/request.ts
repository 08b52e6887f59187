/**
 * The first step of a chat call: what it asks, resolved once. The configuration, the parameters (the
 * configuration's, under the run's for the role, under the call's own), the cache key (hashed here
 * once and handed along: hashing the request was 8% of a call's CPU) and the ledger fields every row
 * of the call shares.
 */
import type { ModelRole } from "@/db/schema";
import type { ChatOptions, View } from "./client-types";
import { configOf, type Core } from "./core";
import type { ModelConfig } from "./config";
import { hashOf } from "./hash";
import type { LedgerRow } from "./ledger";
import { maxTokensFor } from "./max-tokens";

/** The ledger fields of every row one call leaves. */
export type RowBase = Pick<LedgerRow, "origin" | "purpose" | "role" | "config" | "endpoint" | "model" | "replicate"> & { cacheKey: string };

export type Call<T> = {
  o: ChatOptions<T>;
  role: ModelRole;
  cfg: ModelConfig;
  replicate: number;
  params: Record<string, unknown>;
  cacheKey: string;
  base: RowBase;
  /** The endpoint's memos (JSON mode, budget parameter, reasoning, streaming) are kept under this. */
  endpointKey: string;
};

export function prepareCall<T>(core: Core, view: View, o: ChatOptions<T>): Call<T> {
  const role = o.role ?? "assistant";
  const cfg = configOf(core, o.config ?? role);
  const origin = o.origin ?? view.origin;
  const replicate = o.replicate ?? view.replicate;
  const params = { ...cfg.params, ...view.roleParams[role], ...o.params };
  const cacheKey = hashOf({ endpoint: cfg.baseURL, model: cfg.model, messages: o.messages, params, replicate });
  const base = { origin, purpose: o.purpose, role, config: cfg.name, endpoint: cfg.baseURL, model: cfg.model, cacheKey, replicate };
  return { o, role, cfg, replicate, params, cacheKey, base, endpointKey: `${cfg.baseURL}\u0000${cfg.model}` };
}

/** The output budget of a call's request: the role's own, else the step's (max-tokens.ts), larger after cut-offs. */
export function budgetOf(core: Core, call: Call<unknown>, role: number | null, cutOffs: number): number {
  return maxTokensFor({
    purpose: call.o.purpose,
    explicit: call.o.maxTokens,
    role,
    headroom: call.cfg.maxTokensHeadroom,
    reasoning: core.reasoning.has(call.endpointKey),
    cutOffs,
  });
}
