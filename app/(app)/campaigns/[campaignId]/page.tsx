import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { requireRole } from "@/lib/auth/session";
import { orNotFound } from "@/app/(app)/or-not-found";
import {
  annotatorProgress,
  campaignAgreement,
  campaignDimensionsOf,
  campaignSystemsOf,
  figure2,
  getCampaign,
  humanVsJudge,
  itemsOverview,
  kindDef,
  ratingVsJudge,
} from "@/lib/annotation";
import { judgeLabelsOf, judgeRunsOf } from "@/lib/annotation/human-labels";
import { campaignExperimentId, experimentsWithPairwiseResults, tieMarginCalibration } from "@/lib/annotation/calibration";
import { CRITERIA, type CalibrationCriterion } from "@/lib/agreement";
import { TieMarginChart } from "@/components/annotation/TieMarginChart";
import { DeleteJudgeRunButton } from "@/components/annotation/DeleteJudgeRunButton";
import { PageHeader } from "@/components/shell/PageHeader";
import { DimensionAgreementView, fmt, StatValue } from "@/components/annotation/AgreementView";
import { JudgeImportForm } from "@/components/annotation/JudgeImportForm";
import { LlmJudgePanel } from "@/components/annotation/LlmJudgePanel";
import { judgeConfigChoices, judgeForKind, llmJudgeRuns } from "@/lib/annotation/llm-judge";
import { Guidelines } from "@/components/annotation/Guidelines";
import { CampaignStatusForm } from "@/components/annotation/CampaignStatusForm";
import { applyTieMarginAction } from "../actions";

export const metadata: Metadata = { title: "Campaign" };
export const dynamic = "force-dynamic";

type Search = { variant?: string; humans?: string; items?: string; criterion?: string };

