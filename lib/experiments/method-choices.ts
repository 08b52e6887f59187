/**
 * The methods an experiment may name: the assistant registry's methods (lib/assistants) and HiCUPID's
 * context settings (lib/tasks/hicupid). One list for the config check and for the browser's choices.
 */
import type { Db } from "@/db/client";
import type { DatasetKind } from "@/lib/assistants/core/types";
import { ASSISTANTS, findAssistant } from "@/lib/assistants/registry";
import { listExternalMethods } from "@/lib/assistants/external/store";
import { parseOptions } from "@/lib/assistants/core/context";
import { InvalidInputError } from "@/lib/errors";
import { CONTEXT_SETTINGS, isContextSetting } from "@/lib/tasks/hicupid/settings";
import type { MethodCheck } from "./plan";

/**
 * The methods experiments accept: the registry's methods, the external methods registered in `db`
 * (lib/assistants/external) and HiCUPID's context settings, with valid options.
 */
export function knownMethod(db?: Db): MethodCheck {
  return (m, where) => {
    if (isContextSetting(m.name)) {
      const r = CONTEXT_SETTINGS[m.name].options.safeParse(m.options ?? {});
      if (!r.success)
        throw new InvalidInputError(`${where}.options.${r.error.issues[0].path.join(".") || "(root)"}: ${r.error.issues[0].message}`);
      return;
    }
    const external = db ? listExternalMethods(db).map((x) => x.name) : [];
    const a = ASSISTANTS.find((x) => x.id === m.name) ?? (db && external.includes(m.name) ? findAssistant(db, m.name) : undefined);
    if (!a) {
      const all = [...ASSISTANTS.map((x) => x.id), ...external, ...Object.keys(CONTEXT_SETTINGS)];
      throw new InvalidInputError(`${where}.name: unknown method "${m.name}" (available: ${all.join(", ")})`);
    }
    try {
      parseOptions(a, m.options);
    } catch (e) {
      throw new InvalidInputError(`${where}.options: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}

/**
 * A method as a person reads it, in every form and table: the label a config gives it (e.g. "0-shot",
 * the researcher's own name), else the registry's name ("H2Memory w/o M_G"), else its id.
 */
export function methodDisplayName(m: { name: string; label?: string }): string {
  if (m.label) return m.label;
  if (isContextSetting(m.name)) return CONTEXT_SETTINGS[m.name].label;
  return ASSISTANTS.find((a) => a.id === m.name)?.label ?? m.name;
}

/**
 * A method key as a person reads it, a pair "a~b" (a pairwise judge's jobs) as "A vs B": the config's
 * names first, else the registry's (issue 44.8: the Costs tab printed "h2memory~conditionmem").
 */
export function keyDisplayName(key: string, names: Readonly<Record<string, string>> = {}): string {
  return key
    .split("~")
    .map((k) => names[k] ?? methodDisplayName({ name: k }))
    .join(" vs ");
}

/** Display names of a config's methods by their key (label, else name); a pair "a~b" reads "A vs B". */
export function methodNames(methods: ReadonlyArray<{ name: string; label?: string }>): Record<string, string> {
  return Object.fromEntries(methods.map((m) => [m.label ?? m.name, methodDisplayName(m)]));
}

/** The methods a user may pick in the browser (external ones when `db` is given), with their display names and data set kinds. */
export function methodChoices(db?: Db): Array<{ name: string; label: string; kinds: DatasetKind[] }> {
  // Every memory method runs on every kind (LoCoMo and LongMemEval through lib/tasks/convqa); a registered
  // method answers what its service claims (pal run checks its GET / before starting).
  const every: DatasetKind[] = ["palset", "hicupid", "locomo", "longmemeval"];
  return [
    ...ASSISTANTS.map((a) => ({ name: a.id, label: a.label, kinds: every })),
    ...(db ? listExternalMethods(db) : []).map((m) => ({ name: m.name, label: m.label, kinds: every })),
    ...Object.entries(CONTEXT_SETTINGS).map(([name, s]) => ({ name, label: s.label, kinds: ["hicupid"] as DatasetKind[] })),
  ];
}

/**
 * Methods named on a command line, an external method given its registered label (so results and tables
 * name it by that label) unless the config gives it one.
 */
export function withRegisteredLabels(db: Db, methods: unknown[]): unknown[] {
  const labels = new Map(listExternalMethods(db).map((m) => [m.name, m.label]));
  return methods.map((m) => {
    if (!m || typeof m !== "object" || typeof (m as { name?: unknown }).name !== "string") return m;
    const spec = m as { name: string; label?: string };
    const label = labels.get(spec.name);
    return spec.label || !label || label === spec.name ? m : { ...spec, label };
  });
}

/** A config whose external methods (and reference) are named by their registered labels (see withRegisteredLabels). */
export function withRegisteredLabelsIn<C>(db: Db, config: C): C {
  const c = config as { methods?: unknown; reference?: unknown } | null;
  if (!c || typeof c !== "object" || !Array.isArray(c.methods)) return config;
  const methods = withRegisteredLabels(db, c.methods);
  const ref =
    typeof c.reference === "string" ? (withRegisteredLabels(db, [{ name: c.reference }])[0] as { label?: string }).label : undefined;
  return { ...c, methods, ...(ref ? { reference: ref } : {}) } as C;
}
