import type { Db } from "@/db/client";
import { NotFoundError } from "@/lib/errors";
import type { ModelClient } from "@/lib/llm/client";
import { findMemoryVersion, settingsKeyOf, type MemoryVersion } from "@/lib/memory/versions";
import { showMemory, type ShownEntry } from "@/lib/memory/show";
import { findAssistant } from "../registry";
import { loadSessions, type DatasetRef } from "./sessions";
import { checkRetrieverKind, memorySettings, parseOptions, type MethodSetup } from "./context";

/** The memory version these settings build (the same lookup the builder and respond use). */
export function memoryVersionFor(db: Db, o: MethodSetup & { dataset: DatasetRef; userKey: string; llm: ModelClient }): MemoryVersion {
  const a = findAssistant(db, o.method);
  const settings = memorySettings(a, parseOptions(a, o.options), checkRetrieverKind(o.retriever), o.dataset.language, o.llm, o.roleParams);
  const v = findMemoryVersion(db, { datasetId: o.dataset.id, userKey: o.userKey, method: a.id, settingsKey: settingsKeyOf(settings) });
  if (!v)
    throw new NotFoundError(
      `no ${a.id} memory of user "${o.userKey}" in "${o.dataset.name}" with these settings: run pal memory build first`,
    );
  return v;
}

export type MemoryShow = { version: MemoryVersion; session: string | null; entries: ShownEntry[] };

/** `pal memory show`: every stored entry, or with `session` those an answer in that session may use. */
export function showUserMemory(
  db: Db,
  o: MethodSetup & { dataset: DatasetRef; userKey: string; llm: ModelClient; session?: string },
): MemoryShow {
  const version = memoryVersionFor(db, o);
  let at: number | undefined;
  if (o.session !== undefined) {
    const s = loadSessions(db, o.dataset, o.userKey).find((x) => x.key === o.session);
    if (!s) throw new NotFoundError(`--session: user "${o.userKey}" has no session "${o.session}"`);
    at = s.seq;
  }
  return { version, session: o.session ?? null, entries: showMemory(db, version.id, at) };
}
