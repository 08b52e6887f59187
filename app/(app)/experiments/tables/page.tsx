import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { acrossChoices, acrossExperimentTables, parseExperimentIds, type AcrossTables } from "@/lib/experiments/paper-table/across";
import { PageHeader } from "@/components/shell/PageHeader";
import { AcrossPicker } from "@/components/experiments/results/AcrossPicker";
import { PaperTableView } from "@/components/experiments/results/PaperTableView";

export const metadata: Metadata = { title: "Table across experiments" };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** One paper table across several experiments of the same task (issue 44.6): pick them, read the table, download it. */
export default async function AcrossTablesPage({ searchParams }: { searchParams: Search }) {
  await requireRole("admin", "researcher");
  const sp = await searchParams;
  const ids = ([] as string[]).concat(sp.ids ?? []).join(",");
  const runOnly = sp.rows === "run";
  const db = getDb();
  let result: AcrossTables | null = null;
  let error: string | null = null;
  let chosen: number[] = [];
  if (ids) {
    // A refusal (fewer than 2, different tasks, no such experiment) is said on the page, beside the picker.
    try {
      // Oldest first, whatever order the boxes were ticked in (the list shows the newest first).
      chosen = parseExperimentIds(ids).sort((x, y) => x - y);
      result = acrossExperimentTables(db, chosen, { runOnly });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      error = e.message;
    }
  }
  const query = (extra: string) => `ids=${chosen.join(",")}${runOnly ? "&rows=run" : ""}${extra}`;
  const link = (format: string, label: string, table?: string) => (
    <a
      key={`${format}-${table ?? "all"}`}
      className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
      href={`/api/experiments/tables?${query(`&format=${format}${table ? `&table=${table}` : ""}`)}`}
      data-testid={`across-download-${format}${table ? `-${table}` : ""}`}
    >
      {label}
    </a>
  );
  return (
    <>
      <PageHeader
        title="Table across experiments"
        subtitle={
          <>
            One paper table for several experiments of the same task, e.g. one per assistant model (as Mem-PAL&apos;s Table 10 sets
            DeepSeek-V3.1 beside Table 2). Each experiment&apos;s rows are labelled by what differs, read from its run record. Also{" "}
            <code>pal table --experiments 3,5,7</code>.{" "}
            <Link className="text-indigo-700 hover:underline" href="/experiments">
              All experiments
            </Link>
          </>
        }
      />
      <AcrossPicker groups={acrossChoices(db)} chosen={chosen} runOnly={runOnly} />
      {error ? (
        <p role="alert" className="mb-4 rounded border border-rose-300 bg-rose-50 p-3 text-sm text-rose-900" data-testid="across-error">
          {error}
        </p>
      ) : null}
      {result ? (
        <section data-testid="across-tables">
          <p className="mb-3 flex flex-wrap items-center gap-2 text-xs text-slate-600">
            Download all: {link("latex", "LaTeX")} {link("markdown", "Markdown")} {link("csv", "CSV")}
          </p>
          {result.tables.map((t) => (
            <PaperTableView
              key={t.id}
              table={t}
              downloads={(id) => [link("latex", "LaTeX", id), link("markdown", "Markdown", id), link("csv", "CSV", id)]}
            />
          ))}
        </section>
      ) : null}
    </>
  );
}
