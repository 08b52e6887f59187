import type { Command } from "commander";
import { SUMMARIES } from "./summaries";
import { getDb } from "@/db/client";
import { CliError } from "../errors";
import type { PublicModelConfig } from "@/lib/llm/config";
import type { PublicEndpoint } from "@/lib/llm/endpoints";

// Library modules load inside the actions: other commands need not load the model client.

const limit = (v: number | null, unit: string, none: string) => (v === null ? none : `${v.toLocaleString("en-US")} ${unit}`);

/**
 * One endpoint in a few lines: where, its limits, its JSON mode (and fallback), whether it is marked as serving
 * the Batch API, who uses it. Never the key, only whether one is saved.
 */
export function describeEndpoint(e: PublicEndpoint): string {
  const json = e.jsonModeFallback ? `${e.jsonMode}, now ${e.jsonModeFallback} (${e.jsonModeNote})` : e.jsonMode;
  return [
    `${e.name}  ${e.baseUrl}`,
    `  in flight ${limit(e.concurrency, "", "PAL_LLM_CONCURRENCY per process").trim()} · ${limit(e.rpm, "requests/min", "no requests/min limit")} · ${limit(
      e.tpm,
      "tokens/min",
      "no tokens/min limit",
    )} · timeout ${limit(e.timeoutMs, "ms", "PAL_LLM_TIMEOUT_MS")}`,
    `  JSON mode ${json} · key ${e.key}${e.models?.length ? ` · models ${e.models.join(", ")}` : ""} · Batch API ${e.batchApi ? "yes" : "no"}`,
    `  used by ${e.usedBy.length ? e.usedBy.join(", ") : "no role yet"}`,
  ].join("\n");
}

/** A role or named judge: its model and where it goes (an endpoint by name). */
export function describeConfig(c: PublicModelConfig): string {
  const where = c.endpoint
    ? `endpoint ${c.endpoint.name}${c.endpoint.inherited ? " (from the judge role)" : ""}`
    : `${c.baseURL} (${c.baseURLFrom})`;
  return `${c.name.padEnd(16)} ${(c.model ?? "-").padEnd(24)} ${where} · key ${c.key}`;
}

type EditFlags = {
  baseUrl?: string;
  keyEnv?: string;
  models?: string;
  concurrency?: string;
  rpm?: string;
  tpm?: string;
  timeout?: string;
  jsonMode?: string;
  batchApi?: boolean;
  useFor?: string;
  json?: boolean;
};

const whole = (v: string | undefined, flag: string) => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new CliError(`${flag}: "${v}" is not a positive whole number`);
  return Number(v);
};

/** `pal models add|set NAME ...`: the flags both take. */
function editCommand(models: Command, mode: "add" | "set", what: string): void {
  models
    .command(`${mode} <name>`)
    .description(what)
    .option("--base-url <url>", "the OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1")
    .option("--key-env <VAR>", "the environment variable holding the API key (read now, saved encrypted; never typed on the command line)")
    .option("--models <m,...>", "the models it serves (for reference)")
    .option("--concurrency <n>", "requests in flight at once")
    .option("--rpm <n>", "requests per minute, across processes")
    .option("--tpm <n>", "tokens per minute, across processes")
    .option("--timeout <seconds>", "timeout of one request (default PAL_LLM_TIMEOUT_MS, 120 s); a timed-out request is retried once")
    .option("--json-mode <mode>", "off, json_object or json_schema: how calls that expect JSON ask for it")
    .option("--batch-api", "it serves the OpenAI Batch API")
    .option(
      "--use-for <role[=model],...>",
      "point roles or named judges at it, each with its model, e.g. assistant=qwen3-32b,judge=qwen3-32b",
    )
    .option("--json", "print the endpoint as JSON")
    .action(async (name: string, o: EditFlags) => {
      const { editEndpoint, parseUseFor } = await import("@/lib/llm/endpoint-edit");
      const { listEndpoints } = await import("@/lib/llm/endpoints");
      const db = getDb();
      const timeout = whole(o.timeout, "--timeout");
      const id = editEndpoint(db, mode, {
        name,
        baseUrl: o.baseUrl,
        keyEnv: o.keyEnv,
        models: o.models
          ?.split(",")
          .map((m) => m.trim())
          .filter(Boolean),
        concurrency: whole(o.concurrency, "--concurrency"),
        rpm: whole(o.rpm, "--rpm"),
        tpm: whole(o.tpm, "--tpm"),
        timeoutMs: timeout === undefined ? undefined : timeout * 1000,
        jsonMode: o.jsonMode as never,
        batchApi: o.batchApi,
        useFor: o.useFor ? parseUseFor(o.useFor) : undefined,
      });
      const e = listEndpoints(db).find((x) => x.id === id)!;
      if (o.json) console.log(JSON.stringify(e));
      else console.log(`${mode === "add" ? "added" : "changed"} ${describeEndpoint(e)}`);
    });
}

export function registerModels(program: Command): void {
  const models = program.command("models").description(SUMMARIES.models);
  editCommand(models, "add", "define an endpoint: URL, key (from an environment variable), models, limits, timeout, JSON mode");
  editCommand(models, "set", "change an endpoint: only the flags given (the same as for add)");
  models
    .command("list", { isDefault: true })
    .description("the defined endpoints (URL, limits, JSON mode, Batch API, who uses them) and each role's model; keys are never printed")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const { listModelConfigs } = await import("@/lib/llm/config");
      const { listEndpoints } = await import("@/lib/llm/endpoints");
      const db = getDb();
      const endpoints = listEndpoints(db);
      const roles = listModelConfigs(db).map(({ keyError: _k, ...c }) => c);
      if (o.json) {
        console.log(JSON.stringify({ endpoints, roles }));
        return;
      }
      console.log("Endpoints");
      if (!endpoints.length) console.log("  none defined (Admin → Models)");
      for (const e of endpoints) console.log(describeEndpoint(e).replace(/^/gm, "  "));
      console.log("\nRoles and judges");
      for (const c of roles) console.log(`  ${describeConfig(c)}`);
    });
  models
    .command("check")
    .description(
      "send one JSON-mode request per configured role (and named judge) and one embedding pair whose cosines must be sane; print what answered",
    )
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const { checkAllModels } = await import("@/lib/llm/check");
      const results = await checkAllModels(getDb());
      if (o.json) console.log(JSON.stringify(results));
      else {
        for (const r of results) {
          const what =
            r.status === "ok"
              ? `ok in ${r.latencyMs} ms: ${r.reply}`
              : r.status === "failed"
                ? `FAILED: ${r.error}${r.notes?.length ? ` · ${r.notes.join(" · ")}` : ""}`
                : "not configured";
          console.log(`${r.name.padEnd(16)} ${(r.model ?? "-").padEnd(24)} ${r.baseURL}  ${what}`);
        }
      }
      const bad = results.filter((r) => r.status === "failed");
      if (bad.length) throw new CliError(`${bad.map((r) => r.name).join(", ")} did not answer`);
      if (!results.some((r) => r.status === "ok")) throw new CliError("no model is configured (set OPENAI_BASE_URL and PAL_MODEL_<ROLE>)");
    });
}
