/**
 * `npm run bench benchmarks-import`: `pal import locomo` and `pal import longmemeval` (whole CLI processes) on
 * generated files of the public shapes against processes that only read and JSON.parse the same file, with
 * peak RSS and database size. Target: within 4x of parse-only; LongMemEval's haystack sessions stored once.
 *
 * Shapes (generated text, nothing of the data sets): LoCoMo's ten conversations (~27 sessions of ~22 turns,
 * ~200 QA each, 1,986 QA in all; ~2.6 MB with observations and summaries, as the ten files of snap-research/locomo
 * data/locomo10.zip at e76cdff come to); LongMemEval S (500 questions, ~50 haystack sessions each of ~10 turns,
 * ~265 MB: fillers drawn from a shared pool, as the real haystacks share sessions) and an M-shaped file
 * (~500 sessions per question; 200 questions at scale 1, about 1 GB: the importer streams the file).
 * PAL_BENCH_SCALE (default 0.2) scales the LongMemEval question counts: 1 is the real size (needs ~3 GB of
 * memory free; 2.5 gives M the real file's 500 questions, ~2.5 GB); PAL_BENCH_RUNS (default 1) repeats each
 * measurement, the median counts; PAL_BENCH_SHAPES (default "locomo,s,m") picks the shapes.
 *
 * Baselines, both measured in the same run: "whole file" reads the file into one string and JSON.parses it
 * (impossible over V8's ~512 MB string limit, so skipped for an M file at scale 1), "streamed" reads it in
 * chunks and JSON.parses one top-level element at a time with the importer's own splitter (what any importer
 * of a file that does not fit in a string must do). The ratio is against the faster of the two that ran.
 * The import runs on a database already migrated, with the CLI bundle already built (one untimed
 * `pal stats` first): migrating a new database file is a one-time cost, not the import's.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { buildSync } from "esbuild";
import { envNumber } from "@/lib/config";
import { mulberry32 } from "@/lib/random";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const RSS_HOOK = `data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("maxrss_kb "+u.maxRSS+" cpu_us "+(u.userCPUTime+u.systemCPUTime)+"\\n")})`;

/** Wall time, and the CPU time (user + system) the process used: on a shared machine the wall time is noisy. */
type Run = { ms: number; cpuMs: number | null; rssKb: number | null; status: number | null; stderr: string };
function run(args: string[], env: Record<string, string> = {}): Run {
  const t = performance.now();
  const r = spawnSync(process.execPath, ["--max-old-space-size=6144", "--import", RSS_HOOK, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const m = /maxrss_kb (\d+) cpu_us (\d+)/.exec(r.stderr);
  return {
    ms: performance.now() - t,
    cpuMs: m ? Number(m[2]) / 1000 : null,
    rssKb: m ? Number(m[1]) : null,
    status: r.status,
    stderr: r.stderr,
  };
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
    // The release's per-sample extras (kept in the thread's extra): observations per speaker with their
    // dialogue ids, event summaries and session summaries, sized so the ten come to ~2.6 MB as the release's do.
    const observation: Record<string, unknown> = {};
    const eventSummary: Record<string, unknown> = {};
    const sessionSummary: Record<string, string> = {};
    for (let n = 1; n <= 27; n++) {
      const facts = (who: string) => Array.from({ length: 8 }, (_, k) => [`${who} ${textOf(rand, 170)}`, `D${n}:${1 + 2 * k}`]);
      observation[`session_${n}_observation`] = { [`A${c}`]: facts(`A${c}`), [`B${c}`]: facts(`B${c}`) };
      eventSummary[`events_session_${n}`] = {
        [`A${c}`]: [textOf(rand, 250)],
        [`B${c}`]: [textOf(rand, 250)],
        date: `${1 + (n % 28)} May, 2023`,
      };
      sessionSummary[`session_${n}_summary`] = textOf(rand, 1200);
    }
    return { sample_id: `conv-${c}`, conversation, qa, observation, event_summary: eventSummary, session_summary: sessionSummary };
  });
  fs.writeFileSync(file, JSON.stringify(convs));
  return qa(convs);
}
const qa = (convs: Array<{ qa: unknown[] }>) => convs.reduce((n, c) => n + c.qa.length, 0);

/** A turn of about `chars` characters (half to one and a half times: real turns vary, and so does how they fill pages). */
const turnText = (rand: () => number, chars: number) => textOf(rand, Math.round(chars * (0.5 + rand())));

