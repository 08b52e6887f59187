/**
 * The PI's agreement dashboard (/agreement): per campaign and dimension, Fleiss' kappa and Krippendorff's
 * alpha with their 95% intervals and n, each judge run against the humans, the best tie margin, progress
 * and warnings; and the rows of the forest plot. Everything comes from the cached reports
 * (./agreement-cache.ts): building it costs one cache read per campaign, never a computation.
 */
import type { Db } from "@/db/client";
import { CAMPAIGN_KINDS } from "@/db/schema";
import type { AgreementWarning } from "@/lib/agreement/warnings";
import type { Interval } from "@/lib/agreement/report";
import { tooFewItems } from "@/lib/agreement/interpret";
import { agreementSnapshot } from "./agreement-cache";
import type { JudgeAgreement } from "./agreement-judges";
import { listCampaigns } from "./campaigns";
import { kindDef } from "./kinds";
import type { AnnotatorStats } from "./agreement-annotators";
import { annotatorsAcross, type AnnotatorAcross } from "./annotators-across";

export interface DashboardFilters {
  kind: string | null;
  /** Inclusive day bounds on the campaign's creation, yyyy-mm-dd (UTC). */
  from: string | null;
  to: string | null;
}

export interface DashboardStat {
  value: number | null;
  reason?: string;
  ci: Interval | null;
  n: number;
}

export interface DashboardDimension {
  key: string;
  title: string;
  fleiss: DashboardStat & { ofItems: number };
  alpha: DashboardStat;
  percentAgreement: number | null;
  judges: JudgeAgreement[];
}

export interface DashboardCampaign {
  id: number;
  name: string;
  kind: string;
  kindLabel: string;
  createdAt: number;
  progress: { items: number; assignments: number; done: number; skipped: number };
  report: { ageMs: number | null; current: boolean; error: string | null };
  dimensions: DashboardDimension[];
  /** Every judge run of the campaign with its state, so a run without verdicts yet is not read as "no judge run". */
  judgeRuns: DashboardJudgeRun[];
  /** Pairwise dialogue: per judge run, the tie margin agreeing best with the humans. */
  bestMargins: Array<{ run: string; margin: number | null }>;
  warnings: AgreementWarning[];
  /** Each annotator's part, from the cached report (regrouped across campaigns by annotatorsAcross). */
  annotators: AnnotatorStats[];
}

export interface DashboardJudgeRun {
  id: number;
  name: string;
  /** "paused" (by its spend guard), "finished", "unfinished" (an LLM run not done yet) or "imported". */
  state: "paused" | "finished" | "unfinished" | "imported";
  pausedReason: string | null;
  hasVerdicts: boolean;
}

/** The campaign's judge runs and their states: one indexed query per campaign. */
function judgeRunStates(db: Db, campaignId: number): DashboardJudgeRun[] {
  const rows = db.$client
    .prepare(
      `SELECT r.id, r.name, r.origin, r.paused_reason AS pausedReason, r.finished_at AS finishedAt,
              EXISTS (SELECT 1 FROM judge_labels l WHERE l.run_id = r.id) AS has
         FROM judge_runs r WHERE r.campaign_id = ? ORDER BY r.id`,
    )
    .all(campaignId) as Array<{
    id: number;
    name: string;
    origin: string;
    pausedReason: string | null;
    finishedAt: number | null;
    has: number;
  }>;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    state: r.origin === "import" ? "imported" : r.pausedReason ? "paused" : r.finishedAt ? "finished" : "unfinished",
    pausedReason: r.pausedReason,
    hasVerdicts: r.has === 1,
  }));
}

/** What the dashboard says for a dimension no run has compared yet: the runs there are and why, or that there is none. */
export function noComparisonText(runs: readonly DashboardJudgeRun[]): string {
  if (!runs.length) return "no judge run";
  return runs
    .map((r) =>
      r.state === "paused"
        ? `${r.name}: paused by its spend guard${r.hasVerdicts ? "" : ", no verdicts yet"}`
        : r.state === "unfinished"
          ? `${r.name}: not finished${r.hasVerdicts ? "" : ", no verdicts yet"}`
          : `${r.name}: no verdict on this dimension`,
    )
    .join("; ");
}

export interface ForestRow {
  label: string;
  campaignId: number;
  who: "humans" | "judge";
  value: number;
  lower: number | null;
  upper: number | null;
  n: number;
  /** n is below MIN_ITEMS_FOR_INTERVAL: no interval, the plot marks the row (issue 44.4). */
  tooFew: boolean;
}

