/**
 * Writes a collected HiCUPID data set in one transaction: on any error nothing lands and other data
 * sets are untouched. Bulk rows (turns, QA) go in as multi-row inserts through drizzle prepared
 * statements (TableWriter), which keeps ~600k turns to seconds; users and dialogues are inserted one
 * by one because their new ids are needed by the rows below them.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, hcDialogues, hcQa, hcTurns, hcUsers } from "@/db/schema";
import { DatasetError, type ImportProgress } from "../types";
import type { Collected } from "./collect";
import { TableWriter } from "../writer";

export type WriteMeta = {
  name: string;
  source: string;
  importedBy?: number;
  replace?: boolean;
  onProgress?: (p: ImportProgress) => void;
};

/** Max rows per multi-row insert: SQLite allows 32766 bound values; 500 rows keeps statements small. */
const CHUNK = 500;

/** Refuses a taken name unless replacing a HiCUPID set; returns the id to delete, if any. */
export function existingToReplace(db: Db, name: string, replace?: boolean): number | null {
  const old = db.select({ id: datasets.id, kind: datasets.kind }).from(datasets).where(eq(datasets.name, name)).get();
  if (!old) return null;
  if (!replace) throw new DatasetError(`a data set named "${name}" already exists (replace it, or choose another name)`);
  if (old.kind !== "hicupid") throw new DatasetError(`"${name}" is a ${old.kind} data set; a HiCUPID import does not replace it`);
  return old.id;
}

export function writeHicupid(db: Db, data: Collected, meta: WriteMeta): number {
  const total = data.users.length + data.dialogues.length + data.turns.user.length + data.qa.length;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    meta.onProgress?.({ phase: "writing", done, total });
  };

  return db.transaction((tx) => {
    // Checked again inside the transaction: another import may have taken the name meanwhile.
    const oldId = existingToReplace(db, meta.name, meta.replace);
    if (oldId !== null) tx.delete(datasets).where(eq(datasets.id, oldId)).run(); // hc_* rows cascade

    const ds = tx
      .insert(datasets)
      .values({
        name: meta.name,
        kind: "hicupid",
        language: "en",
        source: meta.source,
        stats: data.stats,
        report: data.report,
        importedBy: meta.importedBy,
      })
      .returning({ id: datasets.id })
      .get();

    const users = new TableWriter(tx, hcUsers, ["datasetId", "userKey", "position", "dialogueCount", "qaCount", "turnCount", "personaDialogues", "profileDialogues", "scheduleDialogues"]);
    const userIds = data.users.map((u, i) =>
      users.insertReturningId({
        datasetId: ds.id, userKey: u.key, position: i, dialogueCount: u.dialogues, qaCount: u.qa, turnCount: u.turns,
        personaDialogues: u.persona, profileDialogues: u.profile, scheduleDialogues: u.schedule,
      }),
    );
    progress(userIds.length);
    const dialogues = new TableWriter(tx, hcDialogues, ["datasetId", "userId", "dialogueKey", "split", "position", "type", "metadata", "turnCount"]);
    const dialogueIds = data.dialogues.map((d) =>
      dialogues.insertReturningId({
        datasetId: ds.id, userId: userIds[d.user], dialogueKey: d.key, split: d.split, position: d.position,
        type: d.type, metadata: d.metadata ?? null, turnCount: d.turnCount,
      }),
    );
    progress(dialogueIds.length);

    const t = data.turns;
    const turns = new TableWriter(tx, hcTurns, ["dialogueId", "position", "user", "assistant", "extra"], CHUNK);
    for (let i = 0; i < t.user.length; i++) {
      turns.add({ dialogueId: dialogueIds[t.dialogue[i]], position: t.position[i], user: t.user[i], assistant: t.assistant[i], extra: t.extra[i] ?? null });
      if ((i + 1) % CHUNK === 0) progress(CHUNK);
    }
    turns.flush();
    progress(t.user.length % CHUNK);
    const qa = new TableWriter(tx, hcQa, ["datasetId", "userId", "split", "position", "type", "question", "personalizedAnswer", "generalAnswer", "dialogueIds", "metadata", "extra"], CHUNK);
    data.qa.forEach((q, i) => {
      qa.add({
        datasetId: ds.id, userId: userIds[q.user], split: q.split, position: i, type: q.type, question: q.question,
        personalizedAnswer: q.personalizedAnswer, generalAnswer: q.generalAnswer, dialogueIds: q.dialogueKeys,
        metadata: q.metadata ?? null, extra: q.extra ?? null,
      });
    });
    qa.flush();
    progress(data.qa.length);
    return ds.id;
  });
}
