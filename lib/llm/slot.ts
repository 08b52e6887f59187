/**
 * Rate limit and concurrency slot. A call waits for a slot of its role (or of its defined endpoint,
 * shared by every role on it: queue.ts) with its view's priority and group; each try inside the slot
 * then takes a place under the endpoint's requests/min, tokens/min and in-flight limits, honoured
 * across processes through the database (rate-limit.ts), and gives it back with the tokens it used.
 */
import type { ModelRole } from "@/db/schema";
import { envNumber } from "@/lib/config";
import type { View } from "./client-types";
import type { ModelConfig } from "./config";
import type { Core } from "./core";
import { acquire, release } from "./rate-limit";

/** Runs `fn` in one of the role's slots with the view's priority and group; `id` lets an identical call raise it. */
export function inSlot<R>(core: Core, view: View, role: ModelRole, cfg: ModelConfig, fn: () => Promise<R>, id?: string): Promise<R> {
  // A configuration on a defined endpoint waits in the endpoint's queue, shared by every role on it.
  const e = cfg.endpoint;
  const lane = e ? { endpoint: e.name, concurrency: e.concurrency ?? envNumber("PAL_LLM_CONCURRENCY", 4) } : undefined;
  return core.queues.run(role, { priority: view.priority, group: view.group, id }, fn, lane);
}

/** A place under the endpoint's limits, held until `release` is called with the tokens the try used. */
export type Place = { release: (tokens: number) => void };

const NO_LIMITS: Place = { release: () => {} };

/** Waits for a place under the endpoint's limits (no defined endpoint: nothing to wait for). */
export async function takePlace(core: Core, limits: ModelConfig["endpoint"]): Promise<Place> {
  if (!limits) return NO_LIMITS;
  const usageId = await acquire(core.db, limits);
  // Answered or failed, the in-flight place is free for every process.
  return { release: (tokens) => release(core.db, limits, usageId, tokens) };
}
