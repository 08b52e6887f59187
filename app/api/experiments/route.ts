import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { startExperimentsWorker } from "@/lib/experiments/start-worker";
import { listExperiments } from "@/lib/experiments/results";
import { LAUNCH_BODY_LIMIT, estimateOrLaunch } from "@/lib/experiments/service";
import { readJsonBody } from "@/lib/http/request";

export const GET = withRole(["admin", "researcher"], () => NextResponse.json(listExperiments(getDb())));

/**
 * `{datasetId, config, name?, dryRun?}`: the estimate (dry run), or a new experiment ("preparing": the
 * server creates its jobs in the background, then its worker runs them). Over a limit: 400 naming it;
 * too many launches: 429; a body over 64 KB: 413.
 */
export const POST = withRole(["admin", "researcher"], async (req, { user }) => {
  startExperimentsWorker(); // normally started with the server (instrumentation.ts); idempotent
  const r = estimateOrLaunch(getDb(), await readJsonBody(req, LAUNCH_BODY_LIMIT), user.id);
  return NextResponse.json(r, { status: r.experiment ? 201 : 200 });
});
