import { describe, expect, it } from "vitest";
import { createRetriever } from "@/lib/retrieval";
import type { MakeIndex } from "../baselines/types";
import { retrieveEvents } from "./retrieve";
import type { LdEvent } from "./engine";

const bm25n: MakeIndex = <T>() => createRetriever<T>("bm25", { normalize: true });
const DAY = 86_400_000;

describe("LD-Agent event retrieval", () => {
  const ev = (key: string, summary: string, nouns: string[], at: number): LdEvent => ({ key, at, summary, nouns, seqs: [0] });
  it("keeps s_sem > γ only and ranks by e^(−t/τ)(s_sem + s_top)", async () => {
    const events = [
      ev("a", "talked about the gym and knee pain", ["gym", "knee", "pain"], 0),
      ev("b", "planned a birthday party", ["birthday", "party"], 0),
    ];
    const nouns = (t: string) => t.split(/\W+/).filter((w) => ["gym", "knee", "party"].includes(w));
    const hits = await retrieveEvents(bm25n, nouns, "gym knee", 10 * DAY, events, { k: 3, gamma: 0.03, tauSeconds: 1e7 });
    expect(hits.map((h) => h.event.key)).toEqual(["a"]);
    const h = hits[0];
    expect(h.top).toBeCloseTo(0.5 * (2 / 2 + 2 / 3), 12);
    expect(h.decay).toBeCloseTo(Math.exp(-(10 * 86_400) / 1e7), 12);
    expect(h.score).toBeCloseTo(h.decay * (h.sem + h.top), 12);
    expect(await retrieveEvents(bm25n, nouns, "weather", 0, events, { k: 3, gamma: 0.03 })).toEqual([]); // "no relevant memory"
  });
});
