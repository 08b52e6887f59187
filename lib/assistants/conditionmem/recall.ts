/**
 * ConditionMem's retrieval with at most one self-reflection: retrieve the top-k records (k = 3 in
 * the paper and in Mem-PAL's shared setting), ask whether they are enough; if so keep the relevant
 * memory the model copied out, if not append its keywords to the query and retrieve once more.
 */
import type { ChatFn, MakeIndex } from "../baselines/types";
import type { Lang } from "../baselines/history-text";
import { recordText, type StoredRecord } from "./engine";
import { reflectionPrompt, reflectionSchema } from "./prompts";

export type ConditionMemRecall = {
  /** Records retrieved for the final context. */
  records: StoredRecord[];
  /** The relevant memory the model kept when the first retrieval was enough. */
  kept: string | null;
  /** Keywords of the second retrieval, when there was one. */
  keywords: string[] | null;
};

export async function conditionmemRecall(
  chat: ChatFn,
  makeIndex: MakeIndex,
  lang: Lang,
  k: number,
  query: string,
  records: readonly StoredRecord[],
): Promise<ConditionMemRecall> {
  if (!records.length) return { records: [], kept: null, keywords: null };
  const index = makeIndex<StoredRecord>();
  await index.add(records.map((r) => ({ id: `${r.seq}:${r.turn}`, text: recordText(r), meta: r })));
  const first = (await index.search(query, k)).map((h) => h.doc.meta!);
  const { value: reflection } = await chat({
    purpose: "conditionmem.reflection",
    messages: reflectionPrompt(lang, first.map(recordText), query),
    schema: reflectionSchema,
  });
  if ("memory" in reflection) return { records: first, kept: reflection.memory, keywords: null };
  const second = (await index.search(`${query} ${reflection.query.join(" ")}`, k)).map((h) => h.doc.meta!);
  return { records: second, kept: null, keywords: reflection.query };
}
