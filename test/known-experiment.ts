/**
 * A finished experiment with hand-chosen scores, written straight into a database (real SQLite; no model
 * call), so its paper tables can be checked against hand-made fixtures (fixtures/paper-tables/known-*).
 * Mem-PAL style: Vanilla (w/o log), MemoryBank and H2Memory (the reference) on the three PAL-Bench tasks,
 * 3 runs, 2 topics. The per-run values and what they give are worked out in lib/experiments/paper-table/
 * paper-table.test.ts.
 */

/** What a better-sqlite3 handle offers (vitest's `db.$client`, or `new Database(file)` in a browser test). */
type Sqlite = {
  prepare(sql: string): { run(...args: unknown[]): { lastInsertRowid: number | bigint }; get(...args: unknown[]): unknown };
  transaction<T>(fn: () => T): () => T;
};

type Scores = Record<string, Record<string, number>>;
const METHODS = ["vanilla", "memorybank", "h2memory"] as const;
type M = (typeof METHODS)[number];

/** Requirement BLEU-1 per run; BLEU-2..4 are BLEU-1 − 5, − 8, − 9 (the same spread, so the same test results). */
const REQ_BLEU1: Record<M, number[]> = { vanilla: [10, 11, 12], memorybank: [20, 22, 24], h2memory: [30, 32, 31] };
/** The judge's 0-2 points of the two topics per run. */
const GSCORE: Record<M, number[][]> = {
  vanilla: [
    [1, 1],
    [1, 1],
    [0.5, 0.5],
  ],
  memorybank: [
    [1.5, 1.5],
    [1.5, 1.5],
    [1, 1],
  ],
  h2memory: [
    [2, 2],
    [1.5, 1.5],
    [2, 2],
  ],
};
const SOL_BLEU1: Record<M, number[]> = { vanilla: [15, 15, 15], memorybank: [25, 26, 27], h2memory: [25, 26, 24] };
/** Selection points (−2..2) of the two topics per run. */
const SELECTION: Record<M, number[][]> = {
  vanilla: [
    [-1, 0],
    [0, 0],
    [-1, -1],
  ],
  memorybank: [
    [1, 0],
    [1, 1],
    [0, 0],
  ],
  h2memory: [
    [2, 1],
    [1, 1],
    [2, 2],
  ],
};
/** FairEval outcomes of H2Memory against each (+1 win, 0 tie, −1 lose) per run and topic: [requirement, preference]. */
const PAIRS: Record<"vanilla" | "memorybank", Array<Array<[number, number]>>> = {
  vanilla: [
    [
      [1, 1],
      [1, 1],
    ],
    [
      [1, 1],
      [0, 1],
    ],
    [
      [1, 1],
      [-1, 1],
    ],
  ],
  memorybank: [
    [
      [0, -1],
      [0, 1],
    ],
    [
      [0, -1],
      [0, 1],
    ],
    [
      [0, -1],
      [0, 1],
    ],
  ],
};

const bleu = (b1: number) => ({ bleu1: b1, bleu2: b1 - 5, bleu3: b1 - 8, bleu4: b1 - 9 });

export const KNOWN_EXPERIMENT_CONFIG = {
  users: "all",
  methods: METHODS.map((name) => ({ name })),
  tasks: ["requirement", "solution", "dialogue"],
  models: { assistant: { model: "qwen-max-0428" } },
  repeats: 3,
  reference: "h2memory",
};

