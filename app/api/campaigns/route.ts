import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { whileBusy } from "@/lib/db-busy";
import { createCampaign } from "@/lib/annotation";
import { MAX_CAMPAIGN_UPLOAD_BYTES, newCampaignFromForm } from "@/lib/annotation/form";
import { readMultipartForm } from "@/lib/http/multipart";

export const dynamic = "force-dynamic";

/**
 * POST multipart form → a new campaign with its items and assignments (one transaction). The form is
 * streamed (files up to 200 MB; this route is outside proxy.ts's matcher, which would cut it at 10 MB).
 */
export const POST = withRole(
  ["admin", "researcher"],
  async (req, { user }) => {
    const form = await readMultipartForm(req, { fileField: "file", maxFileBytes: MAX_CAMPAIGN_UPLOAD_BYTES, what: "a campaign file" });
    const input = newCampaignFromForm(form);
    const created = await whileBusy(() => createCampaign(getDb(), input, user.id));
    return NextResponse.json(created, { status: 201 });
  },
  { accepts: ["multipart/form-data"] },
);
