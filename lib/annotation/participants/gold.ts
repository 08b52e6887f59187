/**
 * Gold items / attention checks from a JSONL file: each line an item in the kind's upload format plus
 * `"gold": {"<dimension>": "<canonical value>"}` (for pairwise kinds the value is for side "a"; an
 * attention check is e.g. an identical pair with "Tie", or a broken reply on one side). Every line is
 * checked before anything is stored.
 */
import { InvalidInputError } from "@/lib/errors";
import type { CampaignKindDef, ParsedItem } from "../kinds";
import { jsonObjectLine, parseItemsJsonl } from "../upload";

export const MAX_GOLD_BYTES = 5 * 1024 * 1024;

export function parseGoldJsonl(def: CampaignKindDef, text: string, fileName: string): Array<ParsedItem & { gold: Record<string, string> }> {
  if (Buffer.byteLength(text) > MAX_GOLD_BYTES) throw new InvalidInputError(`${fileName}: larger than ${MAX_GOLD_BYTES} bytes`);
  const golds: Array<Record<string, string>> = [];
  const stripped = text.split(/\r?\n/).map((line, i) => {
    if (line.trim() === "") return line;
    const where = `${fileName}:${i + 1}`;
    const { gold, ...rest } = jsonObjectLine(line, where);
    if (typeof gold !== "object" || gold === null || Array.isArray(gold))
      throw new InvalidInputError(`${where}: "gold": expected an object of dimension → expected value`);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(gold)) {
      const dim = def.dimensions.find((d) => d.key === k);
      if (!dim)
        throw new InvalidInputError(
          `${where}: "gold.${k.slice(0, 80)}": not a dimension of ${def.kind} (${def.dimensions.map((d) => d.key).join(", ")})`,
        );
      if (typeof v !== "string" || !dim.categories.some((c) => c.value === v))
        throw new InvalidInputError(`${where}: "gold.${k}": expected one of ${dim.categories.map((c) => c.value).join(", ")}`);
      out[k] = v;
    }
    if (!Object.keys(out).length) throw new InvalidInputError(`${where}: "gold": give the expected value of at least one dimension`);
    golds.push(out);
    return JSON.stringify(rest);
  });
  const items = parseItemsJsonl(def, stripped.join("\n"), fileName);
  return items.map((it, i) => ({ ...it, gold: golds[i] }));
}
