/**
 * Issue 41.4: the explicit reset of a stateful method's memory, against a real HTTP method server that
 * keeps its memory per namespace (TEST DOUBLE of a lab's service): the service forgets the namespace and
 * PAL Studio clears the version, so the next build sends every session again; a service without /reset,
 * one user's reset, and `pal methods reset` (the real CLI).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeModelPerTest } from "@/test/fake-model-env";
import { probeResponder } from "@/test/probe-assistant";
import { startMethodServer } from "@/test/method-server";
import { runPal } from "@/test/pal-cli";
import type { Db } from "@/db/client";
import { ModelClient } from "@/lib/llm/client";
import { buildMemory } from "../core/build";
import { datasetByName } from "../core/sessions";
import { ASSISTANTS } from "../registry";
import { resetExternalMethod } from "./reset";
import { addExternalMethod } from "./store";

const m = fakeModelPerTest(probeResponder);
let svc: Awaited<ReturnType<typeof startMethodServer>>;
beforeEach(async () => {
  svc = await startMethodServer({ mode: "stateful" });
  vi.stubEnv("PAL_LLM_RETRIES", "1");
});
afterEach(() => svc.close());

const build = (db: Db, users = ["0000"]) =>
  buildMemory(db, {
    dataset: datasetByName(db, "Marked PAL-Set"),
    method: "mine",
    users,
    llm: ModelClient.create(db, { retryBaseMs: 5, timeoutMs: 1500 }),
  });
const steps = (db: Db, v: number) =>
  (db.$client.prepare("SELECT count(*) AS n FROM memory_steps WHERE version_id = ?").get(v) as { n: number }).n;
const status = (db: Db, v: number) =>
  (db.$client.prepare("SELECT status FROM memory_versions WHERE id = ?").get(v) as { status: string }).status;

describe("resetting an external method's memory", () => {
  it("the service forgets the namespace, the version is cleared here, and the next build sends every session again", async () => {
    const db = await m.palsetDb();
    addExternalMethod(
      db,
      { name: "mine", url: svc.url },
      ASSISTANTS.map((a) => a.id),
    );
    const [r] = await build(db);
    expect(r.status).toBe("complete");
    const ns = `v${r.versionId}`;
    expect(svc.namespaces().get(ns)).toHaveLength(6);
    expect(steps(db, r.versionId)).toBe(3);

    // Built already: a second build sends nothing.
    const before = svc.requests.filter((q) => q.path === "/sessions").length;
    await build(db);
    expect(svc.requests.filter((q) => q.path === "/sessions").length).toBe(before);

    const rep = await resetExternalMethod(db, "mine");
    expect(rep).toMatchObject({
      method: "mine",
      ok: true,
      versions: [{ version: r.versionId, user: "0000", namespace: ns, outcome: "reset" }],
    });
    expect(svc.requests.at(-1)).toMatchObject({ path: "/reset", body: { user: "0000", namespace: ns, method: "mine" } });
    expect(svc.namespaces().has(ns)).toBe(false);
    expect(steps(db, r.versionId)).toBe(0);
    expect(status(db, r.versionId)).toBe("building");

    // Rebuilt into the same (now empty) namespace, from the first session.
    const [again] = await build(db);
    expect(again).toMatchObject({ status: "complete", versionId: r.versionId });
    expect(svc.namespaces().get(ns)).toHaveLength(6);
    expect(svc.requests.filter((q) => q.path === "/sessions").length).toBe(before + 6);
  });

  it("changes nothing when the service has no /reset, and resets only the user asked", async () => {
    const db = await m.palsetDb();
    addExternalMethod(
      db,
      { name: "mine", url: svc.url },
      ASSISTANTS.map((a) => a.id),
    );
    const [r] = await build(db);
    svc.setResetSupported(false);
    const rep = await resetExternalMethod(db, "mine");
    expect(rep.ok).toBe(false);
    expect(rep.versions[0]).toMatchObject({ outcome: "unsupported", message: expect.stringMatching(/HTTP 404.*nothing was changed/) });
    // Not retried: a 404 will not become a 200.
    expect(svc.requests.filter((q) => q.path === "/reset")).toHaveLength(1);
    expect(steps(db, r.versionId)).toBe(3);
    expect(svc.namespaces().get(`v${r.versionId}`)).toHaveLength(6);

    svc.setResetSupported(true);
    expect((await resetExternalMethod(db, "mine", "nobody")).versions).toEqual([]);
    expect(svc.namespaces().get(`v${r.versionId}`)).toHaveLength(6);
    await expect(resetExternalMethod(db, "nosuch")).rejects.toThrow(/no external method named "nosuch"/);
  });

  it("pal methods reset NAME --user U: says what it did per memory version; exit 1 when the service has no reset", async () => {
    const t = m.db();
    const { importMarkedPalset } = await import("@/test/marked-data");
    m.onCleanup((await importMarkedPalset(t.db)).cleanup);
    addExternalMethod(
      t.db,
      { name: "mine", url: svc.url },
      ASSISTANTS.map((a) => a.id),
    );
    const [r] = await build(t.db);
    const ok = await runPal(t.file, m.fake.baseURL, ["methods", "reset", "mine", "--user", "0000"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`mine, user 0000, memory version ${r.versionId} (namespace v${r.versionId}): reset:`);
    svc.setResetSupported(false);
    const no = await runPal(t.file, m.fake.baseURL, ["methods", "reset", "mine", "--json"]);
    expect(no.code).toBe(1);
    expect(JSON.parse(no.stdout)).toMatchObject({ ok: false, versions: [{ outcome: "unsupported" }] });
  }, 60_000);
});
