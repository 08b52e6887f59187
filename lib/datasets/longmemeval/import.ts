/**
 * `pal import longmemeval <file>`: the file is streamed question by question (an M file is ~2.7 GB), each
 * question checked and written at once inside one transaction: an error anywhere rolls everything back.
 * Each distinct haystack session (its id and turns, hashed) is written once; the timelines refer to it.
 */
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { cmQa, cmSessions, cmThreads, cmTimeline, cmTurns, datasets } from "@/db/schema";
import { DatasetError, type ImportOptions, type ImportResult, type QualityReport, type QualityWarning } from "../types";
import { describeSource } from "../source";
import { checkName, claimDataset } from "../replace";
import { TableWriter } from "../writer";
import { Checker } from "../convmem/check";
import { kindCounts } from "../convmem/stats";
import { jsonArrayElements } from "../convmem/json-array-stream";
import { rowsJson, sessionHash } from "../convmem/dedupe";
import type { TurnIn } from "../convmem/types";
import { checkQuestion, MISSING_EVIDENCE_WARNING, REORDERED_WARNING, REPEATED_WARNING } from "./read";

/** sha256 of JSON.stringify(turns.map((t) => [speaker, text, hasAnswer ?? null, extra ?? null])). */
const hashTurns = (turns: TurnIn[]) =>
  sessionHash(
    rowsJson(turns.length, 4, (r, i) => {
      const t = turns[r];
      return i === 0 ? t.speaker : i === 1 ? t.text : i === 2 ? (t.hasAnswer ?? null) : (t.extra ?? null);
    }),
  );

export async function importLongMemEval(db: Db, opts: ImportOptions): Promise<ImportResult> {
  if (opts.paths.length !== 1)
    throw new DatasetError(
      `a LongMemEval import takes one file (longmemeval_s_cleaned.json, _m_cleaned, longmemeval_oracle.json, or the older longmemeval_s.json, _m), got ${opts.paths.length}`,
    );
  const file = opts.paths[0];
  const label = path.basename(file);
  const name = opts.name?.trim() || label.replace(/\.json$/i, "") || "longmemeval";
  const progress = opts.onProgress ?? (() => {});
  checkName(db, name, "longmemeval", opts.replace);
  const c = new Checker(label);
  const raw = { threads: 0, sessions: 0, sessionRefs: 0, turns: 0, qa: 0 };
  let reordered = 0;
  // Questions that list a session twice / name an answer session not in their haystack, with a few examples.
  const repeated = { count: 0, examples: [] as string[] };
  const missing = { count: 0, examples: [] as string[] };
  const note = (w: { count: number; examples: string[] }, example: string) => {
    w.count++;
    if (w.examples.length < 5) w.examples.push(example);
  };
  const datasetId = db.transaction((tx) => {
    const id = claimDataset(
      tx,
      name,
      "longmemeval",
      { language: "en", source: describeSource(opts.paths), importedBy: opts.importedBy },
      opts.replace,
    );
    const sessions = new TableWriter(tx, cmSessions, ["datasetId", "sessionKey", "hash", "turnCount"]);
    const turns = new TableWriter(tx, cmTurns, ["sessionId", "position", "speaker", "text", "diaId", "hasAnswer", "extra"], 500);
    const threads = new TableWriter(tx, cmThreads, ["datasetId", "threadKey", "position", "sessionCount", "turnCount", "qaCount"]);
    const timeline = new TableWriter(tx, cmTimeline, ["threadId", "position", "sessionId", "label", "date"], 500);
    const qa = new TableWriter(tx, cmQa, [
      "datasetId",
      "threadId",
      "itemKey",
      "position",
      "question",
      "answer",
      "questionType",
      "evidence",
      "questionDate",
      "extra",
    ]);
    const sessionIds = new Map<string, number>();
    const seen = new Set<string>();
    let i = 0;
    for (const el of jsonArrayElements(file, label, (done, total) =>
      progress({ phase: "reading", done, total, detail: `${label}: ${i} questions` }),
    )) {
      const q = checkQuestion(c, el, i);
      if (seen.has(q.id)) c.fail(`[${i}].question_id`, `"${q.id}" appears twice`);
      seen.add(q.id);
      if (q.reordered) reordered++;
      if (q.repeated.length) note(repeated, `[${i}] ${q.id}: ${q.repeated.join(", ")}`);
      if (q.missingEvidence.length) note(missing, `[${i}] ${q.id}: ${q.missingEvidence.join(", ")}`);
      const ids = q.timeline.map((e) => {
        const hash = hashTurns(e.turns);
        const k = `${e.label}\u0000${hash}`;
        let sid = sessionIds.get(k);
        if (sid === undefined) {
          sid = sessions.insertReturningId({ datasetId: id, sessionKey: e.label, hash, turnCount: e.turns.length });
          e.turns.forEach((t, position) =>
            turns.add({
              sessionId: sid!,
              position,
              speaker: t.speaker,
              text: t.text,
              diaId: null,
              hasAnswer: t.hasAnswer === null || t.hasAnswer === undefined ? null : t.hasAnswer ? 1 : 0,
              extra: t.extra ?? null,
            }),
          );
          sessionIds.set(k, sid);
          raw.sessions++;
          raw.turns += e.turns.length;
        }
        return sid;
      });
      const threadId = threads.insertReturningId({
        datasetId: id,
        threadKey: q.id,
        position: i,
        sessionCount: q.timeline.length,
        turnCount: q.timeline.reduce((n, e) => n + e.turns.length, 0),
        qaCount: 1,
      });
      q.timeline.forEach((e, position) => timeline.add({ threadId, position, sessionId: ids[position], label: e.label, date: e.date }));
      qa.add({ datasetId: id, threadId, position: i, ...q.qa, evidence: q.qa.evidence, extra: q.qa.extra ?? null });
      raw.threads++;
      raw.sessionRefs += q.timeline.length;
      raw.qa++;
      i++;
    }
    if (!i) c.fail("(root)", "the list of questions is empty");
    turns.flush();
    timeline.flush();
    qa.flush();
    const stats = kindCounts("longmemeval", raw);
    const report: QualityReport = { counts: stats, warnings: warnings() };
    tx.update(datasets).set({ stats, report }).where(eq(datasets.id, id)).run();
    return id;
  });
  function warnings(): QualityWarning[] {
    const out: QualityWarning[] = [];
    if (reordered) out.push({ ...REORDERED_WARNING, count: reordered, examples: [] });
    if (repeated.count) out.push({ ...REPEATED_WARNING, ...repeated });
    if (missing.count) out.push({ ...MISSING_EVIDENCE_WARNING, ...missing });
    return out;
  }
  const stats = kindCounts("longmemeval", raw);
  progress({ phase: "done", done: 1, total: 1 });
  return {
    datasetId,
    name,
    kind: "longmemeval",
    language: "en",
    stats,
    report: { counts: stats, warnings: warnings() },
  };
}
