/**
 * Endpoints defined once (Admin → Models) and pointed at by roles and named judges, so the admin
 * does not type the same URL and key for every role. The key is encrypted (secrets.ts) and never
 * leaves the server: the public listing says only whether one is saved.
 */
import { checkBaseUrl, maskUrl } from "./base-url";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { endpoints, modelSettings, JSON_MODES, MODEL_ROLES, type JsonMode } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { SavedKeyUnreadableError, decryptSecret, encryptSecret } from "./secrets";

/** What a call needs of its endpoint besides URL and key: the limits the client and rate limiter honour. */
export type EndpointLimits = {
  id: number;
  name: string;
  /** Requests in flight at once in this process (null: PAL_LLM_CONCURRENCY). */
  concurrency: number | null;
  /** Requests per minute across processes on this database (null: none). */
  rpm: number | null;
  /** Prompt + completion tokens per minute, approximate (null: none). */
  tpm: number | null;
  /** Per-request timeout (null: PAL_LLM_TIMEOUT_MS). */
  timeoutMs: number | null;
};

export type EndpointRow = EndpointLimits & {
  baseUrl: string;
  apiKeyEnc: string | null;
  models: string[] | null;
  /** The admin's choice. */
  jsonMode: JsonMode;
  /** The mode in use after a refusal (null: the chosen one), and why. */
  jsonModeFallback: JsonMode | null;
  jsonModeNote: string | null;
  /** Marked by the admin as serving the OpenAI Batch API (/v1/files, /v1/batches). */
  batchApi: boolean;
};

/** The admin page's view: no key, only whether one is saved and readable. */
export type PublicEndpoint = Omit<EndpointRow, "apiKeyEnc"> & { key: "set" | "missing" | "unreadable"; usedBy: string[] };

// Read on every model call that points at an endpoint: a compiled statement.
export function endpointById(db: Db, id: number): EndpointRow | null {
  const r = stmt(
    db,
    `SELECT id, name, base_url AS baseUrl, api_key_enc AS apiKeyEnc, models, concurrency, rpm, tpm, timeout_ms AS timeoutMs,
       json_mode AS jsonMode, json_mode_fallback AS jsonModeFallback, json_mode_note AS jsonModeNote, batch_api AS batchApi FROM endpoints WHERE id = ?`,
  ).get(id) as (Omit<EndpointRow, "models" | "batchApi"> & { models: string | null; batchApi: number }) | undefined;
  if (!r) return null;
  return { ...r, models: r.models === null ? null : (JSON.parse(r.models) as string[]), batchApi: r.batchApi === 1 };
}

/** The JSON mode a call on this endpoint asks for now: the chosen one, or where a refusal left it. */
export function effectiveJsonMode(e: Pick<EndpointRow, "jsonMode" | "jsonModeFallback">): JsonMode {
  return e.jsonModeFallback ?? e.jsonMode;
}

/** One step down after a 400 for response_format: json_schema → json_object → off. */
export function weakerJsonMode(mode: JsonMode): JsonMode {
  return mode === "json_schema" ? "json_object" : "off";
}

/**
 * Remembers that the endpoint refused `refused` (a 400 naming response_format): from now on every
 * process asks with the next weaker mode. Only the first process to notice writes (the mode must
 * still be `refused`), so the note keeps the first error. Returns the mode to use now.
 */
export function recordJsonModeRefusal(db: Db, id: number, refused: JsonMode, error: string, now = Date.now()): JsonMode {
  const next = weakerJsonMode(refused);
  const note = `${refused} refused on ${new Date(now).toISOString().slice(0, 16).replace("T", " ")} UTC (${error}); using ${next === "off" ? "plain replies" : next}`;
  stmt(
    db,
    "UPDATE endpoints SET json_mode_fallback = ?, json_mode_note = ? WHERE id = ? AND coalesce(json_mode_fallback, json_mode) = ?",
  ).run(next, note, id, refused);
  return next;
}

/** The endpoint's key in plain text (server side only); an undecryptable one names the endpoint. */
export function endpointKey(e: Pick<EndpointRow, "name" | "apiKeyEnc">): string | null {
  if (!e.apiKeyEnc) return null;
  try {
    return decryptSecret(e.apiKeyEnc);
  } catch (err) {
    if (err instanceof SavedKeyUnreadableError) throw new SavedKeyUnreadableError(`endpoint "${e.name}": ${err.message}`);
    throw err;
  }
}

const ROLE_ORDER: readonly string[] = MODEL_ROLES;
const usedByRank = (name: string) => (ROLE_ORDER.includes(name) ? ROLE_ORDER.indexOf(name) : ROLE_ORDER.length);

