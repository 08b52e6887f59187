/** Campaigns: creation (one transaction: items, systems, outputs, dimensions, assignments), listing, status. */
import { checkDisplayName } from "@/lib/display-name";
import { itemTitle } from "./item-title";
import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  campaignGuidelineVersions,
  assignments,
  campaignAnnotators,
  campaignDimensions,
  campaignItems,
  campaignOutputs,
  campaignSystems,
  campaigns,
  users,
  type BlindingOverride,
} from "@/db/schema";
import { InvalidInputError, NotFoundError } from "@/lib/errors";
import { tooDeepMessage, valueTooDeep } from "@/lib/json-depth";
import type { TieRule } from "@/lib/agreement";
import { kindDef, type CampaignKindDef, type DimensionSpec, type ParsedItem } from "./kinds";
import { describeNamed, systemsNamedIn } from "./blinding";
import { planAssignments } from "./assignment";
import { sampleSessions, sampleShortfall, type SessionSampleSpec } from "./sampling";
import { sessionItemContent } from "./session-item";
import { parseItemsJsonl } from "./upload";
import { parseCrowdSettings } from "./participants/settings";
import { parseGoldJsonl } from "./participants/gold";
import { makeAttentionItems } from "./participants/attention";
import { newJoinToken } from "./participants/join";
import { experimentAnswerItems, experimentDialogueItems, experimentHicupidItems, type ExperimentSourceSpec } from "./experiment-items";

/** In a query grouped over assignments: how many of the group have this status. */
export const assignmentsWithStatus = (status: "done" | "skipped") =>
  sql<number>`sum(case when ${assignments.status} = ${status} then 1 else 0 end)`;

export type CampaignSource =
  | ({ kind: "palset-session"; datasetId: number } & SessionSampleSpec)
  | { kind: "upload"; fileName: string; text: string }
  | ({ kind: "experiment" } & ExperimentSourceSpec);

export interface NewCampaign {
  /** The researchers' name for the campaign; annotators never see it. */
  name: string;
  kind: string;
  /** The title annotators see (default: the kind's neutral title). */
  annotatorTitle?: string;
  guidelines?: string;
  /**
   * Create the campaign although its annotator title or guidelines name a system it compares: recorded, and
   * reported by the agreement page and exports (issue 40.15). Without it such a campaign is refused.
   */
  showSystemNames?: boolean;
  perItem: number;
  annotatorIds: number[];
  tieRule?: TieRule;
  /** Seed of the assignment and shown-order draws. */
  seed?: number;
  source: CampaignSource;
  /**
   * Open the campaign to a participant link (`/join/<token>`): items are then served as people work
   * (assignment "dynamic", lib/annotation/participants) instead of dealt out to `annotatorIds`.
   */
  link?: boolean;
  /** Crowd settings (hold, quota, cap, codes, consent, gold rate, minimum seconds): participants/settings.ts. */
  crowd?: unknown;
  /** Gold items / hand-made attention checks, JSONL (participants/gold.ts); generated checks: crowd.attentionRate. */
  gold?: { fileName: string; text: string };
}

const TIE_RULES: TieRule[] = ["tie", "first", "adjudicate", "none"];

