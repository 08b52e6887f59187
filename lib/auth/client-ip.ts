import type http from "node:http";
import { trustProxy, type Env } from "./origin";

/**
 * The address a login attempt is counted against. Only a reverse proxy that we run may tell us the
 * client's address (PAL_TRUST_PROXY=1): it appends the peer it saw to X-Forwarded-For, so the last
 * entry is the one to believe (the first ones are whatever the client sent). Without a proxy the
 * forwarding headers a client sends are removed on arrival (installForwardedHeaderGuard), and Next
 * then fills X-Forwarded-For with the socket's own peer address.
 */
export function clientIp(headers: Record<string, unknown> | undefined, env: Env = process.env): string {
  const get = (k: string) => (typeof headers?.[k] === "string" ? (headers[k] as string) : "");
  const entries = get("x-forwarded-for")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const ip = trustProxy(env) ? entries.at(-1) || get("x-real-ip") : entries.at(-1);
  return (ip || "local").slice(0, 64);
}

/** The headers by which a client could claim another address, host or scheme. */
export const FORWARDING_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
];

export function stripForwardingHeaders(headers: http.IncomingHttpHeaders): void {
  for (const h of FORWARDING_HEADERS) delete headers[h];
}

/**
 * Without a trusted proxy, removes client-sent forwarding headers from every incoming request before
 * Next sees it (called from instrumentation.ts at server start). Next only fills X-Forwarded-For
 * with the peer address when the header is absent, and route code has no other way to see the socket,
 * so this is where a spoofed address must be dropped.
 */
export function installForwardedHeaderGuard(httpModule: typeof http, env: Env = process.env): void {
  if (trustProxy(env)) return;
  const proto = httpModule.Server.prototype as http.Server & { __palForwardGuard?: boolean };
  if (proto.__palForwardGuard) return;
  proto.__palForwardGuard = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") stripForwardingHeaders((args[0] as http.IncomingMessage).headers);
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
}
