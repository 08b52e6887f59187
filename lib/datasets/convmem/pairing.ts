/**
 * How a stored session becomes the user/assistant turns the memory methods read (docs/data-formats.md,
 * "LoCoMo and LongMemEval as sessions"). LongMemEval sessions are user/assistant chats already. A LoCoMo
 * session has two people: speaker_a stands on the user side and speaker_b on the assistant side, and each
 * utterance keeps its speaker's name ("Ines: ...") — as mem0's LoCoMo evaluation feeds speaker_a's messages
 * as the user's — so a memory holds what both said, each fact with its owner. Consecutive utterances of one
 * side are joined; a pair closes when the user side speaks again after the assistant side.
 */
export type StoredTurn = {
  position: number;
  speaker: string;
  text: string;
  diaId: string | null;
  hasAnswer: number | null;
  extra: Record<string, unknown> | null;
};

export type PairedTurn = { user: string; assistant: string; userPositions: number[]; assistantPositions: number[] };

/** The text a method sees for one stored turn: LoCoMo's with the speaker's name and a shared image's caption. */
export function turnText(t: StoredTurn, named: boolean): string {
  if (!named) return t.text;
  const caption = typeof t.extra?.blip_caption === "string" && t.extra.blip_caption ? ` [shares ${t.extra.blip_caption}]` : "";
  return `${t.speaker}: ${t.text}${caption}`;
}

export function pairTurns(turns: readonly StoredTurn[], isUserSide: (speaker: string) => boolean, named: boolean): PairedTurn[] {
  const out: PairedTurn[] = [];
  let cur: PairedTurn | null = null;
  for (const t of turns) {
    const text = turnText(t, named);
    if (isUserSide(t.speaker)) {
      if (!cur || cur.assistantPositions.length) {
        if (cur) out.push(cur);
        cur = { user: "", assistant: "", userPositions: [], assistantPositions: [] };
      }
      cur.user = cur.user ? `${cur.user}\n${text}` : text;
      cur.userPositions.push(t.position);
    } else {
      cur ??= { user: "", assistant: "", userPositions: [], assistantPositions: [] };
      cur.assistant = cur.assistant ? `${cur.assistant}\n${text}` : text;
      cur.assistantPositions.push(t.position);
    }
  }
  if (cur) out.push(cur);
  return out;
}
