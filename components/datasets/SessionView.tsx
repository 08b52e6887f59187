import Link from "next/link";
import { fmtCount, fmtMinute, sessionHref, topicAnchor, topicHref } from "@/lib/datasets/browse/format";
import { ChatView, type ChatTurn } from "./ChatView";
import { LogList, type LogItem } from "./LogList";
import { SituationCard } from "./SituationCard";
import { TopicCard, type TopicView } from "./TopicCard";

export type SessionData = {
  sampleKey: string;
  split: string;
  dialogueTimestamp: string;
  situation: Record<string, unknown> | null;
  logs: LogItem[];
  turns: ChatTurn[];
  topics: TopicView[];
  prev?: string | null;
  next?: string | null;
};

/**
 * One PAL-Set session: situation, logs, the dialogue as a chat, and its topics. With `highlight` (a
 * topic key), that topic is marked; the page's HashTarget scrolls to it.
 */
export function SessionView({
  datasetId,
  userKey,
  lang,
  session,
  highlight,
}: {
  datasetId: number;
  userKey: string;
  lang: string | null;
  session: SessionData;
  highlight?: string;
}) {
  const s = session;
  const topicLinks = s.topics.map((t) => ({ anchor: topicAnchor(t.topicKey), title: t.userQuery }));
  return (
    <div className="space-y-5" data-testid="session" data-sample={s.sampleKey}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span
          data-testid="split"
          className={`rounded px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide ring-1 ring-inset ${s.split === "query" ? "bg-amber-100 text-amber-900 ring-amber-300" : "bg-slate-100 text-slate-600 ring-slate-200"}`}
        >
          {s.split === "query" ? "query · evaluation sample" : s.split}
        </span>
        <span className="text-slate-600">
          dialogue at <time className="font-mono">{fmtMinute(s.dialogueTimestamp)}</time>
        </span>
        <span className="text-slate-500">·</span>
        <span className="text-slate-600">
          {fmtCount(s.logs.length)} logs · {fmtCount(s.turns.length)} turns · {fmtCount(s.topics.length)} topics
        </span>
        <span className="ml-auto flex gap-2">
          {s.prev ? (
            <Link
              href={sessionHref(datasetId, userKey, s.prev)}
              className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs hover:bg-slate-50"
            >
              ‹ Previous session
            </Link>
          ) : null}
          {s.next ? (
            <Link
              href={sessionHref(datasetId, userKey, s.next)}
              className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs hover:bg-slate-50"
            >
              Next session ›
            </Link>
          ) : null}
        </span>
      </div>
      {s.topics.length ? (
        <nav aria-label="Topics of this session" className="flex flex-wrap gap-2 text-xs">
          {s.topics.map((t, i) => (
            <a
              key={t.topicKey}
              href={`#${topicAnchor(t.topicKey)}`}
              className={`max-w-xs truncate rounded-full px-2 py-0.5 ring-1 ring-inset hover:bg-indigo-50 ${highlight === t.topicKey ? "bg-indigo-100 text-indigo-900 ring-indigo-300" : "bg-white text-slate-600 ring-slate-200"}`}
            >
              Topic {i + 1}: {t.userQuery}
            </a>
          ))}
        </nav>
      ) : null}
      <SituationCard situation={s.situation} />
      <LogList logs={s.logs} lang={lang} />
      <div className="grid gap-5 xl:grid-cols-2">
        <ChatView turns={s.turns} topics={topicLinks} />
        <section aria-labelledby="topics-title" className="space-y-3">
          <h2 id="topics-title" className="text-sm font-semibold text-slate-800">
            Topics <span className="font-normal text-slate-500">({s.topics.length})</span>
          </h2>
          {s.topics.map((t, i) => (
            <TopicCard
              key={t.topicKey}
              topic={t}
              index={i}
              anchor={topicAnchor(t.topicKey)}
              href={topicHref(datasetId, userKey, s.sampleKey, t.topicKey)}
              highlighted={highlight === t.topicKey}
            />
          ))}
          {s.topics.length === 0 ? <p className="text-sm text-slate-500">No topics.</p> : null}
        </section>
      </div>
    </div>
  );
}
