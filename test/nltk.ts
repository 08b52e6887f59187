/**
 * NLTK's PorterStemmer as a test reference, where a Python with NLTK is installed (Debian: apt-get install
 * python3-nltk, which lands in /usr/bin/python3 even when another python3 is first on the PATH). Tests that
 * compare with it skip when none is found; the pinned stems of lib/metrics/porter-nltk.test.ts run always.
 */
import { spawnSync } from "node:child_process";

const CANDIDATES = ["python3", "/usr/bin/python3"];

let found: string | null | undefined;

/** The first Python that imports nltk, or null. */
export function nltkPython(): string | null {
  if (found !== undefined) return found;
  found = CANDIDATES.find((py) => spawnSync(py, ["-c", "import nltk.stem.porter"], { timeout: 30_000 }).status === 0) ?? null;
  return found;
}

const SCRIPT = [
  "import json, sys, nltk",
  "from nltk.stem import PorterStemmer",
  "p = PorterStemmer()",
  "words = json.load(sys.stdin)",
  "json.dump({'version': nltk.__version__, 'mode': p.mode, 'stems': {w: p.stem(w) for w in words}}, sys.stdout)",
].join("\n");

/** Each word's stem by NLTK's PorterStemmer in its default mode, with the NLTK version and mode. */
export function nltkStems(words: readonly string[]): { version: string; mode: string; stems: Record<string, string> } {
  const py = nltkPython();
  if (!py) throw new Error("no Python with nltk");
  const r = spawnSync(py, ["-c", SCRIPT], { input: JSON.stringify(words), encoding: "utf8", timeout: 120_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`nltk reference failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
