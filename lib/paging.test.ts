import { afterEach, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { tempDb } from "@/test/db";
import { containsText, pageWindow } from "./paging";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

describe("paging and text filter", () => {
  it("clamps page and size from a URL", () => {
    expect(pageWindow(undefined, undefined)).toEqual({ page: 1, pageSize: 50, offset: 0 });
    expect(pageWindow(3, 20)).toEqual({ page: 3, pageSize: 20, offset: 40 });
    expect(pageWindow(NaN, 1e9)).toEqual({ page: 1, pageSize: 500, offset: 0 });
    expect(pageWindow(-4, 0, { defaultSize: 25, maxSize: 100 })).toEqual({ page: 1, pageSize: 25, offset: 0 });
    expect(pageWindow(2.7, 10.9).offset).toBe(10);
  });

  it("matches a substring case-insensitively, wildcards literally, on real SQLite", () => {
    t = tempDb();
    for (const email of ["ann_x@lab.org", "annex@lab.org", "Bob%@lab.org", "bob@lab.org"]) {
      t.db.insert(users).values({ email, role: "annotator", passwordHash: "x" }).run();
    }
    const find = (q: string) =>
      t!.db
        .select({ e: users.email })
        .from(users)
        .where(containsText(users.email, q))
        .all()
        .map((r) => r.e);
    expect(find("ANN")).toEqual(["ann_x@lab.org", "annex@lab.org"]);
    expect(find("n_x")).toEqual(["ann_x@lab.org"]);
    expect(find("b%")).toEqual(["Bob%@lab.org"]);
  });
});
