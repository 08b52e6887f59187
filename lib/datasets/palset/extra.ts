/**
 * Unknown keys and key order, so that export writes the published JSON again exactly.
 *
 * A record's `extra` holds the keys the schema does not model, under their own names. Our own
 * bookkeeping uses names with a single leading `$`: `$keys` (the original key order, only when it
 * is not "known keys in canonical order, then unknown keys") and `$<field>` for the extra of a
 * nested object (e.g. a turn's `$user`). An unknown key that itself starts with `$` is stored with
 * one more `$` so the two never collide.
 */
export type Extra = Record<string, unknown>;

const ORDER = "$keys";

function escapeKey(k: string): string {
  return k.charCodeAt(0) === 36 /* $ */ ? `$${k}` : k;
}
function unescapeKey(k: string): string | null {
  if (k.charCodeAt(0) !== 36) return k;
  return k.charCodeAt(1) === 36 ? k.slice(1) : null; // null: our own bookkeeping key
}

/** The extra of `obj` given its modelled keys (in canonical order), or null when there is nothing to keep. */
export function extraOf(obj: Record<string, unknown>, known: readonly string[]): Extra | null {
  let extra: Extra | null = null;
  let i = 0;
  let canonical = true;
  let sawUnknown = false;
  for (const k in obj) {
    if (known.includes(k)) {
      // A known key after an unknown one, or out of canonical order: record the order.
      if (sawUnknown || k !== known[i]) canonical = false;
      i++;
    } else {
      sawUnknown = true;
      (extra ??= {})[escapeKey(k)] = obj[k];
    }
  }
  if (i !== known.length) canonical = false; // a modelled key is absent (optional ones)
  if (!canonical) (extra ??= {})[ORDER] = Object.keys(obj);
  return extra;
}

/** Adds a nested object's extra under `$name` (when there is one). */
export function withNested(extra: Extra | null, name: string, nested: Extra | null): Extra | null {
  if (!nested) return extra;
  (extra ??= {})[`$${name}`] = nested;
  return extra;
}

export function nestedExtra(extra: Extra | null | undefined, name: string): Extra | null {
  return (extra?.[`$${name}`] as Extra | undefined) ?? null;
}

/** Rebuilds the original object from its modelled fields (canonical order) and its extra. */
export function restore(known: Record<string, unknown>, extra: Extra | null | undefined): Record<string, unknown> {
  if (!extra) return known;
  const out: Record<string, unknown> = {};
  const order = extra[ORDER] as string[] | undefined;
  if (order) {
    for (const k of order) out[k] = k in known ? known[k] : extra[escapeKey(k)];
    return out;
  }
  for (const k in known) out[k] = known[k];
  for (const k in extra) {
    const name = unescapeKey(k);
    if (name !== null) out[name] = extra[k];
  }
  return out;
}
