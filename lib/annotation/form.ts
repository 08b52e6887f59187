/** Reads the campaign-creation form (multipart) into a NewCampaign; errors name the field. */
import { InvalidInputError } from "@/lib/errors";
import type { TieRule } from "@/lib/agreement";
import type { NewCampaign } from "./campaigns";

const MAX_UPLOAD = 200 * 1024 * 1024;

function int(form: FormData, field: string, dflt?: number): number {
  const raw = form.get(field);
  if ((raw === null || raw === "") && dflt !== undefined) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new InvalidInputError(`${field}: expected a whole number, got "${String(raw ?? "")}"`);
  return n;
}

export async function newCampaignFromForm(form: FormData): Promise<NewCampaign> {
  const source = String(form.get("source") ?? "");
  const base = {
    name: String(form.get("name") ?? ""),
    kind: String(form.get("kind") ?? ""),
    guidelines: String(form.get("guidelines") ?? "") || undefined,
    perItem: int(form, "perItem", 3),
    annotatorIds: form.getAll("annotators").map((a) => {
      const n = Number(a);
      if (!Number.isInteger(n)) throw new InvalidInputError(`annotators: "${String(a)}" is not a user id`);
      return n;
    }),
    tieRule: (String(form.get("tieRule") ?? "") || undefined) as TieRule | undefined,
    seed: int(form, "seed", 1),
  };
  if (source === "palset-session") {
    return {
      ...base,
      source: {
        kind: "palset-session",
        datasetId: int(form, "datasetId"),
        users: int(form, "users", 5),
        sessionsPerUser: int(form, "sessionsPerUser", 10),
        seed: int(form, "sampleSeed", 1),
      },
    };
  }
  if (source === "upload") {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new InvalidInputError("file: choose a JSONL file");
    if (file.size > MAX_UPLOAD) throw new InvalidInputError(`${file.name}: larger than 200 MB`);
    return { ...base, source: { kind: "upload", fileName: file.name, text: await file.text() } };
  }
  if (source === "experiment") {
    const text = (f: string) => String(form.get(f) ?? "").trim();
    if (!text("methodA")) throw new InvalidInputError("methodA: choose the method on side A");
    return {
      ...base,
      source: {
        kind: "experiment",
        experimentId: int(form, "experimentId"),
        methodA: text("methodA"),
        methodB: text("methodB") || undefined,
        replicate: int(form, "replicate", 0),
      },
    };
  }
  throw new InvalidInputError(`source: expected palset-session, upload or experiment, got "${source}"`);
}
