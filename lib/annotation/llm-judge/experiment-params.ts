/**
 * A campaign made from an experiment is judged with the experiment's own judge budget and cut-off rule (its
 * preset's max_tokens, "as-returned"), so the judge run asks exactly the experiment's requests and the cache
 * answers them: the run's verdicts, at no new cost. The temperature and model stay the judge run's settings.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { experiments } from "@/db/schema";
import { experimentConfigSchema } from "@/lib/experiments/config";
import { runRoleParams } from "@/lib/experiments/job-model";
import { getCampaign } from "../campaigns";

export function experimentJudgeParams(db: Db, campaignId: number): Record<string, unknown> {
  const c = getCampaign(db, campaignId);
  if (c.source !== "experiment") return {};
  const id = Number((c.config as { experimentId?: unknown } | null)?.experimentId);
  const e = Number.isInteger(id)
    ? db.select({ config: experiments.config }).from(experiments).where(eq(experiments.id, id)).get()
    : undefined;
  const parsed = e ? experimentConfigSchema.safeParse(e.config) : null;
  if (!parsed?.success) return {};
  const { temperature: _t, model: _m, ...rest } = runRoleParams(parsed.data).judge ?? {};
  return rest;
}
