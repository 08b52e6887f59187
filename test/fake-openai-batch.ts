/**
 * TEST DOUBLE: the OpenAI Batch API for the fake OpenAI server (test/fake-openai.ts): /v1/files (upload,
 * content) and /v1/batches (create, retrieve, cancel). A batch's lines are answered by the fake's own
 * /chat/completions over HTTP, so scripted replies and faults apply to them as to online calls. Batches
 * can be held (in_progress until released) to test polling, restarts and cancelling. A cancel is
 * immediate by default; with finishOnCancel(true) it is what the real API does with lines under way: the
 * batch reads "cancelling", goes on, and ends "cancelled" with an output file of every line it answered
 * (paid for). Never used by the app.
 */
import type http from "node:http";
import Busboy from "busboy";

type FakeBatch = {
  id: string;
  object: "batch";
  endpoint: string;
  input_file_id: string;
  output_file_id: string | null;
  completion_window: string;
  status: "validating" | "in_progress" | "finalizing" | "completed" | "cancelling" | "cancelled" | "failed";
  created_at: number;
  request_counts: { total: number; completed: number; failed: number };
  errors?: { data: Array<{ message: string }> };
};

export type FakeBatchApi = {
  /** Batches created so far (their state as the endpoint reports it). */
  batches: FakeBatch[];
  /** While held, new batches stay in_progress; release() answers them. */
  hold(on: boolean): void;
  /**
   * A cancel leaves the batch "cancelling"; it still answers its lines and ends "cancelled" with their
   * output. "completed": the cancel comes too late, the batch reads as it was and ends "completed".
   */
  finishOnCancel(on: boolean | "completed"): void;
  release(): Promise<void>;
  handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): Promise<boolean>;
};

export function fakeBatchApi(chatURL: () => string): FakeBatchApi {
  const files = new Map<string, { id: string; purpose: string; filename: string; content: string }>();
  const batches: FakeBatch[] = [];
  let held = false;
  let finishing: boolean | "completed" = false;
  let n = 0;

  const send = (res: http.ServerResponse, status: number, payload: unknown, type = "application/json") => {
    res.writeHead(status, { "content-type": type });
    res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
  };

  const running = new Set<string>();
  const process = async (b: FakeBatch) => {
    if (b.status !== "validating" && b.status !== "in_progress" && b.status !== "cancelling") return;
    if (b.status !== "cancelling") b.status = "in_progress";
    if (held || running.has(b.id)) return;
    running.add(b.id);
    const lines = files
      .get(b.input_file_id)!
      .content.split("\n")
      .filter((l) => l.trim());
    b.request_counts.total = lines.length;
    const out: string[] = [];
    for (const line of lines) {
      const req = JSON.parse(line) as { custom_id: string; body: unknown };
      const r = await fetch(chatURL(), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req.body) });
      const body = await r.json().catch(() => null);
      if (r.ok) b.request_counts.completed++;
      else b.request_counts.failed++;
      out.push(
        JSON.stringify({
          id: `req-${n++}`,
          custom_id: req.custom_id,
          response: { status_code: r.status, request_id: "x", body },
          error: null,
        }),
      );
    }
    // Cancelled while it ran: no output, as the API does for a batch cancelled before it finished; one
    // "cancelling" (finishOnCancel) ends cancelled with the output of the lines it answered.
    if ((b.status as FakeBatch["status"]) === "cancelled") return;
    const id = `file-out-${n++}`;
    files.set(id, { id, purpose: "batch_output", filename: `${b.id}_output.jsonl`, content: out.join("\n") + "\n" });
    b.output_file_id = id;
    b.status = (b.status as FakeBatch["status"]) === "cancelling" ? "cancelled" : "completed";
  };

  return {
    batches,
    hold(on) {
      held = on;
    },
    finishOnCancel(on) {
      finishing = on;
    },
    async release() {
      held = false;
      for (const b of batches) if (b.status === "in_progress" || b.status === "cancelling") await process(b);
    },
    async handle(req, res, raw) {
      const url = req.url ?? "";
      if (req.method === "POST" && /\/files$/.test(url)) {
        const fields: Record<string, string> = {};
        let content = "";
        let filename = "upload.jsonl";
        await new Promise<void>((resolve, reject) => {
          const bb = Busboy({ headers: req.headers });
          bb.on("field", (k, v) => (fields[k] = v));
          bb.on("file", (_k, stream, info) => {
            filename = info.filename ?? filename;
            stream.on("data", (d: Buffer) => (content += d.toString("utf8")));
          });
          bb.on("close", () => resolve());
          bb.on("error", reject);
          bb.end(raw);
        });
        const id = `file-${n++}`;
        files.set(id, { id, purpose: fields.purpose ?? "batch", filename, content });
        send(res, 200, { id, object: "file", bytes: content.length, created_at: 0, filename, purpose: fields.purpose ?? "batch" });
        return true;
      }
      const content = /\/files\/([^/]+)\/content$/.exec(url);
      if (req.method === "GET" && content) {
        const f = files.get(content[1]);
        if (!f) send(res, 404, { error: { message: `no file ${content[1]}` } });
        else send(res, 200, f.content, "application/jsonl");
        return true;
      }
      if (req.method === "POST" && /\/batches$/.test(url)) {
        const body = JSON.parse(raw.toString("utf8")) as { input_file_id: string; endpoint: string; completion_window: string };
        if (!files.has(body.input_file_id)) {
          send(res, 400, { error: { message: `no file ${body.input_file_id}` } });
          return true;
        }
        const b: FakeBatch = {
          id: `batch-${n++}`,
          object: "batch",
          endpoint: body.endpoint,
          input_file_id: body.input_file_id,
          output_file_id: null,
          completion_window: body.completion_window,
          status: "validating",
          created_at: Math.floor(Date.now() / 1000),
          request_counts: { total: 0, completed: 0, failed: 0 },
        };
        batches.push(b);
        send(res, 200, b);
        void process(b);
        return true;
      }
      const one = /\/batches\/([^/]+)(\/cancel)?$/.exec(url);
      if (one) {
        const b = batches.find((x) => x.id === one[1]);
        if (!b) {
          send(res, 404, { error: { message: `no batch ${one[1]}` } });
          return true;
        }
        if (req.method === "POST" && one[2] && b.status !== "completed" && b.status !== "cancelled" && finishing !== "completed")
          b.status = finishing ? "cancelling" : "cancelled";
        send(res, 200, b);
        return true;
      }
      return false;
    },
  };
}
