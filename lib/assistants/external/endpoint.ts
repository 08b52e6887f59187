/**
 * The run's OpenAI-compatible endpoint for external methods: POST /v1/chat/completions, POST
 * /v1/embeddings and GET /v1/models on loopback, served by the process that runs the method (`pal run`,
 * the app's worker). A key is made for each request PAL Studio sends the method (a session's phase, an
 * answer). While that request is in flight its calls go through that job's (or memory version's) model
 * handle, so the cache, retries, limits, spend cap, ledger (origin and purpose "<method>.llm"), the
 * role's parameters and the protocol audit cover them. Inside a run (./run-scope.ts) the key stays valid
 * until the run stops: a call made after its request was answered (a service's writes in the background)
 * is credited to the one request of that method and user then in flight, else to the run itself, still
 * under its spend cap; once the run stops, pauses, finishes or is cancelled, the key is refused (401).
 * Outside a run a key lives for its one request. The endpoints' real keys never leave this process.
 */
import http from "node:http";
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import type { ModelClient } from "@/lib/llm/client";
import { RunPausedError } from "@/lib/llm/spend-guard";
import { envValue } from "@/lib/config";
import { InvalidInputError } from "@/lib/errors";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "@/lib/json-depth";
import type { GrantModel, LlmAccess } from "./protocol";
import { currentRun, type ExternalRun } from "./run-scope";

export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/**
 * Bounds of the endpoint's server, for a client that is slow or never finishes (a slowloris; the endpoint
 * may listen beyond loopback, PAL_METHOD_ENDPOINT): the headers within 10 s, the whole request within
 * 30 s (not the reply, which waits for the model), at most 256 connections open (each holds at most
 * MAX_REQUEST_BYTES while read). Node checks the two timeouts every `checkMs`. Tests lower them before
 * the endpoint's first use.
 */
export const ENDPOINT_LIMITS = { headersMs: 10_000, requestMs: 30_000, checkMs: 1_000, maxConnections: 256 };

export type { GrantModel } from "./protocol";

/** What one key may do, and what its calls did. */
export type Grant = {
  llm: GrantModel;
  method: string;
  /** Logical calls made (cache hits included). */
  calls: number;
  /** Cache keys of the chat calls: the entries the request hands back are linked to them. */
  callKeys: string[];
  /** A failure that ends the request whatever the method does with it (the run paused on its spend cap). */
  fatal: Error | null;
};

/** A key: the request it was made for (null once answered), and the run it belongs to (null: none). */
type KeyRecord = { grant: Grant | null; run: ExternalRun | null; method: string; who: string };
const keys = new Map<string, KeyRecord>();

/** Per run: its keys, its requests in flight by method and user, and its own grant per method. */
type RunKeys = { keys: string[]; inFlight: Map<string, Set<Grant>>; own: Map<string, Grant> };
const runs = new WeakMap<ExternalRun, RunKeys>();

function runKeys(run: ExternalRun): RunKeys {
  let r = runs.get(run);
  if (!r) {
    const made: RunKeys = { keys: [], inFlight: new Map(), own: new Map() };
    runs.set(run, (r = made));
    run.onClose.push(() => {
      for (const k of made.keys) keys.delete(k);
      made.keys.length = 0;
      made.inFlight.clear();
    });
  }
  return r;
}

const newGrant = (llm: GrantModel, method: string): Grant => ({ llm, method, calls: 0, callKeys: [], fatal: null });

/**
 * What a key's call goes through, or null (refused). The request in flight: its own grant (a pause then
 * reaches it through the spend guard and ends the request). Answered: the run's stop refuses it; else the
 * one request of the same method and user in flight (its model handle, its job in the ledger), else the run.
 */
function grantOf(token: string): Grant | null {
  const rec = keys.get(token);
  if (!rec) return null;
  if (rec.grant) return rec.grant;
  const run = rec.run;
  if (!run || run.stopped()) return null;
  const state = runKeys(run);
  const flying = state.inFlight.get(rec.who);
  if (flying?.size === 1) {
    const [g] = flying;
    // Its job's handle, not its counts: the entries that request hands back were not made by this call.
    return newGrant(g.llm, rec.method);
  }
  let own = state.own.get(rec.method);
  if (!own) state.own.set(rec.method, (own = newGrant(run.model, rec.method)));
  return own;
}

let listening: Promise<string> | null = null;

