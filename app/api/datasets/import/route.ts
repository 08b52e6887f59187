import fs from "node:fs";
import { withRole } from "@/lib/auth/session";
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_CONTENT_TYPE,
  UploadError,
  checkTotal,
  makeUploadDir,
  receiveFramed,
  receiveMultipart,
} from "@/lib/datasets/browse/upload";
import { runImport } from "@/lib/datasets/browse/run-import";

export const dynamic = "force-dynamic";

/**
 * POST an upload (the import page's framed body, or multipart: kind, name, lang, replace, files) →
 * the files go to a temp directory, the importer runs, and the answer streams NDJSON: progress lines
 * `{phase, done, total, detail}`, then `{result}` or `{error}` (one line: file, path, reason). The
 * import is one transaction: on error nothing is stored. Refusals before the import (too large,
 * malformed) are a plain JSON `{error}` with a 4xx status.
 */
export const POST = withRole(
  ["admin", "researcher"],
  async (req, { user }) => {
    const declared = Number(req.headers.get("content-length") ?? "");
    const dir = makeUploadDir();
    const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
    let received;
    try {
      // A first check on the declared size, so a too-large upload is refused before it is read.
      if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + 4 * 1024 * 1024) checkTotal(declared);
      const type = (req.headers.get("content-type") ?? "").toLowerCase();
      if (type.startsWith(UPLOAD_CONTENT_TYPE)) {
        if (!req.body) throw new UploadError("empty upload");
        received = await receiveFramed(req.body, dir);
      } else if (type.startsWith("multipart/form-data")) {
        received = await receiveMultipart(req, dir);
      } else {
        throw new UploadError(`send the files as ${UPLOAD_CONTENT_TYPE} (the import page does) or multipart/form-data`, 415);
      }
    } catch (e) {
      cleanup(); // a refused upload (UploadError) answers with its status through withRole
      throw e;
    }

    const { manifest, files } = received;
    const events = runImport({
      kind: manifest.kind,
      paths: files,
      name: manifest.name,
      lang: manifest.lang === "auto" ? undefined : manifest.lang,
      replace: manifest.replace,
      importedBy: user.id,
      uploadDir: dir,
    });
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await events.next();
          if (done) {
            cleanup();
            controller.close();
          } else controller.enqueue(enc.encode(`${JSON.stringify(value)}\n`));
        } catch (e) {
          cleanup();
          controller.enqueue(enc.encode(`${JSON.stringify({ error: `import failed: ${(e as Error).message}` })}\n`));
          controller.close();
        }
      },
      cancel() {
        // The browser went away: let the import finish on its own, then tidy up.
        void (async () => {
          for await (const _ of events) void _;
          cleanup();
        })();
      },
    });
    return new Response(stream, {
      headers: {
        "Content-Type": "application/x-ndjson; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
      },
    });
  },
  { accepts: [UPLOAD_CONTENT_TYPE, "multipart/form-data"] },
);
