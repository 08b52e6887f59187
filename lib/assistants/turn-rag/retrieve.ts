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

export const utteranceText = (lang: Lang, u: Utterance) => {
  // The same string for the same stored utterance (entries are shared, frozen objects): the embedding
  // cache finds a vector by its text, and a string built anew is hashed anew for every answer.
  let texts = textsByLang.get(lang);
  if (!texts) textsByLang.set(lang, (texts = new WeakMap()));
  let text = texts.get(u);
  if (text === undefined) texts.set(u, (text = `${speaker(lang, u.speaker)}: ${u.text}`));
  return text;
};
const textsByLang = new Map<Lang, WeakMap<Utterance, string>>();

export async function retrieveUtterances(makeIndex: MakeIndex, k: number, lang: Lang, query: string, utterances: readonly Utterance[]) {
  if (!utterances.length) return [];
  const index = makeIndex<Utterance>();
  await index.add(utterances.map((u) => ({ id: `${u.seq}:${u.turn}:${u.speaker}`, text: utteranceText(lang, u), meta: u })));
  return (await index.search(query, k)).map((h) => h.doc.meta!);
}