/** Writes the experiment (status done) and returns its id; the data set is made when none is given. */
export function seedKnownExperiment(db: Sqlite, opts: { name?: string; datasetId?: number } = {}): number {
  return db.transaction(() => {
    const datasetId =
      opts.datasetId ??
      Number(
        db.prepare("INSERT INTO datasets (name, kind) VALUES (?, 'palset')").run(`known data ${Date.now()} ${Math.random()}`)
          .lastInsertRowid,
      );
    const now = Date.now();
    const exp = Number(
      db
        .prepare(
          "INSERT INTO experiments (name, dataset_id, dataset_hash, config, config_hash, status, created_at, finished_at) VALUES (?, ?, 'known', ?, 'known', 'done', ?, ?)",
        )
        .run(opts.name ?? "Known experiment", datasetId, JSON.stringify(KNOWN_EXPERIMENT_CONFIG), now, now).lastInsertRowid,
    );
    const job = (method: string, task: string, replicate: number, item: number, phase: number, scores: Scores) => {
      const id = Number(
        db
          .prepare(
            "INSERT INTO jobs (experiment_id, replicate, method, task, item_key, user_key, phase, status, attempts, finished_at) VALUES (?, ?, ?, ?, ?, '0000', ?, 'done', 1, ?)",
          )
          .run(exp, replicate, method, task, `0000/topic-${item + 1}`, phase, now).lastInsertRowid,
      );
      for (const [scorer, values] of Object.entries(scores))
        db.prepare('INSERT INTO job_scores (job_id, scorer, version, "values") VALUES (?, ?, 1, ?)').run(
          id,
          scorer,
          JSON.stringify(values),
        );
    };
    for (const m of METHODS)
      for (let r = 0; r < 3; r++)
        for (let i = 0; i < 2; i++) {
          job(m, "requirement", r, i, 0, { bleu: bleu(REQ_BLEU1[m][r]), gscore: { gscore: GSCORE[m][r][i] } });
          job(m, "solution", r, i, 0, { bleu: bleu(SOL_BLEU1[m][r]), selection: { selection: SELECTION[m][r][i] } });
          job(m, "dialogue", r, i, 0, {});
        }
    for (const [b, runs] of Object.entries(PAIRS))
      runs.forEach((topics, r) =>
        topics.forEach(([requirement, preference], i) =>
          job(`h2memory~${b}`, "dialogue", r, i, 1, { faireval: { requirement, preference } }),
        ),
      );
    return exp;
  })();
}

/**
 * A finished HiCUPID run of one retrieving method (BM25, utterances, k = 5) with hand-chosen retrieval
 * hits: 4 persona questions (3 hit), 2 schedule (both hit), 2 multi-info (persona dialogue hit once,
 * a profile dialogue twice). Table A2's columns: 75, 100, 50, 100, total 75 × 25/40 + 100 × 10/40 +
 * 75 × 5/40 = 81.25.
 */
export function seedHitRateExperiment(db: Sqlite, opts: { name?: string } = {}): number {
  return db.transaction(() => {
    const ds = Number(
      db.prepare("INSERT INTO datasets (name, kind) VALUES (?, 'hicupid')").run(`hits ${Date.now()} ${Math.random()}`).lastInsertRowid,
    );
    const config = {
      users: "all",
      methods: [{ name: "rag-utterance", label: "bm25-k5", options: { retriever: "bm25", k: 5 } }],
      tasks: ["hicupid"],
      models: { assistant: { model: "llama-3.1-8b" } },
      repeats: 1,
    };
    const now = Date.now();
    const exp = Number(
      db
        .prepare(
          "INSERT INTO experiments (name, dataset_id, dataset_hash, config, config_hash, status, created_at, finished_at) VALUES (?, ?, 'hits', ?, 'hits', 'done', ?, ?)",
        )
        .run(opts.name ?? "Known hit rates", ds, JSON.stringify(config), now, now).lastInsertRowid,
    );
    const items = [
      { type: 0, hit: 1 },
      { type: 0, hit: 1 },
      { type: 0, hit: 1 },
      { type: 0, hit: 0 },
      { type: 2, hit: 1 },
      { type: 2, hit: 1 },
      { type: 1, personaHit: 1, profileHit: 1 },
      { type: 1, personaHit: 0, profileHit: 1 },
    ];
    items.forEach((v, i) => {
      const job = Number(
        db
          .prepare(
            "INSERT INTO jobs (experiment_id, replicate, method, task, item_key, user_key, phase, status, attempts, finished_at) VALUES (?, 0, 'bm25-k5', 'hicupid', ?, 'u1', 0, 'done', 1, ?)",
          )
          .run(exp, `qa-${i}`, now).lastInsertRowid,
      );
      db.prepare("INSERT INTO job_scores (job_id, scorer, version, \"values\") VALUES (?, 'retrieval', 1, ?)").run(
        job,
        JSON.stringify({ recall: 1, ...v }),
      );
    });
    return exp;
  })();
}
