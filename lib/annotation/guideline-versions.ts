/**
 * Guideline versions (issue 43.5). Editing a running campaign's guidelines adds a version (kept, with its
 * author and time) and makes it the one annotators see; each label records the version its page showed
 * (queue.ts submitLabels), so the agreement report can be split by version.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaignGuidelineVersions, campaigns, campaignSystems, users, type BlindingOverride } from "@/db/schema";
import { InvalidInputError } from "@/lib/errors";
import { describeNamed, systemsNamedIn } from "./blinding";
import { getCampaign } from "./campaigns";
import { kindDef } from "./kinds";

/** Guidelines are Markdown a person reads: far below this. */
export const MAX_GUIDELINES_CHARS = 100_000;

export interface GuidelineVersion {
  version: number;
  guidelines: string;
  author: string;
  createdAt: number;
}

/** Every version of a campaign's guidelines, oldest first. */
export function guidelineVersionsOf(db: Db, campaignId: number): GuidelineVersion[] {
  return db
    .select({
      version: campaignGuidelineVersions.version,
      guidelines: campaignGuidelineVersions.guidelines,
      author: users.email,
      createdAt: campaignGuidelineVersions.createdAt,
    })
    .from(campaignGuidelineVersions)
    .innerJoin(users, eq(users.id, campaignGuidelineVersions.authorId))
    .where(eq(campaignGuidelineVersions.campaignId, campaignId))
    .orderBy(asc(campaignGuidelineVersions.version))
    .all();
}

/** The names of the systems a campaign compares (names and experiment methods), a kind's generic side names excepted. */
export function comparedSystems(db: Db, campaignId: number): string[] {
  const c = getCampaign(db, campaignId);
  const generic = new Set(Object.values(kindDef(c.kind).sideNames ?? {}).map((n) => n.toLowerCase()));
  const systems = new Set<string>();
  for (const s of db.select().from(campaignSystems).where(eq(campaignSystems.campaignId, campaignId)).all())
    for (const name of [s.name, s.method]) if (name && !generic.has(name.toLowerCase())) systems.add(name);
  return [...systems];
}

/** The systems `guidelines` names: the creation check (lib/annotation/campaigns.ts) on a stored campaign. */
export function systemsNamedInGuidelines(db: Db, campaignId: number, guidelines: string): Array<{ system: string; where: string }> {
  // Only the guidelines change here; the title was checked (or overridden) when the campaign was made.
  return systemsNamedIn(comparedSystems(db, campaignId), ["", guidelines]);
}

/**
 * Makes `text` the campaign's guidelines as a new version. Refused, changing nothing, when it names a
 * compared system (unless `showSystemNames`: the campaign's blinding override then records it) or when it
 * is the current text. Returns the new version.
 */
export function editGuidelines(
  db: Db,
  campaignId: number,
  text: string,
  authorId: number,
  opts: { showSystemNames?: boolean } = {},
): { version: number } {
  const guidelines = text.trim();
  if (!guidelines) throw new InvalidInputError("guidelines: empty; annotators need guidelines to read");
  if (guidelines.length > MAX_GUIDELINES_CHARS)
    throw new InvalidInputError(`guidelines: ${guidelines.length} characters; at most ${MAX_GUIDELINES_CHARS}`);
  return db.transaction(
    (tx) => {
      const c = getCampaign(tx as unknown as Db, campaignId);
      if ((c.guidelines ?? "").trim() === guidelines)
        throw new InvalidInputError("guidelines: unchanged; nothing to save as a new version");
      const named = systemsNamedInGuidelines(tx as unknown as Db, campaignId, guidelines);
      let blindingOverride: BlindingOverride | null = c.blindingOverride ?? null;
      if (named.length) {
        if (!opts.showSystemNames)
          throw new InvalidInputError(
            `guidelines: ${describeNamed(named)}, which annotators read, so they would know which system is which; ` +
              `reword it, or save with showSystemNames to show the names anyway (the agreement page and exports then say so)`,
          );
        const before = blindingOverride?.named ?? [];
        const added = named.filter((n) => !before.some((b) => b.system === n.system && b.where === n.where));
        blindingOverride = { named: [...before, ...added], by: authorId, at: new Date().toISOString() };
      }
      // A campaign whose first version has no row (made outside createCampaign) gets it first, by its creator.
      const has = tx
        .select({ id: campaignGuidelineVersions.id })
        .from(campaignGuidelineVersions)
        .where(and(eq(campaignGuidelineVersions.campaignId, campaignId), eq(campaignGuidelineVersions.version, c.guidelinesVersion)))
        .get();
      if (!has)
        tx.insert(campaignGuidelineVersions)
          .values({
            campaignId,
            version: c.guidelinesVersion,
            guidelines: c.guidelines ?? "",
            authorId: c.createdBy,
            createdAt: c.createdAt,
          })
          .run();
      const version = c.guidelinesVersion + 1;
      tx.insert(campaignGuidelineVersions).values({ campaignId, version, guidelines, authorId }).run();
      tx.update(campaigns).set({ guidelines, guidelinesVersion: version, blindingOverride }).where(eq(campaigns.id, campaignId)).run();
      return { version };
    },
    { behavior: "immediate" },
  );
}

/**
 * The version a submission says its page showed: absent means the current one (clients that show no
 * guidelines: the CLI, benches); otherwise a version this campaign has had.
 */
export function submittedGuidelineVersion(current: number, given: unknown): number {
  if (given === undefined || given === null) return current;
  if (typeof given !== "number" || !Number.isInteger(given) || given < 1 || given > current)
    throw new InvalidInputError(`guidelineVersion: expected a version of this campaign's guidelines, 1 to ${current}`);
  return given;
}
