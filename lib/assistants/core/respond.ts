import type { Db } from "@/db/client";
import { stmt } from "@/db/statements";
import { ConflictError, InvalidInputError } from "@/lib/errors";
import type { ModelClient } from "@/lib/llm/client";
import type { Origin } from "@/lib/llm/ledger";
import { MemorySnapshot } from "@/lib/memory/store";
import { findMemoryVersionId, listSteps, settingsKeyOf } from "@/lib/memory/versions";
import { findAssistant } from "../registry";
import { loadSessions, type DatasetRef } from "./sessions";
import { checkRetrieverKind, memorySettings, parseOptions, retrieverFactory, type MethodSetup } from "./context";
import type { RespondContext, RespondResult, Session, TaskInput } from "./types";

export type RespondOptions = MethodSetup & {
  dataset: DatasetRef;
  userKey: string;
  /**
   * The session the task is asked in. PAL-Set: the query sample's seq (its logs are known, its
   * dialogue and topics are not). HiCUPID: the number of dialogues (after the whole history).
   */
  seq: number;
  input: TaskInput;
  llm: ModelClient;
  /** Ledger origin of the answer's calls (e.g. the job). */
  origin?: Origin;
  /** The user's sessions (loadSessions), when the caller answers many items of one user. */
  sessions?: Session[];
};

/**
 * Answers one task input with a built memory: finds the memory version of this (data set, user,
 * method, settings), checks that every step the answer may see is complete, and calls the method's
 * respond() with the memory as it stands for session `seq` and that session's logs.
 */
export async function respondInSession(db: Db, o: RespondOptions): Promise<RespondResult> {
  const a = findAssistant(db, o.method);
  const options = parseOptions(a, o.options);
  const retrieverKind = checkRetrieverKind(o.retriever);
  const language = o.dataset.language;
  const sessions = o.sessions ?? loadSessions(db, o.dataset, o.userKey);
  if (!Number.isInteger(o.seq) || o.seq < 0 || o.seq > sessions.length) {
    throw new InvalidInputError(`session ${o.seq} is outside user "${o.userKey}"'s timeline (0..${sessions.length})`);
  }
  const settings = memorySettings(a, options, retrieverKind, language, o.llm, o.roleParams);
  const versionId = findMemoryVersionId(db, {
    datasetId: o.dataset.id,
    userKey: o.userKey,
    method: a.id,
    settingsKey: settingsKeyOf(settings),
  });
  // Steps 0..seq-1 fully, and step seq's logs phase: the step as a whole must be complete.
  const needed = Math.min(o.seq + 1, sessions.length);
  // One step per (version, seq): a count answers the common case without loading every step.
  const complete = versionId
    ? (
        stmt(db, "SELECT count(*) AS n FROM memory_steps WHERE version_id = ? AND status = 'complete' AND seq < ?").get(
          versionId,
          needed,
        ) as {
          n: number;
        }
      ).n
    : 0;
  const done = new Set(
    versionId && complete < needed
      ? listSteps(db, versionId)
          .filter((s) => s.status === "complete")
          .map((s) => s.seq)
      : [],
  );
  for (let s = 0; s < (complete < needed ? needed : 0); s++) {
    if (!done.has(s)) {
      throw new ConflictError(
        `the ${a.id} memory of user "${o.userKey}" is not built up to session ${s}: run pal memory build --method ${a.id} first`,
      );
    }
  }
  if (!versionId)
    throw new ConflictError(
      `the ${a.id} memory of user "${o.userKey}" has not been built: build it on the Memory page (or pal memory build --method ${a.id}) first`,
    );
  const current = sessions[o.seq];
  const llm = o.llm.withOrigin(o.origin ?? {});
  const ctx: RespondContext<unknown> = {
    llm,
    options,
    language,
    datasetKind: o.dataset.kind,
    userKey: o.userKey,
    retrieverKind,
    retriever: retrieverFactory(o, retrieverKind, language, llm, a.id),
    // Steps 0..seq are complete (checked above): the memory at seq can no longer change, so it is shared.
    memory: MemorySnapshot.of(db, versionId, o.seq),
    current: current
      ? { seq: current.seq, key: current.key, split: current.split, timestamp: current.timestamp, logs: current.logs }
      : { seq: o.seq, key: "(after the last session)", split: "", timestamp: null, logs: [] },
  };
  return a.respond(ctx, o.input);
}
