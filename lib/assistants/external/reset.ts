/**
 * An explicit reset of an external method's memory (issue 41): for each memory version of the method (of
 * one user, or all), PAL Studio asks the service to forget that version's namespace (POST {url}/reset,
 * optional in the protocol) and, once the service says it did (2xx), clears the version here too (its
 * steps and the entries it handed back), so the next run or `pal memory build` sends every session again
 * into an empty namespace. Nothing is changed here when the service does not confirm: a service without
 * /reset (404, 405, 501) still holds the memory, and sending the sessions again would add them twice.
 * A version being built right now (its build lease is held) is left alone.
 */
import { z } from "zod";
import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import { releaseVersion, tryClaimVersion } from "@/lib/memory/lease";
import { callService, ExternalMethodError } from "./http";
import { findExternalMethod } from "./store";

export type ResetOutcome = "reset" | "unsupported" | "building" | "failed";
export type ResetLine = { version: number; user: string; namespace: string; outcome: ResetOutcome; message: string };
export type ResetReport = { method: string; versions: ResetLine[]; ok: boolean };

/** The namespace a memory version is under at the service (index.ts: one namespace per version). */
export const namespaceOf = (versionId: number) => `v${versionId}`;

const resetReply = z.object({}).passthrough();
const UNSUPPORTED = /answered HTTP (404|405|501)\b/;
const RESETTER = `reset:${process.pid}`;

/** Clears the version here: its steps (their entries with them), back to nothing built. */
function clearVersion(db: Db, versionId: number): void {
  db.$client
    .transaction(() => {
      db.$client.prepare("DELETE FROM memory_entries WHERE version_id = ?").run(versionId);
      db.$client.prepare("DELETE FROM memory_steps WHERE version_id = ?").run(versionId);
      db.$client
        .prepare("UPDATE memory_versions SET status = 'building', sessions_done = 0, error = NULL, updated_at = ? WHERE id = ?")
        .run(Date.now(), versionId);
    })
    .immediate();
}

export async function resetExternalMethod(db: Db, name: string, user?: string): Promise<ResetReport> {
  const m = findExternalMethod(db, name);
  if (!m) throw new NotFoundError(`no external method named "${name}" (pal methods list)`);
  const versions = db.$client
    .prepare(
      `SELECT id, user_key AS user FROM memory_versions WHERE method = ? ${user === undefined ? "" : "AND user_key = ?"} ORDER BY id`,
    )
    .all(...(user === undefined ? [name] : [name, user])) as Array<{ id: number; user: string }>;
  const lines: ResetLine[] = [];
  for (const v of versions) {
    const namespace = namespaceOf(v.id);
    const line = (outcome: ResetOutcome, message: string) => lines.push({ version: v.id, user: v.user, namespace, outcome, message });
    // Held while the service forgets and the version is cleared: no build may step in between.
    if (!tryClaimVersion(db, v.id, RESETTER, 120_000)) {
      line("building", "a build of this memory is running: nothing was changed (reset it once the build stops)");
      continue;
    }
    try {
      await callService(m, {
        method: "POST",
        path: "/reset",
        body: { user: v.user, namespace, method: m.name },
        schema: resetReply,
      });
      clearVersion(db, v.id);
      line("reset", "the service forgot the namespace; the memory is rebuilt from the first session by the next run");
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (e instanceof ExternalMethodError && UNSUPPORTED.test(msg))
        line("unsupported", `the service has no reset (${msg.replace(/^external method "[^"]+": /, "")}): nothing was changed`);
      else line("failed", `${msg.replace(/^external method "[^"]+": /, "")}: nothing was changed here`);
    } finally {
      releaseVersion(db, v.id, RESETTER);
    }
  }
  return { method: m.name, versions: lines, ok: lines.every((l) => l.outcome === "reset") };
}
