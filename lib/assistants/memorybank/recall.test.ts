import { describe, expect, it } from "vitest";
import { createRetriever } from "@/lib/retrieval";
import type { MakeIndex } from "../baselines/types";
import { memorybankRecall } from "./recall";
import type { Piece } from "./engine";

const bm25: MakeIndex = <T>() => createRetriever<T>("bm25", {});
const DAY = 86_400_000;

describe("MemoryBank answer-time forgetting", () => {
  const piece = (id: string, text: string, strength: number, lastRecalledAt: number): Piece => ({
    id,
    text,
    strength,
    lastRecalledAt,
    kind: "turn",
    seq: 0,
    date: "",
  });
  const pieces = [piece("weak", "swimming lessons", 1, 0), piece("strong", "swimming pool pass", 5, 0)];
  it("forgets by retention under the threshold rule and retrieves from the rest (0cc7111: e^(−t/S))", async () => {
    // At day 10: R(10 d, S=1) = e^-10 ≈ 4.5e-5 (forgotten); R(10 d, S=5) = e^-2 ≈ 0.135 (kept at 0.1).
    const r = await memorybankRecall(bm25, 3, "swimming", pieces, 10 * DAY, { kind: "threshold", threshold: 0.1, curve: "0cc7111" });
    expect(r.retrieved.map((p) => p.id)).toEqual(["strong"]);
    expect(r.forgotten).toBe(1);
  });
  it("as written in 3869efc, e^(−t·S/5): the stronger piece is the one that fades", async () => {
    // R(10 d, S=1) = e^-2 ≈ 0.135 (kept at 0.1); R(10 d, S=5) = e^-10 (forgotten).
    const r = await memorybankRecall(bm25, 3, "swimming", pieces, 10 * DAY, { kind: "threshold", threshold: 0.1 });
    expect(r.retrieved.map((p) => p.id)).toEqual(["weak"]);
  });
});