/** A LongMemEval-shaped file streamed to disk (one question at a time), sessions drawn from a shared pool. */
export function writeLongMemEval(
  file: string,
  questions: number,
  perQuestion: number,
  pool: number,
  turnChars: number,
): { distinct: number } {
  const rand = mulberry32(2);
  const session = (id: string, answer: boolean) =>
    Array.from({ length: 10 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: turnText(mulberry32(id.length * 7919 + id.charCodeAt(id.length - 1) * 31 + i), turnChars),
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

/** The streamed parse-only baseline: the importer's splitter bundled alone, every element JSON.parsed. */
function streamBaseline(dir: string): string {
  const entry = path.join(dir, "stream-parse.ts");
  const out = path.join(dir, "stream-parse.cjs");
  fs.writeFileSync(
    entry,
    `import { jsonArrayElements } from ${JSON.stringify(path.join(root, "lib/datasets/convmem/json-array-stream"))};\n` +
      `let n = 0;\nfor (const _ of jsonArrayElements(process.argv[2], "bench")) n++;\nif (!n) process.exit(2);\n`,
  );
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile: out,
    logLevel: "error",
    tsconfig: path.join(root, "tsconfig.json"),
  });
  return out;
}

/** V8's longest string: a file read into one string must be shorter. */
const MAX_STRING_BYTES = 0x1fffffe8;

function measure(label: string, kind: string, file: string, dir: string, runs: number, expect: Record<string, number>, stream: string) {
  const bytes = fs.statSync(file).size;
  const whole: Run[] = [];
  const streamed: Run[] = [];
  const cli: Run[] = [];
  let dbMb = 0;
  let stats: Record<string, number> = {};
  const ok = (r: Run, what: string) => {
    if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}): ${r.stderr.split("\n").filter(Boolean).slice(-3).join(" | ")}`);
    return r;
  };
  for (let i = 0; i < runs; i++) {
    if (bytes < MAX_STRING_BYTES)
      whole.push(ok(run(["-e", `JSON.parse(require("fs").readFileSync(${JSON.stringify(file)}, "utf8"))`]), "whole-file parse"));
    if (kind === "longmemeval") streamed.push(ok(run([stream, file]), "streamed parse"));
    const db = path.join(dir, `bench-${kind}-${i}.db`);
    const pal = (args: string[]) =>
      spawnSync(process.execPath, [path.join(root, "bin/pal.mjs"), ...args], {
        cwd: root,
        env: { ...process.env, PAL_DB: db },
        encoding: "utf8",
      });
    pal(["stats", "--dataset", "bench", "--json"]); // migrates the new file and builds the CLI bundle (untimed)
    cli.push(
      ok(run([path.join(root, "bin/pal.mjs"), "import", kind, file, "--name", "bench", "--json"], { PAL_DB: db }), `pal import ${kind}`),
    );
    stats = JSON.parse(pal(["stats", "--dataset", "bench", "--json"]).stdout);
    dbMb =
      fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(`bench-${kind}-${i}.db`))
        .reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0) / 1e6;
    for (const f of fs.readdirSync(dir)) if (f.startsWith(`bench-${kind}-${i}.db`)) fs.rmSync(path.join(dir, f));
  }
  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const cpu = (rs: Run[]) => median(rs.map((r) => r.cpuMs ?? 0));
  const mib = (rs: Run[]) => `${(Math.max(...rs.map((r) => r.rssKb ?? 0)) / 1024).toFixed(0)} MiB`;
  const baselines = [
    ["whole file", whole],
    ["streamed", streamed],
  ] as const;
  console.log(`${label}: ${(bytes / 1e6).toFixed(1)} MB file`);
  for (const [name, rs] of baselines) {
    if (rs.length) console.log(`  parse only (${name}): ${fmt(median(rs.map((r) => r.ms)))} (CPU ${fmt(cpu(rs))}), peak RSS ${mib(rs)}`);
    else if (name === "whole file") console.log("  parse only (whole file): not possible (the file is longer than V8's longest string)");
  }
  const base = Math.min(...baselines.filter(([, rs]) => rs.length).map(([, rs]) => median(rs.map((r) => r.ms))));
  const took = median(cli.map((r) => r.ms));
  const ratio = took / base;
  const baseCpu = Math.min(...baselines.filter(([, rs]) => rs.length).map(([, rs]) => cpu(rs)));
  console.log(`  pal import ${kind}: ${fmt(took)} (CPU ${fmt(cpu(cli))}), peak RSS ${mib(cli)}, database ${dbMb.toFixed(1)} MB`);
  console.log(
    `  ratio: ${ratio.toFixed(2)}x the faster parse-only (target ≤ 4x) ${ratio <= 4 ? "ok" : "OVER"}; CPU ${(cpu(cli) / baseCpu).toFixed(2)}x`,
  );
  console.log(`  stored: ${JSON.stringify(stats)}`);
  for (const [k, v] of Object.entries(expect)) if (stats[k] !== v) console.log(`  MISMATCH ${k}: stored ${stats[k]}, generated ${v}`);
}

export default async function bench(): Promise<void> {
  const scale = envNumber("PAL_BENCH_SCALE", 0.2);
  const runs = envNumber("PAL_BENCH_RUNS", 1);
  const shapes = new Set((process.env.PAL_BENCH_SHAPES ?? "locomo,s,m").split(",").map((x) => x.trim().toLowerCase()));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-cm-"));
  console.log(
    `scale ${scale}, ${runs} run(s), shapes ${[...shapes].join(",")}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  try {
    const stream = streamBaseline(dir);
    if (shapes.has("locomo")) {
      const loc = path.join(dir, "locomo10.json");
      const n = writeLocomo(loc);
      measure("LoCoMo (10 conversations × 27 sessions × 22 turns)", "locomo", loc, dir, runs, { qa: n, conversations: 10 }, stream);
      fs.rmSync(loc);
    }

    if (shapes.has("s")) {
      const sQ = Math.max(1, Math.round(500 * scale));
      const s = path.join(dir, "longmemeval_s.json");
      const sd = writeLongMemEval(s, sQ, 50, 4000, 1060);
      measure(
        `LongMemEval S shape (${sQ} questions × 50 sessions)`,
        "longmemeval",
        s,
        dir,
        runs,
        {
          questions: sQ,
          sessions: sd.distinct,
          sessionRefs: sQ * 50,
        },
        stream,
      );
      fs.rmSync(s);
    }

    if (shapes.has("m")) {
      // M: ~500 sessions per question (the real file, 500 questions, is ~2.7 GB); the sessions stored once is what M tests.
      const mQ = Math.max(1, Math.round(200 * scale));
      const m = path.join(dir, "longmemeval_m.json");
      const md = writeLongMemEval(m, mQ, 500, 20000, 1000);
      measure(
        `LongMemEval M shape (${mQ} questions × 500 sessions)`,
        "longmemeval",
        m,
        dir,
        runs,
        {
          questions: mQ,
          sessions: md.distinct,
          sessionRefs: mQ * 500,
        },
        stream,
      );
      fs.rmSync(m);
    }
    console.log(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
