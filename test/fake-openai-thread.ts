/**
 * The fake OpenAI-compatible server (TEST DOUBLE, test/fake-openai.ts) on its own thread, for the
 * benchmarks: a real model endpoint answers from another machine, so the double's own CPU (parsing
 * requests, writing replies) should not queue behind the client being measured. The responder is
 * named (responders are functions and cannot cross threads); request counts are read by message.
 */
import fs from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { startFakeOpenAI, type Responder } from "./fake-openai";

/** The responders a threaded fake server can use, by name. */
const RESPONDERS: Record<string, () => Promise<Responder>> = {
  /** The endpoint-throughput benchmark: the smallest valid JSON reply. */
  ok: async () => () => '{"ok":true}',
  pal: async () => (await import("./h2memory-responder")).palResponder,
  /** Whole protocol runs (the pipeline benchmark): every build step, answer, simulator turn and judge. */
  protocol: async () => {
    const { protocolResponder } = await import("./protocol-responder");
    // The Chinese judge prompts (a generated zh PAL-Set) name the scores in words; the rest matches either language.
    return (req) => {
      const t = String(req.messages[0]?.content ?? "");
      if (t.includes('"score": 分数}')) return JSON.stringify({ analysis: "覆盖了一条需求，另一条部分覆盖", score: 1.5 });
      if (t.includes('"assistant-1": 分数'))
        return JSON.stringify({
          analysis: { "assistant-1": "较好", "assistant-2": "一般", overall: "前者更贴合" },
          scores: { "assistant-1": 7 + (t.length % 2), "assistant-2": 6 },
        });
      return protocolResponder(req);
    };
  },
  /** The experiments benchmark: a requirement for the assistant, a G-Score for the judge. */
  requirement: async () => (req) => {
    const t = String(req.messages[0].content);
    // Replies in the prompt's language (the client regenerates a reply in the other one).
    const zh = /[\u4e00-\u9fff]/.test(t);
    if (t.includes('"score"')) return JSON.stringify({ analysis: zh ? "基本符合" : "mostly matches", score: 1.5 });
    return JSON.stringify({
      requirement: zh ? "用户希望在周末安排一次轻松的家庭活动" : "The user wants a relaxed family outing at the weekend.",
    });
  },
};

export type ThreadedFakeOpenAI = {
  baseURL: string;
  /** Chat and embedding requests received so far. */
  counts(): Promise<{ chat: number; embedding: number }>;
  /**
   * CPU time (ms) the double's own thread has used so far, from Linux's per-thread accounting: a
   * benchmark subtracts it from the process's CPU to get the client's. Null where /proc has none.
   */
  cpuMs(): Promise<number | null>;
  close(): Promise<void>;
};

export async function startFakeOpenAIThread(opts: { latencyMs: number; responder: keyof typeof RESPONDERS }): Promise<ThreadedFakeOpenAI> {
  // The thread loads this TypeScript file through tsx's loader, as the benchmarks run.
  const boot = `(async () => { (await import("tsx/esm/api")).register(); await import(${JSON.stringify(import.meta.url)}); })();`;
  const worker = new Worker(boot, { eval: true, workerData: opts });
  const pending = new Map<number, (v: unknown) => void>();
  let next = 0;
  worker.on("message", (m: { id: number; value: unknown }) => {
    pending.get(m.id)?.(m.value);
    pending.delete(m.id);
  });
  const ask = <T>(op: string) =>
    new Promise<T>((resolve) => {
      const id = next++;
      pending.set(id, resolve as (v: unknown) => void);
      worker.postMessage({ id, op });
    });
  const baseURL = await ask<string>("url");
  return {
    baseURL,
    counts: () => ask("counts"),
    cpuMs: () => ask("cpu"),
    close: async () => {
      await ask("close");
      await worker.terminate();
    },
  };
}

/** This thread's CPU time in ms (schedstat: nanoseconds on the CPU), or null off Linux. */
function threadCpuMs(): number | null {
  try {
    return Number(fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const { latencyMs, responder } = workerData as { latencyMs: number; responder: string };
  const ready = RESPONDERS[responder]().then((respond) => startFakeOpenAI({ latencyMs, respond }));
  port.on("message", async (m: { id: number; op: string }) => {
    const fake = await ready;
    const value =
      m.op === "cpu"
        ? threadCpuMs()
        : m.op === "url"
          ? fake.baseURL
          : m.op === "counts"
            ? { chat: fake.chatRequests.length, embedding: fake.embeddingRequests.length }
            : await fake.close();
    port.postMessage({ id: m.id, value });
  });
}
