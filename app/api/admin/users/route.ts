import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { createUser, listUsers, UserError } from "@/lib/users/users";

export const GET = withRole(["admin"], () => NextResponse.json(listUsers(getDb())));

export const POST = withRole(["admin"], async (req) => {
  const body = await req.json().catch(() => null);
  if (!body || typeof body !== "object") return NextResponse.json({ error: "body: expected a JSON object" }, { status: 400 });
  try {
    return NextResponse.json(await createUser(getDb(), body), { status: 201 });
  } catch (e) {
    if (e instanceof UserError) return NextResponse.json({ error: e.message }, { status: 400 });
    throw e;
  }
});
