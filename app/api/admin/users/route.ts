import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { createUser, listUsers } from "@/lib/users/users";

export const GET = withRole(["admin"], () => NextResponse.json(listUsers(getDb())));

export const POST = withRole(["admin"], async (req) => {
  const body = await req.json().catch(() => null);
  if (!body || typeof body !== "object") return NextResponse.json({ error: "body: expected a JSON object" }, { status: 400 });
  return NextResponse.json(await createUser(getDb(), body), { status: 201 });
});