const content = z.union([z.string(), z.array(z.object({ type: z.literal("text"), text: z.string() })).max(100)]);
const chatBody = z.object({
  model: z.string().max(200).optional(),
  messages: z
    .array(z.object({ role: z.enum(["system", "user", "assistant", "developer"]), content }))
    .min(1)
    .max(1000),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  seed: z.number().int().optional(),
  max_tokens: z.number().int().min(1).max(200_000).optional(),
  max_completion_tokens: z.number().int().min(1).max(200_000).optional(),
  response_format: z.object({ type: z.enum(["text", "json_object"]) }).optional(),
  stream: z.literal(false).optional(),
  n: z.literal(1).optional(),
});
/**
 * What `response_format: json_object` asks for: a JSON object (the endpoint's JSON mode makes the model
 * write one; a reply that is not is asked again, then the call fails). One constant: its JSON Schema is
 * converted once.
 */
const JSON_OBJECT = z.record(z.string(), z.unknown());

const embedBody = z.object({
  model: z.string().max(200).optional(),
  input: z.union([z.string().max(100_000), z.array(z.string().max(100_000)).min(1).max(2048)]),
});

/**
 * Opens a grant for one request to the method (for `user`'s memory or answer); `close` says the request
 * was answered: outside a run its key is revoked then, inside one it stays valid until the run stops.
 */
export async function openGrant(
  llm: GrantModel | ModelClient,
  method: string,
  user = "",
): Promise<{ access: LlmAccess; grant: Grant; close: () => void }> {
  const baseUrl = await endpointUrl();
  const key = `pal-run-${crypto.randomBytes(24).toString("base64url")}`;
  const grant = newGrant(llm as GrantModel, method);
  const run = currentRun() ?? null;
  const rec: KeyRecord = { grant, run, method, who: `${method}\u0000${user}` };
  keys.set(key, rec);
  if (run) {
    const state = runKeys(run);
    if (run.closed) keys.delete(key);
    else state.keys.push(key);
    let flying = state.inFlight.get(rec.who);
    if (!flying) state.inFlight.set(rec.who, (flying = new Set()));
    flying.add(grant);
  }
  return {
    access: { baseUrl, apiKey: key, models: { assistant: "assistant", embedding: "embedding" } },
    grant,
    close: () => {
      rec.grant = null;
      if (!run) keys.delete(key);
      else {
        const flying = runKeys(run).inFlight.get(rec.who);
        flying?.delete(grant);
        if (flying && !flying.size) runKeys(run).inFlight.delete(rec.who);
      }
    },
  };
}

/**
 * The endpoint's base URL (…/v1), started on first use: on a free loopback port, or where
 * PAL_METHOD_ENDPOINT says (a method on another machine). It never keeps the process alive.
 */
export function endpointUrl(): Promise<string> {
  listening ??= new Promise<string>((resolve, reject) => {
    const at = envValue("PAL_METHOD_ENDPOINT");
    let host = "127.0.0.1";
    let port = 0;
    if (at) {
      const u = URL.canParse(at) ? new URL(at) : null;
      if (!u || u.protocol !== "http:" || !u.port)
        return reject(new InvalidInputError(`PAL_METHOD_ENDPOINT: expected http://HOST:PORT, not "${at}"`));
      host = u.hostname.replace(/^\[|\]$/g, "");
      port = Number(u.port);
    }
    const L = ENDPOINT_LIMITS;
    const server = http.createServer(
      { headersTimeout: L.headersMs, requestTimeout: L.requestMs, connectionsCheckingInterval: L.checkMs },
      (req, res) => void handle(req, res),
    );
    server.maxConnections = L.maxConnections;
    server.on("error", (e) => {
      listening = null;
      reject(new Error(`the external methods' model endpoint cannot listen on ${host}:${port}: ${e.message}`));
    });
    server.listen(port, host, () => {
      server.unref();
      const p = (server.address() as AddressInfo).port;
      resolve(at ? `${new URL(at).origin}/v1` : `http://127.0.0.1:${p}/v1`);
    });
  });
  return listening;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body), "utf8");
  // Headers as a flat list (no object walk), the body as one buffer: one write per reply.
  res.writeHead(status, ["content-type", "application/json", "content-length", String(bytes.length)]);
  res.end(bytes);
}

const fail = (res: http.ServerResponse, status: number, message: string, type: string) => send(res, status, { error: { message, type } });

