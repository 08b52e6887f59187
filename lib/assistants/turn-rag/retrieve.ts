/**
 * Turn-level RAG: the top-k single utterances (user or assistant) of earlier sessions' dialogues.
 * It needs no model call to build: the memory is the dialogue history itself.
 */
import type { BaselineEntry, BaselineSession, MakeIndex } from "../baselines/types";
import { speaker, type Lang } from "../baselines/history-text";

export type Utterance = { seq: number; turn: number; speaker: "user" | "assistant"; text: string };

/** The utterance entries one session adds (visible from the next session on). */
export function utteranceEntries(s: BaselineSession): BaselineEntry[] {
  return s.turns.flatMap((t, i) =>
    (["user", "assistant"] as const).map((who) => ({
      kind: "utterance",
      key: `${s.seq}:turn_${i + 1}:${who}`,
      content: { seq: s.seq, turn: i + 1, speaker: who, text: who === "user" ? t.user : t.assistant } satisfies Utterance,
      visibleFrom: s.seq + 1,
      callKeys: [],
    })),
  );
}

export const utteranceText = (lang: Lang, u: Utterance) => `${speaker(lang, u.speaker)}: ${u.text}`;

export async function retrieveUtterances(makeIndex: MakeIndex, k: number, lang: Lang, query: string, utterances: readonly Utterance[]) {
  if (!utterances.length) return [];
  const index = makeIndex<Utterance>();
  await index.add(utterances.map((u) => ({ id: `${u.seq}:${u.turn}:${u.speaker}`, text: utteranceText(lang, u), meta: u })));
  return (await index.search(query, k)).map((h) => h.doc.meta!);
}
