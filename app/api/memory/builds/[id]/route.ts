import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { getMemoryBuild } from "@/lib/assistants/core/build-jobs";
import { InvalidInputError } from "@/lib/errors";

/** The progress of one background memory build (polled by the Memory page's progress bar). */
export const GET = withRole<{ params: Promise<{ id: string }> }>(["admin", "researcher"], async (_req, { params }) => {
  const id = Number((await params).id);
  if (!Number.isInteger(id)) throw new InvalidInputError("build id must be an integer");
  return NextResponse.json(getMemoryBuild(getDb(), id));
});
