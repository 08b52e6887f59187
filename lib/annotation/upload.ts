/** Uploaded JSONL items for a campaign kind: every line validated before anything is stored. */
import { InvalidInputError } from "@/lib/errors";
import { jsonTextTooDeep, tooDeepMessage } from "@/lib/json-depth";
import type { CampaignKindDef, ParsedItem } from "./kinds";

/** One JSONL line as an object (depth-bounded before parsing); errors name `where` (file:line). */
export function jsonObjectLine(line: string, where: string): Record<string, unknown> {
  const deep = jsonTextTooDeep(line);
  if (deep) throw new InvalidInputError(tooDeepMessage(where, deep));
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch {
    throw new InvalidInputError(`${where}: not valid JSON`);
  }
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) throw new InvalidInputError(`${where}: expected a JSON object`);
  return obj as Record<string, unknown>;
}

export function parseItemsJsonl(def: CampaignKindDef, text: string, fileName: string): ParsedItem[] {
  if (!def.parseUpload) throw new InvalidInputError(`${fileName}: ${def.kind} campaigns take no uploaded items`);
  const items: ParsedItem[] = [];
  const seen = new Map<string, number>();
  const systems: { A?: string; B?: string } = {};
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${fileName}:${i + 1}`;
    const item = def.parseUpload!(jsonObjectLine(line, where), where);
    if (seen.has(item.externalId))
      throw new InvalidInputError(`${where}: id "${item.externalId}" repeats line ${seen.get(item.externalId)}`);
    seen.set(item.externalId, i + 1);
    if (item.outputs) {
      // Labels are stored for canonical slot A: the first line fixes which system that is; a later
      // line may list the two the other way round and is turned to match.
      systems.A ??= item.outputs.A.system;
      systems.B ??= item.outputs.B.system;
      let { A, B } = item.outputs;
      if (A.system === systems.B && B.system === systems.A) [A, B] = [B, A];
      if (A.system !== systems.A || B.system !== systems.B) {
        throw new InvalidInputError(
          `${where}: systems "${A.system}" and "${B.system}" differ from line 1's "${systems.A}" and "${systems.B}"`,
        );
      }
      item.outputs = { A, B };
    }
    items.push(item);
  });
  if (items.length === 0) throw new InvalidInputError(`${fileName}: no items`);
  return items;
}
