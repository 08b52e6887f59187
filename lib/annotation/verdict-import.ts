/**
 * Importing judge verdicts on a campaign's items (a JSONL file) and comparing any judge run's verdicts
 * with the humans (Table 11, Figure 2). Verdicts are stored in canonical terms (Win/Tie/Lose for slot A,
 * or the rating) as judge_labels of a judge_run; an LLM judge run (./llm-judge) writes the same rows.
 * The judges themselves live in lib/judges.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaignItems, judgeLabels, judgeRuns } from "@/db/schema";
import { judgeVsHuman, type JudgeHumanResult, type Label } from "@/lib/agreement";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { jsonTextTooDeep, tooDeepMessage } from "@/lib/json-depth";
import { campaignDimensionsOf, campaignSystemsOf, getCampaign } from "./campaigns";
import { campaignLabels, judgeLabelsOf, judgeRunsOf, type ItemLabels } from "./human-labels";
import { kindDef, type DimensionSpec } from "./kinds";

/** The largest verdicts file the web form takes. */
export const MAX_VERDICT_UPLOAD_BYTES = 200 * 1024 * 1024;

export interface JudgeImport {
  name: string;
  model?: string;
  fileName: string;
  text: string;
}

/**
 * What one verdict may carry. FairEval-style judging stores a handful of judgments per verdict (six
 * in Mem-PAL's protocol), each with its analysis; the item page shows them all, so a verdict with
 * thousands would make a page of megabytes.
 */
export const MAX_JUDGMENTS = 50;
const MAX_JUDGMENTS_CHARS = 200_000;
const MAX_ANALYSIS_CHARS = 100_000;

/**
 * JSONL, one verdict per line: {"item": "<item id as uploaded>", "dimension": "requirement",
 * "verdict": "Win"|"Tie"|"Lose" (for slot A; or a rating), or "winner": "<system name>"|"Tie",
 * "judgments"?: [{"order": "AB"|"BA", "scoreA", "scoreB", "analysis"}], "analysis"?: "..."}.
 * Every line is checked before anything is stored.
 */
