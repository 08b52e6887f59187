/**
 * H2Memory's retrieval (Mem-PAL "Memory-based RAG" and Appendix C):
 *   m = { R(M_G^j), F_GB(R(M_G^j)), R(M_T^(j)), F_TP(R(M_T^(j))) }
 * the k situations of the current session closest to the query with the background of their aspects,
 * and the k closest topic outlines of all earlier dialogues with the principles of their clusters.
 * Requirement-phase inputs get requirement-only content (outline requirements, requirement types);
 * solution-phase inputs also get the outlines' solutions with the user's feedback and the preference principles.
 */
import { backgroundText } from "./background";
import { outlineText, type Lang } from "./prompts";
import { ASPECTS, type Aspect } from "./schemas";
import type { BackgroundEntry, H2Parts, H2Services, PrincipleEntry, SituationEntry, TopicOutlineEntry } from "./types";

export type Phase = "requirement" | "solution";

/** The memory an answer in one session may use (entries valid at that session). */
export type H2View = {
  /** The session being answered: only its situations are "recent" (M_G^j). */
  session: string;
  situations: Array<{ key: string; content: SituationEntry }>;
  background: Array<{ key: string; content: BackgroundEntry }>;
  outlines: Array<{ key: string; content: TopicOutlineEntry }>;
  principles: Array<{ key: string; content: PrincipleEntry }>;
};

export type RetrievedItem = { kind: "situation" | "background" | "topic_outline" | "principle"; key: string; text: string };
export type Retrieved = { query: string; phase: Phase; items: RetrievedItem[]; text: string };

const HEAD: Record<Lang, Record<RetrievedItem["kind"], string>> = {
  zh: { situation: "用户近期情况", background: "用户背景", topic_outline: "相关历史话题", principle: "需求类型与偏好原则" },
  en: {
    situation: "User's recent situations",
    background: "User background",
    topic_outline: "Related past topics",
    principle: "Requirement types and preference principles",
  },
};

export async function retrieve(
  svc: Pick<H2Services, "lang" | "topK">,
  parts: H2Parts,
  k: number,
  view: H2View,
  query: string,
  phase: Phase,
): Promise<Retrieved> {
  const items: RetrievedItem[] = [];
  const withSolutions = phase === "solution";

  const bg = Object.fromEntries(ASPECTS.map((a) => [a, ""])) as Record<Aspect, string>;
  for (const b of view.background) bg[b.content.aspect] = b.content.text;

  let aspects: Aspect[] = [...ASPECTS];
  if (parts.graph) {
    const recent = view.situations.filter((s) => s.content.session === view.session);
    const ids = await svc.topK(
      recent.map((s) => ({ id: s.key, text: s.content.situation })),
      query,
      k,
    );
    const hits = ids.map((id) => recent.find((s) => s.key === id)!);
    for (const s of hits) items.push({ kind: "situation", key: s.key, text: s.content.situation });
    aspects = ASPECTS.filter((a) => hits.some((s) => s.content.aspects.includes(a)));
  }
  if (parts.background) {
    for (const a of aspects) if (bg[a]) items.push({ kind: "background", key: a, text: backgroundText(bg, [a]) });
  }

  const principleText = (p: PrincipleEntry) => (withSolutions ? `${p.general_requirement}: ${p.principle}` : p.general_requirement);
  if (parts.topic) {
    const ids = await svc.topK(
      view.outlines.map((o) => ({ id: o.key, text: o.content.requirement })),
      query,
      k,
    );
    const hits = ids.map((id) => view.outlines.find((o) => o.key === id)!);
    for (const o of hits) items.push({ kind: "topic_outline", key: o.key, text: outlineText(svc.lang, o.content, withSolutions) });
    if (parts.principle) {
      // F_TP: the clusters the retrieved outlines belong to, each once.
      const seen = new Set<string>();
      for (const o of hits) {
        const p = view.principles.find((x) => x.content.members.includes(o.key));
        if (p && !seen.has(p.key)) {
          seen.add(p.key);
          items.push({ kind: "principle", key: p.key, text: principleText(p.content) });
        }
      }
    }
  } else if (parts.principle) {
    // Without M_T there is no outline to map from: the principles closest to the query stand alone.
    const ids = await svc.topK(
      view.principles.map((p) => ({ id: p.key, text: p.content.general_requirement })),
      query,
      k,
    );
    for (const id of ids)
      items.push({ kind: "principle", key: id, text: principleText(view.principles.find((p) => p.key === id)!.content) });
  }

  return { query, phase, items, text: memoryText(svc.lang, items) };
}

/** The retrieved memory as the <memory> block of a task prompt, grouped by part. */
export function memoryText(lang: Lang, items: RetrievedItem[]): string {
  const kinds: RetrievedItem["kind"][] = ["background", "situation", "topic_outline", "principle"];
  return kinds
    .filter((kind) => items.some((i) => i.kind === kind))
    .map(
      (kind) =>
        `## ${HEAD[lang][kind]}\n${items
          .filter((i) => i.kind === kind)
          .map((i) => `- ${i.text.replace(/\n/g, "\n  ")}`)
          .join("\n")}`,
    )
    .join("\n\n");
}
