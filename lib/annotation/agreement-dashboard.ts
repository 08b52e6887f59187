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
import { agreementSnapshot } from "./agreement-cache";
import type { JudgeAgreement } from "./agreement-judges";
import { listCampaigns } from "./campaigns";
import { kindDef } from "./kinds";

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
  /** Pairwise dialogue: per judge run, the tie margin agreeing best with the humans. */
  bestMargins: Array<{ run: string; margin: number | null }>;
  warnings: AgreementWarning[];
}

export interface ForestRow {
  label: string;
  campaignId: number;
  who: "humans" | "judge";
  value: number;
  lower: number | null;
  upper: number | null;
  n: number;
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

export function agreementDashboard(db: Db, f: DashboardFilters): { campaigns: DashboardCampaign[]; forest: ForestRow[] } {
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
            alpha: { value: rep.krippendorffAlpha, reason: rep.reasons.krippendorffAlpha, ci: ci.krippendorffAlpha ?? null, n: rep.items },
            percentAgreement: rep.percentAgreement,
            judges: judges.filter((j) => j.dimension === d.dimension.key),
          };
        }),
        bestMargins: [...bestMargins].map(([run, margin]) => ({ run, margin })),
        warnings: r?.warnings ?? [],
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
          lower: d.fleiss.ci?.[0] ?? null,
          upper: d.fleiss.ci?.[1] ?? null,
          n: d.fleiss.n,
        });
      for (const j of d.judges)
        if (j.cohen.value !== null)
          forest.push({
            label: `${c.name} · ${d.title} · ${j.run.name}`,
            campaignId: c.id,
            who: "judge",
            value: j.cohen.value,
            lower: j.cohen.ci?.[0] ?? null,
            upper: j.cohen.ci?.[1] ?? null,
            n: j.n,
          });
    }
  }
  return { campaigns, forest };
}
