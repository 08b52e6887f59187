import { rememberSecret } from "./redact";
import { checkBaseUrl, maskUrl } from "./base-url";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { modelSettings, MODEL_ROLES, type ModelRole } from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { SavedKeyUnreadableError, decryptSecret, encryptSecret } from "./secrets";
import { envValue, roleEnv } from "@/lib/config";
import { effectiveJsonMode, endpointById, endpointKey, type EndpointLimits } from "./endpoints";
import { JSON_MODES, type JsonMode } from "@/db/schema";

/**
 * Where each role's model lives. The environment gives the defaults (OPENAI_BASE_URL,
 * OPENAI_API_KEY, PAL_MODEL_<ROLE>, and per role PAL_<ROLE>_BASE_URL / PAL_<ROLE>_API_KEY); a
 * model_settings row (Admin → Models) overrides field by field. A named judge ("judge:gscore")
 * falls back to the judge role, then to the environment.
 */
export type ModelConfig = {
  /** A role or "judge:<name>". */
  name: string;
  role: ModelRole;
  baseURL: string;
  apiKey: string | null;
  model: string;
  params: Record<string, unknown>;
  /**
   * How to ask for JSON when a call expects it (response_format). On a defined endpoint: its mode
   * ("json_schema" sends the call's schema), or where a refusal left it (remembered in the database).
   * Otherwise the settings' params `{"json_mode": "json_schema"}` (true: "json_object") or
   * PAL_<ROLE>_JSON_MODE=off|json_object|json_schema (1/true: json_object), and an endpoint that refuses it (HTTP 400) is asked without it for the rest of the process (the ledger notes it).
   */
  jsonMode: JsonMode;
  /**
   * Output tokens added to every call's budget (the params' `max_tokens_headroom`, not sent): room for
   * a reasoning model's thinking. Null: added automatically once the model is seen thinking (max-tokens.ts).
   */
  maxTokensHeadroom?: number | null;
  /**
   * The defined endpoint the configuration points at (its URL, key, timeout and JSON mode are the
   * ones above), with the limits the client honours; null: the row's own fields and the environment.
   */
  endpoint: EndpointLimits | null;
};

/** What the admin page may show: never the key, only where it comes from. */
export type PublicModelConfig = {
  name: string;
  role: ModelRole;
  baseURL: string;
  baseURLFrom: Source;
  model: string | null;
  modelFrom: Source;
  /** "unreadable": a key is saved but the current encryption key cannot decrypt it (re-enter it). */
  key: "set" | "from env" | "missing" | "unreadable";
  /** Why the key is unreadable. */
  keyError?: string;
  params: Record<string, unknown>;
  /**
   * The defined endpoint it points at (set on this row, or inherited from the judge role), and whether
   * the admin marked it as serving the Batch API.
   */
  endpoint: { id: number; name: string; inherited: boolean; batchApi: boolean } | null;
};
type Source = "settings" | "env" | "default" | "none" | "endpoint";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

const envRole = (role: ModelRole) => role.toUpperCase().replace(/-/g, "_");

export function isModelRole(s: string): s is ModelRole {
  return (MODEL_ROLES as readonly string[]).includes(s);
}

/** "judge:gscore" → judge; a bare role → itself. */
export function roleOf(name: string): ModelRole {
  const role = name.includes(":") ? name.slice(0, name.indexOf(":")) : name;
  if (!isModelRole(role))
    throw new InvalidInputError(`model configuration "${name}": unknown role "${role}" (expected ${MODEL_ROLES.join(", ")})`);
  if (name.includes(":") && role !== "judge")
    throw new InvalidInputError(`model configuration "${name}": only judges have named configurations`);
  if (name.includes(":") && !/^judge:[a-z0-9][a-z0-9_-]{0,40}$/.test(name)) {
    throw new InvalidInputError(`model configuration "${name}": a judge name is lower-case letters, digits, - or _`);
  }
  return role;
}

type Row = Pick<typeof modelSettings.$inferSelect, "name" | "baseUrl" | "apiKeyEnc" | "model" | "params" | "endpointId">;

// Read on every model call: a compiled statement rather than a query built each time.
function rows(db: Db): Map<string, Row> {
  const raw = stmt(
    db,
    "SELECT name, base_url AS baseUrl, api_key_enc AS apiKeyEnc, model, params, endpoint_id AS endpointId FROM model_settings",
  ).all() as Array<Omit<Row, "params"> & { params: string | null }>;
  return new Map(raw.map((r) => [r.name, { ...r, params: r.params === null ? null : (JSON.parse(r.params) as Record<string, unknown>) }]));
}

