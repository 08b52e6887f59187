import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { importJudgeVerdicts } from "@/lib/annotation";
import { InvalidInputError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** POST multipart {name, model?, file} → a judge run with the file's verdicts. */
export const POST = withRole<{ params: Promise<{ campaignId: string }> }>(
  ["admin", "researcher"],
  async (req, { params, user }) => {
    const id = Number((await params).campaignId);
    const form = await req.formData().catch(() => {
      throw new InvalidInputError("expected a multipart form");
    });
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new InvalidInputError("file: choose a JSONL file of verdicts");
    const r = importJudgeVerdicts(
      getDb(),
      id,
      {
        name: String(form.get("name") ?? ""),
        model: String(form.get("model") ?? "") || undefined,
        fileName: file.name,
        text: await file.text(),
      },
      user.id,
    );
    return NextResponse.json(r, { status: 201 });
  },
  { accepts: ["multipart/form-data"] },
);
