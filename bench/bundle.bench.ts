/**
 * Bundle export and import at the size of the Mem-PAL preset on 5 users (issue 33): ~6,200 jobs with their
 * scores, 35 memory versions (~31k entries), ~120k ledger rows and ~100k cached replies of realistic
 * sizes (prompts ~2.5 kB, replies ~300 B), written straight into the tables (running the preset against a
 * fake endpoint would take far longer and measures the runner, not the bundle). Prints the bundle's size
 * and the export and import times; then the same with the data set's rows (`--with-data`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb, openSqlite, type Db } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { exportBundleTo, withPlainBundle } from "@/lib/bundles/gzip";
import { importBundle } from "@/lib/bundles/import";
import { datasetHash } from "@/lib/experiments/dataset-hash";
import { generatePalset } from "./gen-palset";

/** PAL_BENCH_SCALE=0.2: one user's share of the run (a shared machine cannot always afford five). */
const SCALE = Number(process.env.PAL_BENCH_SCALE ?? "1");
const USERS = Math.max(1, Math.round(5 * SCALE));
const METHODS = ["h2memory", "vanilla", "vanilla-log", "memorybank", "ldagent", "recursum", "rag-utterance"];
const JOBS = Math.round(6200 * SCALE);
const CALLS = Math.round(120_000 * SCALE);
const REPLIES = Math.round(100_000 * SCALE);

const text = (n: number, seed: number) => {
  let s = "";
  for (let i = 0; s.length < n; i++) s += `word${(seed * 31 + i * 7) % 997} `;
  return s.slice(0, n);
};

function seedRun(db: Db, datasetId: number): number {
  const c = db.$client;
  const users = (c.prepare("SELECT user_key AS k FROM pal_users WHERE dataset_id = ?").all(datasetId) as Array<{ k: string }>).map(
    (u) => u.k,
  );
  c.transaction(() => {
    const config = {
      preset: "mem-pal",
      methods: METHODS.map((name) => ({ name })),
      tasks: ["requirement", "solution", "dialogue"],
      repeats: 3,
    };
    const e = Number(
      c
        .prepare(
          "INSERT INTO experiments (name, dataset_id, dataset_hash, config, config_hash, status) VALUES ('bench', ?, ?, ?, 'c', 'done')",
        )
        .run(datasetId, datasetHash(db, datasetId, "palset"), JSON.stringify(config)).lastInsertRowid,
    );
    const versions: number[] = [];
    for (const u of users)
      for (const m of METHODS) {
        const v = Number(
          c
            .prepare(
              "INSERT INTO memory_versions (dataset_id, user_key, method, settings_key, settings, language, status) VALUES (?, ?, ?, 's', '{}', 'zh', 'complete')",
            )
            .run(datasetId, u, m).lastInsertRowid,
        );
        versions.push(v);
        c.prepare("INSERT INTO experiment_memory_versions (experiment_id, method, version_id) VALUES (?, ?, ?)").run(e, m, v);
        for (let s = 0; s < 26; s++) {
          const step = Number(
            c.prepare("INSERT INTO memory_steps (version_id, seq, session_key, status) VALUES (?, ?, ?, 'complete')").run(v, s, `s${s}`)
              .lastInsertRowid,
          );
          const ins = c.prepare(
            "INSERT INTO memory_entries (version_id, step_id, kind, key, content, valid_from_seq, call_keys) VALUES (?, ?, 'log', ?, ?, ?, '[]')",
          );
          for (let k = 0; k < 34; k++) ins.run(v, step, `k${s}-${k}`, JSON.stringify({ text: text(200, s * 100 + k) }), s);
        }
      }
    const job = c.prepare(
      "INSERT INTO jobs (experiment_id, replicate, method, task, item_key, user_key, status, output, score, title) VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?)",
    );
    const score = c.prepare("INSERT INTO job_scores (job_id, scorer, \"values\") VALUES (?, 'gscore', ?)");
    const jobIds: number[] = [];
    for (let j = 0; j < JOBS; j++) {
      const id = Number(
        job.run(
          e,
          j % 3,
          METHODS[j % METHODS.length],
          ["requirement", "solution", "dialogue"][j % 3],
          `item-${j}`,
          users[j % users.length],
          JSON.stringify({ answer: text(1200, j) }),
          1.5,
          text(60, j),
        ).lastInsertRowid,
      );
      score.run(id, JSON.stringify({ score: (j % 7) / 3 }));
      jobIds.push(id);
    }
    const call = c.prepare(
      `INSERT INTO llm_calls (job_id, memory_version_id, experiment_id, purpose, role, config, endpoint, model, cache_key, cache_hit, status, prompt_tokens, completion_tokens, temperature, max_tokens, served_model)
       VALUES (?, ?, ?, ?, ?, ?, 'http://127.0.0.1:8080/v1', 'qwen', ?, ?, 'ok', 900, 120, 0.7, 1024, 'qwen-served')`,
    );
    const cache = c.prepare(
      "INSERT INTO llm_cache (key, endpoint, model, request, response, prompt_tokens, completion_tokens) VALUES (?, 'http://127.0.0.1:8080/v1', 'qwen', ?, ?, 900, 120)",
    );
    for (let i = 0; i < CALLS; i++) {
      const key = `k${i % REPLIES}`;
      const build = i % 2 === 0;
      call.run(
        build ? null : jobIds[i % JOBS],
        build ? versions[i % versions.length] : null,
        build ? e : null,
        build ? "h2memory.log-graph" : "task.requirement",
        build ? "assistant" : "judge",
        build ? "assistant" : "judge",
        key,
        i >= REPLIES ? 1 : 0,
      );
      if (i < REPLIES)
        cache.run(
          key,
          JSON.stringify({
            messages: [
              { role: "system", content: text(1800, 1) },
              { role: "user", content: text(700, i) },
            ],
            params: { temperature: 0.7 },
            replicate: 0,
          }),
          JSON.stringify({ answer: text(300, i) }),
        );
    }
  })();
  return (c.prepare("SELECT max(id) AS id FROM experiments").get() as { id: number }).id;
}

