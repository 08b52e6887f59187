import { e2eState } from "./state";
import { startFakeOpenAI, type FakeOpenAI } from "../test/fake-openai";
import { campaignJudgeReplies } from "../test/experiment-replies";

/**
 * A named judge configuration of the spec's own, pointed at a TEST DOUBLE that answers campaign judge
 * prompts. Specs run in parallel on one app and database: a named judge leaves the global judge role,
 * which other specs rely on, untouched. Call from beforeAll; close the returned double in afterAll.
 */
export async function startNamedJudge(name: string, model: string): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI({ latencyMs: 5 });
  fake.setResponder(campaignJudgeReplies());
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(e2eState().dbPath);
  try {
    db.prepare(
      "insert into model_settings (name, role, base_url, model) values (?, 'judge', ?, ?) on conflict(name) do update set base_url = excluded.base_url, model = excluded.model",
    ).run(name, fake.baseURL, model);
  } finally {
    db.close();
  }
  return fake;
}
