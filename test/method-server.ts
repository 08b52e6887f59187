/**
 * TEST DOUBLE of a lab's external memory method (issue 41): a real HTTP server speaking the protocol of
 * docs/external-methods.md, recording every request. By default it hands entries back (one per session
 * phase, made with a chat call through the run's endpoint) and answers each task with one chat call over
 * the memory it is sent; `mode` makes it misbehave.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type MethodMode = "ok" | "invent" | "stateful" | "hang" | "500" | "badjson" | "wrongkeys" | "llm-twice" | "huge" | "late";
/** A call the method made after it had answered (mode "late"): the key it used and the endpoint's HTTP status. */
export type LateCall = { apiKey: string; status: number; message: string };
export type MethodRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> | null };

type Llm = { baseUrl: string; apiKey: string; models: { assistant: string; embedding: string } };

async function chatStatus(llm: Llm, content: string): Promise<{ status: number; message: string }> {
  const r = await fetch(`${llm.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${llm.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: llm.models.assistant, messages: [{ role: "user", content }] }),
  });
  const j = (await r.json()) as { error?: { message: string } };
  return { status: r.status, message: j.error?.message ?? "" };
}

async function chat(llm: Llm, content: string): Promise<string> {
  const r = await fetch(`${llm.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${llm.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: llm.models.assistant, messages: [{ role: "user", content }] }),
  });
  const j = (await r.json()) as { choices?: Array<{ message: { content: string } }>; error?: { message: string } };
  if (!r.ok) throw new Error(`llm ${r.status}: ${j.error?.message}`);
  return j.choices![0].message.content;
}

const OUT: Record<string, (text: string) => Record<string, unknown>> = {
  query: (t) => ({ requirement: t }),
  requirement: (t) => ({ solution: t }),
  selection: (t) => ({ analysis: t, selected_solutions: ["1", "2"] }),
  dialogue: (t) => ({ content: t }),
  question: (t) => ({ answer: t }),
};

export async function startMethodServer(o: { mode?: MethodMode } = {}) {
  let mode: MethodMode = o.mode ?? "ok";
  const requests: MethodRequest[] = [];
  const stateful = new Map<string, string[]>();
  const late: Array<Promise<LateCall>> = [];
  let outsideModels: string[] = [];
  let resetSupported = true;
  let answerPrefix = "";
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      const send = (status: number, b: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(typeof b === "string" ? b : JSON.stringify(b));
      };
      try {
        if (req.method === "GET" && path === "/")
          return send(200, {
            name: "test-method",
            version: "1",
            tasks: Object.keys(OUT),
            memory: mode === "stateful" ? "service" : "returned",
            outsideModels,
          });
        if (path === "/reset") {
          if (!resetSupported) return send(404, { error: "no such path" });
          stateful.delete(String(body!.namespace));
          return send(200, {});
        }
        if (mode === "hang") return; // never answers
        if (mode === "500") return send(500, { error: "the index is corrupt (test)" });
        if (mode === "badjson") return send(200, "{not json");
        if (mode === "huge") {
          // 9 MiB in chunks, no Content-Length: the reader must stop at its limit while reading.
          res.writeHead(200, { "content-type": "application/json" });
          const chunk = "x".repeat(1024 * 1024);
          res.write('{"output": {"answer": "');
          for (let i = 0; i < 9 && !res.destroyed; i++) res.write(chunk);
          return res.end('"}}');
        }
        const llm = body!.llm as Llm;
        if (path === "/sessions") {
          const s = body!.session as { seq: number; logs: Array<{ content: string }>; dialogue?: Array<{ user: string }> };
          const text = body!.phase === "logs" ? s.logs.map((l) => l.content).join(" ") : (s.dialogue ?? []).map((t) => t.user).join(" ");
          const note = await chat(llm, `Remember: ${text}`);
          if (mode === "stateful") {
            const ns = String(body!.namespace);
            stateful.set(ns, [...(stateful.get(ns) ?? []), note]);
            return send(200, {});
          }
          send(200, { entries: [{ kind: "note", key: `${s.seq}:${body!.phase}`, content: { text: note } }] });
          // As a memory service's writes in the background: a model call after the answer was sent.
          if (mode === "late") late.push(chatStatus(llm, `Background write: ${text}`).then((r) => ({ apiKey: llm.apiKey, ...r })));
          return;
        }
        if (path === "/respond") {
          const input = body!.input as { type: string };
          if (mode === "wrongkeys") return send(200, { output: { answer_text: "x" } });
          const memory =
            mode === "stateful"
              ? (stateful.get(String(body!.namespace)) ?? [])
              : (body!.memory as Array<{ content: { text: string } }>).map((e) => e.content.text);
          const prompt = `Answer ${JSON.stringify(input)} with ${memory.join(" | ")}`;
          const text = mode === "invent" ? await chat(llm, prompt).catch(() => "a made-up answer") : await chat(llm, prompt);
          if (mode === "llm-twice") await chat(llm, prompt);
          return send(200, {
            output: OUT[input.type](answerPrefix + text),
            retrieved: memory.slice(0, 2).map((t, i) => ({ kind: "note", key: String(i), text: t })),
          });
        }
        send(404, { error: "no such path" });
      } catch (e) {
        send(500, { error: (e as Error).message });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** The calls made after answering (mode "late"), once each has its reply. */
    lateCalls: () => Promise.all(late),
    setMode: (m: MethodMode) => void (mode = m),
    /** Put before every answer's text (to tell the method's answers from another method's). */
    setAnswerPrefix: (p: string) => void (answerPrefix = p),
    /** Whether POST /reset is served (else 404, as a service without the optional path). */
    setResetSupported: (yes: boolean) => void (resetSupported = yes),
    /** The namespaces a stateful method holds memory under, with what each holds. */
    namespaces: () => new Map(stateful),
    /** The models GET / says the method calls outside the run. */
    setOutsideModels: (models: string[]) => void (outsideModels = models),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
