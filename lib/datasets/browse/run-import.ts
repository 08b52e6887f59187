/**
 * Starts an import in a child process (`pal import <kind> --ndjson`, the same command researchers
 * use in the shell) and yields its NDJSON events as they come:
 * progress `{phase, done, total, detail}`, then `{result}` or `{error}`. Temp paths in messages are
 * replaced by the names the person uploaded.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { databasePath, projectRoot } from "@/db/client";

export type ImportEvent = { phase: string; done: number; total: number; detail?: string } | { result: unknown } | { error: string };

export type RunImportOptions = {
  /** A kind id of lib/datasets/kinds. */
  kind: string;
  paths: string[];
  name: string;
  lang?: "zh" | "en";
  replace?: boolean;
  importedBy?: number;
  /** The upload directory, removed from paths in messages. */
  uploadDir: string;
};

/** If the page is closed mid-way, the import still runs to its end (or fails): it is one transaction either way. */
export async function* runImport(opts: RunImportOptions): AsyncGenerator<ImportEvent> {
  const root = projectRoot();
  const cli = path.join(/*turbopackIgnore: true*/ root, "bin", "pal.mjs");
  const { uploadDir, kind, paths, name, lang, replace, importedBy } = opts;
  const args = [cli, "import", kind, ...paths, "--name", name, "--ndjson"];
  if (lang) args.push("--lang", lang);
  if (replace) args.push("--replace");
  if (importedBy !== undefined) args.push("--imported-by", String(importedBy));
  // The importers are synchronous: in the server process they would block every request.
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PAL_ROOT: root, PAL_DB: databasePath() },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const spawnError = new Promise<Error>((resolve) => child.on("error", resolve));

  const scrub = (s: string) =>
    s
      .split(uploadDir + path.sep)
      .join("")
      .split(uploadDir)
      .join("upload")
      .replace("(use --replace to replace it)", "(tick “Replace” to replace it)");
  let final = false;
  const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let ev: Record<string, unknown>;
    try {
      ev = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof ev.error === "string") {
      final = true;
      yield { error: scrub(ev.error) };
    } else if ("result" in ev) {
      final = true;
      yield { result: ev.result };
    } else if (typeof ev.phase === "string") {
      yield {
        phase: ev.phase,
        done: Number(ev.done) || 0,
        total: Number(ev.total) || 0,
        detail: typeof ev.detail === "string" ? scrub(ev.detail) : undefined,
      };
    }
  }
  const code = await Promise.race([exited, spawnError.then(() => -1)]);
  if (!final) {
    const why = stderr.trim().split("\n").filter(Boolean).pop() ?? `exit code ${code}`;
    yield { error: `import failed: ${scrub(why)}` };
  }
}
