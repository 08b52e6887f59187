import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { whileBusy } from "@/lib/db-busy";
import { serveNext } from "@/lib/annotation/participants";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ token: string }> };

/**
 * POST {} → the participant's next item ({assignmentId}) or where to go ({url}): what the work page does
 * per item, without rendering a page. Only a participant of this link (another link: 403).
 */
export const POST = withRole<Ctx>(["participant"], async (_req, { params, user }) => {
  const { token } = await params;
  return NextResponse.json(await whileBusy(() => serveNext(getDb(), user.id, token)));
});
