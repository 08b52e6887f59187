/**
 * A campaign's labels as a Hugging Face `datasets`-loadable folder: `labels.parquet` and a `README.md`
 * dataset card whose YAML header names the file and its features. One row per label, as the JSON export:
 * item, pseudonymous annotator, dimension, canonical and shown value, seconds on task, guideline
 * version, gold result, too-fast flag and exclusion (excluded labels are kept, marked).
 */
import type { Db } from "@/db/client";
import { getCampaign } from "./campaigns";
import { labelRows } from "./export";

type Column = { name: string; type: "STRING" | "INT32" | "DOUBLE" | "BOOLEAN"; data: unknown[] };

/** Hugging Face feature dtypes of the parquet columns, for the card. */
const DTYPE = { STRING: "string", INT32: "int32", DOUBLE: "float64", BOOLEAN: "bool" } as const;

export async function campaignParquet(db: Db, campaignId: number): Promise<{ parquet: Uint8Array; card: string; rows: number }> {
  const c = getCampaign(db, campaignId);
  const rows = labelRows(db, campaignId);
  const col = (name: string, type: Column["type"], pick: (r: (typeof rows)[number]) => unknown): Column => ({
    name,
    type,
    data: rows.map(pick),
  });
  const columns: Column[] = [
    col("item", "STRING", (r) => r.item),
    col("annotator", "STRING", (r) => r.annotator),
    col("dimension", "STRING", (r) => r.dimension),
    col("value", "STRING", (r) => r.value),
    col("shown_value", "STRING", (r) => r.shownValue),
    col("swapped", "BOOLEAN", (r) => r.swapped),
    col("comment", "STRING", (r) => r.comment),
    col("seconds", "DOUBLE", (r) => r.seconds),
    col("guideline_version", "INT32", (r) => r.version),
    col("gold", "BOOLEAN", (r) => r.gold),
    col("attention_check", "STRING", (r) => r.attention),
    col("too_fast", "BOOLEAN", (r) => r.tooFast),
    col("excluded", "BOOLEAN", (r) => r.excluded),
  ];
  // An ES module with no runtime use elsewhere: loaded only when a Parquet export is asked for.
  const { parquetWriteBuffer } = await import("hyparquet-writer");
  const parquet = new Uint8Array(parquetWriteBuffer({ columnData: columns }));
  const features = columns.map((x) => `    - name: ${x.name}\n      dtype: ${DTYPE[x.type]}`).join("\n");
  const card = [
    "---",
    "configs:",
    "  - config_name: default",
    "    data_files: labels.parquet",
    "dataset_info:",
    "  features:",
    features,
    "---",
    "",
    `# ${c.name.replace(/[\r\n]+/g, " ")}`,
    "",
    `Human labels of a PAL Studio campaign (kind \`${c.kind}\`, k = ${c.perItem} labels per item), ${rows.length} rows, one per label.`,
    "",
    "- `annotator` is pseudonymous (a crowd participant's code or a lab annotator's account); no Prolific id is included.",
    "- `value` is in canonical order (pairwise: for side A); `shown_value` is what the annotator pressed in the order shown.",
    "- `seconds` is the time on the item measured by the page; `too_fast` marks answers under the campaign's minimum.",
    "- `gold` is the result on a gold item / attention check (null: not one); `attention_check` names a generated attention check (`identical-pair`, `broken-reply`; null: a real item), whose labels are no real labels; `excluded` marks labels the researchers excluded (kept, left out of agreement).",
    "",
    'Load it with `datasets.load_dataset("<this folder>")`.',
    "",
  ].join("\n");
  return { parquet, card, rows: rows.length };
}
