/**
 * M_B: the user's background per aspect, updated recursively from each session's situations
 * (Mem-PAL: M_B(j) = LLM(M_B(j-1), M_G^j)). Aspects the model does not name stay as they were.
 */
import { backgroundPrompt } from "./prompts";
import { ASPECTS, backgroundUpdateOutput, type Aspect } from "./schemas";
import type { BackgroundEntry, H2Services, H2Session, H2State, SituationEntry } from "./types";

/** The period a session's logs cover ("first ~ last"), or its dialogue time when it has no logs. */
export function sessionSpan(session: H2Session): { start: string; end: string } {
  const first = session.logs[0]?.timestamp ?? session.timestamp;
  const last = session.logs.at(-1)?.timestamp ?? session.timestamp;
  return { start: first, end: last };
}

export type BackgroundStep = { state: H2State["background"]; changed: BackgroundEntry[] };

/** One recursive update; no call when the session produced no situations. */
export async function updateBackground(
  svc: H2Services,
  prev: H2State["background"],
  session: H2Session,
  situations: SituationEntry[],
): Promise<BackgroundStep> {
  if (situations.length === 0) return { state: prev, changed: [] };
  const span = sessionSpan(session);
  const r = await svc.chat(
    backgroundPrompt(
      svc.lang,
      { time_span: prev.time_span, background: prev.background },
      {
        time_span: `${span.start} ~ ${span.end}`,
        situation_list: situations.map((s) => s.situation),
      },
    ),
    backgroundUpdateOutput,
  );
  const start = prev.start ?? span.start;
  const timeSpan = `${start} ~ ${span.end}`;
  const next = { ...prev.background };
  const changed: BackgroundEntry[] = [];
  for (const aspect of new Set(r.value.updating_aspects)) {
    const text = r.value.updating_content[aspect].trim();
    if (text === next[aspect]) continue;
    next[aspect] = text;
    changed.push({ aspect, text, timeSpan, session: session.key, callKey: r.callKey });
  }
  return { state: { time_span: timeSpan, background: next, start }, changed };
}

/** The background as one text, limited to some aspects (F_GB of retrieved situations) or all. */
export function backgroundText(bg: Record<Aspect, string>, aspects: readonly Aspect[] = ASPECTS): string {
  return ASPECTS.filter((a) => aspects.includes(a) && bg[a])
    .map((a) => `${a}: ${bg[a]}`)
    .join("\n");
}
