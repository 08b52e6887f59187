/**
 * MemorySnapshot (issue 35): the memory at a session read once and shared by the answers there holds
 * exactly what MemoryReader reads from SQLite at that point, for every kind, key and session; its
 * entries are frozen (shared between jobs); and a second answer at the same point reads nothing again.
 */
import { describe, expect, it } from "vitest";
import { fakeModelPerTest } from "@/test/fake-model-env";
import { probeResponder, registerProbe } from "@/test/probe-assistant";
import { ModelClient } from "@/lib/llm/client";
import { buildMemory } from "@/lib/assistants/core/build";
import { datasetByName } from "@/lib/assistants/core/sessions";
import { MemoryReader, MemorySnapshot, MemoryWriter } from "./store";
import { beginStep, finishStep, listSteps, openMemoryVersion } from "./versions";

registerProbe();
const m = fakeModelPerTest(probeResponder, { embedding: false });

describe("MemorySnapshot", () => {
  it("reads what MemoryReader reads at every session, frozen, and once per (version, session)", async () => {
    const db = await m.palsetDb();
    const dataset = datasetByName(db, "Marked PAL-Set");
    const [built] = await buildMemory(db, { dataset, method: "probe", users: ["0000"], llm: ModelClient.create(db) });
    expect(built.status).toBe("complete");
    const v = built.versionId;
    const kinds = (db.$client.prepare("SELECT DISTINCT kind FROM memory_entries WHERE version_id = ?").pluck().all(v) as string[]).sort();
    const seqs = db.$client.prepare("SELECT seq FROM memory_steps WHERE version_id = ? ORDER BY seq").pluck().all(v) as number[];
    expect(kinds.length).toBeGreaterThan(0);
    let compared = 0;
    for (const at of [...seqs, seqs.length]) {
      const sql = new MemoryReader(db, v, at);
      const snap = MemorySnapshot.of(db, v, at);
      expect(snap.list()).toEqual(sql.list());
      for (const kind of [...kinds, "no such kind"]) {
        expect(snap.list(kind)).toEqual(sql.list(kind));
        expect(snap.count(kind)).toBe(sql.count(kind));
        for (const e of sql.list(kind)) {
          expect(snap.get(kind, e.key)).toEqual(sql.get(kind, e.key));
          compared++;
        }
      }
      expect(snap.get(kinds[0], "no such key")).toBeNull();
    }
    expect(compared).toBeGreaterThan(10);

    const at = seqs.length;
    const first = MemorySnapshot.of(db, v, at).list();
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(() => {
      (first[0] as { key: string }).key = "changed";
    }).toThrow(TypeError);
    // list() hands out its own array: sorting it does not reorder the shared snapshot.
    first.reverse();
    expect(MemorySnapshot.of(db, v, at).list()).toEqual(new MemoryReader(db, v, at).list());
    // Read once: the rows gone from the table (never done to a complete step) are still what the snapshot shows.
    db.$client.prepare("DELETE FROM memory_entries WHERE version_id = ?").run(v);
    expect(MemorySnapshot.of(db, v, at).list()).toHaveLength(first.length);
    expect(new MemoryReader(db, v, at).list()).toHaveLength(0);
  });

  it("parses each entry's content once, shared and frozen; a replaced entry is a new row, read anew", async () => {
    const db = await m.palsetDb();
    const dataset = datasetByName(db, "Marked PAL-Set");
    const version = openMemoryVersion(db, {
      datasetId: dataset.id,
      userKey: "0000",
      method: "contents-probe",
      settings: {},
      language: "en",
      sessionsTotal: 2,
    });
    const step = beginStep(db, version.id, 1, "s1");
    expect(step).toMatchObject({ versionId: version.id, seq: 1, sessionKey: "s1", status: "building", error: null });
    const w = new MemoryWriter(db, version.id, 1, step.id);
    w.put("note", "a", { text: "first", tags: ["x"] });
    const [at1] = new MemoryReader(db, version.id, 1).list<{ text: string; tags: string[] }>("note");
    const [at2] = new MemoryReader(db, version.id, 2).list<{ text: string; tags: string[] }>("note");
    // One parsed object for the row, whichever reader or point in time asks.
    expect(at2.content).toBe(at1.content);
    expect(Object.isFrozen(at1.content) && Object.isFrozen(at1.content.tags)).toBe(true);
    expect(() => at1.content.tags.push("y")).toThrow(TypeError);

    // Replaced in the same phase: the first row is deleted, the new one has a new id and its own content.
    w.put("note", "a", { text: "second", tags: [] });
    const replaced = new MemoryReader(db, version.id, 1).get<{ text: string }>("note", "a")!;
    expect(replaced.id).not.toBe(at1.id);
    expect(replaced.content).toEqual({ text: "second", tags: [] });
    // Read once: a change behind the store's back (never made to a written row) is not read again.
    db.$client.prepare("UPDATE memory_entries SET content = ? WHERE id = ?").run(JSON.stringify({ text: "edited" }), replaced.id);
    expect(new MemoryReader(db, version.id, 1).list("note").map((e) => e.content)).toEqual([{ text: "second", tags: [] }]);

    // A failed step is rolled back when begun again: its entries go, and the step is building again.
    finishStep(db, step.id, "failed", "stopped");
    expect(listSteps(db, version.id)[0]).toMatchObject({ status: "failed", error: "stopped" });
    const redo = beginStep(db, version.id, 1, "s1-again");
    expect(redo).toMatchObject({ id: step.id, status: "building", error: null, sessionKey: "s1-again", finishedAt: null });
    expect(new MemoryReader(db, version.id, 1).list("note")).toEqual([]);
    finishStep(db, redo.id, "complete");
    expect(beginStep(db, version.id, 1, "s1")).toMatchObject({ id: step.id, status: "complete" });
  });
});
