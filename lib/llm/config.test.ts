import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDb } from "@/test/db";
import { modelSettings } from "@/db/schema";
import { listModelConfigs, resolveModelConfig, saveModelSetting, deleteModelSetting } from "./config";
import { SavedKeyUnreadableError } from "./secrets";
import { checkModel } from "./check";
import { stubModelEnv } from "@/test/model-env";

let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
  stubModelEnv(t.file, {
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    OPENAI_API_KEY: "env-key",
    PAL_MODEL_ASSISTANT: "env-assistant",
    PAL_MODEL_JUDGE: "env-judge",
    PAL_JUDGE_BASE_URL: "http://127.0.0.1:8/v1/",
    PAL_MODEL_EMBEDDING: "",
  });
});
afterEach(() => {
  vi.unstubAllEnvs();
  t.cleanup();
});

describe("model configuration", () => {
  it("takes the environment as defaults, per-role variables over the shared ones", () => {
    expect(resolveModelConfig(t.db, "assistant")).toMatchObject({
      baseURL: "http://127.0.0.1:9/v1",
      apiKey: "env-key",
      model: "env-assistant",
    });
    expect(resolveModelConfig(t.db, "judge")).toMatchObject({ baseURL: "http://127.0.0.1:8/v1", model: "env-judge" });
    expect(() => resolveModelConfig(t.db, "embedding")).toThrow(/PAL_MODEL_EMBEDDING/);
    expect(() => resolveModelConfig(t.db, "critic")).toThrow(/unknown role/);
  });

  it("lets saved settings override field by field, stores keys encrypted, and never lists them", () => {
    saveModelSetting(t.db, { name: "assistant", model: "saved-model", apiKey: "sk-secret-123" });
    saveModelSetting(t.db, { name: "judge:gscore", model: "gpt-judge", params: { temperature: 0 } });
    const row = t.db
      .select()
      .from(modelSettings)
      .all()
      .find((r) => r.name === "assistant")!;
    expect(row.apiKeyEnc).toMatch(/^v1:/);
    expect(JSON.stringify(t.db.$client.prepare("select * from model_settings").all())).not.toContain("sk-secret-123");
    expect(resolveModelConfig(t.db, "assistant")).toMatchObject({
      model: "saved-model",
      apiKey: "sk-secret-123",
      baseURL: "http://127.0.0.1:9/v1",
    });
    expect(resolveModelConfig(t.db, "judge:gscore")).toMatchObject({
      model: "gpt-judge",
      baseURL: "http://127.0.0.1:8/v1",
      params: { temperature: 0 },
    });
    const listed = listModelConfigs(t.db);
    expect(listed.map((c) => c.name)).toEqual(["assistant", "user-simulator", "judge", "embedding", "judge:gscore"]);
    expect(listed[0]).toMatchObject({ key: "set", model: "saved-model", modelFrom: "settings", baseURLFrom: "env" });
    expect(listed[2]).toMatchObject({ key: "from env" });
    expect(JSON.stringify(listed)).not.toContain("sk-secret");
    // Keeping the key when the form leaves it out; removing it on request.
    saveModelSetting(t.db, { name: "assistant", model: "other" });
    expect(resolveModelConfig(t.db, "assistant").apiKey).toBe("sk-secret-123");
    saveModelSetting(t.db, { name: "assistant", model: "other", apiKey: "" });
    expect(resolveModelConfig(t.db, "assistant").apiKey).toBe("env-key");
    deleteModelSetting(t.db, "judge:gscore");
    expect(resolveModelConfig(t.db, "judge:gscore").model).toBe("env-judge");
    expect(() => saveModelSetting(t.db, { name: "assistant", baseUrl: "ftp://x" })).toThrow(/not an http/);
  });

  it("a changed encryption key: the key shows as unreadable with the reason, a call or check fails clearly, re-entering fixes it", async () => {
    vi.stubEnv("PAL_SECRET_KEY", "the-first-key");
    saveModelSetting(t.db, { name: "assistant", model: "saved-model", apiKey: "sk-secret-123" });
    expect(resolveModelConfig(t.db, "assistant").apiKey).toBe("sk-secret-123");
    vi.stubEnv("PAL_SECRET_KEY", "another-key");
    const listed = listModelConfigs(t.db).find((c) => c.name === "assistant")!;
    expect(listed.key).toBe("unreadable");
    expect(listed.keyError).toMatch(/saved keys cannot be decrypted: re-enter them/);
    let thrown: unknown;
    try {
      resolveModelConfig(t.db, "assistant");
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SavedKeyUnreadableError);
    expect((thrown as Error).message).toMatch(/^assistant: saved keys cannot be decrypted: re-enter them/);
    const check = await checkModel(t.db, "assistant");
    expect(check).toMatchObject({ status: "failed" });
    expect(check.error).toMatch(/saved keys cannot be decrypted: re-enter them/);
    saveModelSetting(t.db, { name: "assistant", apiKey: "sk-new-456" });
    expect(resolveModelConfig(t.db, "assistant").apiKey).toBe("sk-new-456");
    expect(listModelConfigs(t.db).find((c) => c.name === "assistant")!.key).toBe("set");
  });
});
