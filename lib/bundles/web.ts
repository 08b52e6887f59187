/**
 * Bundles over HTTP, off the request path (tasks.ts): the experiment page's "Build bundle" starts
 * `pal bundle export` in the background and the download serves the file it wrote; the Experiments
 * page's import streams the upload to a file (under a size limit) and starts `pal bundle import`.
 * The pages poll the tasks' status.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Db } from "@/db/client";
import { AppError, ConflictError, InvalidInputError, NotFoundError, TooManyRequestsError } from "@/lib/errors";
import { MAX_UPLOAD_BYTES } from "@/lib/datasets/upload-limits";
import {
  cancelTask,
  exportFiles,
  importFiles,
  newToken,
  readTask,
  runningImports,
  runningVerifies,
  startTask,
  verifyFiles,
  type BundleTask,
} from "./tasks";
import { latestVerification, verificationView, type VerificationView } from "./verifications";
import { BUNDLE_LIMITS, importTimeoutMs } from "./limits";
import { NAME_BAD } from "./shape";

/** The upload's media type (POST /api/experiments/bundle). */
export const BUNDLE_MEDIA_TYPE = "application/vnd.pal-bundle";

const UNFINISHED = ["preparing", "queued", "running"];

/** The web export of experiment `id`: its task's status (null: never built) and whether its file is there. */
export function exportTaskOf(id: number, withData: boolean): (BundleTask & { file: string }) | null {
  const f = exportFiles(id, withData);
  const t = readTask(f.status);
  if (!t) return null;
  if (t.state === "ready" && !fs.existsSync(f.bundle))
    return { ...t, state: "failed", error: "the built file is gone; build it again", file: f.bundle };
  return { ...t, file: path.basename(f.bundle) };
}

/** Starts building experiment `id`'s bundle (a build under way is returned as it is). */
export function startBundleExport(db: Db, id: number, withData: boolean): BundleTask {
  const e = db.$client.prepare("SELECT status FROM experiments WHERE id = ?").get(id) as { status: string } | undefined;
  if (!e) throw new NotFoundError(`experiment ${id} does not exist`);
  if (UNFINISHED.includes(e.status))
    throw new ConflictError(`experiment ${id} is ${e.status}: a bundle holds a run that has stopped (pause it or let it finish)`);
  const f = exportFiles(id, withData);
  const now = readTask(f.status);
  if (now?.state === "running") return now;
  fs.rmSync(f.bundle, { force: true });
  return startTask(f.status, { kind: "export" }, ["export", String(id), "--out", f.bundle, ...(withData ? ["--with-data"] : [])]);
}

/** The built bundle of experiment `id` as a stream to send (refused when none is ready). */
export function readyBundle(id: number, withData: boolean): { body: ReadableStream<Uint8Array>; filename: string; bytes: number } {
  const t = exportTaskOf(id, withData);
  if (!t || t.state !== "ready")
    throw new NotFoundError(
      `experiment ${id} has no bundle built${t?.state === "running" ? " yet (it is being built)" : ""}: build it first`,
    );
  const f = exportFiles(id, withData).bundle;
  return {
    body: Readable.toWeb(fs.createReadStream(f)) as ReadableStream<Uint8Array>,
    filename: path.basename(f),
    bytes: fs.statSync(f).size,
  };
}

/** A bundle too large for the web import (the CLI has no limit). */
class BundleTooLargeError extends AppError {
  constructor() {
    super(
      `the bundle is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB; import it with \`npx pal bundle import FILE\``,
      413,
      "too_large",
    );
  }
}

/**
 * Saves an uploaded bundle (the request body is the file) and starts importing it as `userId`; returns
 * the task's token. At most BUNDLE_LIMITS.webImports run at once, each stopped past importTimeoutMs().
 */