/** A forest row's interval: none below the minimum n, even from a report cached before the rule (issue 44.4). */
function interval(ci: Interval | null | undefined, n: number): Pick<ForestRow, "lower" | "upper" | "tooFew"> {
  const tooFew = tooFewItems(n);
  return { lower: tooFew ? null : (ci?.[0] ?? null), upper: tooFew ? null : (ci?.[1] ?? null), tooFew };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The URL's filters; an unknown kind or a malformed date is ignored (the page shows every campaign). */
export function dashboardFilters(sp: { kind?: string; from?: string; to?: string }): DashboardFilters {
  const day = (s?: string) => (s && DAY.test(s) && Number.isFinite(Date.parse(`${s}T00:00:00Z`)) ? s : null);
  return {
    kind: sp.kind && (CAMPAIGN_KINDS as readonly string[]).includes(sp.kind) ? sp.kind : null,
    from: day(sp.from),
    to: day(sp.to),
  };
}

export function agreementDashboard(
  db: Db,
  f: DashboardFilters,
): { campaigns: DashboardCampaign[]; forest: ForestRow[]; annotators: AnnotatorAcross[] } {
  const from = f.from ? Date.parse(`${f.from}T00:00:00Z`) : -Infinity;
  const to = f.to ? Date.parse(`${f.to}T00:00:00Z`) + 86_400_000 : Infinity;
  const campaigns = listCampaigns(db)
    .filter((c) => (!f.kind || c.kind === f.kind) && c.createdAt >= from && c.createdAt < to)
    .map((c): DashboardCampaign => {
      const snap = agreementSnapshot(db, c.id);
      const r = snap.report;
      const judges = r?.judges ?? [];
      const bestMargins = new Map<string, number | null>();
      for (const j of judges) if (j.bestMargin !== undefined) bestMargins.set(j.run.name, j.bestMargin);
      return {
        id: c.id,
        name: c.name,
        kind: c.kind,
        kindLabel: kindDef(c.kind).label,
        createdAt: c.createdAt,
        progress: { items: c.items, assignments: c.assignments, done: c.done, skipped: c.skipped },
        report: { ageMs: snap.ageMs, current: snap.current, error: snap.error },
        dimensions: (r?.dimensions ?? []).map((d) => {
          const rep = d.report;
          const ci = rep.bootstrap?.ci ?? {};
          return {
            key: d.dimension.key,
            title: d.dimension.title,
            fleiss: {
              value: rep.fleissKappa,
              reason: rep.reasons.fleissKappa,
              ci: ci.fleissKappa ?? null,
              n: rep.fleissItems?.used ?? d.labelledItems,
              ofItems: rep.items,
            },
            alpha: {
              value: rep.krippendorffAlpha,
              reason: rep.reasons.krippendorffAlpha,
              ci: ci.krippendorffAlpha ?? null,
              n: rep.pairedItems ?? rep.items,
            },
            percentAgreement: rep.percentAgreement,
            judges: judges.filter((j) => j.dimension === d.dimension.key),
          };
        }),
        judgeRuns: judgeRunStates(db, c.id),
        bestMargins: [...bestMargins].map(([run, margin]) => ({ run, margin })),
        warnings: r?.warnings ?? [],
        annotators: r?.annotators ?? [],
      };
    });
  const forest: ForestRow[] = [];
  for (const c of campaigns) {
    for (const d of c.dimensions) {
      if (d.fleiss.value !== null)
        forest.push({
          label: `${c.name} · ${d.title}`,
          campaignId: c.id,
          who: "humans",
          value: d.fleiss.value,
          ...interval(d.fleiss.ci, d.fleiss.n),
          n: d.fleiss.n,
        });
      for (const j of d.judges)
        if (j.cohen.value !== null)
          forest.push({
            label: `${c.name} · ${d.title} · ${j.run.name}`,
            campaignId: c.id,
            who: "judge",
            value: j.cohen.value,
            ...interval(j.cohen.ci, j.n),
            n: j.n,
          });
    }
  }
  const annotators = annotatorsAcross(
    campaigns.map((c) => ({ id: c.id, name: c.name, dimensions: c.dimensions, annotators: c.annotators })),
  );
  return { campaigns, forest, annotators };
}
