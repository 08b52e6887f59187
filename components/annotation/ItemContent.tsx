/**
 * One item's content for any campaign kind. Annotators get it blinded (left/right, no names);
 * researchers pass `sideNames` to label the two sides with their systems.
 */
import { Dialogue, Panel, ScrollPane, Value } from "./Value";
import { UserInfoCard } from "./UserInfoCard";

type Props = {
  kind: string;
  content: Record<string, unknown>;
  left?: unknown;
  right?: unknown;
  sideNames?: [string, string];
  /** Shown at the top of the side panel of pairwise kinds (the annotation queue's guidelines). */
  aside?: React.ReactNode;
};

export function ItemContent({ kind, content, left, right, sideNames, aside }: Props) {
  if (kind === "session-quality") {
    const logs = (content.logs as Array<{ timestamp: string; type: string | null; content: string }>) ?? [];
    const dialogue = (content.dialogue as Array<{ role: string; content: string; action?: string }>) ?? [];
    // Each rating sits beside what it is judged against: the situation beside the logs (row one), the
    // profile, requirement types and preferences beside the dialogue (row two). Scrolling to the logs
    // always shows the situation with them. Below lg one column, read top to bottom: what the user is
    // (situation, profile) before what happened (logs, dialogue); on a phone no pane scrolls on its own.
    const bounded = "md:max-h-[calc(100vh-16rem)] md:min-h-40";
    return (
      <div className="grid items-start gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]" data-testid="session-context">
        <ScrollPane title={`Situation · ${String(content.timestamp ?? "")}`} maxHeight={bounded} className="order-1 lg:order-none">
          <Value value={content.situation} />
        </ScrollPane>
        <ScrollPane title={`Logs (${logs.length})`} maxHeight={bounded} className="order-3 lg:order-none">
          <ol className="space-y-1">
            {logs.map((l, i) => (
              <li key={i} className="grid gap-x-2 border-b border-slate-100 pb-1 sm:grid-cols-[9rem_minmax(0,1fr)]">
                <span className="font-mono text-xs text-slate-500">{l.timestamp}</span>
                <span>{l.content}</span>
              </li>
            ))}
          </ol>
        </ScrollPane>
        <ScrollPane title="Profile, requirement types and preferences" maxHeight={bounded} className="order-2 lg:order-none">
          <UserInfoCard info={content.profile} />
          <h4 className="mb-1 mt-3 text-[11px] font-semibold uppercase tracking-wide text-slate-500">Requirement types and preferences</h4>
          <ul className="space-y-2">
            {((content.requirements as Array<Record<string, unknown>>) ?? []).map((r, i) => (
              <li key={i}>
                <span className="font-medium">{String(r.aspect)}</span>: {String(r.requirementType ?? "")}
                {(r.preferencePos as string[])?.length ? (
                  <div className="text-emerald-800">+ {(r.preferencePos as string[]).join("; ")}</div>
                ) : null}
                {(r.preferenceNeg as string[])?.length ? (
                  <div className="text-rose-800">− {(r.preferenceNeg as string[]).join("; ")}</div>
                ) : null}
              </li>
            ))}
          </ul>
        </ScrollPane>
        <ScrollPane title={`Dialogue (${dialogue.length} utterances)`} maxHeight={bounded} className="order-4 lg:order-none">
          <Dialogue turns={dialogue} />
        </ScrollPane>
      </div>
    );
  }
  if (kind === "answer-correctness") {
    const ctx = (content.context ?? {}) as { question?: string; reference?: string };
    return (
      <div className="grid gap-3 lg:grid-cols-3">
        <Panel title="Question">
          <Value value={ctx.question ?? ""} />
        </Panel>
        <Panel title="Reference answer">
          <Value value={ctx.reference ?? ""} />
        </Panel>
        <Panel title="The assistant's answer">
          <Value value={content.output} />
        </Panel>
      </div>
    );
  }
  if (kind === "output-rating") {
    return (
      <div className="grid gap-3 lg:grid-cols-2">
        <Panel title="Context">
          <Value value={content.context} />
        </Panel>
        <Panel title="Output">
          <Value value={content.output} />
        </Panel>
      </div>
    );
  }
  const [l, r] = sideNames ?? (kind === "hicupid-ab" ? ["Answer A", "Answer B"] : ["Dialogue 1 (first)", "Dialogue 2 (second)"]);
  // The two outputs come first; what the annotator judges them against sits in a side panel beside them.
  // On a phone one column read top to bottom: the user's card first, then each dialogue whole.
  return (
    <div className="grid items-start gap-3 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="grid gap-3 md:grid-cols-2">
        <ScrollPane title={l} className="md:min-h-40">
          <Value value={left} />
        </ScrollPane>
        <ScrollPane title={r} className="md:min-h-40">
          <Value value={right} />
        </ScrollPane>
      </div>
      <aside className="space-y-3 max-md:order-first lg:sticky lg:top-4">
        {aside}
        <ScrollPane title={kind === "hicupid-ab" ? "User's personal information" : "User information"}>
          <UserInfoCard info={kind === "hicupid-ab" ? content.metadata : content.userInfo} />
        </ScrollPane>
      </aside>
    </div>
  );
}

/** The line kept in view above the content: the question or topic. */
export function itemHeadline(kind: string, content: Record<string, unknown>): string {
  if (kind === "hicupid-ab") return String(content.question ?? "");
  if (kind === "pairwise-dialogue") return content.topic ? `Topic: ${String(content.topic)}` : "Compare the two dialogues";
  if (kind === "session-quality") return "Rate the session's logs and dialogue against the user";
  return "Rate the output";
}
