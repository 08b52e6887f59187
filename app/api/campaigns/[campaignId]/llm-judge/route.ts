import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { getCampaign } from "@/lib/annotation";
import { deleteJudgeRun, estimateLlmJudge, judgeConfigChoices, llmJudgeRuns, startLlmJudge } from "@/lib/annotation/llm-judge";
import { judgeRequest, serverJudgeClient } from "@/lib/annotation/llm-judge/request";
import { startBatchJudge } from "@/lib/annotation/llm-judge/batch-run";
import { readJsonBody } from "@/lib/http/request";
import { cancelLlmJudge, resumeLlmJudge } from "@/lib/annotation/llm-judge/control";
import { InvalidInputError } from "@/lib/errors";
import { z } from "zod";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ campaignId: string }> };

/** GET → the campaign's LLM judge runs with live progress, and the judge configurations to pick from. */
export const GET = withRole<Ctx>(["admin", "researcher"], async (_req, { params }) => {
  const db = getDb();
  const id = Number((await params).campaignId);
  getCampaign(db, id);
  return NextResponse.json({ runs: llmJudgeRuns(db, id), choices: judgeConfigChoices(db) });
});

/** POST {modelConfig, temperature?, tieMargin?, seed?, dryRun?, batch?} → the estimate, or a run started in the background (202). */
export const POST = withRole<Ctx>(["admin", "researcher"], async (req, { params, user }) => {
  const db = getDb();
  const id = Number((await params).campaignId);
  const body = await readJsonBody(req, 16 * 1024); // a handful of options
  const { dryRun, batch, ...opts } = judgeRequest(body);
  const estimate = estimateLlmJudge(db, id, opts);
  if (dryRun) return NextResponse.json({ estimate });
  // Batch mode: the calls go to the endpoint's Batch API; the server polls it until the run is done.
  const started = batch
    ? await startBatchJudge(db, serverJudgeClient(db), id, opts, user.id)
    : startLlmJudge(db, serverJudgeClient(db), id, opts, user.id);
  return NextResponse.json({ estimate, ...started }, { status: 202 });
});

const controlBody = z.object({ run: z.number().int().positive(), action: z.enum(["resume", "cancel"]) }).strict();

/** PATCH {run, action: "resume" | "cancel"} → resumes a paused run with its recorded settings, or stops it (issue 44.3). */
export const PATCH = withRole<Ctx>(["admin", "researcher"], async (req, { params }) => {
  const db = getDb();
  const id = Number((await params).campaignId);
  getCampaign(db, id);
  const parsed = controlBody.safeParse(await readJsonBody(req, 1024));
  if (!parsed.success) throw new InvalidInputError(`${parsed.error.issues[0].path.join(".") || "body"}: ${parsed.error.issues[0].message}`);
  const { run, action } = parsed.data;
  const out = action === "resume" ? resumeLlmJudge(db, serverJudgeClient(db), id, run) : cancelLlmJudge(db, id, run);
  return NextResponse.json(out, { status: action === "resume" ? 202 : 200 });
});

/** DELETE ?run=<id> → removes that judge run (LLM or imported) with its verdicts; its calls stay in the ledger. */
export const DELETE = withRole<Ctx>(["admin", "researcher"], async (req, { params }) => {
  const id = Number((await params).campaignId);
  const run = Number(new URL(req.url).searchParams.get("run"));
  deleteJudgeRun(getDb(), id, run);
  return NextResponse.json({ deleted: run });
});
