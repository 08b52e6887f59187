/** The campaign form counts an experiment's runs from 1, as the experiment pages do (run 1 = replicate 0). */
import { describe, expect, it } from "vitest";
import { newCampaignFromForm } from "./form";

const form = (fields: Record<string, string>) => ({
  get: (k: string) => fields[k] ?? null,
  getAll: () => [],
  file: null,
});
const base = { source: "experiment", name: "c", kind: "pairwise-dialogue", experimentId: "3", methodA: "h2memory", methodB: "vanilla" };

describe("campaign form: the experiment's run", () => {
  it("reads run n as replicate n − 1, refuses run 0, and still takes an API client's replicate", () => {
    const src = (f: Record<string, string>) => newCampaignFromForm(form({ ...base, ...f }) as never).source;
    expect(src({ run: "1" })).toMatchObject({ kind: "experiment", replicate: 0 });
    expect(src({ run: "3" })).toMatchObject({ replicate: 2 });
    expect(() => src({ run: "0" })).toThrow("run: runs are counted from 1, got 0");
    expect(src({ replicate: "2" })).toMatchObject({ replicate: 2 });
    expect(src({})).toMatchObject({ replicate: 0 });
  });
});

describe("campaign form: who labels", () => {
  it("a participant link carries the same settings as the CLI's; empty fields keep their defaults; a bad number is named", () => {
    const read = (f: Record<string, string>) => newCampaignFromForm(form({ ...base, ...f }) as never);
    expect(read({}).link).toBeUndefined();
    const c = read({ assignment: "link", holdSeconds: "120", quota: "", completionCode: "ABC", consent: " ", gold: '{"id":"g"}' });
    expect(c).toMatchObject({
      link: true,
      crowd: { holdSeconds: 120, completionCode: "ABC", screenoutCode: null, consent: null },
      gold: { text: '{"id":"g"}' },
    });
    expect(c.crowd).not.toHaveProperty("quota");
    expect(() => read({ assignment: "link", goldRate: "lots" })).toThrow('goldRate: expected a number, got "lots"');
  });

  it("attention checks and the serving order reach the campaign's settings; a bad order is named", async () => {
    const read = (f: Record<string, string>) => newCampaignFromForm(form({ ...base, ...f }) as never);
    const c = read({ assignment: "link", attentionRate: "0.2", maxAttentionFails: "0", order: "most-disagreement" });
    expect(c.crowd).toMatchObject({ attentionRate: 0.2, maxAttentionFails: 0, order: "most-disagreement" });
    expect(read({ assignment: "link" }).crowd).not.toHaveProperty("order");
    const { parseCrowdSettings } = await import("./participants/settings");
    expect(parseCrowdSettings(c.crowd)).toMatchObject({ attentionRate: 0.2, order: "most-disagreement" });
    expect(parseCrowdSettings({})).toMatchObject({ attentionRate: 0, maxAttentionFails: 1, order: "least-labelled" });
    expect(() => parseCrowdSettings(read({ assignment: "link", order: "random" }).crowd)).toThrow(/^crowd\.order: /);
    expect(() => parseCrowdSettings(read({ assignment: "link", attentionRate: "0.9" }).crowd)).toThrow(/^crowd\.attentionRate: /);
  });
});
