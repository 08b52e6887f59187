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
  it("forgets by retention under the threshold rule and retrieves from the rest", async () => {
    // At day 10: R(10 d, S=1) = e^-10 ≈ 4.5e-5 (forgotten); R(10 d, S=5) = e^-2 ≈ 0.135 (kept at 0.1).
    const pieces = [piece("weak", "swimming lessons", 1, 0), piece("strong", "swimming pool pass", 5, 0)];
    const r = await memorybankRecall(bm25, 3, "swimming", pieces, 10 * DAY, { kind: "threshold", threshold: 0.1 });
    expect(r.retrieved.map((p) => p.id)).toEqual(["strong"]);
    expect(r.forgotten).toBe(1);
  });
});
