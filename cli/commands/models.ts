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

export function registerModels(program: Command): void {
  const models = program.command("models").description(SUMMARIES.models);
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
    .description("send one tiny request per configured role (and named judge) and print what answered")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const { checkAllModels } = await import("@/lib/llm/check");
      const results = await checkAllModels(getDb());
      if (o.json) console.log(JSON.stringify(results));
      else {
        for (const r of results) {
          const what =
            r.status === "ok"
              ? `ok in ${r.latencyMs} ms: ${JSON.stringify(r.reply)}`
              : r.status === "failed"
                ? `FAILED: ${r.error}`
                : "not configured";
          console.log(`${r.name.padEnd(16)} ${(r.model ?? "-").padEnd(24)} ${r.baseURL}  ${what}`);
        }
      }
      const bad = results.filter((r) => r.status === "failed");
      if (bad.length) throw new CliError(`${bad.map((r) => r.name).join(", ")} did not answer`);
      if (!results.some((r) => r.status === "ok")) throw new CliError("no model is configured (set OPENAI_BASE_URL and PAL_MODEL_<ROLE>)");
    });
}
