/**
 * Writes a collected HiCUPID data set in one transaction: on any error nothing lands and other data
 * sets are untouched. Bulk rows (turns, QA) go in as multi-row inserts through prepared statements,
 * which is what keeps ~600k turns to seconds; users and dialogues are inserted one by one because
 * their new ids are needed by the rows below them.
 */
import { eq, getTableName, type Column } from "drizzle-orm";
import type { Db } from "@/db/client";
import { datasets, hcDialogues, hcQa, hcTurns, hcUsers } from "@/db/schema";
import { DatasetError, type ImportProgress } from "../types";
import type { Collected } from "./collect";

export type WriteMeta = {
  name: string;
  source: string;
  importedBy?: number;
  replace?: boolean;
  onProgress?: (p: ImportProgress) => void;
};

type Client = Db["$client"];
type Statement = ReturnType<Client["prepare"]>;

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
  const client = db.$client;
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

    const userIds = insertUsers(client, ds.id, data);
    progress(userIds.length);
    const dialogueIds = insertDialogues(client, ds.id, data, userIds);
    progress(dialogueIds.length);

    const t = data.turns;
    bulkInsert(
      client,
      hcTurns,
      [hcTurns.dialogueId, hcTurns.position, hcTurns.user, hcTurns.assistant, hcTurns.extra],
      t.user.length,
      (i) => [dialogueIds[t.dialogue[i]], t.position[i], t.user[i], t.assistant[i], t.extra[i]],
      progress,
    );
    bulkInsert(
      client,
      hcQa,
      [hcQa.datasetId, hcQa.userId, hcQa.split, hcQa.position, hcQa.type, hcQa.question, hcQa.personalizedAnswer, hcQa.generalAnswer, hcQa.dialogueIds, hcQa.metadata, hcQa.extra],
      data.qa.length,
      (i) => {
        const q = data.qa[i];
        return [ds.id, userIds[q.user], q.split, i, q.type, q.question, q.personalizedAnswer, q.generalAnswer, JSON.stringify(q.dialogueKeys), json(q.metadata), q.extra];
      },
      progress,
    );
    return ds.id;
  });
}

function json(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}

function insertSql(table: Parameters<typeof getTableName>[0], columns: Column[], rows: number): string {
  const one = `(${columns.map(() => "?").join(",")})`;
  return `INSERT INTO "${getTableName(table)}" (${columns.map((c) => `"${c.name}"`).join(",")}) VALUES ${Array(rows).fill(one).join(",")}`;
}

function insertUsers(client: Client, datasetId: number, data: Collected): number[] {
  const cols = [
    hcUsers.datasetId,
    hcUsers.userKey,
    hcUsers.position,
    hcUsers.dialogueCount,
    hcUsers.qaCount,
    hcUsers.turnCount,
    hcUsers.personaDialogues,
    hcUsers.profileDialogues,
    hcUsers.scheduleDialogues,
  ];
  const st = client.prepare(insertSql(hcUsers, cols, 1));
  return data.users.map((u, i) =>
    Number(st.run(datasetId, u.key, i, u.dialogues, u.qa, u.turns, u.persona, u.profile, u.schedule).lastInsertRowid),
  );
}

function insertDialogues(client: Client, datasetId: number, data: Collected, userIds: number[]): number[] {
  const cols = [hcDialogues.datasetId, hcDialogues.userId, hcDialogues.dialogueKey, hcDialogues.split, hcDialogues.position, hcDialogues.type, hcDialogues.metadata, hcDialogues.turnCount];
  const st = client.prepare(insertSql(hcDialogues, cols, 1));
  return data.dialogues.map((d) =>
    Number(st.run(datasetId, userIds[d.user], d.key, d.split, d.position, d.type, json(d.metadata), d.turnCount).lastInsertRowid),
  );
}

/** Inserts `count` rows, CHUNK at a time, with one cached statement per chunk size. */
function bulkInsert(
  client: Client,
  table: Parameters<typeof getTableName>[0],
  columns: Column[],
  count: number,
  row: (i: number) => unknown[],
  progress: (n: number) => void,
): void {
  const statements = new Map<number, Statement>();
  for (let start = 0; start < count; start += CHUNK) {
    const n = Math.min(CHUNK, count - start);
    let st = statements.get(n);
    if (!st) statements.set(n, (st = client.prepare(insertSql(table, columns, n))));
    const values: unknown[] = [];
    for (let i = start; i < start + n; i++) values.push(...row(i));
    st.run(values);
    progress(n);
  }
}
