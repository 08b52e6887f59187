/**
 * LoCoMo's public release (snap-research/locomo data/locomo10.zip: locomo10.json, a list of ten
 * conversations; a per-conversation file holds one). Per sample: `sample_id`; `conversation` with
 * `speaker_a`, `speaker_b`, `session_<N>_date_time` and `session_<N>` turns (`speaker`, `dia_id`, `text`,
 * optional `img_url`, `blip_caption`, `query`); `qa` items (`question`, `answer` or for category 5
 * `adversarial_answer`, `evidence` dialogue ids, `category` 1-5); and, when present, `event_summary`,
 * `observation`, `session_summary` (kept in the thread's extra, never shown to methods).
 * Empty sessions are skipped, as the public evaluation code skips them.
 */
import fs from "node:fs";
import path from "node:path";
import { DatasetError, type QualityWarning } from "../types";
import { Checker, readJsonFile } from "../convmem/check";
import { SessionPool } from "../convmem/dedupe";
import type { ConvData, QaIn, ThreadIn, TurnIn } from "../convmem/types";

const TURN_KEYS = new Set(["speaker", "dia_id", "text"]);
const SAMPLE_EXTRA = ["event_summary", "observation", "session_summary"];

export type LocomoRead = ConvData & { warnings: QualityWarning[] };

/**
 * The most all files of one LoCoMo import may hold (locomo10.json is 2.8 MB). The files are parsed whole
 * and every conversation is held until the write: a file of a million tiny conversations costs ~8x its
 * size in memory (226 MB took 1.8 GB RSS), so the 600 MB a single parse allows could exhaust the app's heap.
 */
export const MAX_LOCOMO_BYTES = 100 * 1024 * 1024;

