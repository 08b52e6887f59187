/**
 * The rows of a data set that a run read (its users' profiles, sessions, topics or QA pairs), as copy
 * steps: into a bundle (`--with-data`, ids kept) and out of one (ids moved past the target's own).
 */
import type { CopyStep } from "./copy";

/** Where the rows go in the target: the data set's id there and each table's id offset. */
export type DataRemap = { datasetId: number; offset: (table: string) => number };

export const PALSET_TABLES = ["pal_users", "pal_requirement_types", "pal_samples", "pal_logs", "pal_turns", "pal_topics", "pal_candidates"];
export const HICUPID_TABLES = ["hc_users", "hc_dialogues", "hc_turns", "hc_qa"];

/** LoCoMo and LongMemEval (the cm_ tables): threads, the sessions of their timelines, turns, timeline, QA. */
export const CONVMEM_TABLES = ["cm_threads", "cm_sessions", "cm_timeline", "cm_turns", "cm_qa"];

const isConvmem = (kind: string) => kind === "locomo" || kind === "longmemeval";

export const dataTables = (kind: string) => (kind === "hicupid" ? HICUPID_TABLES : isConvmem(kind) ? CONVMEM_TABLES : PALSET_TABLES);

/** The "users" a data set's rows are chosen by in a bundle `b`: its users' keys, or (cm_ tables) its threads' keys. */
export function bundleUsersSql(kind: string, from: string): string {
  return isConvmem(kind)
    ? `SELECT thread_key FROM "${from}".cm_threads`
    : `SELECT user_key FROM "${from}".pal_users UNION SELECT user_key FROM "${from}".hc_users`;
}

/**
 * Copy steps for the rows of data set `datasetId` in schema `from` whose user key is among `usersSql`
 * (an SQL list query). Without `remap` ids are kept; with it every id and reference moves. The data
 * set's id may come from a bundle: it is bound as @dataset, never part of the SQL text.
 */
export function dataSteps(kind: string, from: string, datasetId: number, usersSql: string, remap: DataRemap | null): CopyStep[] {
  return stepsOf(kind, from, usersSql, remap).map((s) => ({ ...s, params: { ...s.params, dataset: datasetId } }));
}

function stepsOf(kind: string, from: string, usersSql: string, remap: DataRemap | null): CopyStep[] {
  const mv = (col: string, table: string) => (remap ? `s.${col} + ${remap.offset(table)}` : `s.${col}`);
  const ds = remap ? String(remap.datasetId) : "s.dataset_id";
  const set = (o: Record<string, string>) => (remap ? o : undefined);
  if (isConvmem(kind)) {
    // A thread is a run's "user" (its key is the jobs' user_key); a session is copied once, however many of the
    // copied threads' timelines hold it (LongMemEval's haystacks share sessions).
    const threads = `SELECT id FROM "${from}".cm_threads WHERE dataset_id = @dataset AND thread_key IN (${usersSql})`;
    const sessions = `SELECT session_id FROM "${from}".cm_timeline WHERE thread_id IN (${threads})`;
    return [
      { table: "cm_threads", where: `s.id IN (${threads})`, set: set({ id: mv("id", "cm_threads"), dataset_id: ds }) },
      {
        table: "cm_sessions",
        where: `s.dataset_id = @dataset AND s.id IN (${sessions})`,
        set: set({ id: mv("id", "cm_sessions"), dataset_id: ds }),
      },
      {
        table: "cm_timeline",
        where: `s.thread_id IN (${threads})`,
        set: set({ id: mv("id", "cm_timeline"), thread_id: mv("thread_id", "cm_threads"), session_id: mv("session_id", "cm_sessions") }),
      },
      {
        table: "cm_turns",
        where: `s.session_id IN (${sessions})`,
        set: set({ id: mv("id", "cm_turns"), session_id: mv("session_id", "cm_sessions") }),
      },
      {
        table: "cm_qa",
        where: `s.thread_id IN (${threads})`,
        set: set({ id: mv("id", "cm_qa"), dataset_id: ds, thread_id: mv("thread_id", "cm_threads") }),
      },
    ];
  }
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
