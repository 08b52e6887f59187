/** Base URLs with credentials in them are refused (issue 23, item 11): they are shown in plain text and travel in backups. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { listEndpoints, saveEndpoint } from "./endpoints";
import { listModelConfigs, resolveModelConfig, saveModelSetting } from "./config";
import { maskUrl } from "./base-url";

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

describe("a base URL with a key in its query string (issue 30.7)", () => {
  it("is refused for an endpoint, a role and the environment, naming the parameter; other parameters are kept", () => {
    for (const url of [
      "https://api.example.com/v1?api_key=sk-abcdefghijklmnop",
      "https://api.example.com/v1?key=AIzaSyD123456789",
      "https://api.example.com/v1?api-version=2024-06-01&access_token=abcdef123456",
      "https://api.example.com/v1?x=sk-abcdefghijklmnop",
    ]) {
      expect(() => saveEndpoint(t.db, { name: "lab", baseUrl: url, apiKey: null })).toThrow(
        /endpoint "lab": the base URL's query string holds a credential \(".*=…"\); remove it and enter the key as the API key/,
      );
      expect(() => saveModelSetting(t.db, { name: "judge", baseUrl: url })).toThrow(
        /^judge: the base URL's query string holds a credential/,
      );
    }
    expect(
      saveEndpoint(t.db, { name: "azure", baseUrl: "https://x.openai.azure.com/openai?api-version=2024-06-01", apiKey: null }),
    ).toBeGreaterThan(0);
  });

  it("from the environment (or saved before the rule), is refused when resolved and masked wherever it is listed", () => {
    vi.stubEnv("OPENAI_BASE_URL", "https://api.example.com/v1?api_key=sk-abcdefghijklmnop");
    vi.stubEnv("PAL_MODEL_ASSISTANT", "m");
    try {
      expect(() => resolveModelConfig(t.db, "assistant")).toThrow(
        /assistant \(OPENAI_BASE_URL or PAL_ASSISTANT_BASE_URL\): the base URL's query string/,
      );
      const listed = listModelConfigs(t.db).find((c) => c.name === "assistant")!;
      // What `pal models` and Admin → Models print.
      expect(listed.baseURL).toBe("https://api.example.com/v1?api_key=«masked»");
      // A row saved before the rule: listed masked.
      t.db.$client
        .prepare("INSERT INTO endpoints (name, base_url, json_mode) VALUES ('old', 'https://u:pw@h.example/v1?token=abcdef123456', 'off')")
        .run();
      const old = listEndpoints(t.db).find((e) => e.name === "old")!;
      expect(old.baseUrl).toBe("https://«masked»:«masked»@h.example/v1?token=«masked»");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("maskUrl leaves a URL without credentials as it is", () => {
    for (const url of ["http://10.0.0.5:8000/v1", "https://x.openai.azure.com/openai?api-version=2024-06-01", "not a url"])
      expect(maskUrl(url)).toBe(url);
    expect(maskUrl("garbage sk-abcdefghijklmnop")).toBe("garbage sk-«masked»");
  });
});
