/** Whether an experiment came in as a bundle, and from where (the experiment page's note). */
import type { Db } from "@/db/client";

export type ImportNote = {
  source: string;
  sourceExperimentId: number;
  exportedAt: number;
  exportedVersion: string;
  importedAt: number;
  datasetFromBundle: boolean;
  /** Its status in the bundle (null: imported before it was kept); it arrived paused if that was a running one. */
  sourceStatus: string | null;
};

export function importOf(db: Db, experimentId: number): ImportNote | null {
  return (
    (db.$client
      .prepare(
        `SELECT source, source_experiment_id AS sourceExperimentId, exported_at AS exportedAt, exported_version AS exportedVersion,
                imported_at AS importedAt, dataset_from_bundle = 1 AS datasetFromBundle, source_status AS sourceStatus
         FROM experiment_imports WHERE experiment_id = ?`,
      )
      .get(experimentId) as ImportNote | undefined) ?? null
  );
}
