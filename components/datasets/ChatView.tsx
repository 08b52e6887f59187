import type { PalSampleDetail } from "@/lib/datasets/palset/queries";
import { ActionBadge } from "./ActionBadge";

/** A dialogue turn as the session query returns it. */
export type ChatTurn = Omit<PalSampleDetail["turns"][number], "turnKey">;

function Bubble({
  role,
  action,
  code,
  text,
  turn,
}: {
  role: "user" | "assistant";
  action: string;
  code: string | null;
  text: string;
  turn: number;
}) {
  const user = role === "user";
  return (
    <div data-testid={`bubble-${role}`} className={`flex ${user ? "justify-end" : "justify-start"}`}>
      <div className={`max-w-[85%] ${user ? "items-end" : "items-start"} flex flex-col gap-1`}>
        <div className={`flex items-center gap-1.5 text-[11px] text-slate-500 ${user ? "flex-row-reverse" : ""}`}>
          <span className="font-medium">{user ? "User" : "Assistant"}</span>
          <span className="tabular-nums text-slate-500">turn {turn}</span>
          <ActionBadge label={action} code={code} />
        </div>
        <p
          className={`whitespace-pre-wrap rounded-2xl px-3 py-2 text-sm leading-relaxed ${
            user ? "rounded-tr-sm bg-indigo-600 text-white" : "rounded-tl-sm border border-slate-200 bg-white text-slate-800"
          }`}
        >
          {text}
        </p>
      </div>
    </div>
  );
}

/**
 * A PAL-Set dialogue as a chat: user bubbles on the right, assistant on the left, each with its
 * action; turns grouped by the topic they belong to (each user Topic Inquiry starts the next one).
 */
export function ChatView({ turns, topics }: { turns: ChatTurn[]; topics: Array<{ anchor: string; title: string }> }) {
  const groups: Array<{ topicIndex: number | null; turns: ChatTurn[] }> = [];
  for (const t of turns) {
    const last = groups[groups.length - 1];
    if (last && last.topicIndex === t.topicIndex) last.turns.push(t);
    else groups.push({ topicIndex: t.topicIndex, turns: [t] });
  }
  return (
    <section aria-labelledby="dialogue-title" data-testid="chat" className="rounded-lg border border-slate-200 bg-slate-50/60">
      <header className="border-b border-slate-200 bg-white px-4 py-2">
        <h2 id="dialogue-title" className="text-sm font-semibold text-slate-800">
          Dialogue <span className="font-normal text-slate-500">({turns.length} turns)</span>
        </h2>
      </header>
      <div className="space-y-5 px-4 py-3">
        {groups.map((g, gi) => {
          const topic = g.topicIndex == null ? null : topics[g.topicIndex];
          return (
            <div key={gi} data-testid="chat-topic-group" className="space-y-3">
              <div className="flex items-center gap-2 text-xs">
                <span className="h-px flex-1 bg-slate-200" />
                {topic ? (
                  <a
                    href={`#${topic.anchor}`}
                    className="max-w-[70%] truncate rounded-full bg-white px-2 py-0.5 font-medium text-slate-600 ring-1 ring-slate-200 hover:text-indigo-700"
                  >
                    Topic {(g.topicIndex ?? 0) + 1}: {topic.title}
                  </a>
                ) : (
                  <span className="rounded-full bg-white px-2 py-0.5 text-slate-500 ring-1 ring-slate-200">Not assigned to a topic</span>
                )}
                <span className="h-px flex-1 bg-slate-200" />
              </div>
              {g.turns.map((t) => (
                <div key={t.position} className="space-y-2">
                  <Bubble role="user" action={t.userAction} code={t.userActionCode} text={t.userContent} turn={t.position} />
                  <Bubble
                    role="assistant"
                    action={t.assistantAction}
                    code={t.assistantActionCode}
                    text={t.assistantContent}
                    turn={t.position}
                  />
                </div>
              ))}
            </div>
          );
        })}
        {turns.length === 0 ? <p className="text-center text-sm text-slate-500">This session has no dialogue.</p> : null}
      </div>
    </section>
  );
}
