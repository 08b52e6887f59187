import { dialogueAnchor, fmtCount } from "@/lib/datasets/browse/format";
import { Value } from "./ProfileCard";

export type HcDialogueView = {
  dialogueKey: string;
  split: string;
  type: string | null;
  metadata: unknown;
  turns: Array<{ user: string; assistant: string }>;
};

const TYPE_ORDER = ["persona", "profile", "schedule"];

function HcChat({ turns }: { turns: HcDialogueView["turns"] }) {
  return (
    <div className="space-y-2 px-3 py-3">
      {turns.map((t, i) => (
        <div key={i} className="space-y-2">
          <div className="flex justify-end">
            <p
              data-testid="bubble-user"
              className="max-w-[85%] whitespace-pre-wrap rounded-2xl rounded-tr-sm bg-indigo-600 px-3 py-2 text-sm leading-relaxed text-white"
            >
              {t.user}
            </p>
          </div>
          <div className="flex justify-start">
            <p
              data-testid="bubble-assistant"
              className="max-w-[85%] whitespace-pre-wrap rounded-2xl rounded-tl-sm border border-slate-200 bg-white px-3 py-2 text-sm leading-relaxed text-slate-800"
            >
              {t.assistant}
            </p>
          </div>
        </div>
      ))}
    </div>
  );
}

/** A HiCUPID user's history: dialogues grouped by type (persona / profile / schedule), each a collapsible chat. */
export function HcDialogueList({ dialogues }: { dialogues: HcDialogueView[] }) {
  const groups = new Map<string, HcDialogueView[]>();
  for (const d of dialogues) {
    const t = d.type ?? "untyped";
    groups.set(t, [...(groups.get(t) ?? []), d]);
  }
  const types = [...TYPE_ORDER.filter((t) => groups.has(t)), ...[...groups.keys()].filter((t) => !TYPE_ORDER.includes(t))];
  return (
    <div className="space-y-4" data-testid="hc-dialogues">
      {types.map((t) => (
        <section
          key={t}
          aria-labelledby={`type-${t}`}
          data-testid="hc-dialogue-group"
          data-type={t}
          className="rounded-lg border border-slate-200 bg-white"
        >
          <header className="border-b border-slate-100 px-4 py-2">
            <h2 id={`type-${t}`} className="text-sm font-semibold capitalize text-slate-800">
              {t} dialogues <span className="font-normal normal-case text-slate-500">({groups.get(t)!.length})</span>
            </h2>
          </header>
          <ul className="divide-y divide-slate-100">
            {groups.get(t)!.map((d) => (
              <li key={`${d.split}/${d.dialogueKey}`}>
                <details id={dialogueAnchor(d.dialogueKey)} data-testid="hc-dialogue" className="group scroll-mt-16">
                  <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-4 py-2 text-sm hover:bg-slate-50">
                    <span aria-hidden className="text-slate-500 transition-transform group-open:rotate-90">
                      ▸
                    </span>
                    <span className="font-mono text-xs font-medium text-indigo-700">{d.dialogueKey}</span>
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[11px] text-slate-600">{d.split}</span>
                    <span className="truncate text-slate-600">{d.turns[0]?.user.slice(0, 90) ?? ""}</span>
                    <span className="ml-auto text-xs tabular-nums text-slate-500">
                      {fmtCount(d.turns.length)} turn{d.turns.length === 1 ? "" : "s"}
                    </span>
                  </summary>
                  <div className="border-t border-slate-100 bg-slate-50/60">
                    {d.metadata && typeof d.metadata === "object" && Object.keys(d.metadata).length ? (
                      <div className="border-b border-slate-100 px-4 py-2 text-xs text-slate-600">
                        <Value v={d.metadata} />
                      </div>
                    ) : null}
                    <HcChat turns={d.turns} />
                  </div>
                </details>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {dialogues.length === 0 ? <p className="text-sm text-slate-500">No dialogues for this user.</p> : null}
    </div>
  );
}