export function importJudgeVerdicts(db: Db, campaignId: number, input: JudgeImport, userId: number): { runId: number; labels: number } {
  const c = getCampaign(db, campaignId);
  const def = kindDef(c.kind);
  const name = input.name?.trim();
  if (!name) throw new InvalidInputError("name: give the judge a name (e.g. the model)");
  const dims = campaignDimensionsOf(db, campaignId);
  const systems = campaignSystemsOf(db, campaignId);
  const items = new Map(
    db
      .select({ id: campaignItems.id, externalId: campaignItems.externalId })
      .from(campaignItems)
      .where(eq(campaignItems.campaignId, campaignId))
      .all()
      .map((i) => [i.externalId, i.id]),
  );
  const rows: Array<Omit<typeof judgeLabels.$inferInsert, "runId">> = [];
  const seen = new Set<string>();
  input.text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${input.fileName}:${i + 1}`;
    const deep = jsonTextTooDeep(line);
    if (deep) throw new InvalidInputError(tooDeepMessage(where, deep));
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line);
    } catch {
      throw new InvalidInputError(`${where}: not valid JSON`);
    }
    if (typeof o !== "object" || o === null || Array.isArray(o)) throw new InvalidInputError(`${where}: expected a JSON object`);
    const itemId = items.get(String(o.item));
    if (o.item === undefined || itemId === undefined)
      throw new InvalidInputError(`${where}: field "item": no item "${String(o.item)}" in this campaign`);
    const dim = dims.find((d) => d.key === o.dimension);
    if (!dim) throw new InvalidInputError(`${where}: field "dimension": expected one of ${dims.map((d) => d.key).join(", ")}`);
    let value: string;
    if (o.verdict !== undefined) {
      value = String(o.verdict);
      if (!dim.categories.some((x) => x.value === value)) {
        throw new InvalidInputError(
          `${where}: field "verdict": expected one of ${dim.categories.map((x) => x.value).join(", ")}, got "${value}"`,
        );
      }
    } else if (def.pairwise && typeof o.winner === "string") {
      value = o.winner === systems.A ? "Win" : o.winner === systems.B ? "Lose" : /^tie$/i.test(o.winner) ? "Tie" : "";
      if (!value) throw new InvalidInputError(`${where}: field "winner": expected "${systems.A}", "${systems.B}" or "Tie"`);
    } else {
      throw new InvalidInputError(`${where}: field "verdict" is missing`);
    }
    if (o.judgments !== undefined && !Array.isArray(o.judgments)) throw new InvalidInputError(`${where}: field "judgments" must be a list`);
    if (Array.isArray(o.judgments) && o.judgments.length > MAX_JUDGMENTS)
      throw new InvalidInputError(`${where}: field "judgments": at most ${MAX_JUDGMENTS} per verdict (got ${o.judgments.length})`);
    if (Array.isArray(o.judgments) && JSON.stringify(o.judgments).length > MAX_JUDGMENTS_CHARS)
      throw new InvalidInputError(`${where}: field "judgments": at most ${MAX_JUDGMENTS_CHARS} characters of JSON per verdict`);
    if (o.analysis !== undefined && typeof o.analysis !== "string")
      throw new InvalidInputError(`${where}: field "analysis" must be a string`);
    if (typeof o.analysis === "string" && o.analysis.length > MAX_ANALYSIS_CHARS)
      throw new InvalidInputError(`${where}: field "analysis": at most ${MAX_ANALYSIS_CHARS} characters`);
    const key = `${itemId}|${dim.key}`;
    if (seen.has(key)) throw new InvalidInputError(`${where}: item "${String(o.item)}" dimension "${dim.key}" is given twice`);
    seen.add(key);
    rows.push({
      itemId,
      dimension: dim.key,
      value,
      judgments: (o.judgments as unknown[]) ?? null,
      analysis: (o.analysis as string) ?? null,
    });
  });
  if (!rows.length) throw new InvalidInputError(`${input.fileName}: no verdicts`);
  return db.transaction((tx) => {
    const run = tx
      .insert(judgeRuns)
      .values({
        campaignId,
        name,
        origin: "import",
        model: input.model?.trim() || null,
        config: { file: input.fileName },
        createdBy: userId,
      })
      .returning({ id: judgeRuns.id })
      .get();
    for (let i = 0; i < rows.length; i += 500)
      tx.insert(judgeLabels)
        .values(rows.slice(i, i + 500).map((r) => ({ ...r, runId: run.id })))
        .run();
    return { runId: run.id, labels: rows.length };
  });
}

export interface HumanVsJudgeOptions {
  /** "vote": majority of the humans, split votes become Tie (Mem-PAL); "adjudication": an adjudicated label wins where there is one. */
  humans?: "vote" | "adjudication";
  /** "both" (Mem-PAL: drop items both call a tie) or "either" (stricter). */
  variant?: "both" | "either";
}

export interface DimensionVsJudge {
  dimension: string;
  title: string;
  result: JudgeHumanResult;
  /** Mem-PAL Table 11 rows: W / T / L counts for slot A, judge and humans, over the items both rated. */
  table11: { judge: { Win: number; Tie: number; Lose: number }; human: { Win: number; Tie: number; Lose: number } };
  disagreements: Array<{ itemId: number; externalId: string; title: string; judge: string; human: string }>;
}

export interface HumanVsJudge {
  run: { id: number; name: string; model: string | null };
  systems: { A?: string; B?: string };
  humans: "vote" | "adjudication";
  variant: "both" | "either";
  dimensions: DimensionVsJudge[];
}

const WTL = ["Win", "Tie", "Lose"] as const;

/** A run's verdicts by item and dimension (./human-labels.ts judgeLabelsOf). */
export type JudgeVerdicts = ReturnType<typeof judgeLabelsOf>;

export function humanVsJudge(db: Db, campaignId: number, runId: number, opts: HumanVsJudgeOptions = {}): HumanVsJudge {
  const c = getCampaign(db, campaignId);
  if (!kindDef(c.kind).pairwise) throw new InvalidInputError("the human vs judge comparison applies to pairwise campaigns");
  const run = judgeRunsOf(db, campaignId).find((r) => r.id === runId);
  if (!run) throw new NotFoundError(`no judge run ${runId} in campaign ${campaignId}`);
  const { items } = campaignLabels(db, campaignId);
  return {
    run: { id: run.id, name: run.name, model: run.model },
    systems: campaignSystemsOf(db, campaignId),
    humans: opts.humans ?? "vote",
    variant: opts.variant ?? "both",
    dimensions: humanVsJudgeDimensions(items, judgeLabelsOf(db, runId), campaignDimensionsOf(db, campaignId), opts),
  };
}

/** Table 11 per dimension from labels already read (the background report computes it for every choice of humans and variant). */
export function humanVsJudgeDimensions(
  items: readonly ItemLabels[],
  judge: JudgeVerdicts,
  dims: readonly DimensionSpec[],
  opts: HumanVsJudgeOptions = {},
): DimensionVsJudge[] {
  const humans = opts.humans ?? "vote";
  const variant = opts.variant ?? "both";
  const byItem = new Map(items.map((i) => [i.itemId, i]));
  return dims.map((d) => {
    const compared = items.filter((it) => judge.get(it.itemId)?.[d.key] && Object.keys(it.human[d.key] ?? {}).length > 0);
    const result = judgeVsHuman(
      compared.map((it) => {
        const adj = humans === "adjudication" ? (it.adjudicated[d.key] ?? null) : null;
        return {
          id: it.itemId,
          llm: judge.get(it.itemId)![d.key].value,
          // An adjudicated label replaces the vote outright when the humans are taken "by adjudication".
          humans: adj !== null ? [adj] : Object.values(it.human[d.key]),
        };
      }),
      { tieLabel: "Tie", humanTieRule: "tie", variant, categories: [...WTL] as Label[] },
    );
    const count = (rec: Record<string, number>) => ({ Win: rec.Win ?? 0, Tie: rec.Tie ?? 0, Lose: rec.Lose ?? 0 });
    return {
      dimension: d.key,
      title: d.title,
      result,
      table11: { judge: count(result.llmCounts), human: count(result.humanCounts) },
      disagreements: result.disagreements.map((x) => ({
        itemId: Number(x.id),
        externalId: byItem.get(Number(x.id))!.externalId,
        title: byItem.get(Number(x.id))!.title,
        judge: String(x.llm),
        human: String(x.human),
      })),
    };
  });
}

export interface Figure2Row {
  source: string;
  n: number;
  /** Shares in 0..1: the reference (slot B) wins, tie, the model (slot A) wins. */
  referenceWin: number;
  tie: number;
  modelWin: number;
  /** HiCUPID's S = model win rate + 0.5 × tie rate, × 100 (50 = parity with the reference). */
  score: number;
}

/** HiCUPID Figure 2: per dimension, the reference-win / tie / model-win rates and S, for the humans and each judge. */
export function figure2(db: Db, campaignId: number): Figure2[] {
  const c = getCampaign(db, campaignId);
  if (!kindDef(c.kind).pairwise) throw new InvalidInputError("the A/B layout applies to pairwise campaigns");
  const { items } = campaignLabels(db, campaignId);
  const judged = judgeRunsOf(db, campaignId).map((r) => ({ run: r, labels: judgeLabelsOf(db, r.id) }));
  return figure2Of(items, judged, campaignDimensionsOf(db, campaignId));
}

export interface Figure2 {
  dimension: string;
  title: string;
  rows: Figure2Row[];
}

/** Figure 2 from labels already read. */
export function figure2Of(
  items: readonly ItemLabels[],
  judged: ReadonlyArray<{ run: { name: string }; labels: JudgeVerdicts }>,
  dims: readonly DimensionSpec[],
): Figure2[] {
  const row = (source: string, values: string[]): Figure2Row => {
    const n = values.length;
    const share = (v: string) => (n ? values.filter((x) => x === v).length / n : 0);
    const modelWin = share("Win");
    const tie = share("Tie");
    return { source, n, referenceWin: share("Lose"), tie, modelWin, score: n ? (modelWin + 0.5 * tie) * 100 : 0 };
  };
  return dims.map((d) => ({
    dimension: d.key,
    title: d.title,
    rows: [
      // Every human vote counts, as in HiCUPID's survey of several evaluators per response.
      row(
        "Humans",
        items.flatMap((it) => Object.values(it.human[d.key] ?? {})),
      ),
      ...judged.map(({ run, labels }) =>
        row(
          run.name,
          items.map((it) => labels.get(it.itemId)?.[d.key]?.value).filter((v): v is string => !!v),
        ),
      ),
    ],
  }));
}
