import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { importJudgeVerdicts, MAX_VERDICT_UPLOAD_BYTES } from "@/lib/annotation";
import { InvalidInputError } from "@/lib/errors";
import { readMultipartForm } from "@/lib/http/multipart";
import { idParam } from "@/lib/http/request";
import { decodeUtf8 } from "@/lib/utf8";

export const dynamic = "force-dynamic";

/**
 * POST multipart {name, model?, file} → a judge run with the file's verdicts. The form is streamed
 * (files up to 200 MB; this route is outside proxy.ts's matcher, which would cut it at 10 MB).
 */
export const POST = withRole<{ params: Promise<{ campaignId: string }> }>(
  ["admin", "researcher"],
  async (req, { params, user }) => {
    const id = idParam((await params).campaignId, "campaign");
    const form = await readMultipartForm(req, { fileField: "file", maxFileBytes: MAX_VERDICT_UPLOAD_BYTES, what: "a verdicts file" });
    const file = form.file;
    if (!file || file.bytes.length === 0) throw new InvalidInputError("file: choose a JSONL file of verdicts");
    const r = importJudgeVerdicts(
      getDb(),
      id,
      {
        name: String(form.get("name") ?? ""),
        model: String(form.get("model") ?? "") || undefined,
        fileName: file.name,
        text: decodeUtf8(file.bytes, file.name),
      },
      user.id,
    );
    return NextResponse.json(r, { status: 201 });
  },
  { accepts: ["multipart/form-data"] },
);
