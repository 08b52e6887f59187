import { NextResponse } from "next/server";
import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { listItemRows, parseItemQuery } from "@/lib/experiments/items";
import { idParam } from "@/lib/http/request";

type Ctx = { params: Promise<{ experimentId: string }> };

/** One page of the Items table: `?page=&size=&task=&method=&status=&q=&min=&max=&sort=&dir=` (filtered and sorted in SQL). */
export const GET = withRole<Ctx>(["admin", "researcher"], async (req, { params }) => {
  const id = idParam((await params).experimentId, "experiment");
  return NextResponse.json(listItemRows(getDb(), id, parseItemQuery(new URL(req.url).searchParams)));
});
