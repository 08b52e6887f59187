/** Helpers shared by the HiCUPID tests: the demo fixture's paths, and writing variants of it. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { Db } from "@/db/client";
import { hcDialogues, hcQa, hcTurns, hcUsers } from "@/db/schema";

import { FIXTURE_HF, FIXTURE_JSONL, FIXTURE_STATS, ROOT } from "./fixtures";

export { FIXTURE_HF, FIXTURE_JSONL, FIXTURE_STATS, ROOT };

export type Row = Record<string, unknown>;

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-hc-"));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function readJsonl(file: string): Row[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

export function writeJsonl(file: string, rows: Row[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}

/**
 * Parquet with hyparquet-writer's automatic column types: objects and lists become JSON-typed
 * byte-array columns (not structs), which exercises the importer's other metadata encoding.
 */
export function writeParquetAuto(file: string, rows: Row[]): void {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    Buffer.from(parquetWriteBuffer({ columnData: names.map((name) => ({ name, data: rows.map((r) => r[name] ?? null) })) })),
  );
}

/** Copies the JSONL fixture to `dir` (dialogue/ and qa/), letting `edit` change a file's rows on the way. */
export function copyJsonlFixture(dir: string, edit: (rel: string, rows: Row[]) => Row[] = (_, r) => r): void {
  for (const config of ["dialogue", "qa"]) {
    for (const f of fs.readdirSync(path.join(FIXTURE_JSONL, config))) {
      const rel = `${config}/${f}`;
      writeJsonl(path.join(dir, rel), edit(rel, readJsonl(path.join(FIXTURE_JSONL, rel))));
    }
  }
}

/** Everything stored for a data set, without database ids, in a stable order: for comparing imports. */
export function dumpDataset(db: Db, datasetId: number) {
  const users = db
    .select({
      userKey: hcUsers.userKey,
      position: hcUsers.position,
      dialogueCount: hcUsers.dialogueCount,
      qaCount: hcUsers.qaCount,
      turnCount: hcUsers.turnCount,
      personaDialogues: hcUsers.personaDialogues,
      profileDialogues: hcUsers.profileDialogues,
      scheduleDialogues: hcUsers.scheduleDialogues,
    })
    .from(hcUsers)
    .where(eq(hcUsers.datasetId, datasetId))
    .orderBy(asc(hcUsers.position))
    .all();
  const dialogues = db
    .select({
      userKey: hcUsers.userKey,
      dialogueKey: hcDialogues.dialogueKey,
      split: hcDialogues.split,
      position: hcDialogues.position,
      type: hcDialogues.type,
      metadata: hcDialogues.metadata,
      turnCount: hcDialogues.turnCount,
    })
    .from(hcDialogues)
    .innerJoin(hcUsers, eq(hcDialogues.userId, hcUsers.id))
    .where(eq(hcDialogues.datasetId, datasetId))
    .orderBy(asc(hcUsers.position), asc(hcDialogues.position))
    .all();
  const turns = db
    .select({
      userKey: hcUsers.userKey,
      dialogueKey: hcDialogues.dialogueKey,
      position: hcTurns.position,
      user: hcTurns.user,
      assistant: hcTurns.assistant,
      extra: hcTurns.extra,
    })
    .from(hcTurns)
    .innerJoin(hcDialogues, eq(hcTurns.dialogueId, hcDialogues.id))
    .innerJoin(hcUsers, eq(hcDialogues.userId, hcUsers.id))
    .where(eq(hcDialogues.datasetId, datasetId))
    .orderBy(asc(hcUsers.position), asc(hcDialogues.position), asc(hcTurns.position))
    .all();
  const qa = db
    .select({
      userKey: hcUsers.userKey,
      split: hcQa.split,
      position: hcQa.position,
      type: hcQa.type,
      question: hcQa.question,
      personalizedAnswer: hcQa.personalizedAnswer,
      generalAnswer: hcQa.generalAnswer,
      dialogueIds: hcQa.dialogueIds,
      metadata: hcQa.metadata,
      extra: hcQa.extra,
    })
    .from(hcQa)
    .innerJoin(hcUsers, eq(hcQa.userId, hcUsers.id))
    .where(eq(hcQa.datasetId, datasetId))
    .orderBy(asc(hcQa.position))
    .all();
  return { users, dialogues, turns, qa };
}

/** Row counts of every table an import writes: equal before and after a failed import. */
export function tableCounts(db: Db): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of ["datasets", "hc_users", "hc_dialogues", "hc_turns", "hc_qa"]) {
    out[t] = (db.$client.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
  }
  return out;
}
