import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { startExperimentsWorker } from "@/lib/jobs/bind";
import { listExperiments } from "@/lib/jobs/results";
import { estimateOrLaunch } from "@/lib/jobs/service";
import { readJsonBody } from "@/lib/http/request";

export const GET = withRole(["admin", "researcher"], () => NextResponse.json(listExperiments(getDb())));

/** `{datasetId, config, name?, dryRun?}`: the estimate (dry run), or a new experiment handed to the server's worker. */
export const POST = withRole(["admin", "researcher"], async (req, { user }) => {
  startExperimentsWorker(); // normally started with the server (instrumentation.ts); idempotent
  const r = estimateOrLaunch(getDb(), await readJsonBody(req, 256 * 1024), user.id);
  return NextResponse.json(r, { status: r.experiment ? 201 : 200 });
});