export function listEndpoints(db: Db): PublicEndpoint[] {
  const users = db.select({ name: modelSettings.name, endpointId: modelSettings.endpointId }).from(modelSettings).all();
  return db
    .select({ id: endpoints.id })
    .from(endpoints)
    .orderBy(endpoints.name)
    .all()
    .map(({ id }) => {
      const { apiKeyEnc, ...e } = endpointById(db, id)!;
      let key: PublicEndpoint["key"] = "missing";
      if (apiKeyEnc) {
        try {
          decryptSecret(apiKeyEnc);
          key = "set";
        } catch (err) {
          if (!(err instanceof SavedKeyUnreadableError)) throw err;
          key = "unreadable";
        }
      }
      // Roles first in their fixed order, then named judges by name: the same list on every load.
      const usedBy = users
        .filter((u) => u.endpointId === id)
        .map((u) => u.name)
        .sort((a, b) => usedByRank(a) - usedByRank(b) || a.localeCompare(b));
      // Shown in plain text: a credential in a URL saved before they were refused is masked (base-url.ts).
      return { ...e, baseUrl: maskUrl(e.baseUrl), key, usedBy };
    });
}

export type EndpointInput = {
  name: string;
  baseUrl: string;
  /** undefined keeps the stored key; null or "" removes it; a string replaces it. */
  apiKey?: string | null;
  models?: string[] | null;
  concurrency?: number | null;
  rpm?: number | null;
  tpm?: number | null;
  timeoutMs?: number | null;
  jsonMode?: JsonMode;
  /** Serves the OpenAI Batch API; undefined keeps the stored mark (false for a new endpoint). */
  batchApi?: boolean;
};

const positive = (name: string, field: string, v: number | null | undefined, max: number) => {
  if (v == null) return null;
  if (!Number.isInteger(v) || v < 1 || v > max)
    throw new InvalidInputError(`endpoint "${name}": ${field} must be a whole number from 1 to ${max} (got ${v})`);
  return v;
};

/** Creates or updates (by name) an endpoint. */
export function saveEndpoint(db: Db, input: EndpointInput): number {
  const name = input.name.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}$/.test(name))
    throw new InvalidInputError(`endpoint name "${input.name}": letters, digits, space, . _ - (at most 60)`);
  const baseUrl = input.baseUrl.trim().replace(/\/+$/, "");
  checkBaseUrl(`endpoint "${name}"`, baseUrl);
  const values: Partial<typeof endpoints.$inferInsert> = {
    baseUrl,
    models: input.models?.length ? input.models : null,
    concurrency: positive(name, "in flight", input.concurrency, 1000),
    rpm: positive(name, "requests/min", input.rpm, 1_000_000),
    tpm: positive(name, "tokens/min", input.tpm, 1_000_000_000),
    timeoutMs: positive(name, "timeout (ms)", input.timeoutMs, 3_600_000),
    jsonMode: input.jsonMode ?? "off",
    updatedAt: Date.now(),
  };
  if (input.batchApi !== undefined) values.batchApi = input.batchApi;
  if (!JSON_MODES.includes(values.jsonMode!))
    throw new InvalidInputError(`endpoint "${name}": JSON mode "${values.jsonMode}" is not one of ${JSON_MODES.join(", ")}`);
  if (input.apiKey !== undefined) values.apiKeyEnc = input.apiKey?.trim() ? encryptSecret(input.apiKey.trim()) : null;
  // Choosing another JSON mode tries it afresh; saving the same one keeps a remembered fallback.
  const before = db.select({ jsonMode: endpoints.jsonMode }).from(endpoints).where(eq(endpoints.name, name)).get();
  if (!before || before.jsonMode !== values.jsonMode) Object.assign(values, { jsonModeFallback: null, jsonModeNote: null });
  const r = db
    .insert(endpoints)
    .values({ name, ...values, baseUrl })
    .onConflictDoUpdate({ target: endpoints.name, set: values })
    .returning({ id: endpoints.id })
    .get();
  return r.id;
}

/** Removes an endpoint; the roles pointing at it fall back to their own settings and the environment. */
export function deleteEndpoint(db: Db, name: string): void {
  db.$client.transaction(() => {
    const e = db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.name, name)).get();
    if (!e) throw new NotFoundError(`no endpoint "${name}"`);
    db.update(modelSettings).set({ endpointId: null }).where(eq(modelSettings.endpointId, e.id)).run();
    db.delete(endpoints).where(eq(endpoints.id, e.id)).run();
  })();
}

/** The id of the endpoint named `name`; a missing one is an error naming it. */
export function endpointIdByName(db: Db, name: string): number {
  const e = db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.name, name)).get();
  if (!e) throw new InvalidInputError(`no endpoint "${name}": define it first on Admin → Models`);
  return e.id;
}