function envDefaults(role: ModelRole) {
  const baseURL = roleEnv(role, "BASE_URL") ?? envValue("OPENAI_BASE_URL");
  const apiKey = roleEnv(role, "API_KEY") ?? envValue("OPENAI_API_KEY");
  rememberSecret(apiKey); // masked in stored error text (redact.ts)
  return { baseURL, apiKey, model: roleEnv(role, "MODEL") };
}

function layered(db: Db, name: string) {
  const role = roleOf(name);
  const all = rows(db);
  // The most specific first: the named judge, then its role.
  const chain = [all.get(name), name === role ? undefined : all.get(role)].filter((x): x is Row => !!x);
  const env = envDefaults(role);
  const pick = <K extends "baseUrl" | "model" | "apiKeyEnc">(k: K) => chain.find((r) => r[k])?.[k] ?? null;
  // A defined endpoint replaces URL, key, timeout and JSON mode as a whole (the most specific row's).
  const endpointId = chain.find((r) => r.endpointId != null)?.endpointId ?? null;
  const endpoint = endpointId === null ? null : endpointById(db, endpointId);
  const endpointInherited = endpoint !== null && chain[0]?.endpointId !== endpointId;
  return { role, chain, env, endpoint, endpointInherited, baseUrl: pick("baseUrl"), model: pick("model"), apiKeyEnc: pick("apiKeyEnc") };
}

/** A saved key in plain text; an undecryptable one is an error naming the configuration. */
function savedKey(name: string, enc: string): string {
  try {
    return decryptSecret(enc);
  } catch (e) {
    if (e instanceof SavedKeyUnreadableError) throw new SavedKeyUnreadableError(`${name}: ${e.message}`);
    throw e;
  }
}

/** Whether a saved key can be decrypted (for the admin page), without returning it. */
function keyProblem(enc: string): string | undefined {
  try {
    decryptSecret(enc);
    return undefined;
  } catch (e) {
    if (e instanceof SavedKeyUnreadableError) return e.message;
    throw e;
  }
}

/**
 * The JSON mode of a configuration without a defined endpoint: the settings' `json_mode` param
 * (true or a mode name), else PAL_<ROLE>_JSON_MODE; a value that names no mode is refused, naming it.
 */
export function roleJsonMode(name: string, param: unknown, env: string | undefined): JsonMode {
  const pick = (v: unknown, where: string): JsonMode | null => {
    if (v === undefined || v === null || v === false || v === "") return null;
    if (v === true || v === "1" || v === "true") return "json_object";
    if (v === "0" || v === "false") return "off";
    if (typeof v === "string" && (JSON_MODES as readonly string[]).includes(v)) return v as JsonMode;
    throw new InvalidInputError(`${name}: ${where} "${String(v)}" is not a JSON mode (expected ${JSON_MODES.join(", ")})`);
  };
  return pick(param, "json_mode") ?? pick(env, `PAL_${envRole(roleOf(name))}_JSON_MODE`) ?? "off";
}

/** The configuration a call uses; throws when no model name is configured anywhere. */
export function resolveModelConfig(db: Db, name: string): ModelConfig {
  const l = layered(db, name);
  const model = l.model ?? l.env.model;
  if (!model) {
    throw new InvalidInputError(`no model configured for "${name}": set PAL_MODEL_${envRole(l.role)} or choose one in Admin → Models`);
  }
  const {
    json_mode: jsonMode,
    max_tokens_headroom: headroom,
    ...params
  } = Object.assign({}, ...[...l.chain].reverse().map((r) => r.params ?? {})) as Record<string, unknown>;
  const maxTokensHeadroom = typeof headroom === "number" && Number.isInteger(headroom) && headroom >= 0 ? headroom : null;
  const e = l.endpoint;
  // A credential in the URL (saved before they were refused, or from the environment) would be sent
  // to the ledger, shown and backed up: refused here too, naming where the URL comes from.
  if (e) checkBaseUrl(`endpoint "${e.name}"`, e.baseUrl);
  else if (l.baseUrl) checkBaseUrl(name, l.baseUrl);
  else if (l.env.baseURL) checkBaseUrl(`${name} (OPENAI_BASE_URL or PAL_${envRole(l.role)}_BASE_URL)`, l.env.baseURL);
  if (e) {
    return {
      name,
      role: l.role,
      baseURL: e.baseUrl,
      apiKey: endpointKey(e),
      model,
      params,
      // The endpoint's mode replaces the row's, as its URL and key do.
      jsonMode: effectiveJsonMode(e),
      maxTokensHeadroom,
      endpoint: { id: e.id, name: e.name, concurrency: e.concurrency, rpm: e.rpm, tpm: e.tpm, timeoutMs: e.timeoutMs },
    };
  }
  return {
    name,
    role: l.role,
    baseURL: (l.baseUrl ?? l.env.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, ""),
    apiKey: l.apiKeyEnc ? savedKey(name, l.apiKeyEnc) : (l.env.apiKey ?? null),
    model,
    params,
    jsonMode: roleJsonMode(name, jsonMode, roleEnv(l.role, "JSON_MODE")),
    maxTokensHeadroom,
    endpoint: null,
  };
}