export async function startUploadedImport(body: ReadableStream<Uint8Array> | null, name: string, userId: number): Promise<string> {
  if (!body) throw new InvalidInputError("empty upload: send the bundle file as the request body");
  if (runningImports() >= BUNDLE_LIMITS.webImports)
    throw new TooManyRequestsError(
      `${BUNDLE_LIMITS.webImports} bundle imports are running already (the most at once): wait until one ends, or cancel one`,
      30,
    );
  const token = newToken();
  const f = importFiles(token);
  let bytes = 0;
  try {
    await pipeline(
      Readable.fromWeb(body as never),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const c of chunks) {
          bytes += c.length;
          if (bytes > MAX_UPLOAD_BYTES) throw new BundleTooLargeError();
          yield c;
        }
      },
      fs.createWriteStream(f.upload, { mode: 0o600 }),
    );
    if (bytes === 0) throw new InvalidInputError("empty upload: send the bundle file as the request body");
  } catch (e) {
    fs.rmSync(f.upload, { force: true });
    throw e;
  }
  const source = path.basename(name).replace(new RegExp(NAME_BAD.source, "g"), "").slice(0, 200) || "upload";
  startTask(
    f.status,
    { kind: "import", userId, source },
    ["import", f.upload, "--source", source, "--imported-by", String(userId), "--json"],
    f.upload,
    importTimeoutMs(),
  );
  return token;
}

/** An import's files, when `user` may see it (who started it, or an admin). */
function ownImport(token: string, user: { id: number; role: string }): { f: ReturnType<typeof importFiles>; t: BundleTask } {
  let f: ReturnType<typeof importFiles>;
  try {
    f = importFiles(token);
  } catch {
    throw new InvalidInputError(`task: "${token}" is not an import task`);
  }
  const t = readTask(f.status);
  if (!t || (t.userId !== user.id && user.role !== "admin")) throw new NotFoundError("no such import");
  return { f, t };
}

const shown = (t: BundleTask, f: ReturnType<typeof importFiles>) =>
  t.error ? { ...t, error: t.error.replaceAll(f.upload, t.source ?? "upload") } : t;

/** An import's status, for the user who started it (or an admin); its messages name the uploaded file, not the temp path. */
export function importTaskOf(token: string, user: { id: number; role: string }): BundleTask {
  const { f, t } = ownImport(token, user);
  return shown(t, f);
}

/** Cancels a running import (its process is stopped; its transaction never commits, so nothing is written). */
export function cancelImport(token: string, user: { id: number; role: string }): BundleTask {
  const { f } = ownImport(token, user);
  const t = cancelTask(f.status, "cancelled; nothing was imported");
  fs.rmSync(f.upload, { force: true });
  return shown(t!, f);
}

/** Experiment `id`'s verify task (null: none started since the server's files were kept) and its latest verification. */
export function verifyTaskOf(db: Db, id: number): { task: BundleTask | null; verification: VerificationView | null } {
  const v = latestVerification(db, id);
  return { task: readTask(verifyFiles(id).status), verification: v ? verificationView(v) : null };
}

/**
 * Starts `pal bundle verify ID` in the background for an imported run (one under way is returned as it
 * is); its outcome is stored on the run by that process. At most BUNDLE_LIMITS.webVerifies at once.
 */
export function startVerify(db: Db, id: number, userId: number | null): BundleTask {
  const e = db.$client
    .prepare(
      "SELECT e.status, i.experiment_id AS imported FROM experiments e LEFT JOIN experiment_imports i ON i.experiment_id = e.id WHERE e.id = ?",
    )
    .get(id) as { status: string; imported: number | null } | undefined;
  if (!e) throw new NotFoundError(`experiment ${id} does not exist`);
  if (e.imported === null)
    throw new ConflictError(
      `experiment ${id} was not imported from a bundle: Verify replays an imported run (\`pal bundle verify ${id}\` replays any)`,
    );
  if (UNFINISHED.includes(e.status)) throw new ConflictError(`experiment ${id} is ${e.status}: a run is verified once it has stopped`);
  const f = verifyFiles(id);
  const now = readTask(f.status);
  if (now?.state === "running") return now;
  if (runningVerifies() >= BUNDLE_LIMITS.webVerifies)
    throw new TooManyRequestsError(`${BUNDLE_LIMITS.webVerifies} verifies are running already (the most at once): wait until one ends`, 30);
  return startTask(f.status, { kind: "verify", userId: userId ?? undefined }, [
    "verify",
    String(id),
    ...(userId === null ? [] : ["--verified-by", String(userId)]),
    "--json",
  ]);
}

/** Cancels experiment `id`'s running verify (nothing is recorded: the outcome is stored only when it finishes). */
export function cancelVerify(id: number): BundleTask | null {
  return cancelTask(verifyFiles(id).status, "cancelled; nothing was recorded");
}
