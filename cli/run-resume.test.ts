/**
 * `pal run` killed with SIGKILL in the middle of an experiment and resumed with `pal run --resume`: the
 * results equal those of an uninterrupted run, and the ledger shows no model request paid twice (every
 * accepted reply is paid once; the jobs redone after the kill are answered from the model cache).
 */
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { palRunSetup, runPal, oneRun } from "@/test/pal-cli";

const pal = (dbFile: string, baseURL: string, args: string[], killWhen?: () => boolean) => runPal(dbFile, baseURL, args, { killWhen });

const RUN = oneRun("vanilla,vanilla-log", "requirement,solution", "--concurrency", "4", "--json");

describe("pal run: SIGKILL and resume", () => {
  const s = palRunSetup(2, { latencyMs: 40 });

  it("resumes to the same results without paying for any request twice", async () => {
    const clean = await pal(s.dbs[0].file, s.fake.baseURL, RUN);
    expect(clean.stderr).not.toMatch(/Error|failed=[1-9]/);
    expect(clean.code, clean.stderr).toBe(0);
    const cleanOut = JSON.parse(clean.stdout);

    // Kill the second run once a few jobs are done and others are in flight.
    const watch = new Database(s.dbs[1].file, { readonly: true, fileMustExist: true });
    const doneJobs = () => {
      try {
        return (watch.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'done'").get() as { n: number }).n;
      } catch {
        return 0; // the table is being created by the child's migrations
      }
    };
    const killed = await pal(s.dbs[1].file, s.fake.baseURL, RUN, () => doneJobs() >= 4);
    expect(killed.signal).toBe("SIGKILL");
    const total = (watch.prepare("SELECT count(*) AS n FROM jobs").get() as { n: number }).n;
    const before = doneJobs();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(total);
    const stuck = (watch.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'running'").get() as { n: number }).n;

    const resumed = await pal(s.dbs[1].file, s.fake.baseURL, ["run", "--resume", "1", "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const out = JSON.parse(resumed.stdout);
    expect(out.status).toBe("done");
    expect(out.results).toEqual(cleanOut.results);
    expect(out.summary).toEqual(cleanOut.summary);

    // The ledger: each cache key paid (accepted, not from the cache) at most once, and as many paid as
    // in the uninterrupted run.
    const paidTwice = watch
      .prepare("SELECT cache_key, count(*) AS n FROM llm_calls WHERE cache_hit = 0 AND status = 'ok' GROUP BY cache_key HAVING n > 1")
      .all();
    expect(paidTwice).toEqual([]);
    const paid = (f: string) => {
      const d = new Database(f, { readonly: true });
      const n = (d.prepare("SELECT count(*) AS n FROM llm_calls WHERE cache_hit = 0 AND status = 'ok'").get() as { n: number }).n;
      d.close();
      return n;
    };
    expect(paid(s.dbs[1].file)).toBe(paid(s.dbs[0].file));
    // Jobs the killed worker held were taken over after their lease (or left queued) and finished.
    expect((watch.prepare("SELECT count(*) AS n FROM jobs WHERE status <> 'done'").get() as { n: number }).n).toBe(0);
    void stuck;
    watch.close();
  }, 180_000);
});

describe("pal run --config --dry-run (HiCUPID settings with labels)", () => {
  it("plans each labelled setting and judge, names a bad field, and spends nothing", async () => {
    const { tempDb: mk } = await import("@/test/db");
    const { importHicupid } = await import("@/lib/datasets/hicupid/import");
    const { FIXTURE_JSONL } = await import("@/test/fixtures");
    const fs = await import("node:fs");
    const path = await import("node:path");
    const t = mk();
    try {
      await importHicupid(t.db, { paths: [FIXTURE_JSONL], name: "hc" });
      const cfgFile = path.join(path.dirname(t.file), "cfg.json");
      fs.writeFileSync(
        cfgFile,
        JSON.stringify({
          // The project's defaults, not the HiCUPID preset's (whose full-history is two settings, 0-shot and 3-shot).
          preset: "none",
          methods: [{ name: "full-history" }, { name: "rag-utterance", label: "rag-k15", options: { k: 15 } }, { name: "recursum" }],
          tasks: ["hicupid"],
          hicupid: { splits: ["test_1"], judges: ["judge", "judge:second"] },
        }),
      );
      const r = await pal(t.file, "http://127.0.0.1:9", ["run", "--dataset", "hc", "--config", cfgFile, "--dry-run", "--json"]);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.rows.map((x: { method: string }) => x.method)).toEqual(["full-history", "rag-k15", "recursum"]);
      for (const row of out.rows) expect(row.calls.judge).toBe(2 * row.items);
      // Building recursum's memory: one summary per dialogue of the users asked about (the settings keep no memory).
      const { datasetByName, loadSessions } = await import("@/lib/assistants/core/sessions");
      const ds = datasetByName(t.db, "hc");
      const asked = (
        t.db.$client
          .prepare(
            "select distinct u.user_key as u from hc_qa q join hc_users u on u.id = q.user_id where q.dataset_id = ? and q.split = 'test_1'",
          )
          .all(ds.id) as Array<{ u: string }>
      ).map((x) => x.u);
      const dialogues = asked.flatMap((u) => loadSessions(t.db, ds, u)).filter((s) => s.dialogue.length).length;
      expect(dialogues).toBeGreaterThan(0);
      expect(out.builds).toHaveLength(1);
      const b = out.builds[0];
      const n = asked.length;
      expect(b).toMatchObject({ method: "recursum", users: n, usersBuilt: 0, exact: true, note: null });
      expect(b.calls.assistant.max).toBe(dialogues);
      expect(b.calls.assistant.min).toBe(b.calls.assistant.max);
      expect(out.withBuilds.calls).toEqual({ min: out.total.calls.total + b.total.min, max: out.total.calls.total + b.total.max });
      const table = await pal(t.file, "http://127.0.0.1:9", ["run", "--dataset", "hc", "--config", cfgFile, "--dry-run"]);
      expect(table.stdout).toContain(`recursum\texact\t${n} (0)\t${b.calls.assistant.max}\t`);
      fs.writeFileSync(cfgFile, JSON.stringify({ preset: "none", methods: [{ name: "gold", options: { shots: 2 } }], tasks: ["hicupid"] }));
      const bad = await pal(t.file, "http://127.0.0.1:9", ["run", "--dataset", "hc", "--config", cfgFile]);
      expect(bad.code).toBe(1);
      // After the deviations from the preset (stderr), the error names the field.
      expect(bad.stderr.trim()).toMatch(/^pal: config\.methods\[0\]\.options\.shots: /m);
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
