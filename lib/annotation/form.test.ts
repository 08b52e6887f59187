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
