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

/** The methods a user may pick in the browser, with the data set kinds they apply to. */
export function methodChoices(): Array<{ name: string; kinds: Array<"palset" | "hicupid"> }> {
  return [
    ...ASSISTANTS.map((a) => ({ name: a.id, kinds: ["palset", "hicupid"] as Array<"palset" | "hicupid"> })),
    ...Object.keys(CONTEXT_SETTINGS).map((name) => ({ name, kinds: ["hicupid"] as Array<"palset" | "hicupid"> })),
  ];
}
