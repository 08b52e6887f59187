/**
 * The methods an experiment may name: the assistant registry's methods (lib/assistants) and HiCUPID's
 * context settings (lib/tasks/hicupid). One list for the config check and for the browser's choices.
 */
import { ASSISTANTS } from "@/lib/assistants/registry";
import { parseOptions } from "@/lib/assistants/core/context";
import { InvalidInputError } from "@/lib/errors";
import { CONTEXT_SETTINGS, isContextSetting } from "@/lib/tasks/hicupid/settings";
import type { MethodCheck } from "./create";

/** The methods experiments accept: the registry's methods and HiCUPID's context settings, with valid options. */
export function knownMethod(): MethodCheck {
  return (m, where) => {
    if (isContextSetting(m.name)) {
      const r = CONTEXT_SETTINGS[m.name].options.safeParse(m.options ?? {});
      if (!r.success)
        throw new InvalidInputError(`${where}.options.${r.error.issues[0].path.join(".") || "(root)"}: ${r.error.issues[0].message}`);
      return;
    }
    const a = ASSISTANTS.find((x) => x.id === m.name);
    if (!a) {
      const all = [...ASSISTANTS.map((x) => x.id), ...Object.keys(CONTEXT_SETTINGS)];
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

/** The methods a user may pick in the browser, with their display names and the data set kinds they apply to. */
export function methodChoices(): Array<{ name: string; label: string; kinds: Array<"palset" | "hicupid"> }> {
  return [
    ...ASSISTANTS.map((a) => ({ name: a.id, label: a.label, kinds: ["palset", "hicupid"] as Array<"palset" | "hicupid"> })),
    ...Object.entries(CONTEXT_SETTINGS).map(([name, s]) => ({ name, label: s.label, kinds: ["hicupid"] as Array<"palset" | "hicupid"> })),
  ];
}
