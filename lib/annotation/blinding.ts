/**
 * Blinding checks for the campaign form. Annotators see the campaign's name and guidelines, so a
 * system named there tells them which side is which; the form warns before the campaign exists.
 * Pure functions: the browser runs them on the form's live values.
 */

/** The system names of a pairwise JSONL upload (`a.system`, `b.system` of every parsable line). */
export function systemsInJsonl(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      for (const side of ["a", "b"]) {
        const s = (o?.[side] as Record<string, unknown> | undefined)?.system;
        if (typeof s === "string" && s.trim()) out.add(s.trim());
      }
    } catch {
      // A malformed line is reported by the server's validation; here it only has no names to offer.
    }
  }
  return [...out];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Which systems `texts` name: a case-insensitive whole-word match, so "rag" is found in "RAG baseline"
 * but not in "storage". `texts` is [campaign name, guidelines]; `where` says which of them.
 */
export function systemsNamedIn(systems: readonly string[], texts: readonly [string, string]): Array<{ system: string; where: string }> {
  const where = ["campaign name", "guidelines"];
  const out: Array<{ system: string; where: string }> = [];
  for (const system of new Set(systems.map((s) => s.trim()).filter((s) => s.length >= 2))) {
    const re = new RegExp(`(^|[^\\p{L}\\p{N}_])${escape(system)}($|[^\\p{L}\\p{N}_])`, "iu");
    texts.forEach((t, i) => {
      if (re.test(t)) out.push({ system, where: where[i] });
    });
  }
  return out;
}
