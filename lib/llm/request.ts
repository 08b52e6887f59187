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
import { CUT_OFF_PARAM, maxTokensFor } from "./max-tokens";

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
  /** A reply cut off at its budget is kept as returned (the run's cut-off rule, max-tokens.ts CUT_OFF_PARAM). */
  keepCutOff: boolean;
};

export function prepareCall<T>(core: Core, view: View, o: ChatOptions<T>): Call<T> {
  const role = o.role ?? "assistant";
  const cfg = configOf(core, o.config ?? role);
  const origin = o.origin ?? view.origin;
  const replicate = o.replicate ?? view.replicate;
  const all = { ...cfg.params, ...view.roleParams[role], ...o.params };
  // The cut-off rule is part of what is asked (a kept cut-off reply is not the re-asked one) but never sent.
  const cacheKey = hashOf({ endpoint: cfg.baseURL, model: cfg.model, messages: o.messages, params: all, replicate });
  const { [CUT_OFF_PARAM]: cutOff, ...params } = all;
  const base = { origin, purpose: o.purpose, role, config: cfg.name, endpoint: cfg.baseURL, model: cfg.model, cacheKey, replicate };
  const endpointKey = `${cfg.baseURL}\u0000${cfg.model}`;
  return { o, role, cfg, replicate, params, cacheKey, base, endpointKey, keepCutOff: cutOff === "as-returned" };
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
