import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { listMemoryBuilds, startMemoryBuild } from "@/lib/assistants/core/build-jobs";
import { InvalidInputError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";

/** A data set id, a method and a list of user keys: 64 KB holds thousands of keys. */
const BUILD_BODY_LIMIT = 64 * 1024;
const MAX_BUILD_USERS = 5000;

export const dynamic = "force-dynamic";

/** GET → the latest background memory builds with their progress. */
export const GET = withRole(["admin", "researcher"], async () => NextResponse.json({ builds: listMemoryBuilds(getDb()) }));

/** POST {datasetId, method, users?} → a background build started (202 with its id), as the Memory page's form does. */
export const POST = withRole(["admin", "researcher"], async (req, { user }) => {
  const b = (await readJsonBody(req, BUILD_BODY_LIMIT)) as Record<string, unknown> | null;
  if (typeof b !== "object" || b === null || Array.isArray(b)) throw new InvalidInputError("expected a JSON object");
  if (!Number.isInteger(b.datasetId)) throw new InvalidInputError("datasetId: expected an integer");
  if (typeof b.method !== "string") throw new InvalidInputError("method: expected a string");
  if (b.users !== undefined && !(Array.isArray(b.users) && b.users.every((u) => typeof u === "string")))
    throw new InvalidInputError("users: expected an array of user keys");
  if (Array.isArray(b.users) && b.users.length > MAX_BUILD_USERS)
    throw new InvalidInputError(`users: at most ${MAX_BUILD_USERS} user keys (omit users to build every user)`);
  const id = startMemoryBuild(getDb(), {
    datasetId: b.datasetId as number,
    method: b.method,
    users: b.users as string[] | undefined,
    createdBy: user.id,
  });
  return NextResponse.json({ id }, { status: 202 });
});
