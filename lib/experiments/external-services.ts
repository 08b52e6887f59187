/**
 * Issue 41: the run card says which models an external method calls outside the run. As a run starts
 * in this process, each external method's service is asked what it is (GET /), and the run record keeps
 * its name, version and the models it names in `outsideModels`: those calls never pass through the run's
 * endpoint, so they are outside the ledger, the cost and the protocol audit. What a service said at an
 * earlier start of the run is kept (the union of its outside models): a resumed run forgets none.
 * A service that does not answer is recorded as such; the run goes on (its jobs then fail with it).
 */
import type { Db } from "@/db/client";
import { ASSISTANTS } from "@/lib/assistants/registry";
import { findExternalMethod } from "@/lib/assistants/external/store";
import { describeService } from "@/lib/assistants/external/check";
import { methodKey, type ExperimentConfig } from "./config";
import { patchRunRecord, type ExternalServiceRecord } from "./run-record";

/** How long a service may take to describe itself before a run starts. */
const DESCRIBE_MS = 10_000;
/**
 * A run the server's worker comes back to (its judge batch polled) starts again and again: its services
 * are asked again only after this long.
 */
const AGAIN_AFTER_MS = 10 * 60_000;
const askedAt = new Map<string, number>();

/** `again`: ask even when this process asked lately (as a new process resuming the run would). */
export async function recordExternalServices(
  db: Db,
  experimentId: number,
  config: ExperimentConfig,
  o: { again?: boolean } = {},
): Promise<ExternalServiceRecord[]> {
  const builtIn = new Set(ASSISTANTS.map((a) => a.id));
  const methods = config.methods
    .filter((m) => !builtIn.has(m.name))
    .map((m) => ({ key: methodKey(m), m: findExternalMethod(db, m.name) }))
    // A replay (pal bundle verify) registers none: it never contacts a service.
    .filter((x) => x.m !== null);
  if (!methods.length) return [];
  const now = Date.now();
  const memo = `${db.$client.name}\u0000${experimentId}`;
  if (!o.again && now - (askedAt.get(memo) ?? -Infinity) < AGAIN_AFTER_MS) return [];
  askedAt.set(memo, now);
  const described: ExternalServiceRecord[] = await Promise.all(
    methods.map(async ({ key, m }) => {
      const base = { method: m!.name, key, url: m!.url, describedAt: now };
      try {
        const d = await describeService(m!, DESCRIBE_MS);
        return {
          ...base,
          service: `${d.name}${d.version ? ` ${d.version}` : ""}`,
          memory: d.memory ?? null,
          outsideModels: d.outsideModels,
        };
      } catch (e) {
        return { ...base, service: null, memory: null, outsideModels: [], error: (e as Error).message };
      }
    }),
  );
  const r = patchRunRecord(db, experimentId, (rec) => {
    const before = new Map((rec.external ?? []).map((x) => [x.method, x]));
    for (const d of described) {
      const had = before.get(d.method);
      const outside = [...new Set([...(had?.outsideModels ?? []), ...d.outsideModels])];
      // A service down now keeps what it said when it answered.
      before.set(d.method, d.service === null && had?.service ? { ...had, error: d.error } : { ...d, outsideModels: outside });
    }
    return { ...rec, external: [...before.values()] };
  });
  return r.external ?? [];
}
