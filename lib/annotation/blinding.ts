/**
 * Blinding checks. Annotators see the campaign's annotator title and its guidelines (never the researchers'
 * name for it), so a system named there tells them which side is which: the form warns on its live values, and
 * createCampaign refuses such a campaign unless the creator overrides it, which the agreement report then states.
 * Pure functions: the browser runs them too.
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
 * but not in "storage". `texts` is [the title annotators see, guidelines]; `where` says which of them.
 */
export function systemsNamedIn(systems: readonly string[], texts: readonly [string, string]): Array<{ system: string; where: string }> {
  const where = ["title shown to annotators", "guidelines"];
  const out: Array<{ system: string; where: string }> = [];
  for (const system of new Set(systems.map((s) => s.trim()).filter((s) => s.length >= 2))) {
    const re = new RegExp(`(^|[^\\p{L}\\p{N}_])${escape(system)}($|[^\\p{L}\\p{N}_])`, "iu");
    texts.forEach((t, i) => {
      if (re.test(t)) out.push({ system, where: where[i] });
    });
  }
  return out;
}

/** The title an annotator sees: the campaign's own title for them, else the kind's neutral one (never the researchers' name). */
export function annotatorTitleOf(c: { annotatorTitle: string | null; kind: string }, kindTitle: string): string {
  return c.annotatorTitle?.trim() || kindTitle;
}

/** What a blinding override says, for the agreement warning and exports: "the guidelines name “h2memory”". */
export function describeNamed(named: ReadonlyArray<{ system: string; where: string }>): string {
  return named.map((n) => `the ${n.where} name${n.where === "guidelines" ? "" : "s"} “${n.system}”`).join(" and ");
}
