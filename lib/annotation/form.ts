/** Reads the campaign-creation form (multipart, streamed: lib/http/multipart) into a NewCampaign; errors name the field. */
import { InvalidInputError } from "@/lib/errors";
import type { TieRule } from "@/lib/agreement";
import type { ReceivedForm } from "@/lib/http/multipart";
import { decodeUtf8 } from "@/lib/utf8";
import type { NewCampaign } from "./campaigns";

/** The largest items file the campaign form takes. */
export const MAX_CAMPAIGN_UPLOAD_BYTES = 200 * 1024 * 1024;

type Form = Pick<ReceivedForm, "get" | "getAll" | "file">;

function int(form: Form, field: string, dflt?: number): number {
  const raw = form.get(field);
  if ((raw === null || raw === "") && dflt !== undefined) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new InvalidInputError(`${field}: expected a whole number, got "${String(raw ?? "")}"`);
  return n;
}

/** The experiment's run, 1..n. */
function run(form: Form): number {
  const n = int(form, "run");
  if (n < 1) throw new InvalidInputError(`run: runs are counted from 1, got ${n}`);
  return n;
}

export function newCampaignFromForm(form: Form): NewCampaign {
  const source = String(form.get("source") ?? "");
  const base = {
    name: String(form.get("name") ?? ""),
    kind: String(form.get("kind") ?? ""),
    annotatorTitle: String(form.get("annotatorTitle") ?? "") || undefined,
    guidelines: String(form.get("guidelines") ?? "") || undefined,
    // A checkbox: present ("on", or "true" from an API client) only when ticked.
    showSystemNames: ["on", "true", "1"].includes(String(form.get("showSystemNames") ?? "")),
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
    const file = form.file;
    if (!file || file.bytes.length === 0) throw new InvalidInputError("file: choose a JSONL file");
    return { ...base, source: { kind: "upload", fileName: file.name, text: decodeUtf8(file.bytes, file.name) } };
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
        // The form counts runs from 1, as the experiment pages do; `replicate` (from 0) is still read from API clients.
        replicate: form.get("run") ? run(form) - 1 : int(form, "replicate", 0),
      },
    };
  }
  throw new InvalidInputError(`source: expected palset-session, upload or experiment, got "${source}"`);
}
