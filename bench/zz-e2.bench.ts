import fs from "node:fs";
import inspector from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { openDb } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { ModelClient } from "@/lib/llm/client";
import { bindDeps } from "@/lib/jobs/bind";
import { createExperiment } from "@/lib/jobs/create";
import { runExperiment } from "@/lib/jobs/worker";
import { startFakeOpenAI } from "@/test/fake-openai";
import { generatePalset } from "./gen-palset";
export default async function () {
  const fake = await startFakeOpenAI({
    latencyMs: Number(process.env.LAT ?? 100),
    respond: (req) => {
      const t = String(req.messages[0].content);
      if (t.includes('"score"')) return JSON.stringify({ analysis: "基本符合", score: 1.5 });
      return JSON.stringify({ requirement: "用户希望在周末安排一次轻松的家庭活动" });
    },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-bench-exp-"));
  Object.assign(process.env, {
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_API_KEY: "bench",
    PAL_MODEL_ASSISTANT: "fake-a",
    PAL_MODEL_JUDGE: "fake-j",
  });
  const db = openDb(path.join(dir, "bench.db"));
  const file = path.join(dir, "palset.json");
  generatePalset(file, 10);
  const { datasetId } = await importPalset(db, { paths: [file], name: "bench", lang: "zh" });
  const config = { methods: [{ name: "vanilla" }], tasks: ["requirement"], repeats: 12 };
  for (let k = 0; k < 4; k++) {
    const { id } = createExperiment(db, { name: "bench", datasetId, config });
    const client = ModelClient.create(db, { concurrency: { assistant: 8, judge: 8 } });
    const sess = new inspector.Session();
    sess.connect();
    await sess.post("Profiler.enable");
    if (k === 1) await sess.post("Profiler.start");
    const t = performance.now();
    let n = 0;
    let firstDone = 0;
    let lastDone = 0;
    await runExperiment(db, id, bindDeps(db, { client }), {
      concurrency: 8,
      onProgress: () => {
        n++;
        const x = performance.now() - t;
        if (!firstDone) firstDone = x;
        lastDone = x;
      },
    });
    if (k === 1) {
      const { profile } = await sess.post("Profiler.stop");
      fs.writeFileSync("/tmp/profb/run1.cpuprofile", JSON.stringify(profile));
    }
    console.log(
      k,
      "total",
      (performance.now() - t).toFixed(0),
      "first",
      firstDone.toFixed(0),
      "last",
      lastDone.toFixed(0),
      "n",
      n,
      "req",
      client.stats.requests,
    );
  }
  await fake.close();
}
