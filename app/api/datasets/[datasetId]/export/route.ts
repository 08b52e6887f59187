import { getDb } from "@/db/client";
import { withRole } from "@/lib/auth/session";
import { getDataset } from "@/lib/datasets/browse/datasets";
import { parseId } from "@/lib/datasets/browse/params";
import { palsetJsonChunks } from "@/lib/datasets/palset/export";
import { datasetKind } from "@/lib/datasets/kinds";
import { InvalidInputError, NotFoundError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/**
 * GET → the PAL-Set data set as published JSON (`?user=0003` for one user), as a download. Written
 * user by user (palsetJsonChunks: the same output as palsetToJson / `pal export palset`), so the full
 * set never sits in memory as one string.
 */
export const GET = withRole<{ params: Promise<{ datasetId: string }> }>(["admin", "researcher"], async (req, { params }) => {
  const id = parseId((await params).datasetId);
  const db = getDb();
  const ds = id == null ? null : getDataset(db, id);
  if (!ds) throw new NotFoundError("no such data set");
  const kind = datasetKind(ds.kind);
  if (!kind.browse.exportJson) throw new InvalidInputError(`"${ds.name}" is a ${kind.label} data set; it has no JSON export`);
  const user = new URL(req.url).searchParams.get("user") ?? undefined;

  const chunks = palsetJsonChunks(db, ds.id, user || undefined);
  const first = chunks.next(); // an unknown user fails here (NotFoundError → 404), before any byte is sent
  const enc = new TextEncoder();
  let next = first;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next.done) return controller.close();
      controller.enqueue(enc.encode(next.value));
      next = chunks.next();
    },
  });
  const base = `${ds.name}${user ? `-${user}` : ""}`.replace(/[^\w.()-]+/g, "_");
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${base}.json"; filename*=UTF-8''${encodeURIComponent(`${ds.name}${user ? `-${user}` : ""}.json`)}`,
      "Cache-Control": "no-store",
    },
  });
});
