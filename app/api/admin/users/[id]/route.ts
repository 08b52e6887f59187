import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/db/client";
import { ACCOUNT_ROLES } from "@/db/schema";
import { withRole } from "@/lib/auth/session";
import { getUser, updateUser } from "@/lib/users/users";

const patchSchema = z
  .object({ role: z.enum(ACCOUNT_ROLES).optional(), disabled: z.boolean().optional() })
  .strict()
  .refine((p) => p.role !== undefined || p.disabled !== undefined, { error: "give role and/or disabled" });

export const PATCH = withRole<{ params: Promise<{ id: string }> }>(["admin"], async (req, { params, user }) => {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || !getUser(getDb(), id)) return NextResponse.json({ error: "no such user" }, { status: 404 });
  const parsed = patchSchema.safeParse(await req.json().catch(() => null));
  if (!parsed.success)
    return NextResponse.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  return NextResponse.json(updateUser(getDb(), id, parsed.data, user.id));
});
