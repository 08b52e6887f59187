/**
 * Where the shipped fixtures are (one tree, fixtures/ at the project root; fixtures/README.md says
 * what each holds). Shared by vitest tests, the e2e setup and benchmarks.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const FIXTURES_DIR = path.join(ROOT, "fixtures");

/** The demo PAL-Set (3 users per language, with profile files): what `pal demo` loads. */
export const PALSET_EN = path.join(FIXTURES_DIR, "palset/en");
export const PALSET_ZH = path.join(FIXTURES_DIR, "palset/zh");
/** A compact PAL-Set (2 users per language) whose exact contents the importer's unit tests assert. */
export const PALSET_MINI_EN = path.join(FIXTURES_DIR, "palset/mini/en");
export const PALSET_MINI_ZH = path.join(FIXTURES_DIR, "palset/mini/zh");

/** The HiCUPID demo set in the Hugging Face parquet layout and as JSONL (the same rows). */
export const FIXTURE_HF = path.join(FIXTURES_DIR, "hicupid/hf");
export const FIXTURE_JSONL = path.join(FIXTURES_DIR, "hicupid/jsonl");
/** What fixtures/hicupid holds (scripts/make-hicupid-fixture.ts prints the same). */
export const FIXTURE_STATS = { users: 3, dialogues: 30, turns: 66, qa: 15 };

/** LoCoMo-format demo conversations (list form, and one per-conversation file). */
export const LOCOMO_DEMO = path.join(FIXTURES_DIR, "locomo/locomo-demo.json");
export const LOCOMO_CONV2 = path.join(FIXTURES_DIR, "locomo/conv-demo-2.json");
/** A LongMemEval-format demo file (five questions, sessions shared across haystacks). */
export const LONGMEMEVAL_DEMO = path.join(FIXTURES_DIR, "longmemeval/longmemeval-demo.json");
/** Four questions in the shape of the cleaned release (longmemeval_s_cleaned.json), our own text. */
export const LONGMEMEVAL_CLEANED_DEMO = path.join(FIXTURES_DIR, "longmemeval/cleaned-demo.json");
