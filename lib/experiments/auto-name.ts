/**
 * The automatic name of an experiment launched without one (CLI and browser alike, issue 44.8): what ran,
 * so a list of runs reads without opening each: data set, preset, methods × tasks, users.
 */
import { PRESETS, type PresetId } from "./presets";

/** Names hold 200 characters (lib/display-name.ts). */
const MAX = 200;

/** The config's fields as given: the CLI names a run before its config is validated (the launch checks it). */
type NameInput = { dataset: string; preset?: unknown; methods?: unknown; tasks?: unknown; users?: unknown };

/** Past four entries, a count ("12 methods"), so the name stays short. */
function list(v: unknown, noun: string): string {
  if (!Array.isArray(v)) return "?";
  const names = v.map((m) => (typeof m === "string" ? m : String(m?.label ?? m?.name ?? "?")));
  return names.length > 4 ? `${names.length} ${noun}` : names.join(",");
}

function usersText(u: unknown): string {
  if (!Array.isArray(u)) return "all users";
  return u.length === 1 ? `user ${String(u[0])}` : `${u.length} users`;
}

export function autoExperimentName(o: NameInput): string {
  const preset = typeof o.preset === "string" && o.preset in PRESETS ? `${PRESETS[o.preset as PresetId].label}, ` : "";
  const name = `${o.dataset.replace(/\s+/g, " ").trim()}: ${preset}${list(o.methods, "methods")} × ${list(o.tasks, "tasks")}, ${usersText(o.users)}`;
  return [...name].length > MAX ? `${[...name].slice(0, MAX - 1).join("")}…` : name;
}
