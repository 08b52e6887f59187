/**
 * The judges' view of the one model client: every call carries the judge run as its ledger origin, uses the
 * run's model configuration and temperature, and goes through the client's cache, retries and validation.
 */
import type { ModelClient } from "@/lib/llm";
import type { JudgeModel, JudgeRequest } from "@/lib/judges/judge";

export function judgeModel(
  client: ModelClient,
  runId: number,
  modelConfig: string,
  temperature: number,
  /** More judge parameters (a campaign made from an experiment: its budget and cut-off rule, ./experiment-params.ts). */
  params: Record<string, unknown> = {},
): JudgeModel {
  // One role-bound handle for the run (as an experiment's): its temperature travels with every call.
  const llm = client.forRun({ judge: { ...params, temperature } }).withOrigin({ judgeRunId: runId });
  const base = (c: JudgeRequest) => ({
    role: "judge" as const,
    config: modelConfig,
    purpose: c.purpose,
    replicate: c.replicate,
    language: c.language,
  });
  return {
    async json(c) {
      const r = await llm.chat({ ...base(c), messages: c.messages, schema: c.schema });
      return { value: r.value, raw: r.text };
    },
    async text(c) {
      // The client parses the reply and asks again with what was wrong, as it does for JSON.
      const r = await llm.chat({ ...base(c), messages: c.messages, parse: c.parse });
      return { value: r.value, raw: r.text };
    },
  };
}
