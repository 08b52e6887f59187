/**
 * A bound on JSON nesting. Nothing this app stores needs more than a few levels (a dialogue is a list
 * of objects; metadata and judge judgments a couple more), while a value nested thousands of levels
 * deep breaks whatever walks it recursively: JSON.stringify throws past a few thousand levels (a 500),
 * React's renderer exhausts the tab's stack. So uploads and imports refuse anything nested deeper than
 * MAX_JSON_DEPTH, naming the file, the line and the field, and items are checked again before they
 * are stored. Both checks are iterative: they cannot themselves run out of stack.
 */

/** The deepest nesting of objects and arrays accepted (`{"a": [1]}` is 2 levels). */
export const MAX_JSON_DEPTH = 64;

export interface TooDeep {
  /** 1-based line and column (of the text checked) where the level past the limit opens; 0 for a parsed value. */
  line: number;
  column: number;
  /** The field that holds it, e.g. `user_info.profile[0].a.a…a` (shortened in the middle). */
  field: string;
}

type Frame = { array: boolean; key: string; index: number };

/** `a.b[2].c`, with the middle dropped when long: the start and the end say where it is. */
function pathText(parts: Array<string | number>): string {
  const seg = (p: string | number, i: number) =>
    typeof p === "number" ? `[${p}]` : /^[\w$-]+$/.test(p) ? `${i ? "." : ""}${p}` : `[${JSON.stringify(p.slice(0, 40))}]`;
  const out = parts.map(seg);
  if (out.length <= 8) return out.join("") || "(top level)";
  return `${out.slice(0, 4).join("")}…${out.slice(-3).join("").replace(/^\./, "")}`;
}

/** The field path to the container opened at `at`: re-scans the text up to there, tracking keys and indexes. */
function fieldAt(text: string, at: number): string {
  const stack: Frame[] = [];
  let expectKey = false;
  let lastString = "";
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
      if (expectKey) {
        try {
          lastString = JSON.parse(text.slice(start, i + 1));
        } catch {
          lastString = text.slice(start + 1, i);
        }
      }
    } else if (c === 123 || c === 91) {
      stack.push({ array: c === 91, key: "", index: 0 });
      expectKey = c === 123;
    } else if (c === 125 || c === 93) {
      stack.pop();
      expectKey = false;
    } else if (c === 58) {
      const top = stack[stack.length - 1];
      if (top && !top.array) top.key = lastString;
      expectKey = false;
    } else if (c === 44) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else expectKey = true;
    }
  }
  return pathText(stack.map((f) => (f.array ? f.index : f.key)));
}

/**
 * Checks a JSON text (or one JSONL line) before it is parsed: null when it nests at most `max`
 * levels, else where the first level past it opens. Only bracket characters outside strings count.
 */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): TooDeep | null {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) {
        let line = 1;
        let lineStart = 0;
        for (let j = text.indexOf("\n"); j !== -1 && j < i; j = text.indexOf("\n", j + 1)) {
          line++;
          lineStart = j + 1;
        }
        return { line, column: i - lineStart + 1, field: fieldAt(text, i) };
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return null;
}

/** The same for a value already parsed (or built): null when it nests at most `max` levels. */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): TooDeep | null {
  const stack: Array<{ v: unknown; depth: number; path: Array<string | number> }> = [{ v: value, depth: 0, path: [] }];
  while (stack.length) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > max) return { line: 0, column: 0, field: pathText(path) };
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) if (typeof x === "object" && x !== null) stack.push({ v: x, depth: depth + 1, path: [...path, k] });
  }
  return null;
}

/** The one wording of the refusal: `<where>: field "<path>": nested deeper than 64 levels`. */
export function tooDeepMessage(where: string, t: TooDeep, max = MAX_JSON_DEPTH): string {
  return `${where}: field "${t.field}": nested deeper than ${max} levels (the most a value may nest)`;
}