export function readLocomo(files: string[], maxBytes = MAX_LOCOMO_BYTES): LocomoRead {
  const sizes = files.map((f) => (fs.existsSync(f) ? fs.statSync(f).size : 0));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total > maxBytes) {
    const names = files.map((f) => path.basename(f));
    throw new DatasetError(
      `${names.slice(0, 3).join(", ")}${names.length > 3 ? ", …" : ""}: ${(total / 2 ** 20).toFixed(0)} MB in all, over the ${(maxBytes / 2 ** 20).toFixed(0)} MB a LoCoMo import reads (locomo10.json is 3 MB)`,
    );
  }
  const pool = new SessionPool();
  const threads: ThreadIn[] = [];
  const qa: QaIn[] = [];
  const seen = new Set<string>();
  const empty: string[] = [];
  /** Evidence ids that name no turn of their conversation (the public file has a few): kept, and reported. */
  const dangling: string[] = [];
  for (const file of files) {
    const label = path.basename(file);
    const c = new Checker(label);
    const data = readJsonFile(file);
    const samples = Array.isArray(data) ? data : [data];
    samples.forEach((raw, i) => {
      const at = Array.isArray(data) ? `[${i}]` : "(root)";
      const s = c.object(raw, at);
      const id = c.key(s.sample_id, `${at}.sample_id`, true);
      if (seen.has(id)) c.fail(`${at}.sample_id`, `"${id}" appears twice`);
      seen.add(id);
      const conv = c.object(s.conversation, `${at}.conversation`);
      const a = c.key(conv.speaker_a, `${at}.conversation.speaker_a`);
      const b = c.key(conv.speaker_b, `${at}.conversation.speaker_b`);
      const numbers = Object.keys(conv)
        .map((k) => /^session_(\d+)$/.exec(k))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => {
          // "session_01" beside "session_1" would read session_1 twice (and never session_01).
          if (!/^[1-9]\d{0,5}$/.test(m[1]))
            c.fail(`${at}.conversation.${m[0].slice(0, 40)}`, "expected session_<N>, N from 1 without leading zeros");
          return Number(m[1]);
        })
        .sort((x, y) => x - y);
      const thread: ThreadIn = { key: id, speakerA: a, speakerB: b, timeline: [] };
      const diaIds = new Set<string>();
      for (const n of numbers) {
        const where = `${at}.conversation.session_${n}`;
        const turns = c.array(conv[`session_${n}`], where);
        if (!turns.length) {
          empty.push(`${label}: ${where}`);
          continue;
        }
        const date = c.key(conv[`session_${n}_date_time`], `${at}.conversation.session_${n}_date_time`);
        const parsed: TurnIn[] = turns.map((t, j) => {
          const o = c.object(t, `${where}[${j}]`);
          const speaker = c.string(o.speaker, `${where}[${j}].speaker`);
          if (speaker !== a && speaker !== b)
            c.fail(`${where}[${j}].speaker`, `"${speaker}" is neither speaker_a ("${a}") nor speaker_b ("${b}")`);
          const rest = Object.fromEntries(Object.entries(o).filter(([k]) => !TURN_KEYS.has(k)));
          return {
            speaker,
            text: c.string(o.text, `${where}[${j}].text`),
            diaId: c.key(o.dia_id, `${where}[${j}].dia_id`),
            extra: Object.keys(rest).length ? rest : null,
          };
        });
        for (const t of parsed) if (t.diaId) diaIds.add(t.diaId);
        thread.timeline.push({ session: pool.add(`${id}/session_${n}`, parsed), label: `session_${n}`, date });
      }
      if (!thread.timeline.length) c.fail(`${at}.conversation`, "has no session with turns");
      const extra = Object.fromEntries(SAMPLE_EXTRA.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
      thread.extra = Object.keys(extra).length ? extra : null;
      const threadIndex = threads.length;
      threads.push(thread);
      c.array(s.qa ?? [], `${at}.qa`).forEach((q, j) => {
        const w = `${at}.qa[${j}]`;
        const o = c.object(q, w);
        const category = o.category;
        if (typeof category !== "number" || !Number.isInteger(category) || category < 1 || category > 5)
          return c.fail(`${w}.category`, `expected an integer 1-5, got ${JSON.stringify(category)}`);
        const adversarial = o.adversarial_answer === undefined ? null : c.text(o.adversarial_answer, `${w}.adversarial_answer`);
        // Category 5 items carry adversarial_answer and usually no answer: the public scoring reads only the output.
        const answer = o.answer === undefined && category === 5 ? "" : c.text(o.answer, `${w}.answer`);
        const { question, answer: _a, evidence, category: _c, adversarial_answer: _d, ...rest } = o;
        const evidenceIds = evidence === undefined ? [] : c.keys(evidence, `${w}.evidence`);
        evidenceIds.forEach((e, k) => diaIds.has(e) || dangling.push(`${label}: ${w}.evidence[${k}]: ${JSON.stringify(e.slice(0, 40))}`));
        qa.push({
          thread: threadIndex,
          itemKey: `${id}#${j}`,
          question: c.string(question, `${w}.question`),
          answer,
          category,
          evidence: evidenceIds,
          adversarialAnswer: adversarial,
          extra: Object.keys(rest).length ? rest : null,
        });
      });
    });
  }
  if (!threads.length)
    throw new Checker(files.map((f) => path.basename(f)).join(", ") || "(no files)").fail("(root)", "no conversation found");
  const warnings: QualityWarning[] = [];
  if (empty.length)
    warnings.push({
      code: "empty-session",
      message: "sessions without turns (skipped, as the public evaluation skips them)",
      count: empty.length,
      examples: empty.slice(0, 5),
    });
  if (dangling.length)
    warnings.push({
      code: "evidence-missing-turn",
      message: "QA evidence ids that name no turn of the conversation (kept as written; no retrieval can find them)",
      count: dangling.length,
      examples: dangling.slice(0, 5),
    });
  return { threads, sessions: pool.sessions, qa, warnings };
}