/** The four roles plus every named judge, as the admin page shows them (no secrets). */
export function listModelConfigs(db: Db): PublicModelConfig[] {
  const names = [...MODEL_ROLES, ...[...rows(db).keys()].filter((n) => n.startsWith("judge:")).sort()];
  return names.map((name) => {
    const l = layered(db, name);
    const e = l.endpoint;
    const enc = e ? e.apiKeyEnc : l.apiKeyEnc;
    const keyError = enc ? keyProblem(enc) : undefined;
    return {
      name,
      role: l.role,
      // Shown in plain text (Admin → Models, `pal models`): a credential in it is masked (base-url.ts).
      baseURL: maskUrl(e ? e.baseUrl : (l.baseUrl ?? l.env.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, "")),
      baseURLFrom: e ? "endpoint" : l.baseUrl ? "settings" : l.env.baseURL ? "env" : "default",
      model: l.model ?? l.env.model ?? null,
      modelFrom: l.model ? "settings" : l.env.model ? "env" : "none",
      key: enc ? (keyError ? "unreadable" : "set") : !e && l.env.apiKey ? "from env" : "missing",
      ...(keyError ? { keyError } : {}),
      params: Object.assign({}, ...[...l.chain].reverse().map((r) => r.params ?? {})),
      endpoint: e ? { id: e.id, name: e.name, inherited: l.endpointInherited, batchApi: e.batchApi } : null,
    };
  });
}

/**
 * Whether the configuration's calls go to a defined endpoint the admin marked as serving the Batch API.
 * False for one on its own URL or the environment: nothing says whether that serves /v1/batches (a batch
 * run there is still allowed; a refused batch falls back to online calls).
 */
export function onBatchApiEndpoint(db: Db, name: string): boolean {
  return layered(db, name).endpoint?.batchApi === true;
}

export type ModelSettingInput = {
  name: string;
  baseUrl?: string | null;
  model?: string | null;
  /** undefined keeps the stored key; null or "" removes it; a string replaces it. */
  apiKey?: string | null;
  params?: Record<string, unknown> | null;
  /** undefined keeps the stored choice; null points at no endpoint; a number at that endpoint. */
  endpointId?: number | null;
};

/** Saves an override (empty strings mean "use the default"). */
export function saveModelSetting(db: Db, input: ModelSettingInput): void {
  const role = roleOf(input.name);
  const clean = (s: string | null | undefined) => (s == null || s.trim() === "" ? null : s.trim());
  const baseUrl = clean(input.baseUrl);
  if (baseUrl) checkBaseUrl(input.name, baseUrl);
  const values: Partial<typeof modelSettings.$inferInsert> = {
    baseUrl,
    model: clean(input.model),
    params: input.params ?? null,
    updatedAt: Date.now(),
  };
  if (input.apiKey !== undefined) values.apiKeyEnc = clean(input.apiKey) ? encryptSecret(input.apiKey!.trim()) : null;
  if (input.endpointId !== undefined) values.endpointId = input.endpointId;
  db.insert(modelSettings)
    .values({ name: input.name, role, ...values })
    .onConflictDoUpdate({ target: modelSettings.name, set: values })
    .run();
}

/** Removes an override (a named judge disappears; a role returns to the environment). */
export function deleteModelSetting(db: Db, name: string): void {
  const r = db.delete(modelSettings).where(eq(modelSettings.name, name)).run();
  if (r.changes === 0) throw new NotFoundError(`no saved settings for "${name}"`);
}
