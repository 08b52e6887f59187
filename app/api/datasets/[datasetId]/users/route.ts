import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { getDataset } from "@/lib/datasets/browse/datasets";
import { parseId } from "@/lib/datasets/browse/params";
import { datasetUserKeys } from "@/lib/datasets/user-keys";
import { NotFoundError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** GET → `{users, total}`: the data set's user ids (sorted, at most 5,000), for choosing a subset of users. */
export const GET = withRole<{ params: Promise<{ datasetId: string }> }>(["admin", "researcher"], async (_req, { params }) => {
  const id = parseId((await params).datasetId);
  const db = getDb();
  const ds = id == null ? null : getDataset(db, id);
  if (!ds) throw new NotFoundError("no such data set");
  return NextResponse.json(datasetUserKeys(db, ds.id));
});
