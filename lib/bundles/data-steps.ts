/**
 * The rows of a data set that a run read (its users' profiles, sessions, topics or QA pairs), as copy
 * steps: into a bundle (`--with-data`, ids kept) and out of one (ids moved past the target's own).
 */
import type { CopyStep } from "./copy";
import { InvalidInputError } from "@/lib/errors";

/** Where the rows go in the target: the data set's id there and each table's id offset. */
export type DataRemap = { datasetId: number; offset: (table: string) => number };

export const PALSET_TABLES = ["pal_users", "pal_requirement_types", "pal_samples", "pal_logs", "pal_turns", "pal_topics", "pal_candidates"];
export const HICUPID_TABLES = ["hc_users", "hc_dialogues", "hc_turns", "hc_qa"];

export const dataTables = (kind: string) => (noBundleData(kind), kind === "hicupid" ? HICUPID_TABLES : PALSET_TABLES);

/** LoCoMo and LongMemEval rows (cm_ tables) are not copied into bundles yet: refused rather than copied empty. */
function noBundleData(kind: string): void {
  if (kind === "locomo" || kind === "longmemeval")
    throw new InvalidInputError(
      `a bundle --with-data of a ${kind} data set is not available yet; bundle without --with-data and import the data set on the other side`,
    );
}

/**
 * Copy steps for the rows of data set `datasetId` in schema `from` whose user key is among `usersSql`
 * (an SQL list query). Without `remap` ids are kept; with it every id and reference moves. The data
 * set's id may come from a bundle: it is bound as @dataset, never part of the SQL text.
 */
export function dataSteps(kind: string, from: string, datasetId: number, usersSql: string, remap: DataRemap | null): CopyStep[] {
  noBundleData(kind);
  return stepsOf(kind, from, usersSql, remap).map((s) => ({ ...s, params: { ...s.params, dataset: datasetId } }));
}

function stepsOf(kind: string, from: string, usersSql: string, remap: DataRemap | null): CopyStep[] {
  const mv = (col: string, table: string) => (remap ? `s.${col} + ${remap.offset(table)}` : `s.${col}`);
  const ds = remap ? String(remap.datasetId) : "s.dataset_id";
  const set = (o: Record<string, string>) => (remap ? o : undefined);
  if (kind === "hicupid") {
    const users = `SELECT id FROM "${from}".hc_users WHERE dataset_id = @dataset AND user_key IN (${usersSql})`;
    const dialogues = `SELECT id FROM "${from}".hc_dialogues WHERE user_id IN (${users})`;
    return [
      { table: "hc_users", where: `s.id IN (${users})`, set: set({ id: mv("id", "hc_users"), dataset_id: ds }) },
      {
        table: "hc_dialogues",
        where: `s.user_id IN (${users})`,
        set: set({ id: mv("id", "hc_dialogues"), dataset_id: ds, user_id: mv("user_id", "hc_users") }),
      },
      {
        table: "hc_turns",
        where: `s.dialogue_id IN (${dialogues})`,
        set: set({ id: mv("id", "hc_turns"), dialogue_id: mv("dialogue_id", "hc_dialogues") }),
      },
      {
        table: "hc_qa",
        where: `s.user_id IN (${users})`,
        set: set({ id: mv("id", "hc_qa"), dataset_id: ds, user_id: mv("user_id", "hc_users") }),
      },
    ];
  }
  const users = `SELECT id FROM "${from}".pal_users WHERE dataset_id = @dataset AND user_key IN (${usersSql})`;
  const samples = `SELECT id FROM "${from}".pal_samples WHERE user_id IN (${users})`;
  const topics = `SELECT id FROM "${from}".pal_topics WHERE sample_id IN (${samples})`;
  const perSample = (table: string): CopyStep => ({
    table,
    where: `s.sample_id IN (${samples})`,
    set: set({ id: mv("id", table), sample_id: mv("sample_id", "pal_samples") }),
  });
  return [
    { table: "pal_users", where: `s.id IN (${users})`, set: set({ id: mv("id", "pal_users"), dataset_id: ds }) },
    {
      table: "pal_requirement_types",
      where: `s.user_id IN (${users})`,
      set: set({ id: mv("id", "pal_requirement_types"), user_id: mv("user_id", "pal_users") }),
    },
    {
      table: "pal_samples",
      where: `s.user_id IN (${users})`,
      set: set({ id: mv("id", "pal_samples"), dataset_id: ds, user_id: mv("user_id", "pal_users") }),
    },
    perSample("pal_logs"),
    perSample("pal_turns"),
    perSample("pal_topics"),
    {
      table: "pal_candidates",
      where: `s.topic_id IN (${topics})`,
      set: set({ id: mv("id", "pal_candidates"), topic_id: mv("topic_id", "pal_topics") }),
    },
  ];
}
