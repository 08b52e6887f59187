import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { addMark } from "@/lib/experiments/marks";
import { idParam, readJsonBody } from "@/lib/http/request";

/** A highlighted passage of a case study: `{task, itemKey, block, start, end, quote, colour, note?}`, by the signed-in user. */
export const POST = withRole<{ params: Promise<{ experimentId: string }> }>(["admin", "researcher"], async (req, { params, user }) => {
  const id = idParam((await params).experimentId, "experiment");
  return NextResponse.json({ mark: addMark(getDb(), id, user.id, await readJsonBody(req, 16 * 1024)) }, { status: 201 });
});
