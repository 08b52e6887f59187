import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { starJob } from "@/lib/jobs/service";
import { readJsonBody } from "@/lib/http/request";
import { idParam } from "@/lib/http/request";

/** `{starred: boolean, note?: string, tags?: string[]}`: collects the item in the experiment's case studies. */
export const PATCH = withRole<{ params: Promise<{ experimentId: string; jobId: string }> }>(
  ["admin", "researcher"],
  async (req, { params }) => {
    const p = await params;
    return NextResponse.json(
      starJob(getDb(), idParam(p.experimentId, "experiment"), idParam(p.jobId, "job"), await readJsonBody(req, 16 * 1024)),
    );
  },
);
