/** Names people read (issue 23, item 10): one line of visible text, 200 characters at most; nothing is stored otherwise. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { FIXTURES_DIR, PALSET_EN } from "@/test/fixtures";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation";
import { importPalset } from "@/lib/datasets/palset/import";
import { checkDisplayName } from "./display-name";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

describe("checkDisplayName", () => {
  it("trims and accepts one line of text, emoji and CJK included", () => {
    expect(checkDisplayName("name", "  PAL-Set 演示 👩‍🔬 ")).toBe("PAL-Set 演示 👩‍🔬");
  });
  it("refuses empty, over-long, multi-line and direction-overriding names, naming the field and the character", () => {
    expect(() => checkDisplayName("name", "  ")).toThrow(/^name: required$/);
    expect(() => checkDisplayName("name", "x".repeat(201))).toThrow(/^name: at most 200 characters \(got 201\)$/);
    expect(() => checkDisplayName("name", "a\r\nb")).toThrow(/^name: .* U\+000D$/);
    expect(() => checkDisplayName("name", "report\u202Efdp.exe")).toThrow(/U\+202E$/);
    expect(() => checkDisplayName("name", "a\u2066b")).toThrow(/U\+2066$/);
  });
});

describe("where names are given", () => {
  it("a campaign of 200,000 characters or with a line break is refused and nothing is written", async () => {
    const me = (await createUser(t.db, { email: "r@x.io", role: "researcher", password: "password-123" })).id;
    const text = fs.readFileSync(path.join(FIXTURES_DIR, "annotation", "pairwise-demo.jsonl"), "utf8");
    const input = (name: string) => ({
      name,
      kind: "pairwise-dialogue" as const,
      perItem: 1,
      annotatorIds: [me],
      source: { kind: "upload" as const, fileName: "p.jsonl", text },
    });
    expect(() => createCampaign(t.db, input("c".repeat(200_000)), me)).toThrow(/^name: at most 200 characters/);
    expect(() => createCampaign(t.db, input("two\nlines"), me)).toThrow(/^name: .*U\+000A/);
    expect((t.db.$client.prepare("select count(*) n from campaigns").get() as { n: number }).n).toBe(0);
  });

  it("a data set name with CR/LF or U+202E is refused before anything is read", async () => {
    const files = fs
      .readdirSync(PALSET_EN)
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(PALSET_EN, f));
    await expect(importPalset(t.db, { paths: files, name: "demo\r\nfake line", lang: "en" })).rejects.toThrow(/name: .*U\+000D/);
    await expect(importPalset(t.db, { paths: files, name: "demo\u202Etxt.exe", lang: "en" })).rejects.toThrow(/U\+202E/);
    expect((t.db.$client.prepare("select count(*) n from datasets").get() as { n: number }).n).toBe(0);
  });
});