export default async function CampaignPage({
  params,
  searchParams,
}: {
  params: Promise<{ campaignId: string }>;
  searchParams: Promise<Search>;
}) {
  await requireRole("admin", "researcher");
  const db = getDb();
  const id = Number((await params).campaignId);
  const c = orNotFound(() => getCampaign(db, id));
  const sp = await searchParams;
  const variant = sp.variant === "either" ? "either" : "both";
  const humans = sp.humans === "adjudication" ? "adjudication" : "vote";
  const def = kindDef(c.kind);
  const progress = annotatorProgress(db, id);
  const agreement = campaignAgreement(db, id);
  const systems = campaignSystemsOf(db, id);
  // A run without a single verdict (every call failed) has nothing to compare: no empty Table 11 block.
  const runs = judgeRunsOf(db, id).filter((r) => judgeLabelsOf(db, r.id).size > 0);
  const vs = def.pairwise ? runs.map((r) => humanVsJudge(db, id, r.id, { variant, humans })) : [];
  const criterion: CalibrationCriterion = sp.criterion && sp.criterion in CRITERIA ? (sp.criterion as CalibrationCriterion) : "cohen-plain";
  const calibrations =
    c.kind === "pairwise-dialogue" ? runs.map((r) => tieMarginCalibration(db, id, r.id, { variant, humans, criterion })) : [];
  const targets = calibrations.length ? experimentsWithPairwiseResults(db) : [];
  const ownExperiment = campaignExperimentId(db, id);
  const fig2 = c.kind === "hicupid-ab" ? figure2(db, id) : [];
  const ratingVs = def.pairwise ? [] : runs.map((r) => ratingVsJudge(db, id, r.id));
  const onlyDisagreements = sp.items === "disagreements";
  const overview = itemsOverview(db, id, { onlyDisagreements });
  const dims = campaignDimensionsOf(db, id);
  const q = (o: Search) =>
    `?${new URLSearchParams({ variant, humans, criterion, ...(onlyDisagreements ? { items: "disagreements" } : {}), ...o } as Record<string, string>)}`;
  return (
    <div className="space-y-5">
      <PageHeader
        title={c.name}
        subtitle={
          <>
            {def.label} · k = {c.perItem} · {c.status}
            {systems.A ? (
              <>
                {" "}
                · A = <b>{systems.A}</b>, B = <b>{systems.B}</b>
              </>
            ) : null}
          </>
        }
        actions={
          <div className="flex gap-2 text-sm">
            <a className="rounded border border-slate-300 px-2 py-1" href={`/api/campaigns/${id}/export?format=csv`}>
              Labels CSV
            </a>
            <a className="rounded border border-slate-300 px-2 py-1" href={`/api/campaigns/${id}/export?format=csv&what=agreement`}>
              Agreement CSV
            </a>
            <a className="rounded border border-slate-300 px-2 py-1" href={`/api/campaigns/${id}/export?format=json`}>
              Labels + agreement JSON
            </a>
            <CampaignStatusForm campaignId={id} status={c.status} />
          </div>
        }
      />
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">Progress per annotator</h2>
        <table className="w-full text-sm" data-testid="progress-table">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th className="p-1.5">Annotator</th>
              <th className="p-1.5">Done</th>
              <th className="p-1.5">Skipped</th>
              <th className="p-1.5">Total</th>
              <th className="p-1.5">Mean time per item</th>
            </tr>
          </thead>
          <tbody>
            {progress.map((p) => (
              <tr key={p.annotatorId} className="border-t border-slate-100">
                <td className="p-1.5">{p.email}</td>
                <td className="p-1.5 tabular-nums">{p.done}</td>
                <td className="p-1.5 tabular-nums">{p.skipped}</td>
                <td className="p-1.5 tabular-nums">{p.total}</td>
                <td className="p-1.5 tabular-nums">{p.done ? `${(p.msSpent / p.done / 1000).toFixed(1)} s` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-xs text-slate-500">
          Same numbers on the command line: <code>pal metrics agreement --campaign {id} --json</code>,{" "}
          <code>pal campaign export --campaign {id}</code>.
        </p>
      </section>

      <h2 className="font-semibold">Agreement between annotators</h2>
      {agreement.dimensions.map((d) => (
        <DimensionAgreementView key={d.dimension.key} d={d} />
      ))}

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">Items with the most disagreement</h2>
        {agreement.mostDisagreement.length === 0 ? (
          <p className="text-sm text-slate-500">None yet.</p>
        ) : (
          <ul className="flex flex-wrap gap-2 text-sm">
            {agreement.mostDisagreement.map((m) => (
              <li key={m.itemId}>
                <Link className="rounded bg-rose-50 px-2 py-0.5 text-rose-800 hover:underline" href={`/campaigns/${id}/items/${m.itemId}`}>
                  {m.externalId} ({fmt(m.score, 2)})
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="font-semibold">Judges on the same items</h2>
        <LlmJudgePanel
          campaignId={id}
          kind={c.kind}
          judgeLabel={judgeForKind(c.kind).label}
          initialRuns={llmJudgeRuns(db, id)}
          choices={judgeConfigChoices(db)}
        />
        <JudgeImportForm campaignId={id} />
        <p className="text-xs text-slate-500">
          JSONL, one verdict per line:{" "}
          <code>{`{"item": "<item id>", "dimension": "${def.dimensions[0].key}", "verdict": "${def.dimensions[0].categories[0].value}", "judgments": [{"order": "AB", "scoreA": 8, "scoreB": 6, "analysis": "..."}]}`}</code>
          {def.pairwise ? (
            <>
              {" "}
              — verdicts are for side A ({systems.A}); <code>{`"winner": "<system name>" | "Tie"`}</code> works too.
            </>
          ) : null}
        </p>
        {def.pairwise && runs.length ? (
          <p className="text-sm">
            Humans by{" "}
            <Link className={humans === "vote" ? "font-semibold" : "text-indigo-700"} href={q({ humans: "vote" })}>
              vote
            </Link>{" "}
            /{" "}
            <Link className={humans === "adjudication" ? "font-semibold" : "text-indigo-700"} href={q({ humans: "adjudication" })}>
              adjudication
            </Link>
            {" · "}ties dropped when{" "}
            <Link className={variant === "both" ? "font-semibold" : "text-indigo-700"} href={q({ variant: "both" })}>
              both call a tie (Mem-PAL)
            </Link>{" "}
            /{" "}
            <Link className={variant === "either" ? "font-semibold" : "text-indigo-700"} href={q({ variant: "either" })}>
              either does (stricter)
            </Link>
          </p>
        ) : null}
        {vs.map((v) => (
          <div key={v.run.id} className="rounded border border-slate-200 p-3" data-testid={`judge-${v.run.id}`}>
            <h3 className="flex items-center gap-2 font-medium">
              <span>
                {v.run.name}
                {v.run.model ? ` (${v.run.model})` : ""}: {systems.A} vs {systems.B}
              </span>
              <DeleteJudgeRunButton campaignId={id} runId={v.run.id} name={v.run.name} />
            </h3>
            <table className="mt-2 text-sm" data-testid="table11">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="p-1.5" />
                  {v.dimensions.map((d) => (
                    <th key={d.dimension} className="p-1.5">
                      {d.title} (W / T / L)
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td className="p-1.5">Judge</td>
                  {v.dimensions.map((d) => (
                    <td key={d.dimension} className="p-1.5 tabular-nums">
                      {d.table11.judge.Win} / {d.table11.judge.Tie} / {d.table11.judge.Lose}
                    </td>
                  ))}
                </tr>
                <tr>
                  <td className="p-1.5">Human ({v.humans})</td>
                  {v.dimensions.map((d) => (
                    <td key={d.dimension} className="p-1.5 tabular-nums">
                      {d.table11.human.Win} / {d.table11.human.Tie} / {d.table11.human.Lose}
                    </td>
                  ))}
                </tr>
                <tr className="border-t border-slate-100">
                  <td className="p-1.5">Fleiss κ, ties dropped ({v.variant})</td>
                  {v.dimensions.map((d) => (
                    <td key={d.dimension} className="p-1.5 tabular-nums">
                      <StatValue value={d.result.fleissKappa.value} reason={d.result.fleissKappa.reason} /> (n = {d.result.n},{" "}
                      {d.result.droppedTies} dropped)
                    </td>
                  ))}
                </tr>
                <tr>
                  <td className="p-1.5">Cohen κ, ties dropped</td>
                  {v.dimensions.map((d) => (
                    <td key={d.dimension} className="p-1.5 tabular-nums">
                      <StatValue value={d.result.cohenKappa.value} reason={d.result.cohenKappa.reason} />
                    </td>
                  ))}
                </tr>
                <tr>
                  <td className="p-1.5">Cohen κ, all items</td>
                  {v.dimensions.map((d) => (
                    <td key={d.dimension} className="p-1.5 tabular-nums">
                      <StatValue value={d.result.plain.cohenKappa.value} reason={d.result.plain.cohenKappa.reason} /> (Fleiss{" "}
                      <StatValue value={d.result.plain.fleissKappa.value} reason={d.result.plain.fleissKappa.reason} />)
                    </td>
                  ))}
                </tr>
                <tr>
                  <td className="p-1.5">Disagreements</td>
                  {v.dimensions.map((d) => (
                    <td key={d.dimension} className="p-1.5 text-xs">
                      <ItemLinks campaignId={id} items={d.disagreements} />
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          </div>
        ))}
        {calibrations.map((cal) => (
          <div key={`cal-${cal.run.id}`} className="space-y-2 rounded border border-slate-200 p-3">
            <h3 className="font-medium">Tie-margin calibration: {cal.run.name}</h3>
            <p className="text-xs text-slate-500">
              The judge&apos;s six stored judgments per item are re-aggregated at each margin (a tie when |mean A − mean B| ≤ margin) and
              compared with the humans ({cal.humans}; ties dropped when {cal.variant === "both" ? "both" : "either"} call a tie). No model
              is called. Best margin by{" "}
              {Object.entries(CRITERIA).map(([k, c], i) => (
                <span key={k}>
                  {i ? " / " : ""}
                  <Link className={criterion === k ? "font-semibold text-slate-700" : "text-indigo-700"} href={q({ criterion: k })}>
                    {c.label}
                  </Link>
                </span>
              ))}
              , averaged over the dimensions; the smaller margin on equal values.
            </p>
            {cal.reason ? (
              <p className="text-sm text-slate-600" data-testid={`calibration-reason-${cal.run.id}`}>
                No calibration: {cal.reason}.
              </p>
            ) : (
              <>
                <TieMarginChart cal={cal} />
                {cal.best !== null ? (
                  <form action={applyTieMarginAction} className="flex flex-wrap items-center gap-2 text-sm" data-testid="apply-margin">
                    <input type="hidden" name="campaignId" value={id} />
                    <input
                      type="hidden"
                      name="source"
                      value={`campaign “${c.name}”, ${cal.run.name}, best by ${CRITERIA[criterion].label}`}
                    />
                    <label className="text-xs text-slate-600">
                      Margin{" "}
                      <select
                        name="margin"
                        defaultValue={String(cal.best)}
                        className="rounded border border-slate-300 px-1 py-0.5"
                        aria-label="Margin to apply"
                      >
                        {(cal.dimensions[0]?.curve ?? []).map((p) => (
                          <option key={p.margin} value={String(p.margin)}>
                            {p.margin.toFixed(2)}
                            {p.margin === cal.best ? " (best)" : ""}
                          </option>
                        ))}
                      </select>
                    </label>
                    {targets.length ? (
                      <>
                        <label className="text-xs text-slate-600">
                          to the pairwise results of{" "}
                          <select
                            name="experimentId"
                            defaultValue={String(ownExperiment ?? targets[0].id)}
                            className="rounded border border-slate-300 px-1 py-0.5"
                            aria-label="Experiment"
                          >
                            {targets.map((e) => (
                              <option key={e.id} value={e.id}>
                                #{e.id} {e.name}
                                {e.margin !== null ? ` (now margin ${e.margin})` : ""}
                              </option>
                            ))}
                          </select>
                        </label>
                        <button className="rounded bg-indigo-600 px-3 py-1 text-white">Apply margin</button>
                        <span className="text-xs text-slate-500" data-testid="applied-margins">
                          {targets
                            .filter((e) => e.margin !== null)
                            .map((e) => `#${e.id} reads W/T/L at margin ${e.margin}`)
                            .join(" · ") || "no experiment has an applied margin"}
                        </span>
                      </>
                    ) : (
                      <span className="text-xs text-slate-500">No experiment has pairwise dialogue results to apply it to yet.</span>
                    )}
                  </form>
                ) : null}
              </>
            )}
          </div>
        ))}
        {ratingVs.map((v) => (
          <div key={v.run.id} className="rounded border border-slate-200 p-3" data-testid={`rating-judge-${v.run.id}`}>
            <h3 className="font-medium">
              {v.run.name}
              {v.run.model ? ` (${v.run.model})` : ""} against the annotators
            </h3>
            <table className="mt-2 text-sm">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="p-1.5">Dimension</th>
                  <th className="p-1.5">Items</th>
                  <th className="p-1.5">Judge mean</th>
                  <th className="p-1.5">Human mean</th>
                  <th className="p-1.5">Exact match</th>
                  <th className="p-1.5">Cohen κ (plain / linear / quadratic)</th>
                  <th className="p-1.5">Off by ≥ 1</th>
                </tr>
              </thead>
              <tbody>
                {v.dimensions.map((d) => (
                  <tr key={d.dimension} className="border-t border-slate-100">
                    <td className="p-1.5">{d.title}</td>
                    <td className="p-1.5 tabular-nums">{d.n}</td>
                    <td className="p-1.5 tabular-nums">
                      <StatValue value={d.judgeMean} reason="no item both rated" digits={2} />
                    </td>
                    <td className="p-1.5 tabular-nums">
                      <StatValue value={d.humanMean} reason="no item both rated" digits={2} />
                    </td>
                    <td className="p-1.5 tabular-nums">{d.exact === null ? "—" : `${fmt(d.exact * 100, 1)}%`}</td>
                    <td className="p-1.5 tabular-nums">
                      <StatValue value={d.kappa.plain.value} reason={d.kappa.plain.reason} /> / {fmt(d.kappa.linear.value)} /{" "}
                      {fmt(d.kappa.quadratic.value)}
                      {d.kappa.reading ? ` (${d.kappa.reading})` : ""}
                    </td>
                    <td className="p-1.5 text-xs">
                      <ItemLinks campaignId={id} items={d.disagreements} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
        {fig2.map((f) => (
          <div key={f.dimension} className="rounded border border-slate-200 p-3" data-testid={`figure2-${f.dimension}`}>
            <h3 className="font-medium">{f.title}: reference win / tie / model win and S</h3>
            {f.rows.map((r) => (
              <div key={r.source} className="mt-1 flex items-center gap-2 text-xs">
                <span className="w-32 truncate">
                  {r.source} (n = {r.n})
                </span>
                <div className="flex h-4 w-80 overflow-hidden rounded">
                  <div className="bg-sky-500" style={{ width: `${r.referenceWin * 100}%` }} title="reference wins" />
                  <div className="bg-purple-400" style={{ width: `${r.tie * 100}%` }} title="tie" />
                  <div className="bg-rose-500" style={{ width: `${r.modelWin * 100}%` }} title="model wins" />
                </div>
                <span className="tabular-nums">
                  {fmt(r.referenceWin * 100, 1)}% / {fmt(r.tie * 100, 1)}% / {fmt(r.modelWin * 100, 1)}% · S = {fmt(r.score, 1)}
                </span>
              </div>
            ))}
          </div>
        ))}
      </section>
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">
          Items{" "}
          <span className="text-sm font-normal">
            <Link className={onlyDisagreements ? "text-indigo-700" : "font-semibold"} href={q({ items: "all" })}>
              all
            </Link>{" "}
            /{" "}
            <Link className={onlyDisagreements ? "font-semibold" : "text-indigo-700"} href={q({ items: "disagreements" })}>
              only disagreements
            </Link>
          </span>
        </h2>
        <table className="w-full text-sm" data-testid="items-table">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th className="p-1.5">Item</th>
              {dims.map((d) => (
                <th key={d.key} className="p-1.5">
                  {d.title}: humans · judges
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {overview.slice(0, 500).map((r) => (
              <tr key={r.itemId} className={`border-t border-slate-100 ${r.disagree ? "bg-rose-50/40" : ""}`}>
                <td className="p-1.5">
                  <Link className="text-indigo-700 hover:underline" href={`/campaigns/${id}/items/${r.itemId}`}>
                    {r.externalId}
                  </Link>
                </td>
                {dims.map((d) => (
                  <td key={d.key} className="p-1.5 text-xs tabular-nums">
                    {r.cells[d.key].humans.join(" ") || "—"}
                    {r.cells[d.key].judges.length ? <span className="text-slate-500"> · {r.cells[d.key].judges.join(" ")}</span> : null}
                    {r.cells[d.key].adjudicated ? <span className="text-emerald-700"> · adj. {r.cells[d.key].adjudicated}</span> : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {overview.length > 500 ? (
          <p className="mt-1 text-xs text-slate-500">First 500 of {overview.length} shown; the export has them all.</p>
        ) : null}
      </section>
      <details className="rounded-lg border border-slate-200 bg-white p-4">
        <summary className="cursor-pointer text-sm font-medium">Guidelines</summary>
        <div className="mt-2">
          <Guidelines text={c.guidelines ?? ""} />
        </div>
      </details>
    </div>
  );
}

/** Links to the items the judge and the annotators disagree on. */
function ItemLinks({ campaignId, items }: { campaignId: number; items: Array<{ itemId: number; externalId: string }> }) {
  return items.map((x) => (
    <Link key={x.itemId} className="mr-1 text-indigo-700 hover:underline" href={`/campaigns/${campaignId}/items/${x.itemId}`}>
      {x.externalId}
    </Link>
  ));
}
