import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { deleteMark } from "@/lib/experiments/marks";
import { idParam } from "@/lib/http/request";

/** Removes a mark: its author's or, for an admin, anyone's. */
export const DELETE = withRole<{ params: Promise<{ experimentId: string; markId: string }> }>(
  ["admin", "researcher"],
  async (_req, { params, user }) => {
    const p = await params;
    deleteMark(getDb(), idParam(p.experimentId, "experiment"), idParam(p.markId, "mark"), user);
    return NextResponse.json({ ok: true });
  },
);
