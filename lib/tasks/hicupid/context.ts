/**
 * The history an inference setting puts in the model's context (HiCUPID §4): the whole history, the
 * relevant (gold) dialogues, or retrieved units. Utterance-level units are a user message with the
 * assistant reply that followed; dialogue-level units are whole dialogues. Retrieved units go back in
 * chronological order. Retrieval recall: the share of the item's relevant dialogues that a retrieved
 * unit comes from.
 */
import type { Session } from "@/lib/assistants/core/types";
import { createRetriever, type EmbedFn } from "@/lib/retrieval";
import type { ContextOptions, ContextSettingName } from "./settings";

export type HistoryContext = {
  text: string;
  /** The same history as chat turns, in order (HiCUPID gives the history as user/assistant messages). */
  turns: Array<{ user: string; assistant: string }>;
  /** The units in the context, for the drill-down. */
  units: Array<{ dialogue: string; turn?: number; score?: number }>;
  /** Retrieval settings only. */
  recall: number | null;
};

const renderTurn = (t: { user: string; assistant: string }) => `User: ${t.user}\nAssistant: ${t.assistant}`;
const renderDialogue = (s: Session) => `[Dialogue ${s.key}]\n${s.dialogue.map(renderTurn).join("\n")}`;

export async function historyContext(
  setting: ContextSettingName,
  opts: ContextOptions,
  history: Session[],
  question: string,
  relevant: readonly string[],
  embed?: EmbedFn,
): Promise<HistoryContext> {
  if (setting === "full-history" || setting === "gold") {
    const picked = setting === "gold" ? history.filter((s) => relevant.includes(s.key)) : history;
    return {
      text: picked.map(renderDialogue).join("\n\n"),
      turns: picked.flatMap((s) => s.dialogue.map((t) => ({ user: t.user, assistant: t.assistant }))),
      units: picked.map((s) => ({ dialogue: s.key })),
      recall: null,
    };
  }
  const kind = opts.retriever ?? "bm25";
  const r =
    kind === "dense"
      ? createRetriever<{ seq: number; turn?: number; key: string }>("dense", { embed: embed!, model: "embedding" })
      : createRetriever<{ seq: number; turn?: number; key: string }>(
          "bm25",
          // rank_bm25: HiCUPID's public BM25 (BM25Okapi idf over Python str.split() tokens); else the project's.
          opts.bm25 === "rank_bm25" ? { split: "whitespace", idf: "okapi" } : { tokenizer: { language: "en" } },
        );
  if (kind === "dense" && !embed) throw new Error("dense retrieval needs the embedding role");
  const utterance = setting === "rag-utterance";
  const docs = utterance
    ? history.flatMap((s) => s.dialogue.map((t, i) => ({ id: `${s.seq}:${i}`, text: t.user, meta: { seq: s.seq, turn: i, key: s.key } })))
    : history.map((s) => ({
        id: `${s.seq}`,
        text: s.dialogue.map((t) => `${t.user}\n${t.assistant}`).join("\n"),
        meta: { seq: s.seq, key: s.key },
      }));
  await r.add(docs);
  const hits = await r.search(question, opts.k ?? (utterance ? 5 : 1));
  // Back in the order they happened.
  const ordered = [...hits].sort((a, b) => a.doc.meta!.seq - b.doc.meta!.seq || (a.doc.meta!.turn ?? 0) - (b.doc.meta!.turn ?? 0));
  const text = ordered
    .map((h) => {
      const s = history[h.doc.meta!.seq];
      return utterance ? `[Dialogue ${s.key}]\n${renderTurn(s.dialogue[h.doc.meta!.turn!])}` : renderDialogue(s);
    })
    .join("\n\n");
  const turns = ordered.flatMap((h) => {
    const s = history[h.doc.meta!.seq];
    const picked = utterance ? [s.dialogue[h.doc.meta!.turn!]] : s.dialogue;
    return picked.map((t) => ({ user: t.user, assistant: t.assistant }));
  });
  const got = new Set(ordered.map((h) => h.doc.meta!.key));
  const recall = relevant.length ? relevant.filter((k) => got.has(k)).length / relevant.length : null;
  return { text, turns, units: ordered.map((h) => ({ dialogue: h.doc.meta!.key, turn: h.doc.meta!.turn, score: h.score })), recall };
}
