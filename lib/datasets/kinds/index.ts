/**
 * The registry of data-set kinds: one line per kind. Everything that differs between kinds (labels,
 * upload extensions and limits, counts, stats, importer, replace, browse pages) is read from here.
 */
import { InvalidInputError } from "@/lib/errors";
import { hicupidKind } from "./hicupid";
import { palsetKind } from "./palset";
import { locomoKind } from "./locomo";
import { longmemevalKind } from "./longmemeval";
import type { DatasetKindDef, UploadKind } from "./types";

export type { DatasetKindDef, UploadKind } from "./types";

export const DATASET_KIND_LIST: readonly DatasetKindDef[] = [palsetKind, hicupidKind, locomoKind, longmemevalKind];

const byId = new Map(DATASET_KIND_LIST.map((k) => [k.id, k]));

/** The ids, for validation (z.enum) and help texts. */
export const DATASET_KIND_IDS = DATASET_KIND_LIST.map((k) => k.id) as [string, ...string[]];

/** The kind of a stored or requested data set; an unknown id is bad input. */
export function datasetKind(id: string): DatasetKindDef {
  const k = byId.get(id);
  if (!k) throw new InvalidInputError(`kind: expected one of ${DATASET_KIND_IDS.join(", ")}, got "${id}"`);
  return k;
}

/** The label of a kind id, or the id itself for a kind this version does not know. */
export function kindLabel(id: string): string {
  return byId.get(id)?.label ?? id;
}

/** What the import form needs, passed from the server page as props (no copies in client code). */
export function uploadKinds(): UploadKind[] {
  return DATASET_KIND_LIST.map((k) => ({ id: k.id, label: k.label, ...k.upload }));
}
