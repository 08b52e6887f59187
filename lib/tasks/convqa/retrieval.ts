/**
 * What a method retrieved, as the benchmarks' ids: LoCoMo dialogue ids ("D3:5") and LongMemEval session
 * and turn ids (`<session id>_<turn number>`, 1-based over the session's turns, as run_retrieval.py numbers
 * them). Read from the retrieved entries' keys of the methods that retrieve dialogue: turn-rag's utterances
 * (`<seq>:turn_<n>:<side>`) and session-rag's sessions (the session's label). Other methods' memories hold
 * derived notes, not dialogue: no retrieval score for them.
 */
import type { Db } from "@/db/client";
import { loadTimeline, threadInfo, userSide, type TimelineSession } from "@/lib/datasets/convmem/thread";
import { pairTurns } from "@/lib/datasets/convmem/pairing";

export type RetrievedRef = { kind: string; key: string; score?: number };
/** One retrieved unit, in rank order: the session it comes from and, for an utterance, its stored turns. */
export type RetrievedUnit = { session: TimelineSession; positions: number[] | null };

export type Retrieved = { units: RetrievedUnit[]; timeline: TimelineSession[] };

export function retrievedUnits(db: Db, datasetId: number, threadKey: string, retrieved: unknown): Retrieved | null {
  if (!Array.isArray(retrieved)) return null;
  const refs = (retrieved as RetrievedRef[]).filter((r) => r && (r.kind === "utterance" || r.kind === "session"));
  if (!refs.length) return null;
  const t = threadInfo(db, datasetId, threadKey);
  const timeline = loadTimeline(db, t.id);
  const byLabel = new Map(timeline.map((s) => [s.label, s]));
  const side = userSide(t);
  const pairs = new Map<number, ReturnType<typeof pairTurns>>();
  const pairsOf = (s: TimelineSession) => {
    let p = pairs.get(s.seq);
    if (!p) pairs.set(s.seq, (p = pairTurns(s.turns, side, t.speakerA !== null)));
    return p;
  };
  // Rank order: by score where the method gives one (turn-rag lists its hits in time order).
  const ranked = refs.every((r) => typeof r.score === "number") ? [...refs].sort((a, b) => b.score! - a.score!) : refs;
  const units: RetrievedUnit[] = [];
  for (const r of ranked) {
    if (r.kind === "session") {
      const s = byLabel.get(r.key);
      if (s) units.push({ session: s, positions: null });
      continue;
    }
    const m = /^(\d+):turn_(\d+):(user|assistant)$/.exec(r.key);
    const s = m ? timeline[Number(m[1])] : undefined;
    const pair = s ? pairsOf(s)[Number(m![2]) - 1] : undefined;
    if (s && pair) units.push({ session: s, positions: m![3] === "user" ? pair.userPositions : pair.assistantPositions });
  }
  return units.length ? { units, timeline } : null;
}

/** LoCoMo: the dialogue ids of the retrieved context (a whole session's when a session was retrieved). */
export function diaIdsOf(units: RetrievedUnit[]): string[] {
  const ids: string[] = [];
  for (const u of units) {
    const turns = u.positions ? u.session.turns.filter((t) => u.positions!.includes(t.position)) : u.session.turns;
    for (const t of turns) if (t.diaId && !ids.includes(t.diaId)) ids.push(t.diaId);
  }
  return ids;
}

/** eval_utils.py dcg: rel[0] + Σ rel[i] / log2(i + 1) for i ≥ 1, over the first k. */
function dcg(rel: number[], k: number): number {
  const r = rel.slice(0, k);
  return r.length ? r[0] + r.slice(1).reduce((s, x, i) => s + x / Math.log2(i + 2), 0) : 0;
}

/**
 * eval_utils.py evaluate_retrieval over a ranked list of ids (each retrieved unit once, in rank order) against
 * the correct ids: recall_any@k, recall_all@k, ndcg_any@k; the ideal ranking puts every correct id in the
 * corpus first (`corpusCorrect` of them).
 */
export function retrievalAt(ranked: string[], correct: Set<string>, corpusCorrect: number, k: number) {
  const top = new Set(ranked.slice(0, k));
  const list = [...correct];
  const rel = ranked.map((id) => (correct.has(id) ? 1 : 0));
  const ideal = Array.from({ length: Math.max(corpusCorrect, 0) }, () => 1);
  const idcg = dcg(ideal, k);
  return {
    recallAny: list.some((d) => top.has(d)) ? 1 : 0,
    // Python's all() of nothing is true: no correct id gives recall_all 1, as eval_utils.py computes it.
    recallAll: list.every((d) => top.has(d)) ? 1 : 0,
    ndcg: idcg === 0 ? 0 : dcg(rel, k) / idcg,
  };
}

/**
 * LongMemEval's retrieval scores of one question at k = the number of units the method retrieved, or null
 * when the public code leaves the question out of its averages. Since xiaowu0162/LongMemEval cf920ec
 * (2025-04-26; run_retrieval.py, kept through the cleaned data of 2025-09) a question whose haystack has no
 * user turn with has_answer is skipped beside the abstention ones (on the cleaned S file: 30 abstention and
 * 51 such questions, issue #16): its evidence is on the assistant's side, which the retrievers do not index.
 * Session level: the correct sessions are the answer sessions (run_retrieval.py marks them by "answer" in
 * the id; here answer_session_ids) that hold a user turn with has_answer: process_item_flat_index renames
 * an answer session without one to "noans", so it does not count. Turn level (utterance retrievers): the
 * correct turns are the user turns with has_answer of the answer sessions, numbered `<session>_<n>`.
 */
export function lmeRetrieval({ units, timeline }: Retrieved, answerSessions: string[]): Record<string, number> | null {
  const answers = new Set(answerSessions);
  const userTarget = (x: TimelineSession) => x.turns.some((t) => t.hasAnswer === 1 && t.speaker === "user");
  if (!timeline.some(userTarget)) return null;
  const correct = new Set(timeline.filter((x) => answers.has(x.label) && userTarget(x)).map((x) => x.label));
  const sessionRanked: string[] = [];
  for (const u of units) if (!sessionRanked.includes(u.session.label)) sessionRanked.push(u.session.label);
  const k = sessionRanked.length;
  const s = retrievalAt(sessionRanked, correct, correct.size, k);
  const out: Record<string, number> = { k, sessionRecallAny: s.recallAny, sessionRecallAll: s.recallAll, sessionNdcg: s.ndcg };
  if (units.every((u) => u.positions)) {
    const turnRanked: string[] = [];
    for (const u of units)
      for (const p of u.positions!) {
        const id = `${u.session.label}_${p + 1}`;
        if (!turnRanked.includes(id)) turnRanked.push(id);
      }
    // The has_answer user turns of the answer sessions anywhere in the haystack, retrieved or not.
    const correctTurns = new Set<string>();
    for (const x of timeline)
      if (correct.has(x.label))
        for (const t of x.turns) if (t.hasAnswer === 1 && t.speaker === "user") correctTurns.add(`${x.label}_${t.position + 1}`);
    const tr = retrievalAt(turnRanked, correctTurns, correctTurns.size, turnRanked.length);
    Object.assign(out, { turnRecallAny: tr.recallAny, turnRecallAll: tr.recallAll, turnNdcg: tr.ndcg });
  }
  return out;
}
