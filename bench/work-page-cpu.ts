/**
 * The server's cost per request of a crowd participant's requests, one at a time (no queueing): join, first
 * work page (claims an item), submit, return visit, and any PATHS (comma-separated, TOKEN = the link's
 * token), as CPU of `next start`'s process group read from /proc, and median time. Uses the current build
 * as it is (run `npm run build` first). Not a `*.bench.ts`: a tool for comparing two builds side by side
 * (docs/annotation.md, Load). `npx tsx --conditions=react-server bench/work-page-cpu.ts`; PORT, N, REPEAT,
 * ENC (an accept-encoding, e.g. identity), PROFILE (a folder for a --cpu-prof of the server), DUMP (a file
 * for the page's HTML).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { freePort, waitForHttp } from "@/test/local-server";
import type { Jar } from "@/bench/http-session";
import { join } from "@/bench/crowd.bench";
import { pairwiseItemLines } from "./pairwise-items";
import { groupCpuMs } from "./group-cpu";

const PORT = process.env.PORT ? Number(process.env.PORT) : await freePort();
const N = Number(process.env.N ?? 150);
const REPEAT = Number(process.env.REPEAT ?? 150);
const ROOT = process.cwd();

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-measure-"));
  const dbPath = path.join(dir, "m.db");
  const db = openDb(dbPath);
  const researcher = (await createUser(db, { email: "m-r@pal.local", role: "researcher", password: "measure-pass-1" })).id;
  const lines = pairwiseItemLines((N + 40) * 2);
  const c = createCampaign(
    db,
    {
      name: "m",
      kind: "pairwise-dialogue",
      perItem: 3,
      annotatorIds: [],
      link: true,
      crowd: { quota: 5, goldRate: 0 },
      source: { kind: "upload", fileName: "m.jsonl", text: lines.join("\n") },
    },
    researcher,
  );
  db.$client.close();
  const token = c.link!.split("/").pop()!;
  const base = `http://localhost:${PORT}`;
  const child = spawn(
    process.execPath,
    [
      ...(process.env.PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE}`] : []),
      path.join(ROOT, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      String(PORT),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, PAL_DB: dbPath, NEXTAUTH_SECRET: "measure-secret", NEXTAUTH_URL: base, NODE_ENV: "production" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  try {
    await waitForHttp(`${base}/login`, child, () => out);
    const jars: Jar[] = [];
    for (let i = 0; i < 20; i++) jars.push(await join(base, token, `W${i}`));
    const j0 = groupCpuMs(child.pid!);
    for (let i = 0; i < N; i++) jars.push(await join(base, token, `M${i}`));
    console.log(`join (csrf + sign-in): CPU ${((groupCpuMs(child.pid!) - j0) / N).toFixed(1)} ms/participant`);
    jars.push(...jars.splice(0, 20));
    const page = async (jar: Jar) => {
      const t0 = performance.now();
      const r = await fetch(`${base}/join/${token}/work`, {
        headers: { cookie: jar.header(), ...(process.env.ENC ? { "accept-encoding": process.env.ENC } : {}) },
        redirect: "manual",
      });
      const text = await r.text();
      if (process.env.DUMP) fs.writeFileSync(process.env.DUMP, text);
      if (r.status !== 200) throw new Error(`work page ${r.status}`);
      const id = text.match(/assignmentId\\?":(\d+),\\?"status\\?":\\?"pending/)?.[1];
      return { ms: performance.now() - t0, bytes: text.length, id };
    };
    for (let i = 0; i < 20; i++) await page(jars[N + i]); // warm-up
    // First visits (claims an item), as the bench's first page.
    let cpu0 = groupCpuMs(child.pid!);
    const first: number[] = [];
    const ids: string[] = [];
    let bytes = 0;
    for (let i = 0; i < N; i++) {
      const r = await page(jars[i]);
      first.push(r.ms);
      bytes = r.bytes;
      ids.push(r.id!);
    }
    const firstCpu = (groupCpuMs(child.pid!) - cpu0) / N;
    // Return visits of one participant (hold renewed).
    cpu0 = groupCpuMs(child.pid!);
    const again: number[] = [];
    for (let i = 0; i < REPEAT; i++) again.push((await page(jars[0])).ms);
    const againCpu = (groupCpuMs(child.pid!) - cpu0) / REPEAT;
    // Submits (the bench's measured request), one per participant.
    cpu0 = groupCpuMs(child.pid!);
    const subs: number[] = [];
    for (let i = 1; i < N; i++) {
      const t0 = performance.now();
      const r = await fetch(`${base}/api/assignments/${ids[i]}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: jars[i].header(), origin: base },
        body: JSON.stringify({
          action: "submit",
          submissionId: `measure-${i}-${ids[i]}`,
          values: { requirement: "Win", preference: "Tie" },
          ms: 3000,
        }),
      });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`submit ${r.status}`);
      subs.push(performance.now() - t0);
    }
    const subCpu = (groupCpuMs(child.pid!) - cpu0) / (N - 1);
    console.log(`submit: CPU ${subCpu.toFixed(1)} ms/request, median ${med(subs).toFixed(1)} ms (N=${N - 1})`);
    console.log(`first visit: CPU ${firstCpu.toFixed(1)} ms/request, median ${med(first).toFixed(1)} ms (N=${N}); html ${bytes} bytes`);
    console.log(`return visit: CPU ${againCpu.toFixed(1)} ms/request, median ${med(again).toFixed(1)} ms (N=${REPEAT})`);
    for (const u of (process.env.PATHS ?? "").split(",").filter(Boolean)) {
      const url = u.replace("TOKEN", token);
      const c0 = groupCpuMs(child.pid!);
      const ts: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const t0 = performance.now();
        const r = await fetch(`${base}${url}`, { headers: { cookie: jars[1].header() }, redirect: "manual" });
        await r.arrayBuffer();
        ts.push(performance.now() - t0);
        if (i === 0) console.log(`${url}: status ${r.status}`);
      }
      console.log(`${url}: CPU ${((groupCpuMs(child.pid!) - c0) / REPEAT).toFixed(1)} ms/request, median ${med(ts).toFixed(1)} ms`);
    }
    console.log(
      `load: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* gone already */
    }
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once("exit", r));
    if (process.env.DEBUG) console.log(out);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
await main();