/** The body, or null past MAX_REQUEST_BYTES (declared or sent): the rest is then not read. */
function readBody(req: http.IncomingMessage): Promise<string | null> {
  if (Number(req.headers["content-length"] ?? 0) > MAX_REQUEST_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) {
        // Not destroyed here: the 413 must still reach the method (tooLarge closes the connection after it).
        req.removeAllListeners("data");
        req.pause();
        chunks.length = 0;
        resolve(null);
      } else chunks.push(c);
    });
    req.on("end", () => resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8")));
    req.on("error", reject);
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  try {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const grant = token ? grantOf(token) : null;
    if (!grant)
      return fail(
        res,
        401,
        "unknown or expired key: a run-scoped key is valid only while its run runs (outside a run, while PAL Studio waits for the method's reply)",
        "invalid_api_key",
      );
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const path = (q < 0 ? url : url.slice(0, q)).replace(/\/+$/, "");
    if (req.method === "GET" && path === "/v1/models")
      return send(res, 200, {
        object: "list",
        data: ["assistant", "embedding"].map((id) => ({ id, object: "model", owned_by: "pal-studio" })),
      });
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/v1/embeddings"))
      return fail(
        res,
        404,
        `${req.method} ${path} is not served here (POST /v1/chat/completions, POST /v1/embeddings, GET /v1/models)`,
        "not_found",
      );
    const raw = await readBody(req);
    if (raw === null) {
      // The rest of the body is never read: the connection closes once the refusal is out.
      res.shouldKeepAlive = false;
      res.on("finish", () => req.destroy());
      return fail(res, 413, `request body over ${MAX_REQUEST_BYTES} bytes`, "invalid_request_error");
    }
    // Before parsing: 4 MB of brackets would hold the event loop (the run's other jobs) for half a second.
    const deep = jsonTextTooDeep(raw);
    if (deep) return fail(res, 400, `${deep.field}: nested deeper than ${MAX_JSON_DEPTH} levels`, "invalid_request_error");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return fail(res, 400, "the request body is not JSON", "invalid_request_error");
    }
    if (path === "/v1/embeddings") return await embeddings(grant, json, res);
    return await chat(grant, json, res);
  } catch (e) {
    if (!res.headersSent) fail(res, 500, (e as Error).message, "server_error");
  }
}

const badRequest = (res: http.ServerResponse, e: z.ZodError) =>
  fail(res, 400, `${e.issues[0].path.join(".") || "(root)"}: ${e.issues[0].message}`, "invalid_request_error");

/** A model failure as the method sees it; a spend-cap pause is also kept to end the request. */
function modelFailure(grant: Grant, res: http.ServerResponse, e: unknown): void {
  if (e instanceof RunPausedError) {
    grant.fatal ??= e;
    return fail(res, 429, e.message, "run_paused");
  }
  fail(res, 502, e instanceof Error ? e.message : String(e), "model_failed");
}

async function chat(grant: Grant, json: unknown, res: http.ServerResponse): Promise<void> {
  const r = chatBody.safeParse(json);
  if (!r.success) return badRequest(res, r.error);
  const b = r.data;
  // Only what the method sends overrides the role's parameters (the preset's temperature where it sends none).
  const params: Record<string, unknown> = {};
  if (b.temperature !== undefined) params.temperature = b.temperature;
  if (b.top_p !== undefined) params.top_p = b.top_p;
  if (b.seed !== undefined) params.seed = b.seed;
  const messages = b.messages.map((m) => ({
    role: m.role === "developer" ? ("system" as const) : m.role,
    content: typeof m.content === "string" ? m.content : m.content.map((p) => p.text).join(""),
  }));
  try {
    grant.calls++;
    const out = await grant.llm.chat({
      messages,
      purpose: `${grant.method}.llm`,
      params: Object.keys(params).length ? params : undefined,
      maxTokens: b.max_completion_tokens ?? b.max_tokens,
      ...(b.response_format?.type === "json_object" ? { schema: JSON_OBJECT } : {}),
    });
    grant.callKeys.push(out.cacheKey);
    const u = out.usage;
    send(res, 200, {
      id: `chatcmpl-${out.cacheKey.slice(0, 24)}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: b.model ?? "assistant",
      choices: [{ index: 0, message: { role: "assistant", content: out.text }, finish_reason: "stop" }],
      usage: { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.promptTokens + u.completionTokens },
    });
  } catch (e) {
    modelFailure(grant, res, e);
  }
}

async function embeddings(grant: Grant, json: unknown, res: http.ServerResponse): Promise<void> {
  const r = embedBody.safeParse(json);
  if (!r.success) return badRequest(res, r.error);
  const texts = typeof r.data.input === "string" ? [r.data.input] : r.data.input;
  try {
    grant.calls++;
    const vectors = await grant.llm.embed(texts, { purpose: `${grant.method}.llm` });
    send(res, 200, {
      object: "list",
      model: r.data.model ?? "embedding",
      data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  } catch (e) {
    modelFailure(grant, res, e);
  }
}
