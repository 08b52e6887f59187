import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { listMemoryBuilds, startMemoryBuild } from "@/lib/assistants/core/build-jobs";
import { InvalidInputError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** GET → the latest background memory builds with their progress. */
export const GET = withRole(["admin", "researcher"], async () => NextResponse.json({ builds: listMemoryBuilds(getDb()) }));

/** POST {datasetId, method, users?} → a background build started (202 with its id), as the Memory page's form does. */
export const POST = withRole(["admin", "researcher"], async (req, { user }) => {
  const b = (await req.json().catch(() => null)) as Record<string, unknown> | null;
  if (typeof b !== "object" || b === null || Array.isArray(b)) throw new InvalidInputError("expected a JSON object");
  if (!Number.isInteger(b.datasetId)) throw new InvalidInputError("datasetId: expected an integer");
  if (typeof b.method !== "string") throw new InvalidInputError("method: expected a string");
  if (b.users !== undefined && !(Array.isArray(b.users) && b.users.every((u) => typeof u === "string")))
    throw new InvalidInputError("users: expected an array of user keys");
  const id = startMemoryBuild(getDb(), {
    datasetId: b.datasetId as number,
    method: b.method,
    users: b.users as string[] | undefined,
    createdBy: user.id,
  });
  return NextResponse.json({ id }, { status: 202 });
});