export default async function bench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-bundle-"));
  try {
    const db = openDb(path.join(dir, "source.db"));
    const palset = path.join(dir, "palset.json");
    generatePalset(palset, USERS);
    const { datasetId } = await importPalset(db, { paths: [palset], name: "bench", lang: "zh" });
    const t = performance.now();
    const id = seedRun(db, datasetId);
    console.log(`seeded ${JOBS} jobs, ${CALLS} ledger rows, ${REPLIES} replies in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    // The baseline on this machine now: copying the source database file (the machine is shared; ratios hold better than seconds).
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    const c0 = performance.now();
    fs.copyFileSync(path.join(dir, "source.db"), path.join(dir, "copy.db"));
    const copyMs = performance.now() - c0;
    const srcMb = fs.statSync(path.join(dir, "source.db")).size / 1e6;
    fs.rmSync(path.join(dir, "copy.db"));
    console.log(`baseline: copying the ${srcMb.toFixed(0)} MB source database takes ${(copyMs / 1000).toFixed(1)} s`);
    for (const [name, withData] of [
      ["run.palbundle", false],
      ["run.palbundle.gz", false],
      ["run-data.palbundle.gz", true],
    ] as const) {
      const out = path.join(dir, name);
      const ex = await exportBundleTo(db, id, out, { withData });
      if (!withData && !name.endsWith(".gz")) {
        // Where the bytes are (SQLite's dbstat): the tables and indexes over a megabyte.
        const b = openSqlite(out, { readonly: true });
        const big = b
          .prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name HAVING bytes > 1e6 ORDER BY bytes DESC")
          .all() as Array<{ name: string; bytes: number }>;
        b.close();
        console.log(`  largest: ${big.map((t) => `${t.name} ${(t.bytes / 1e6).toFixed(1)} MB`).join(", ")}`);
      }
      const target = openDb(path.join(dir, `target-${name}.db`));
      if (!withData) await importPalset(target, { paths: [palset], name: "bench copy", lang: "zh" });
      const t0 = performance.now();
      const im = await withPlainBundle(out, (plain) => importBundle(target, plain));
      const imMs = performance.now() - t0;
      target.$client.close();
      console.log(
        `${name.padEnd(22)}: ${(ex.bytes / 1e6).toFixed(1)} MB, export ${(ex.ms / 1000).toFixed(1)} s (${(ex.ms / copyMs).toFixed(1)}x the copy), import ${(imMs / 1000).toFixed(1)} s (${(imMs / copyMs).toFixed(1)}x; ${im.rows.jobs} jobs, ${im.rows.llm_calls} ledger rows, ${im.rows.llm_cache} replies)`,
      );
      fs.rmSync(out);
    }
    db.$client.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
