/**
 * What a config changes from its preset, in words a researcher reads on the experiment page and in
 * `pal run --dry-run`: "users: 0000 (preset: all)", "methods: H2Memory, Vanilla (preset: 12 methods)",
 * "H2Memory k: 5 (preset: 3)". Only real changes: both sides are compared after defaults
 * (presetOverrides), a subset of methods is one line, not one "removed" line per method, and how the
 * run is run (spend cap, prices, attempts, judge batches) is not a change of the protocol.
 */
import type { ParsedExperimentConfig } from "./config";
import { methodKey, parseExperimentConfig } from "./config";
import { methodDisplayName } from "./method-choices";
import { applyPreset, presetOverrides, RUN_SETTINGS } from "./presets";

export type PresetChange = { setting: string; value: string; preset: string };

/** Settings as a person names them; anything else keeps its path. */
const SETTING_NAMES: Record<string, string> = {
  "models.assistant.temperature": "assistant temperature",
  "models.assistant.model": "assistant model",
  "models.user-simulator.temperature": "simulator temperature",
  "models.user-simulator.model": "simulator model",
  "models.judge.temperature": "judge temperature",
  "models.judge.model": "judge model",
  "models.assistant.maxTokens": "assistant output budget",
  "models.user-simulator.maxTokens": "simulator output budget",
  "models.judge.maxTokens": "judge output budget",
  answerTokens: "answer output budget",
  cutOffs: "cut-off replies",
  "hicupid.splits": "HiCUPID splits",
  "hicupid.perSplit": "HiCUPID items per split",
  "hicupid.judges": "HiCUPID judges",
  tieMargin: "tie margin",
};

/** A setting's name as a change line shows it ("models.assistant.temperature" → "assistant temperature"). */
export function settingName(path: string): string {
  return SETTING_NAMES[path] ?? path;
}

/** A value in words: lists joined, "not set" for what one side leaves out. */
export function inWords(v: unknown): string {
  if (v === undefined || v === null) return "not set";
  if (Array.isArray(v)) return v.length ? v.map(inWords).join(", ") : "none";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "object") {
    const e = Object.entries(v as Record<string, unknown>);
    return e.length ? e.map(([k, x]) => `${k} ${inWords(x)}`).join(", ") : "none";
  }
  return String(v);
}

/** The roles' declared settings in words: "assistant temperature 0.7, output budget 8192 · judge temperature 0". */
export function modelsInWords(models: Record<string, unknown> | undefined): string {
  type M = { model?: string; temperature?: number; maxTokens?: number };
  return Object.entries((models ?? {}) as Record<string, M | undefined>)
    .map(([role, m]) => {
      const parts = [
        m?.model !== undefined ? `model ${m.model}` : "",
        m?.temperature !== undefined ? `temperature ${m.temperature}` : "",
        m?.maxTokens !== undefined ? `output budget ${m.maxTokens}` : "",
      ].filter(Boolean);
      return parts.length ? `${role}: ${parts.join(", ")}` : "";
    })
    .filter(Boolean)
    .join(" · ");
}

/** A list of method names, shortened past a few: "12 methods" reads better than twelve names. */
function methodList(names: string[]): string {
  return names.length <= 6 ? names.join(", ") : `${names.length} methods`;
}

export function presetChanges(config: ParsedExperimentConfig): PresetChange[] {
  if (!config.preset) return [];
  const base = parseExperimentConfig(applyPreset(config.preset));
  const byKey = new Map([...base.methods, ...config.methods].map((m) => [methodKey(m), methodDisplayName(m)]));
  const name = (key: unknown) => byKey.get(String(key)) ?? String(key);
  const out: PresetChange[] = [];
  const overrides = presetOverrides(config).filter((o) => !RUN_SETTINGS.test(o.path));
  // Methods added or left out: one line with the methods this experiment runs.
  if (overrides.some((o) => /^methods\.[^.]+$/.test(o.path))) {
    out.push({
      setting: "methods",
      value: methodList(config.methods.map(methodDisplayName)),
      preset: methodList(base.methods.map(methodDisplayName)),
    });
  }
  for (const o of overrides) {
    const m = /^methods\.([^.]+)\.(.+)$/.exec(o.path);
    if (/^methods\.[^.]+$/.test(o.path)) continue;
    if (m) {
      out.push({ setting: `${name(m[1])} ${m[2].replace(/^options\./, "")}`, value: inWords(o.value), preset: inWords(o.preset) });
    } else if (o.path === "reference") {
      out.push({ setting: "reference", value: name(o.value), preset: name(o.preset) });
    } else {
      out.push({ setting: SETTING_NAMES[o.path] ?? o.path, value: inWords(o.value), preset: inWords(o.preset) });
    }
  }
  // A fixed order (what runs, on what, compared how, then the rest), whatever the stored config's key order.
  const rank = (c: PresetChange) => {
    const i = ORDER.indexOf(c.setting);
    return i >= 0 ? i : ORDER.length;
  };
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map((x) => x.c);
}

const ORDER = ["methods", "tasks", "users", "reference", "retriever", "repeats", "seed"];

/** One change as a line: "users: 0000 (preset: all)". */
export function changeLine(c: PresetChange): string {
  return `${c.setting}: ${c.value} (preset: ${c.preset})`;
}
