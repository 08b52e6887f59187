/**
 * The PI's adjudication queue (issue 43.4): one card per item, most disagreement first, its content as the
 * annotators read it (with the systems named: researchers only), each dimension's labels with who gave them,
 * seconds on task and flags, and the decision form with its reason.
 */
import Link from "next/link";
import type { AdjudicationQueue as Queue, QueueItem, QueueLabel } from "@/lib/annotation/adjudication";
import { reasonLabel } from "@/lib/annotation/adjudication-reasons";
import type { DimensionSpec } from "@/lib/annotation/kinds";
import { ItemContent } from "@/components/annotation/ItemContent";
import { AdjudicateForm, type AdjudicateAction } from "@/components/annotation/AdjudicateForm";
import { Pager } from "@/components/datasets/Pager";
import { formatAge } from "@/components/annotation/format-age";

function Flags({ l }: { l: QueueLabel }) {
  const flags: Array<{ text: string; tone: string }> = [];
  if (l.tooFast) flags.push({ text: "too fast", tone: "bg-amber-100 text-amber-900" });
  if (l.excluded) flags.push({ text: "excluded", tone: "bg-slate-200 text-slate-800" });
  if (l.gold)
    flags.push({
      text: `gold ${l.gold.correct}/${l.gold.checked}`,
      tone: l.gold.correct < l.gold.checked ? "bg-rose-100 text-rose-900" : "bg-emerald-100 text-emerald-900",
    });
  if (!flags.length) return <span className="text-xs text-slate-500">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {flags.map((f) => (
        <span key={f.text} className={`rounded px-1.5 py-0.5 text-xs ${f.tone}`}>
          {f.text}
        </span>
      ))}
    </span>
  );
}

function ItemCard({
  campaignId,
  kind,
  pairwise,
  item,
  dims,
  open,
  adjudicate,
}: {
  campaignId: number;
  kind: string;
  pairwise: boolean;
  item: QueueItem;
  dims: DimensionSpec[];
  open: boolean;
  adjudicate: AdjudicateAction;
}) {
  const A = item.outputs.find((o) => o.slot === "A");
  const B = item.outputs.find((o) => o.slot === "B");
  const decided = dims.filter((d) => item.decisions[d.key]).length;
  return (
    <article className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`adjudicate-item-${item.externalId}`}>
      <header className="flex flex-wrap items-baseline gap-3">
        <h2 className="font-semibold">
          <Link className="hover:underline" href={`/campaigns/${campaignId}/items/${item.itemId}`}>
            {item.title}
          </Link>
        </h2>
        <span className="text-xs text-slate-500">item {item.externalId}</span>
        <span className="rounded bg-rose-50 px-2 py-0.5 text-xs text-rose-800" title="share of dissenting labels, summed over dimensions">
          disagreement {item.score.toFixed(2)}
        </span>
        <span className={`text-xs ${decided === dims.length ? "text-emerald-700" : "text-slate-600"}`}>
          {decided === dims.length ? "decided" : `${decided} of ${dims.length} dimensions decided`}
        </span>
      </header>
      <details open={open} className="mt-2">
        <summary className="cursor-pointer text-sm text-indigo-700">The item</summary>
        <div className="mt-2">
          <ItemContent
            kind={kind}
            content={item.content}
            left={A?.output}
            right={B?.output}
            sideNames={A && B ? [`A · ${A.system}`, `B · ${B.system}`] : undefined}
          />
        </div>
      </details>
      {dims.map((d) => {
        const ls = item.labels[d.key] ?? [];
        const decision = item.decisions[d.key];
        const word = (v: string) => d.categories.find((c) => c.value === v)?.label ?? v;
        return (
          <section key={d.key} className="mt-3 border-t border-slate-100 pt-2" data-testid={`labels-${item.externalId}-${d.key}`}>
            <h3 className="text-sm font-medium">{d.title}</h3>
            <table className="mt-1 w-full text-sm">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="p-1.5">Annotator</th>
                  <th className="p-1.5">{pairwise ? "Label (for A)" : "Label"}</th>
                  <th className="p-1.5 text-right">Seconds</th>
                  <th className="p-1.5">Guidelines</th>
                  <th className="p-1.5">Flags</th>
                  <th className="p-1.5">Comment</th>
                </tr>
              </thead>
              <tbody>
                {ls.map((l) => (
                  <tr key={l.annotator} className={`border-t border-slate-100 ${l.excluded ? "text-slate-500" : ""}`}>
                    <td className="p-1.5 font-mono text-xs">{l.annotator}</td>
                    <td className="p-1.5">
                      {word(l.value)}
                      {pairwise && l.swapped ? <span className="text-xs text-slate-500"> (B shown first)</span> : null}
                    </td>
                    <td className="p-1.5 text-right tabular-nums">{l.seconds.toFixed(1)}</td>
                    <td className="p-1.5 text-xs">v{l.guidelineVersion}</td>
                    <td className="p-1.5">
                      <Flags l={l} />
                    </td>
                    <td className="p-1.5 text-xs">{l.comment}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {decision ? (
              <p className="mt-1 text-xs text-emerald-800" data-testid={`decision-${item.externalId}-${d.key}`}>
                Decided: <b>{word(decision.value)}</b> · {reasonLabel(decision.reason) ?? "no reason given"}
                {decision.note ? ` · “${decision.note}”` : ""} · {decision.by}
              </p>
            ) : null}
            <div className="mt-1">
              <AdjudicateForm
                campaignId={campaignId}
                itemId={item.itemId}
                dimension={d.key}
                categories={d.categories}
                current={decision?.value ?? null}
                currentReason={decision?.reason ?? null}
                currentNote={decision?.note ?? null}
                action={adjudicate}
              />
            </div>
          </section>
        );
      })}
    </article>
  );
}

export function AdjudicationQueue({
  campaignId,
  kind,
  pairwise,
  queue,
  dims,
  adjudicate,
}: {
  campaignId: number;
  kind: string;
  pairwise: boolean;
  queue: Queue;
  dims: DimensionSpec[];
  adjudicate: AdjudicateAction;
}) {
  const href = (p: number) => `/campaigns/${campaignId}/adjudicate?page=${p}`;
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500" data-testid="queue-age">
        {queue.ageMs === null || queue.computedAt === null
          ? "The order is computed in the background with the agreement report."
          : `Ordered by disagreement as of ${formatAge(queue.ageMs)}${queue.current ? "" : "; newer labels are being counted, reload for the latest order"}.`}{" "}
        A decision is the item&apos;s final label: the agreement report, Table 11 by adjudication and the export read it.
      </p>
      {queue.items.length === 0 ? (
        <section className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600" data-testid="queue-empty">
          {queue.pending ? "The queue is being computed; this page shows it when it is ready." : "No item has disagreeing labels."}
        </section>
      ) : (
        <>
          <Pager page={queue.page} pageSize={queue.pageSize} total={queue.total} href={href} />
          {queue.items.map((it, i) => (
            <ItemCard
              key={it.itemId}
              campaignId={campaignId}
              kind={kind}
              pairwise={pairwise}
              item={it}
              dims={dims}
              open={i === 0}
              adjudicate={adjudicate}
            />
          ))}
          <Pager page={queue.page} pageSize={queue.pageSize} total={queue.total} href={href} />
        </>
      )}
    </div>
  );
}
