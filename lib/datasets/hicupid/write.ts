/**
 * Writes a collected HiCUPID data set in one transaction: on any error nothing lands and other data
 * sets are untouched. Bulk rows (turns, QA) go in as multi-row inserts through drizzle prepared
 * statements (TableWriter), which keeps ~600k turns to seconds; users and dialogues are inserted one
 * by one because their new ids are needed by the rows below them.
 */
import type { Db } from "@/db/client";
import { hcDialogues, hcQa, hcTurns, hcUsers } from "@/db/schema";
import type { ImportProgress } from "../types";
import { claimDataset } from "../replace";
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

export function writeHicupid(db: Db, data: Collected, meta: WriteMeta): number {
  const total = data.users.length + data.dialogues.length + data.turns.user.length + data.qa.length;
  let done = 0;
  const progress = (n: number) => {
    done += n;
    meta.onProgress?.({ phase: "writing", done, total });
  };

  return db.transaction((tx) => {
    // The name is checked again inside the transaction: another import may have taken it meanwhile.
    const values = { language: "en", source: meta.source, stats: data.stats, report: data.report, importedBy: meta.importedBy };
    const ds = { id: claimDataset(tx, meta.name, "hicupid", values, meta.replace) };

    const users = new TableWriter(tx, hcUsers, [
      "datasetId",
      "userKey",
      "position",
      "dialogueCount",
      "qaCount",
      "turnCount",
      "personaDialogues",
      "profileDialogues",
      "scheduleDialogues",
    ]);
    const userIds = data.users.map((u, i) =>
      users.insertReturningId({
        datasetId: ds.id,
        userKey: u.key,
        position: i,
        dialogueCount: u.dialogues,
        qaCount: u.qa,
        turnCount: u.turns,
        personaDialogues: u.persona,
        profileDialogues: u.profile,
        scheduleDialogues: u.schedule,
      }),
    );
    progress(userIds.length);
    const dialogues = new TableWriter(tx, hcDialogues, [
      "datasetId",
      "userId",
      "dialogueKey",
      "split",
      "position",
      "type",
      "metadata",
      "turnCount",
    ]);
    const dialogueIds = data.dialogues.map((d) =>
      dialogues.insertReturningId({
        datasetId: ds.id,
        userId: userIds[d.user],
        dialogueKey: d.key,
        split: d.split,
        position: d.position,
        type: d.type,
        metadata: d.metadata ?? null,
        turnCount: d.turnCount,
      }),
    );
    progress(dialogueIds.length);

    const t = data.turns;
    const turns = new TableWriter(tx, hcTurns, ["dialogueId", "position", "user", "assistant", "extra"], CHUNK);
    for (let i = 0; i < t.user.length; i++) {
      turns.add({
        dialogueId: dialogueIds[t.dialogue[i]],
        position: t.position[i],
        user: t.user[i],
        assistant: t.assistant[i],
        extra: t.extra[i] ?? null,
      });
      if ((i + 1) % CHUNK === 0) progress(CHUNK);
    }
    turns.flush();
    progress(t.user.length % CHUNK);
    const qa = new TableWriter(
      tx,
      hcQa,
      [
        "datasetId",
        "userId",
        "split",
        "position",
        "type",
        "question",
        "personalizedAnswer",
        "generalAnswer",
        "dialogueIds",
        "metadata",
        "extra",
      ],
      CHUNK,
    );
    data.qa.forEach((q, i) => {
      qa.add({
        datasetId: ds.id,
        userId: userIds[q.user],
        split: q.split,
        position: i,
        type: q.type,
        question: q.question,
        personalizedAnswer: q.personalizedAnswer,
        generalAnswer: q.generalAnswer,
        dialogueIds: q.dialogueKeys,
        metadata: q.metadata ?? null,
        extra: q.extra ?? null,
      });
    });
    qa.flush();
    progress(data.qa.length);
    return ds.id;
  });
}
