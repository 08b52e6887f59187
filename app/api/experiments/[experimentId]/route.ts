import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { startExperimentsWorker } from "@/lib/experiments/start-worker";
import { experimentProgress } from "@/lib/experiments/progress";
import { experimentResults } from "@/lib/experiments/results";
import { cancelExperimentBatches, controlExperiment } from "@/lib/experiments/service";
import { readJsonBody } from "@/lib/http/request";
import { idParam } from "@/lib/http/request";

type Ctx = { params: Promise<{ experimentId: string }> };

/**
 * Progress and results. `?only=progress` leaves the results out: the page polls that every 2 s while the
 * experiment runs, and aggregating every job's scores and ledger on each poll would be wasted work.
 */
export const GET = withRole<Ctx>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const db = getDb();
  const progress = experimentProgress(db, id);
  if (new URL(req.url).searchParams.get("only") === "progress") return NextResponse.json({ progress });
  return NextResponse.json({ progress, results: experimentResults(db, id) });
});

/** `{action: "pause" | "cancel" | "resume" | "retry-failed" | "cancel-batch"}`. */
export const POST = withRole<Ctx>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  const db = getDb();
  startExperimentsWorker(); // normally started with the server (instrumentation.ts); idempotent
  const body = await readJsonBody(req, 4096);
  // Cancelling the judge batches talks to the endpoint (async); the other actions are state changes.
  if ((body as { action?: unknown } | null)?.action === "cancel-batch") await cancelExperimentBatches(db, id);
  else await controlExperiment(db, id, body);
  return NextResponse.json({ progress: experimentProgress(db, id) });
});
