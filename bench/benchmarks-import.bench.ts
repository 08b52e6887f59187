/**
 * `npm run bench benchmarks-import`: `pal import locomo` and `pal import longmemeval` (whole CLI processes) on
 * generated files of the public shapes against a process that only reads and JSON.parses the same file, with
 * peak RSS and database size. Target: within 4x of parse-only; LongMemEval's haystack sessions stored once.
 *
 * Shapes (generated text, nothing of the data sets): LoCoMo's ten conversations (~27 sessions of ~22 turns,
 * ~200 QA each, 1,986 QA in all); LongMemEval S (500 questions, ~50 haystack sessions each of ~10 turns,
 * ~265 MB: fillers drawn from a shared pool, as the real haystacks share sessions) and an M-shaped file
 * (~500 sessions per question; 200 questions at scale 1, about 1 GB: the importer streams the file).
 * PAL_BENCH_SCALE (default 0.2) scales the LongMemEval question counts: 1 is the real size (needs ~3 GB of
 * memory free); PAL_BENCH_RUNS (default 1) repeats each measurement, the median counts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { envNumber } from "@/lib/config";
import { mulberry32 } from "@/lib/random";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const RSS_HOOK = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("maxrss_kb "+u.maxRSS+"\\n")})`;

type Run = { ms: number; rssKb: number | null; status: number | null; stderr: string };
function run(args: string[], env: Record<string, string> = {}): Run {
  const t = performance.now();
  const r = spawnSync(process.execPath, ["--max-old-space-size=6144", "--import", RSS_HOOK, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const m = /maxrss_kb (\d+)/.exec(r.stderr);
  return { ms: performance.now() - t, rssKb: m ? Number(m[1]) : null, status: r.status, stderr: r.stderr };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const WORDS =
  "the a trip dog garden recipe budget meeting music weekend sister class river paint coffee book city train movie friend job plan idea".split(
    " ",
  );
function textOf(rand: () => number, chars: number): string {
  let s = "";
  while (s.length < chars) s += WORDS[Math.floor(rand() * WORDS.length)] + " ";
  return s.trim();
}

export function writeLocomo(file: string): number {
  const rand = mulberry32(1);
  const convs = Array.from({ length: 10 }, (_, c) => {
    const conversation: Record<string, unknown> = { speaker_a: `A${c}`, speaker_b: `B${c}` };
    for (let n = 1; n <= 27; n++) {
      conversation[`session_${n}_date_time`] = `1:${10 + (n % 50)} pm on ${1 + (n % 28)} May, 2023`;
      conversation[`session_${n}`] = Array.from({ length: 22 }, (_, i) => ({
        speaker: i % 2 ? `B${c}` : `A${c}`,
        dia_id: `D${n}:${i + 1}`,
        text: textOf(rand, 120),
      }));
    }
    const qa = Array.from({ length: c < 6 ? 199 : 198 }, (_, i) => {
      const category = 1 + (i % 5);
      const base = { question: textOf(rand, 60) + "?", evidence: [`D${1 + (i % 27)}:${1 + (i % 22)}`], category };
      return category === 5 ? { ...base, adversarial_answer: textOf(rand, 20) } : { ...base, answer: textOf(rand, 20) };
    });
    return { sample_id: `conv-${c}`, conversation, qa, session_summary: { session_1_summary: textOf(rand, 300) } };
  });
  fs.writeFileSync(file, JSON.stringify(convs));
  return qa(convs);
}
const qa = (convs: Array<{ qa: unknown[] }>) => convs.reduce((n, c) => n + c.qa.length, 0);

/** A LongMemEval-shaped file streamed to disk (one question at a time), sessions drawn from a shared pool. */
export function writeLongMemEval(file: string, questions: number, perQuestion: number, pool: number, turnChars: number): { distinct: number } {
  const rand = mulberry32(2);
  const session = (id: string, answer: boolean) =>
    Array.from({ length: 10 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: textOf(mulberry32(id.length * 7919 + id.charCodeAt(id.length - 1) * 31 + i), turnChars),
      ...(answer && i % 2 === 0 ? { has_answer: i === 0 } : {}),
    }));
  const poolSessions = new Map<number, ReturnType<typeof session>>();
  const fillerOf = (j: number) => {
    let s = poolSessions.get(j);
    if (!s) poolSessions.set(j, (s = session(`filler_${j}`, false)));
    return s;
  };
  const used = new Set<number>();
  const fd = fs.openSync(file, "w");
  fs.writeSync(fd, "[");
  for (let q = 0; q < questions; q++) {
    const ids: string[] = [];
    const sessions: unknown[] = [];
    for (let k = 0; k < perQuestion; k++) {
      if (k === Math.floor(perQuestion / 2)) {
        ids.push(`answer_${q}_1`);
        sessions.push(session(`answer_${q}_1`, true));
        continue;
      }
      const j = Math.floor(rand() * pool);
      used.add(j);
      ids.push(`filler_${j}`);
      sessions.push(fillerOf(j));
    }
    const dates = ids.map(
      (_, k) =>
        `2023/${String(1 + (Math.floor(k / 28) % 12)).padStart(2, "0")}/${String(1 + (k % 28)).padStart(2, "0")} (Mon) 10:${String(k % 60).padStart(2, "0")}`,
    );
    const entry = {
      question_id: `q${q}${q % 17 === 0 ? "_abs" : ""}`,
      question_type: "single-session-user",
      question: textOf(rand, 60) + "?",
      answer: textOf(rand, 20),
      question_date: "2024/01/01 (Mon) 10:00",
      haystack_session_ids: ids,
      haystack_dates: dates,
      haystack_sessions: sessions,
      answer_session_ids: [`answer_${q}_1`],
    };
    fs.writeSync(fd, (q ? "," : "") + JSON.stringify(entry));
  }
  fs.writeSync(fd, "]");
  fs.closeSync(fd);
  return { distinct: used.size + questions };
}

