/**
 * Writes a checked LoCoMo or LongMemEval data set in one transaction (nothing lands on an error; a
 * replace keeps the data set's id). Threads and sessions are inserted one by one for their ids; turns,
 * timeline rows and QA go in as multi-row inserts.
 */
import type { Db } from "@/db/client";
import { cmQa, cmSessions, cmThreads, cmTimeline, cmTurns } from "@/db/schema";
import type { ImportProgress, QualityReport } from "../types";
import { claimDataset } from "../replace";
import { TableWriter } from "../writer";
import type { ConvData } from "./types";

export type ConvWriteMeta = {
  name: string;
  kind: "locomo" | "longmemeval";
  source: string;
  stats: Record<string, number>;
  report: QualityReport;
  importedBy?: number;
  replace?: boolean;
  onProgress?: (p: ImportProgress) => void;
};

export function writeConvmem(db: Db, data: ConvData, meta: ConvWriteMeta): number {
  const total = data.sessions.length + data.threads.length + data.qa.length;
  let done = 0;
  const step = (n: number) => {
    done += n;
    if (done % 500 < n || done === total) meta.onProgress?.({ phase: "writing", done, total });
  };
  return db.transaction((tx) => {
    const values = { language: "en", source: meta.source, stats: meta.stats, report: meta.report, importedBy: meta.importedBy };
    const datasetId = claimDataset(tx, meta.name, meta.kind, values, meta.replace);

    const sessions = new TableWriter(tx, cmSessions, ["datasetId", "sessionKey", "hash", "turnCount"]);
    const turns = new TableWriter(tx, cmTurns, ["sessionId", "position", "speaker", "text", "diaId", "hasAnswer", "extra"], 500);
    const sessionIds = data.sessions.map((s) => {
      const id = sessions.insertReturningId({ datasetId, sessionKey: s.key, hash: s.hash, turnCount: s.turns.length });
      s.turns.forEach((t, position) =>
        turns.add({
          sessionId: id,
          position,
          speaker: t.speaker,
          text: t.text,
          diaId: t.diaId ?? null,
          hasAnswer: t.hasAnswer === undefined || t.hasAnswer === null ? null : t.hasAnswer ? 1 : 0,
          extra: t.extra ?? null,
        }),
      );
      step(1);
      return id;
    });
    turns.flush();

    const qaOf = new Map<number, number>();
    for (const q of data.qa) qaOf.set(q.thread, (qaOf.get(q.thread) ?? 0) + 1);
    const threads = new TableWriter(tx, cmThreads, [
      "datasetId",
      "threadKey",
      "position",
      "speakerA",
      "speakerB",
      "sessionCount",
      "turnCount",
      "qaCount",
      "extra",
    ]);
    const timeline = new TableWriter(tx, cmTimeline, ["threadId", "position", "sessionId", "label", "date"], 500);
    const threadIds = data.threads.map((t, position) => {
      const id = threads.insertReturningId({
        datasetId,
        threadKey: t.key,
        position,
        speakerA: t.speakerA ?? null,
        speakerB: t.speakerB ?? null,
        sessionCount: t.timeline.length,
        turnCount: t.timeline.reduce((n, e) => n + data.sessions[e.session].turns.length, 0),
        qaCount: qaOf.get(position) ?? 0,
        extra: t.extra ?? null,
      });
      t.timeline.forEach((e, i) =>
        timeline.add({ threadId: id, position: i, sessionId: sessionIds[e.session], label: e.label, date: e.date }),
      );
      step(1);
      return id;
    });
    timeline.flush();

    const qa = new TableWriter(tx, cmQa, [
      "datasetId",
      "threadId",
      "itemKey",
      "position",
      "question",
      "answer",
      "category",
      "questionType",
      "evidence",
      "adversarialAnswer",
      "questionDate",
      "extra",
    ]);
    data.qa.forEach((q, position) => {
      qa.add({
        datasetId,
        threadId: threadIds[q.thread],
        itemKey: q.itemKey,
        position,
        question: q.question,
        answer: q.answer,
        category: q.category ?? null,
        questionType: q.questionType ?? null,
        evidence: q.evidence,
        adversarialAnswer: q.adversarialAnswer ?? null,
        questionDate: q.questionDate ?? null,
        extra: q.extra ?? null,
      });
      step(1);
    });
    qa.flush();
    return datasetId;
  });
}
