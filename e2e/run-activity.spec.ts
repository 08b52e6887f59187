import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { test, expect } from "./fixtures";
import { e2eState, login, account } from "./state";
import { demoRunArgs } from "./pal-run-args";

/**
 * A run whose model takes minutes per reply must not look dead: the experiment page shows, under the
 * counts, the model requests in flight and how long the oldest has waited, from the activity the
 * running process writes (table run_activity). The run here is another process's (a live lease held
 * by a `pal run` elsewhere), so the server's worker leaves it alone and the page reads its activity.
 */
test("the experiment page shows the requests in flight of the process running it", async ({ page }) => {
  const s = e2eState();
  const dry = spawnSync("node", ["bin/pal.mjs", ...demoRunArgs("vanilla", "--dry-run", "--json")], {
    env: { ...process.env, PAL_DB: s.dbPath },
    encoding: "utf8",
  });
  expect(dry.status, dry.stderr).toBe(0);
  const config = JSON.parse(dry.stdout).config;
  const db = new Database(s.dbPath);
  const now = Date.now();
  const worker = "otherhost:4242:cli";
  const ds = db.prepare("SELECT id FROM datasets WHERE name = 'PAL-Set demo (en)'").get() as { id: number };
  const id = Number(
    db
      .prepare(
        `INSERT INTO experiments (name, dataset_id, dataset_hash, config, config_hash, status, created_at, started_at, planned_jobs)
         VALUES ('slow model', ?, 'h', ?, 'c', 'running', ?, ?, 1)`,
      )
      .run(ds.id, JSON.stringify(config), now, now).lastInsertRowid,
  );
  db.prepare(
    `INSERT INTO jobs (experiment_id, method, task, item_key, user_key, status, attempts, worker, started_at, lease_until)
     VALUES (?, 'vanilla', 'requirement', 'slow-item', '0000', 'running', 1, ?, ?, ?)`,
  ).run(id, worker, now, now + 600_000);
  const activity = db.prepare(
    `INSERT INTO run_activity (experiment_id, worker, calls_in_flight, oldest_started_at, timeouts, updated_at) VALUES (?, ?, 3, ?, 1, ?)
     ON CONFLICT (experiment_id, worker) DO UPDATE SET updated_at = excluded.updated_at`,
  );
  activity.run(id, worker, now - 95_000, Date.now());
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, account("researcher"));
    await page.goto(`${s.baseURL}/experiments/${id}`);
    await expect(page.getByTestId("status")).toHaveText("running");
    await expect(page.getByTestId("in-flight")).toHaveText(/^Model: 3 calls in flight, the oldest for \d+ s · 1 timed out$/);
    await page.screenshot({ path: "/tmp/client-in-flight.png" });
    // A second process joins the run (a worker count above 1): the line says how many run it.
    const joined = "otherhost:4243:join";
    activity.run(id, joined, now - 5000, Date.now());
    await expect(page.getByTestId("in-flight")).toHaveText(/^Model: 2 processes · 6 calls in flight, the oldest for \d+ s · 2 timed out$/, {
      timeout: 10_000,
    });
    db.prepare("DELETE FROM run_activity WHERE experiment_id = ? AND worker = ?").run(id, joined);
    // The process goes quiet (killed without a word): its activity is no longer shown.
    db.prepare("UPDATE run_activity SET updated_at = ? WHERE experiment_id = ?").run(Date.now() - 60_000, id);
    await expect(page.getByTestId("in-flight")).toHaveCount(0, { timeout: 10_000 });
  } finally {
    db.prepare("UPDATE jobs SET status = 'cancelled', worker = NULL, lease_until = NULL WHERE experiment_id = ?").run(id);
    db.prepare("UPDATE experiments SET status = 'cancelled', finished_at = ? WHERE id = ?").run(Date.now(), id);
    db.close();
  }
});