function measure(label: string, kind: string, file: string, dir: string, runs: number, expect: Record<string, number>) {
  const mb = fs.statSync(file).size / 1e6;
  const parse: Run[] = [];
  const cli: Run[] = [];
  let dbMb = 0;
  let stats: Record<string, number> = {};
  for (let i = 0; i < runs; i++) {
    parse.push(run(["-e", `JSON.parse(require("fs").readFileSync(${JSON.stringify(file)}, "utf8"))`]));
    const db = path.join(dir, `bench-${kind}-${i}.db`);
    const r = run([path.join(root, "bin/pal.mjs"), "import", kind, file, "--name", "bench", "--json"], { PAL_DB: db });
    if (r.status !== 0)
      throw new Error(`pal import ${kind} failed (exit ${r.status}): ${r.stderr.split("\n").filter(Boolean).slice(-3).join(" | ")}`);
    cli.push(r);
    stats = JSON.parse(
      spawnSync(process.execPath, [path.join(root, "bin/pal.mjs"), "stats", "--dataset", "bench", "--json"], {
        cwd: root,
        env: { ...process.env, PAL_DB: db },
        encoding: "utf8",
      }).stdout,
    );
    dbMb =
      fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(`bench-${kind}-${i}.db`))
        .reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0) / 1e6;
    for (const f of fs.readdirSync(dir)) if (f.startsWith(`bench-${kind}-${i}.db`)) fs.rmSync(path.join(dir, f));
  }
  const base = median(parse.map((r) => r.ms));
  const whole = median(cli.map((r) => r.ms));
  const ratio = whole / base;
  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`${label}: ${mb.toFixed(1)} MB file`);
  console.log(`  parse only: ${fmt(base)}, peak RSS ${(median(parse.map((r) => r.rssKb ?? 0)) / 1024).toFixed(0)} MiB`);
  console.log(
    `  pal import ${kind}: ${fmt(whole)}, peak RSS ${(Math.max(...cli.map((r) => r.rssKb ?? 0)) / 1024).toFixed(0)} MiB, database ${dbMb.toFixed(1)} MB`,
  );
  console.log(`  ratio: ${ratio.toFixed(2)}x (target ≤ 4x) ${ratio <= 4 ? "ok" : "OVER"}`);
  console.log(`  stored: ${JSON.stringify(stats)}`);
  for (const [k, v] of Object.entries(expect)) if (stats[k] !== v) console.log(`  MISMATCH ${k}: stored ${stats[k]}, generated ${v}`);
}

export default async function bench(): Promise<void> {
  const scale = envNumber("PAL_BENCH_SCALE", 0.2);
  const runs = envNumber("PAL_BENCH_RUNS", 1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-cm-"));
  try {
    const loc = path.join(dir, "locomo10.json");
    const n = writeLocomo(loc);
    measure("LoCoMo (10 conversations × 27 sessions × 22 turns)", "locomo", loc, dir, runs, { qa: n, conversations: 10 });
    fs.rmSync(loc);

    const sQ = Math.max(1, Math.round(500 * scale));
    const s = path.join(dir, "longmemeval_s.json");
    const sd = writeLongMemEval(s, sQ, 50, 4000, 1000);
    measure(`LongMemEval S shape (${sQ} questions × 50 sessions)`, "longmemeval", s, dir, runs, {
      questions: sQ,
      sessions: sd.distinct,
      sessionRefs: sQ * 50,
    });
    fs.rmSync(s);

    // M: ~500 sessions per question (the real file, 500 questions, is ~2.7 GB); the sessions stored once is what M tests.
    const mQ = Math.max(1, Math.round(200 * scale));
    const m = path.join(dir, "longmemeval_m.json");
    const md = writeLongMemEval(m, mQ, 500, 20000, 1000);
    measure(`LongMemEval M shape (${mQ} questions × 500 sessions)`, "longmemeval", m, dir, runs, {
      questions: mQ,
      sessions: md.distinct,
      sessionRefs: mQ * 500,
    });
    fs.rmSync(m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