export function createCampaign(
  db: Db,
  input: NewCampaign,
  createdBy: number,
): { id: number; items: number; assignments: number; link?: string; note?: string } {
  const def = kindDef(input.kind);
  const name = checkDisplayName("name", input.name);
  const annotatorTitle = input.annotatorTitle?.trim() ? checkDisplayName("annotatorTitle", input.annotatorTitle) : null;
  if (!def.sources.includes(input.source.kind)) {
    throw new InvalidInputError(`source: ${def.kind} campaigns take items from ${def.sources.join(" or ")}, not ${input.source.kind}`);
  }
  const tieRule = input.tieRule ?? def.defaultTieRule;
  if (!TIE_RULES.includes(tieRule)) throw new InvalidInputError(`tieRule: expected one of ${TIE_RULES.join(", ")}`);
  if (tieRule === "tie" && def.dimensions.some((d) => !d.categories.some((c) => c.value === "Tie"))) {
    // A split 1-vs-3 rating has no "Tie" category to become.
    throw new InvalidInputError(`tieRule: "tie" needs a Tie category; ${def.kind} campaigns use first, adjudicate or none`);
  }
  const dynamic = input.link === true;
  const crowd = dynamic ? parseCrowdSettings(input.crowd) : null;
  if (!dynamic && input.gold) throw new InvalidInputError("gold: gold items are served to participants; open the campaign to a link");
  if (dynamic && input.annotatorIds.length)
    throw new InvalidInputError("annotators: a link campaign serves its items to whoever joins; list annotators or open a link, not both");
  if (dynamic && (!Number.isInteger(input.perItem) || input.perItem < 1 || input.perItem > 1000))
    throw new InvalidInputError(`perItem: expected an integer from 1 to 1000, got ${input.perItem}`);
  if (!dynamic && input.annotatorIds.length === 0) throw new InvalidInputError("annotators: choose at least one");
  const found = db
    .select({ id: users.id, disabled: users.disabled, role: users.role })
    .from(users)
    .where(inArray(users.id, input.annotatorIds))
    .all();
  for (const id of input.annotatorIds) {
    const u = found.find((f) => f.id === id);
    if (!u) throw new InvalidInputError(`annotators: no user with id ${id}`);
    if (u.disabled) throw new InvalidInputError(`annotators: user ${id} is disabled`);
    if (u.role === "participant") throw new InvalidInputError(`annotators: user ${id} is a crowd participant of another study`);
  }
  const seed = input.seed ?? 1;

  return db.transaction((tx) => {
    let parsed: Array<ParsedItem & { palSampleId?: number }>;
    let config: Record<string, unknown>;
    let datasetId: number | null = null;
    let experimentSystems: { A: { method: string | null }; B: { method: string | null } } | null = null;
    let experimentId: number | null = null;
    let sampleNote: string | null = null;
    const src = input.source;
    if (src.kind === "palset-session") {
      const spec = { users: src.users, sessionsPerUser: src.sessionsPerUser, seed: src.seed };
      datasetId = src.datasetId;
      const drawn = sampleSessions(tx as unknown as Db, src.datasetId, spec);
      sampleNote = sampleShortfall(spec, drawn);
      parsed = drawn.map((s) => ({
        externalId: `${s.userKey}/${s.sampleKey}`,
        palSampleId: s.sampleId,
        content: sessionItemContent(tx as unknown as Db, src.datasetId, s.userKey, s.sampleKey),
      }));
      // Fewer items than asked is said, with why, on the campaign page and in the API's answer.
      config = { ...spec, ...(sampleNote ? { sampleNote } : {}) };
    } else if (src.kind === "experiment") {
      const spec = { experimentId: src.experimentId, methodA: src.methodA, methodB: src.methodB, replicate: src.replicate ?? 0 };
      const got =
        def.kind === "answer-correctness"
          ? experimentAnswerItems(tx as unknown as Db, spec)
          : def.kind === "hicupid-ab"
            ? experimentHicupidItems(tx as unknown as Db, spec)
            : experimentDialogueItems(tx as unknown as Db, spec);
      parsed = got.items;
      experimentSystems = got.systems;
      experimentId = spec.experimentId;
      datasetId = got.datasetId;
      // The task the answers came from (answer correctness: locomo or longmemeval), for the item's source link.
      config = { ...spec, ...("task" in got ? { task: got.task } : {}) };
    } else {
      parsed = parseItemsJsonl(def, src.text, src.fileName);
      config = { file: src.fileName };
    }
    const gold = input.gold ? parseGoldJsonl(def, input.gold.text, input.gold.fileName) : [];
    for (const g of gold)
      if (parsed.some((p) => p.externalId === g.externalId))
        throw new InvalidInputError(`${input.gold!.fileName}: id "${g.externalId}" is also the id of an item`);
    // Attention checks are made from the real items only (a check made from a gold item would carry two answers).
    const attention = crowd
      ? makeAttentionItems(def, parsed, crowd.attentionRate, seed, new Set([...parsed, ...gold].map((p) => p.externalId)))
      : [];
    parsed = [...parsed, ...gold, ...attention];
    assertStorableDepth(parsed);
    const guidelines = input.guidelines?.trim() || def.defaultGuidelines;
    const blindingOverride = checkBlinding(def, parsed, experimentSystems, annotatorTitle ?? def.annotatorTitle, guidelines, {
      override: input.showSystemNames === true,
      by: createdBy,
    });
    const plan = dynamic ? [] : planAssignments(parsed.length, input.annotatorIds, input.perItem, seed);
    config.assignmentSeed = seed;

    const campaign = tx
      .insert(campaigns)
      .values({
        name,
        annotatorTitle,
        blindingOverride,
        kind: def.kind,
        source: src.kind,
        datasetId,
        guidelines,
        perItem: input.perItem,
        tieRule,
        config,
        createdBy,
        assignment: dynamic ? "dynamic" : "fixed",
        joinToken: dynamic ? newJoinToken() : null,
        crowd,
      })
      .returning({ id: campaigns.id, joinToken: campaigns.joinToken })
      .get();
    // Version 1 of the guidelines, kept beside the later ones an edit adds (./guideline-versions.ts).
    tx.insert(campaignGuidelineVersions).values({ campaignId: campaign.id, version: 1, guidelines, authorId: createdBy }).run();
    tx.insert(campaignDimensions)
      .values(def.dimensions.map((d: DimensionSpec, i) => ({ campaignId: campaign.id, position: i, ...d })))
      .run();
    if (input.annotatorIds.length)
      tx.insert(campaignAnnotators)
        .values(input.annotatorIds.map((userId) => ({ campaignId: campaign.id, userId })))
        .run();
    let systemIds: { A: number; B: number } | null = null;
    const first = parsed[0]?.outputs;
    if (def.pairwise && first) {
      const ins = (slot: "A" | "B") =>
        tx
          .insert(campaignSystems)
          .values({
            campaignId: campaign.id,
            slot,
            name: first[slot].system,
            experimentId,
            method: experimentSystems?.[slot].method ?? null,
          })
          .returning({ id: campaignSystems.id })
          .get().id;
      systemIds = { A: ins("A"), B: ins("B") };
    }
    const itemIds: number[] = [];
    parsed.forEach((p, position) => {
      const item = tx
        .insert(campaignItems)
        .values({
          campaignId: campaign.id,
          position,
          externalId: p.externalId,
          title: itemTitle(p.content, p.externalId),
          palSampleId: p.palSampleId ?? null,
          content: p.content,
          gold: "gold" in p ? (p.gold as Record<string, string>) : null,
          attention: "attention" in p ? (p.attention as "identical-pair" | "broken-reply") : null,
        })
        .returning({ id: campaignItems.id })
        .get();
      itemIds.push(item.id);
      if (systemIds && p.outputs) {
        tx.insert(campaignOutputs)
          .values([
            { itemId: item.id, systemId: systemIds.A, output: p.outputs.A.output },
            { itemId: item.id, systemId: systemIds.B, output: p.outputs.B.output },
          ])
          .run();
      }
    });
    const queuePos = new Map<number, number>();
    const rows = plan.map((a) => {
      const pos = queuePos.get(a.annotator) ?? 0;
      queuePos.set(a.annotator, pos + 1);
      return {
        campaignId: campaign.id,
        itemId: itemIds[a.item],
        annotatorId: a.annotator,
        position: pos,
        swapped: def.pairwise && a.swapped,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      tx.insert(assignments)
        .values(rows.slice(i, i + 500))
        .run();
    return {
      id: campaign.id,
      items: parsed.length,
      assignments: rows.length,
      ...(campaign.joinToken ? { link: `/join/${campaign.joinToken}` } : {}),
      ...(sampleNote ? { note: sampleNote } : {}),
    };
  });
}

/**
 * What annotators read (their title and the guidelines) must not name a system the campaign compares: refused,
 * naming where, unless the creator overrides it; the override is returned for the campaign row (then reported).
 * A kind's generic side names ("model", "reference") are words guidelines use, not systems.
 */
function checkBlinding(
  def: CampaignKindDef,
  parsed: ParsedItem[],
  experimentSystems: { A: { method: string | null }; B: { method: string | null } } | null,
  title: string,
  guidelines: string,
  o: { override: boolean; by: number },
): BlindingOverride | null {
  const generic = new Set(Object.values(def.sideNames ?? {}).map((n) => n.toLowerCase()));
  const systems = new Set<string>();
  for (const p of parsed) for (const side of [p.outputs?.A.system, p.outputs?.B.system]) if (side) systems.add(side);
  for (const side of [experimentSystems?.A.method, experimentSystems?.B.method]) if (side) systems.add(side);
  const named = systemsNamedIn(
    [...systems].filter((s) => !generic.has(s.toLowerCase())),
    [title, guidelines],
  );
  if (!named.length) return null;
  if (!o.override)
    throw new InvalidInputError(
      `${named[0].where === "guidelines" ? "guidelines" : "annotatorTitle"}: ${describeNamed(named)}, which annotators read, so they would know which system is which; ` +
        `reword it, or create the campaign with showSystemNames to show the names anyway (the agreement page and exports then say so)`,
    );
  return { named, by: o.by, at: new Date().toISOString() };
}

/**
 * Nothing nested deeper than MAX_JSON_DEPTH is stored, whatever the source (an upload is checked line
 * by line before this; sessions and experiment outputs are checked here): such an item could not be
 * serialised or shown to an annotator.
 */
function assertStorableDepth(parsed: ParsedItem[]): void {
  for (const p of parsed) {
    const parts: Array<[string, unknown]> = [["content", p.content]];
    if (p.outputs) parts.push(["output A", p.outputs.A.output], ["output B", p.outputs.B.output]);
    for (const [what, value] of parts) {
      const deep = valueTooDeep(value);
      if (deep) throw new InvalidInputError(tooDeepMessage(`item "${p.externalId}" (${what})`, deep));
    }
  }
}

export type CampaignRow = typeof campaigns.$inferSelect;

export function getCampaign(db: Db, id: number): CampaignRow {
  const c = Number.isInteger(id) ? db.select().from(campaigns).where(eq(campaigns.id, id)).get() : undefined;
  if (!c) throw new NotFoundError(`no campaign with id ${id}`);
  return c;
}

export function campaignDimensionsOf(db: Db, campaignId: number): DimensionSpec[] {
  return db
    .select({
      key: campaignDimensions.key,
      title: campaignDimensions.title,
      question: campaignDimensions.question,
      scale: campaignDimensions.scale,
      categories: campaignDimensions.categories,
    })
    .from(campaignDimensions)
    .where(eq(campaignDimensions.campaignId, campaignId))
    .orderBy(asc(campaignDimensions.position))
    .all()
    .map((d) => ({ ...d, question: d.question ?? "" }));
}

export function campaignSystemsOf(db: Db, campaignId: number): { A?: string; B?: string } {
  const out: { A?: string; B?: string } = {};
  for (const s of db.select().from(campaignSystems).where(eq(campaignSystems.campaignId, campaignId)).all()) out[s.slot] = s.name;
  return out;
}

export interface CampaignSummary {
  id: number;
  name: string;
  kind: string;
  status: "open" | "closed";
  items: number;
  assignments: number;
  done: number;
  skipped: number;
  createdAt: number;
}

export function listCampaigns(db: Db): CampaignSummary[] {
  const rows = db.select().from(campaigns).orderBy(desc(campaigns.id)).all();
  const counts = db
    .select({
      campaignId: assignments.campaignId,
      total: count(),
      done: assignmentsWithStatus("done"),
      skipped: assignmentsWithStatus("skipped"),
    })
    .from(assignments)
    .groupBy(assignments.campaignId)
    .all();
  const items = db.select({ campaignId: campaignItems.campaignId, n: count() }).from(campaignItems).groupBy(campaignItems.campaignId).all();
  return rows.map((c) => {
    const a = counts.find((x) => x.campaignId === c.id);
    return {
      id: c.id,
      name: c.name,
      kind: c.kind,
      status: c.status,
      items: items.find((x) => x.campaignId === c.id)?.n ?? 0,
      assignments: a?.total ?? 0,
      done: a?.done ?? 0,
      skipped: a?.skipped ?? 0,
      createdAt: c.createdAt,
    };
  });
}

export function setCampaignStatus(db: Db, id: number, status: "open" | "closed"): void {
  getCampaign(db, id);
  if (status !== "open" && status !== "closed") throw new InvalidInputError(`status: expected open or closed`);
  db.update(campaigns).set({ status }).where(eq(campaigns.id, id)).run();
}

/** Progress of each annotator of a campaign. */
export function annotatorProgress(db: Db, campaignId: number) {
  return db
    .select({
      annotatorId: assignments.annotatorId,
      email: users.email,
      name: users.name,
      total: count(),
      done: assignmentsWithStatus("done"),
      skipped: assignmentsWithStatus("skipped"),
      msSpent: sql<number>`sum(case when ${assignments.status} = 'done' then ${assignments.msSpent} else 0 end)`,
    })
    .from(assignments)
    .innerJoin(users, eq(users.id, assignments.annotatorId))
    .where(eq(assignments.campaignId, campaignId))
    .groupBy(assignments.annotatorId)
    .orderBy(asc(users.email))
    .all();
}

/** Active accounts who can be given work (researchers annotate too; crowd participants join from links). */
export function assignableUsers(db: Db) {
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(and(eq(users.disabled, false), ne(users.role, "participant")))
    .orderBy(asc(users.role), asc(users.email))
    .all();
}
