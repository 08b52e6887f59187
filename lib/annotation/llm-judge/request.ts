/** The judge-run request body (route handler) turned into options, each bad field named. */
import { InvalidInputError } from "@/lib/errors";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm";
import type { LlmJudgeOptions } from "./run";

export function judgeRequest(body: unknown): LlmJudgeOptions & { dryRun: boolean; batch: boolean } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new InvalidInputError("expected a JSON object");
  const b = body as Record<string, unknown>;
  const num = (k: string): number | undefined => {
    const v = b[k];
    if (v === undefined || v === null || v === "") return undefined;
    const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw new InvalidInputError(`${k}: expected a number, got ${JSON.stringify(v)}`);
    return n;
  };
  if (b.modelConfig !== undefined && typeof b.modelConfig !== "string") throw new InvalidInputError("modelConfig: expected a string");
  return {
    modelConfig: b.modelConfig as string | undefined,
    temperature: num("temperature"),
    tieMargin: num("tieMargin"),
    seed: num("seed"),
    dryRun: b.dryRun === true,
    batch: b.batch === true,
  };
}

let shared: { db: Db; client: ModelClient } | null = null;

/** The server process's model client for judge runs (one cache, one set of limits). */
export function serverJudgeClient(db: Db): ModelClient {
  if (!shared || shared.db !== db) shared = { db, client: ModelClient.create(db) };
  return shared.client;
}
