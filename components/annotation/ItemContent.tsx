/**
 * One item's content for any campaign kind. Annotators get it blinded (left/right, no names);
 * researchers pass `sideNames` to label the two sides with their systems.
 */
import { Dialogue, Panel, Value } from "./Value";

type Props = {
  kind: string;
  content: Record<string, unknown>;
  left?: unknown;
  right?: unknown;
  sideNames?: [string, string];
};

export function ItemContent({ kind, content, left, right, sideNames }: Props) {
  if (kind === "session-quality") {
    const logs = (content.logs as Array<{ timestamp: string; type: string | null; content: string }>) ?? [];
    const dialogue = (content.dialogue as Array<{ role: string; content: string; action?: string }>) ?? [];
    return (
      <div className="grid gap-3 lg:grid-cols-2">
        <div className="space-y-3">
          <Panel title="Profile">
            <Value value={content.profile} />
          </Panel>
          <Panel title={`Situation · ${String(content.timestamp ?? "")}`}>
            <Value value={content.situation} />
          </Panel>
          <Panel title="Requirement types and preferences">
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
          </Panel>
        </div>
        <div className="space-y-3">
          <details open className="rounded-lg border border-slate-200 bg-white p-3">
            <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Logs ({logs.length})</summary>
            <ol className="mt-2 max-h-[28rem] space-y-1 overflow-y-auto text-sm">
              {logs.map((l, i) => (
                <li key={i} className="grid grid-cols-[9rem_1fr] gap-2 border-b border-slate-100 pb-1">
                  <span className="font-mono text-xs text-slate-500">{l.timestamp}</span>
                  <span>{l.content}</span>
                </li>
              ))}
            </ol>
          </details>
          <details open className="rounded-lg border border-slate-200 bg-white p-3">
            <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">
              Dialogue ({dialogue.length} utterances)
            </summary>
            <div className="mt-2 max-h-[32rem] overflow-y-auto">
              <Dialogue turns={dialogue} />
            </div>
          </details>
        </div>
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
  return (
    <div className="space-y-3">
      {kind === "hicupid-ab" ? (
        <Panel title="User's personal information">
          <Value value={content.metadata} />
        </Panel>
      ) : (
        <Panel title="User information">
          <Value value={content.userInfo} />
        </Panel>
      )}
      <div className="grid gap-3 md:grid-cols-2">
        <Panel title={l} className="min-h-40">
          <Value value={left} />
        </Panel>
        <Panel title={r} className="min-h-40">
          <Value value={right} />
        </Panel>
      </div>
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
