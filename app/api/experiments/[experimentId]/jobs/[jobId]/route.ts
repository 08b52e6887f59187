import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { starJob } from "@/lib/experiments/service";
import { getJob } from "@/lib/experiments/items";
import { readJsonBody } from "@/lib/http/request";
import { idParam } from "@/lib/http/request";

type Params = { params: Promise<{ experimentId: string; jobId: string }> };

/** The stored job and its score rows, as they are (the item page's "raw JSON"). */
export const GET = withRole<Params>(["admin", "researcher"], async (_req, { params }) => {
  const p = await params;
  return NextResponse.json(getJob(getDb(), idParam(p.experimentId, "experiment"), idParam(p.jobId, "job")));
});

/** `{starred: boolean, note?: string, tags?: string[]}`: collects the item in the experiment's case studies. */
export const PATCH = withRole<Params>(["admin", "researcher"], async (req, { params }) => {
  const p = await params;
  return NextResponse.json(
    starJob(getDb(), idParam(p.experimentId, "experiment"), idParam(p.jobId, "job"), await readJsonBody(req, 16 * 1024)),
  );
});
