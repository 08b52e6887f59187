/**
 * How overrides combine with a preset (presets.ts applyPreset): objects merge key by key at every depth,
 * so `{"models": {"judge": {"temperature": 0.2}}}` changes that one field; any other value (arrays
 * included: tasks, users, splits) replaces the preset's. Methods merge by key (label, else name): a
 * method the preset has keeps its options, and the override's options merge into them.
 */
import { methodKey } from "./config";

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** `over` merged into `base`: objects key by key, everything else replaced; undefined in `over` changes nothing. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return structuredClone(base);
  if (!isObject(base) || !isObject(over)) return structuredClone(over);
  const out: Obj = structuredClone(base);
  for (const [k, v] of Object.entries(over)) if (v !== undefined) out[k] = deepMerge(base[k], v);
  return out;
}

type Spec = { name: string; label?: string; options?: Obj };
const isSpec = (v: unknown): v is Spec => isObject(v) && typeof v.name === "string";

/**
 * One method of the overrides, completed from the preset's method with the same key. `{name: "h2memory"}`
 * takes the preset's H2Memory with its options; `{name: "0-shot"}` names the preset's method labelled
 * 0-shot (full-history, 0 shots). A method the preset lacks (or a malformed one, for the parser to
 * name) is taken as it is.
 */
export function mergeMethod(presetMethods: readonly unknown[], m: unknown): unknown {
  if (!isSpec(m)) return m;
  const key = methodKey(m);
  const p = presetMethods.find((x) => isSpec(x) && methodKey(x) === key) as Spec | undefined;
  if (!p) return m;
  const merged = deepMerge(p, m) as Spec;
  // Named by the preset's label: the method is the preset's (its name and label), not a method called "0-shot".
  if (m.label === undefined && p.label !== undefined) return { ...merged, name: p.name, label: p.label };
  return merged;
}

/**
 * A bare method name (no label, no options) that is no key of the preset but names several of its
 * methods stands for all of them: `rag-utterance` under HiCUPID's preset is its BM25 and its dense row
 * (bm25-k5, dense-k5), each with the preset's options, not a third row with the project's defaults.
 */
function expandMethod(presetMethods: readonly unknown[], m: unknown): unknown[] {
  if (!isSpec(m) || m.label !== undefined || m.options !== undefined) return [mergeMethod(presetMethods, m)];
  if (presetMethods.some((x) => isSpec(x) && methodKey(x) === m.name)) return [mergeMethod(presetMethods, m)];
  const same = presetMethods.filter((x): x is Spec => isSpec(x) && x.name === m.name);
  return same.length ? same.map((x) => structuredClone(x)) : [m];
}

/**
 * A preset's config with the overrides merged in. When the overrides pick methods without naming a
 * reference, and the preset's reference is not among them, the reference is left to the default rule
 * (config.ts referenceMethod) rather than refused.
 */
export function mergeIntoPreset(preset: Obj, overrides: Obj): Obj {
  const { methods, ...rest } = overrides;
  const out = deepMerge(preset, rest) as Obj;
  if (methods === undefined) return out;
  const base = Array.isArray(preset.methods) ? preset.methods : [];
  out.methods = Array.isArray(methods) ? methods.flatMap((m) => expandMethod(base, m)) : methods;
  if (rest.reference === undefined && Array.isArray(out.methods)) {
    const keys = out.methods.filter(isSpec).map(methodKey);
    if (!keys.includes(String(out.reference))) delete out.reference;
  }
  return out;
}
