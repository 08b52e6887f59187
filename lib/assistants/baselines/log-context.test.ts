import { describe, expect, it } from "vitest";
import { createRetriever } from "@/lib/retrieval";
import type { MakeIndex } from "./types";
import { sharedLogContext, type HistoryLog } from "./log-context";

const bm25: MakeIndex = <T>() => createRetriever<T>("bm25", {});

const log = (seq: number, position: number, content: string): HistoryLog => ({ seq, position, timestamp: `d${seq}`, content });

describe("shared log context", () => {
  it("keeps every current log and retrieves top-k from earlier sessions only", async () => {
    const history = [
      log(0, 0, "went running in the park"),
      log(0, 1, "bought running shoes"),
      log(1, 0, "dentist appointment"),
      log(2, 0, "running club meeting"), // the current session: never retrieved
      log(3, 0, "running marathon"), // a later session: never retrieved
    ];
    const r = await sharedLogContext(bm25, 2, "running shoes", 2, history, [{ timestamp: "now", content: "cooked dinner" }]);
    expect(r.current.map((l) => l.content)).toEqual(["cooked dinner"]);
    expect(r.retrieved.map((l) => `${l.seq}:${l.position}`)).toEqual(["0:1", "0:0"]);
    expect(await sharedLogContext(bm25, 3, "running", 0, history, [])).toEqual({ current: [], retrieved: [] });
  });
});
