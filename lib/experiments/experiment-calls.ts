/**
 * Which ledger rows (llm_calls c) are a run's: its own (experiment_id), its jobs' and the memory builds
 * it used (experiment_memory_versions, including a build another run paid for, which made the memory
 * these answers read). A WHERE clause over `c` with the named parameter @id; the run record and the
 * protocol audit read the same rows.
 */
export const EXPERIMENT_CALLS = `(c.experiment_id = @id
  OR c.job_id IN (SELECT id FROM jobs WHERE experiment_id = @id)
  OR c.memory_version_id IN (SELECT version_id FROM experiment_memory_versions WHERE experiment_id = @id))`;

/**
 * The ledger column of a request's other parameters, or NULL in a database from before it (a bundle exported
 * by an older version: migration 0040 added it), so the audit and the run card still read such a file.
 */
export function otherParamsColumn(db: { $client: { prepare(sql: string): { all(): unknown[] } } }, alias = ""): string {
  const cols = db.$client.prepare("PRAGMA table_info(llm_calls)").all() as Array<{ name: string }>;
  return cols.some((c) => c.name === "other_params") ? `${alias}other_params` : "NULL";
}

/** A row's other parameters as an object; a value that is not a JSON object (a hand-edited bundle) is kept as text. */
export function parseOtherParams(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { unreadable: text };
  } catch {
    return { unreadable: text };
  }
}
