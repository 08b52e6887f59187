/**
 * `pal models add|set`: an endpoint defined or changed from the command line, as Admin → Models does,
 * and the roles or named judges pointed at it. The key is never typed on the command line (it would
 * stay in the shell's history): it is read from an environment variable the user names.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { modelSettings, type JsonMode } from "@/db/schema";
import { envNamed } from "@/lib/config";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { endpointById, saveEndpoint, type EndpointInput } from "./endpoints";
import { roleOf, saveModelSetting } from "./config";

export type EndpointEdit = {
  name: string;
  baseUrl?: string;
  /** The name of the environment variable holding the key. */
  keyEnv?: string;
  models?: string[];
  concurrency?: number;
  rpm?: number;
  tpm?: number;
  timeoutMs?: number;
  jsonMode?: JsonMode;
  batchApi?: boolean;
  /** Roles or named judges that use the endpoint from now on, each with its model name when given ("judge=qwen3-32b"). */
  useFor?: Array<{ config: string; model?: string }>;
};

/** "assistant=qwen3-32b,judge:strict,embedding=bge-m3" → the configurations and their models. */
export function parseUseFor(raw: string): Array<{ config: string; model?: string }> {
  return raw
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => {
      const i = x.indexOf("=");
      const config = (i < 0 ? x : x.slice(0, i)).trim();
      const model = i < 0 ? undefined : x.slice(i + 1).trim();
      roleOf(config); // refuses an unknown role, naming it
      if (model === "") throw new InvalidInputError(`--use-for: "${x}" names no model after "="`);
      return { config, ...(model ? { model } : {}) };
    });
}

/**
 * Defines (`add`) or changes (`set`) the endpoint `e.name`, then points `e.useFor` at it, in one
 * transaction. `set` changes only the fields given. Returns the endpoint's id.
 */
export function editEndpoint(db: Db, mode: "add" | "set", e: EndpointEdit): number {
  let apiKey: string | undefined;
  if (e.keyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.keyEnv)) throw new InvalidInputError(`--key-env: "${e.keyEnv}" is not a variable name`);
    apiKey = envNamed(e.keyEnv);
    if (apiKey === undefined) throw new InvalidInputError(`--key-env: the environment variable ${e.keyEnv} is not set`);
  }
  return db.$client.transaction(() => {
    const row = db.$client.prepare("SELECT id FROM endpoints WHERE name = ?").get(e.name.trim()) as { id: number } | undefined;
    const before = row ? endpointById(db, row.id) : null;
    if (mode === "add" && before) throw new ConflictError(`endpoint "${e.name}" exists: change it with pal models set "${e.name}" ...`);
    if (mode === "set" && !before)
      throw new NotFoundError(`no endpoint "${e.name}": define it with pal models add "${e.name}" --base-url URL`);
    if (mode === "add" && !e.baseUrl) throw new InvalidInputError("--base-url is required to add an endpoint");
    const input: EndpointInput = {
      name: e.name,
      baseUrl: e.baseUrl ?? before!.baseUrl,
      apiKey,
      models: e.models ?? before?.models ?? null,
      concurrency: e.concurrency ?? before?.concurrency ?? null,
      rpm: e.rpm ?? before?.rpm ?? null,
      tpm: e.tpm ?? before?.tpm ?? null,
      timeoutMs: e.timeoutMs ?? before?.timeoutMs ?? null,
      jsonMode: e.jsonMode ?? before?.jsonMode ?? "off",
      batchApi: e.batchApi,
    };
    const id = saveEndpoint(db, input);
    for (const u of e.useFor ?? []) {
      // The row's other fields (its params, its own model) are kept.
      const own = db.select().from(modelSettings).where(eq(modelSettings.name, u.config)).get();
      saveModelSetting(db, {
        name: u.config,
        baseUrl: own?.baseUrl ?? null,
        model: u.model ?? own?.model ?? null,
        params: own?.params ?? null,
        endpointId: id,
      });
    }
    return id;
  })();
}
