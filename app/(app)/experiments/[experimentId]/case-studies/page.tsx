import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import { caseTitle, listCaseStudies, type CaseStudyFilter } from "@/lib/experiments/case-studies";
import { getExperimentRow } from "@/lib/experiments/control";
import { MARK_MEANINGS } from "@/lib/experiments/marks";
import { PageHeader, EmptyState } from "@/components/shell/PageHeader";
import { methodDisplayName } from "@/lib/experiments/method-choices";
import { MARK_STYLE } from "@/components/experiments/case/mark-style";

export const metadata: Metadata = { title: "Case studies" };

type Search = { task?: string; method?: string; tag?: string; q?: string };

/** The starred items with their notes, tags and highlighted passages; filtered, and exported as Markdown or an HTML figure. */
export default async function CaseStudiesPage({
  params,
  searchParams,
}: {
  params: Promise<{ experimentId: string }>;
  searchParams: Promise<Search>;
}) {
  await requireRole("admin", "researcher");
  const id = Number((await params).experimentId);
  const sp = await searchParams;
  const db = getDb();
  const e = orNotFound(() => getExperimentRow(db, id));
  const everything = listCaseStudies(db, id, {}, { headlines: false });
  const filter: CaseStudyFilter = {
    task: sp.task || undefined,
    method: sp.method || undefined,
    tag: sp.tag || undefined,
    q: sp.q || undefined,
  };
  const list = listCaseStudies(db, id, filter);
  const options = {
    task: [...new Set(everything.map((c) => c.task))].sort(),
    method: [...new Set(everything.flatMap((c) => c.methods))].sort(),
    tag: [...new Set(everything.flatMap((c) => c.tags))].sort(),
  };
  const qs = (extra: Record<string, string>) =>
    new URLSearchParams({ ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v)), ...extra }).toString();
  const exportLink = (format: string, label: string) => (
    <a
      className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50"
      href={`/api/experiments/${id}/export?${qs({ format })}`}
    >
      {label}
    </a>
  );
  const select = (name: keyof typeof options, label: string) => (
    <label className="flex items-center gap-1">
      <span className="text-xs text-slate-500">{label}</span>
      <select name={name} defaultValue={sp[name] ?? ""} className="rounded border border-slate-300 px-1 py-0.5 text-sm">
        <option value="">all</option>
        {options[name].map((o) => (
          <option key={o} value={o}>
            {name === "method" ? methodDisplayName({ name: o }) : o}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      <PageHeader
        title={`Case studies: ${e.name}`}
        subtitle={
          <Link className="text-indigo-700 hover:underline" href={`/experiments/${id}`}>
            back to the experiment
          </Link>
        }
        actions={
          <div className="flex gap-2">
            {exportLink("md", "Export Markdown")}
            {exportLink("html", "Export HTML figure")}
          </div>
        }
      />
      <form
        method="get"
        aria-label="Filter case studies"
        className="mb-4 flex flex-wrap items-center gap-3 rounded border border-slate-200 bg-white px-3 py-2"
      >
        {select("task", "Task")}
        {select("method", "Method")}
        {select("tag", "Tag")}
        <label className="flex items-center gap-1">
          <span className="text-xs text-slate-500">Text</span>
          <input
            name="q"
            defaultValue={sp.q ?? ""}
            placeholder="note, passage, item"
            className="rounded border border-slate-300 px-2 py-0.5 text-sm"
          />
        </label>
        <button type="submit" className="rounded bg-indigo-600 px-2 py-1 text-xs text-white hover:bg-indigo-700">
          Filter
        </button>
        <span className="ml-auto text-xs text-slate-500">
          {list.length} of {everything.length} case studies
        </span>
      </form>
      {everything.length === 0 ? (
        <EmptyState title="No starred items">
          Star an item (★) in the experiment&apos;s Items table or on its page to collect it here.
        </EmptyState>
      ) : list.length === 0 ? (
        <EmptyState title="No case study matches these filters" />
      ) : null}
      <div className="space-y-3">
        {list.map((c) => {
          const open = `/experiments/${id}/compare?task=${encodeURIComponent(c.task)}&item=${encodeURIComponent(c.itemKey)}`;
          return (
            <article key={`${c.task}/${c.itemKey}`} className="rounded-lg border border-slate-200 bg-white p-4" data-testid="case-study">
              <header className="mb-2 flex items-baseline gap-3">
                {/* Titled by the user's query (what the topic is about), the item key beside it for reference. */}
                <h2 className="font-semibold" title={c.headline?.text}>
                  <Link className="text-indigo-700 hover:underline" href={open}>
                    {caseTitle(c)}
                  </Link>
                </h2>
                <span className="shrink-0 font-mono text-xs text-slate-500">
                  {c.task} · {c.itemKey}
                </span>
                <span className="text-xs text-slate-500">{c.methods.map((m) => methodDisplayName({ name: m })).join(", ")}</span>
                <Link
                  className="ml-auto text-xs text-indigo-700 hover:underline"
                  href={`/experiments/${id}/figure?${new URLSearchParams({ task: c.task, item: c.itemKey })}`}
                >
                  Figure 4…
                </Link>
                <a
                  className="text-xs text-indigo-700 hover:underline"
                  href={`/api/experiments/${id}/export?${new URLSearchParams({ format: "html", task: c.task, item: c.itemKey })}`}
                >
                  HTML figure
                </a>
              </header>
              {c.stars.map((s) =>
                s.note ? (
                  <p key={s.jobId} className="mb-1 text-sm" data-testid="case-note">
                    {s.note} <span className="text-xs text-slate-500">({methodDisplayName({ name: s.method })})</span>
                  </p>
                ) : null,
              )}
              {c.tags.length ? (
                <p className="mb-2 flex gap-1">
                  {c.tags.map((t) => (
                    <Link
                      key={t}
                      href={`?${qs({ tag: t })}`}
                      className="rounded bg-indigo-50 px-1.5 text-xs text-indigo-700 hover:bg-indigo-100"
                    >
                      #{t}
                    </Link>
                  ))}
                </p>
              ) : null}
              {c.marks.length ? (
                <ul className="space-y-1 text-xs">
                  {c.marks.map((m) => (
                    <li key={m.id}>
                      <mark className={`rounded px-1 ${MARK_STYLE[m.colour].className}`} title={MARK_MEANINGS[m.colour]}>
                        {m.quote}
                      </mark>{" "}
                      <span className="text-slate-500">
                        {m.note ? `${m.note} · ` : ""}
                        {m.where} · {m.author}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-xs text-slate-500">No highlighted passage yet: open the item and select text to mark it.</p>
              )}
            </article>
          );
        })}
      </div>
    </>
  );
}
