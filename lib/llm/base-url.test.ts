/** Base URLs with credentials in them are refused (issue 23, item 11): they are shown in plain text and travel in backups. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { saveEndpoint } from "./endpoints";
import { saveModelSetting } from "./config";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

describe("a base URL with user:pass@", () => {
  it("is refused for an endpoint and for a role, naming the record, and nothing is saved", () => {
    for (const url of ["http://alice:s3cret@10.0.0.5:8000/v1", "https://token@api.example.com/v1", "https://:pw@api.example.com/v1"]) {
      expect(() => saveEndpoint(t.db, { name: "lab", baseUrl: url, apiKey: null })).toThrow(
        /endpoint "lab": the base URL holds a user name or password .* enter the credential as the API key/,
      );
      expect(() => saveModelSetting(t.db, { name: "judge", baseUrl: url })).toThrow(/^judge: the base URL holds a user name or password/);
    }
    const n = (table: string) => (t.db.$client.prepare(`select count(*) n from ${table}`).get() as { n: number }).n;
    expect([n("endpoints"), n("model_settings")]).toEqual([0, 0]);
    // A URL with an @ only in its path is fine.
    expect(saveEndpoint(t.db, { name: "lab", baseUrl: "http://10.0.0.5:8000/v1/@team", apiKey: null })).toBeGreaterThan(0);
  });
});
