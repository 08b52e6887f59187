import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { createCampaign } from "@/lib/annotation";
import { newCampaignFromForm } from "@/lib/annotation/form";
import { InvalidInputError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** POST multipart form → a new campaign with its items and assignments (one transaction). */
export const POST = withRole(
  ["admin", "researcher"],
  async (req, { user }) => {
    const form = await req.formData().catch(() => {
      throw new InvalidInputError("expected a multipart form");
    });
    const created = createCampaign(getDb(), await newCampaignFromForm(form), user.id);
    return NextResponse.json(created, { status: 201 });
  },
  { accepts: ["multipart/form-data"] },
);
