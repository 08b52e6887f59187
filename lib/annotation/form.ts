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

/** A number field left empty is null (no limit); anything else must be a number. */
function optNumber(form: Form, field: string): number | null | undefined {
  const raw = String(form.get(field) ?? "").trim();
  if (raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new InvalidInputError(`${field}: expected a number, got "${raw.slice(0, 40)}"`);
  return n;
}

/**
 * "Who labels": chosen annotators (fixed) or anyone with a participant link. The link's settings are the
 * same as `pal campaign create --link`'s (checked in participants/settings.ts); gold items come pasted as JSONL.
 */
function crowdFromForm(form: Form): Pick<NewCampaign, "link" | "crowd" | "gold"> {
  if (String(form.get("assignment") ?? "fixed") !== "link") return {};
  const text = (f: string) => String(form.get(f) ?? "").trim() || null;
  const crowd: Record<string, unknown> = {};
  for (const f of [
    "holdSeconds",
    "quota",
    "maxParticipants",
    "goldRate",
    "minGoldAccuracy",
    "minSeconds",
    "attentionRate",
    "maxAttentionFails",
  ]) {
    const n = optNumber(form, f);
    if (n !== undefined) crowd[f] = n;
  }
  for (const f of ["completionCode", "screenoutCode", "consent"]) crowd[f] = text(f);
  const order = text("order");
  if (order) crowd.order = order;
  const gold = text("gold");
  return { link: true, crowd, ...(gold ? { gold: { fileName: "gold items", text: gold } } : {}) };
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
    ...crowdFromForm(form),
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
