import OpenAI, { APIError } from "openai";
import { redactSecrets } from "./redact";

export type Diagnosis = {
  /** What failed, in a word a person can act on. */
  kind:
    | "dns"
    | "refused"
    | "tls"
    | "timeout"
    | "unauthorized"
    | "forbidden"
    | "model not found"
    | "not found"
    | "rate limited"
    | "server error"
    | "bad request"
    | "connection"
    | "unknown";
  /** One line: the URL, what failed and what to do about it. */
  message: string;
};

/** The system error code under an SDK connection error (fetch wraps it in `cause`, sometimes twice). */
export function causeCode(e: unknown): string | null {
  let c: unknown = e;
  for (let i = 0; i < 5 && c; i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code;
    c = (c as { cause?: unknown }).cause;
  }
  return null;
}

function causeText(e: unknown): string {
  const parts: string[] = [];
  let c: unknown = e;
  for (let i = 0; i < 5 && c; i++) {
    if (c instanceof Error) parts.push(c.message);
    c = (c as { cause?: unknown }).cause;
  }
  return parts.join(" / ");
}

/**
 * What the endpoint said, when it answered as an OpenAI-compatible API does (a JSON body with an
 * `error`): its message, keys masked, at most 160 characters. Any other body (an HTML page, a proxy's
 * text, whatever answers at an address an admin typed) is not echoed: "Test connection" must not become
 * a way to read pages from addresses the server can reach.
 */
function apiSaid(e: APIError): string {
  const err = e.error as { message?: unknown } | undefined;
  if (!err || typeof err !== "object") return "the reply was not an API error (its body is not shown)";
  const m = typeof err.message === "string" ? err.message : JSON.stringify(err);
  return redactSecrets(m).slice(0, 160);
}

/**
 * Turns a failed request to an OpenAI-compatible endpoint into what a person can fix: DNS, refused,
 * TLS, timeout, 401/403, a model the endpoint does not serve, and the rest by status.
 */
/** What an HTTP status means for the person who set up the endpoint (`said`: what the endpoint said). */
function statusDiagnosis(status: number, said: string, at: string, model: string): Diagnosis {
  switch (true) {
    case status === 401:
      return { kind: "unauthorized", message: `${at}: the API key was refused (HTTP 401); enter the endpoint's key` };
    case status === 403:
      return { kind: "forbidden", message: `${at}: the key may not use this model or endpoint (HTTP 403): ${said}` };
    case status === 404 && /model/i.test(said):
      return { kind: "model not found", message: `${at}: the endpoint does not serve model "${model}" (HTTP 404); check the model name` };
    case status === 404:
      return {
        kind: "not found",
        message: `${at}: HTTP 404 for the chat path; the base URL usually ends in /v1 (e.g. https://api.openai.com/v1): ${said}`,
      };
    case status === 429:
      return { kind: "rate limited", message: `${at}: rate limited or out of quota (HTTP 429): ${said}` };
    case status >= 500:
      return { kind: "server error", message: `${at}: the server failed (HTTP ${status}); try again later: ${said}` };
    default:
      return { kind: "bad request", message: `${at}: HTTP ${status}: ${said}` };
  }
}

/** What a system error of the connection means (refused, DNS, TLS, ...); null when the code and text say nothing known. */
function systemDiagnosis(code: string | null, text: string, at: string, host: string): Diagnosis | null {
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || /getaddrinfo/.test(text))
    return { kind: "dns", message: `${at}: the host name ${host} could not be resolved (DNS); check the base URL` };
  if (code === "ECONNREFUSED")
    return { kind: "refused", message: `${at}: connection refused by ${host}; is the server running on that port?` };
  if ((code && /CERT|TLS|SSL|EPROTO/.test(code)) || /certificate|ssl|tls|wrong version number|EPROTO/i.test(text))
    return {
      kind: "tls",
      message: `${at}: the TLS handshake failed (${code ?? "TLS"}); http vs https mismatch, or a certificate this machine does not trust`,
    };
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT")
    return { kind: "timeout", message: `${at}: connecting to ${host} timed out; check the address and any firewall` };
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || /socket|terminated/i.test(text))
    return { kind: "connection", message: `${at}: the connection was dropped (${code ?? "reset"}); check a proxy or the server's logs` };
  return null;
}

const hostOf = (baseURL: string) => {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
};

const TIMEOUT_TEXT = "no answer before the timeout; check that the server is up and not overloaded, or raise the timeout";

/**
 * Turns a failed request to an OpenAI-compatible endpoint into what a person can fix: DNS, refused,
 * TLS, timeout, 401/403, a model the endpoint does not serve, and the rest by status.
 */
export function diagnose(e: unknown, baseURL: string, model: string): Diagnosis {
  const at = `${baseURL}`;
  if (e instanceof OpenAI.APIConnectionTimeoutError) return { kind: "timeout", message: `${at}: ${TIMEOUT_TEXT}` };
  if (e instanceof APIError && e.status !== undefined) return statusDiagnosis(e.status, apiSaid(e), at, model);
  const text = causeText(e);
  return (
    systemDiagnosis(causeCode(e), text, at, hostOf(baseURL)) ?? { kind: "unknown", message: `${at}: ${text.slice(0, 200) || String(e)}` }
  );
}

/**
 * The same diagnosis from a failure as the ledger recorded it (lib/llm/retry.ts describe: "timeout",
 * "HTTP 401: ...", "APIConnectionError: Connection error. (ECONNREFUSED)"): the hint Admin → Models →
 * Test connection gives, shown where a run paused on that failure (issue 44.3).
 */
export function diagnoseRecorded(error: string, baseURL: string, model: string): Diagnosis {
  const at = `${baseURL}`;
  if (/^timeout\b/.test(error)) return { kind: "timeout", message: `${at}: ${TIMEOUT_TEXT}` };
  const http = /HTTP (\d{3}):?\s*(.*)$/.exec(error);
  if (http) return statusDiagnosis(Number(http[1]), http[2].slice(0, 160), at, model);
  const code = /\(([A-Z][A-Z_]{3,})\)/.exec(error)?.[1] ?? null;
  return systemDiagnosis(code, error, at, hostOf(baseURL)) ?? { kind: "unknown", message: `${at}: ${error.slice(0, 200)}` };
}

/**
 * The hint for a run paused on an unreachable endpoint, from its pause reason alone ("the endpoint could not
 * be reached (URL): ... (ECONNREFUSED)", lib/llm/spend-guard.ts): what the experiment and judge pages show.
 */
export function pauseHint(reason: string | null | undefined): string | null {
  const url = reason ? /could not be reached \(([^)\s]+)\)/.exec(reason)?.[1] : undefined;
  if (!reason || !url) return null;
  const d = diagnoseRecorded(reason.slice(reason.indexOf(url) + url.length), url, "");
  return d.kind === "unknown" ? null : d.message;
}
