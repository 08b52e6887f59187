import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { listExternalMethods, findExternalMethod } from "@/lib/assistants/external/store";
import { addMethodForm, checkMethodForm, removeMethodForm, resetMethodForm } from "./method-forms";
import { knownMethod, methodChoices, withRegisteredLabels, withRegisteredLabelsIn } from "./method-choices";

const form = (o: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(o)) f.set(k, v);
  return f;
};

describe("Admin → Methods forms, and registered methods among the choices", () => {
  let t: ReturnType<typeof tempDb> | undefined;
  afterEach(() => t?.cleanup());

  it("registers with headers one per line, refuses reserved names and bad fields naming them, removes", async () => {
    t = tempDb();
    const db = t.db;
    expect(
      addMethodForm(
        db,
        form({
          name: "labrag",
          label: "Lab-RAG",
          url: "http://127.0.0.1:9",
          headers: "X-A: 1\r\nAuthorization: Bearer z\n",
          timeout: "5000",
        }),
      ),
    ).toEqual({
      ok: "Registered labrag.",
    });
    expect(findExternalMethod(db, "labrag")).toMatchObject({ headers: { "X-A": "1", Authorization: "Bearer z" }, timeoutMs: 5000 });
    // A HiCUPID context setting's name is taken too.
    expect(() => addMethodForm(db, form({ name: "rag-utterance", url: "http://x" }))).toThrow(/built-in/);
    expect(() => addMethodForm(db, form({ name: "other", url: "http://x", headers: "no colon" }))).toThrow(/expected "Name: value"/);
    expect(() => addMethodForm(db, form({ name: "other", url: "http://x", timeout: "abc" }))).toThrow(/timeoutMs/);
    expect(listExternalMethods(db).map((m) => m.name)).toEqual(["labrag"]);
    // Registered: a choice in the form, a known method of a config, named by its label on a command line.
    expect(methodChoices(db).find((m) => m.name === "labrag")).toMatchObject({ label: "Lab-RAG" });
    expect(() => knownMethod(db)({ name: "labrag", options: {} }, "methods[0]")).not.toThrow();
    expect(() => knownMethod(db)({ name: "nosuch", options: {} }, "methods[0]")).toThrow(/available: .*labrag/);
    expect(withRegisteredLabels(db, [{ name: "labrag" }, { name: "vanilla" }])).toEqual([
      { name: "labrag", label: "Lab-RAG" },
      { name: "vanilla" },
    ]);
    // A launch from the web: the methods and the reference by their labels.
    expect(withRegisteredLabelsIn(db, { methods: [{ name: "labrag" }], reference: "labrag", tasks: ["solution"] })).toEqual({
      methods: [{ name: "labrag", label: "Lab-RAG" }],
      reference: "Lab-RAG",
      tasks: ["solution"],
    });
    await expect(checkMethodForm(db, form({ name: "nosuch" }))).rejects.toThrow(/no external method/);
    expect(removeMethodForm(db, form({ name: "labrag" }))).toEqual({ ok: "Removed labrag." });
    expect(() => removeMethodForm(db, form({ name: "labrag" }))).toThrow(/no external method/);
  });

  it("Reset memory: one user's or every user's; an unknown method is refused naming it", async () => {
    t = tempDb();
    const db = t.db;
    addMethodForm(db, form({ name: "labrag", url: "http://127.0.0.1:9" }));
    // No memory version yet: nothing to reset, nothing sent.
    expect(await resetMethodForm(db, form({ name: "labrag", user: " 0000 " }))).toEqual({
      reset: { method: "labrag", versions: [], ok: true },
    });
    await expect(resetMethodForm(db, form({ name: "nosuch", user: "" }))).rejects.toThrow(/no external method named "nosuch"/);
  });
});
