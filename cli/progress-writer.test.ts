import { describe, expect, it } from "vitest";
import { LOG_EVERY_MS, progressWriter } from "./progress-writer";

/** A stream that records what was written, and a clock the test moves. */
function setup(isTTY: boolean) {
  const out: string[] = [];
  let now = 1_000_000;
  let n = 0;
  const w = progressWriter(
    { write: (s: string) => out.push(s), isTTY },
    () => `line ${++n}`,
    () => now,
  );
  return { out, w, advance: (ms: number) => (now += ms) };
}

describe("pal run's progress writer", () => {
  it("into a pipe: the first line, then at most one every 5 s, and the end", () => {
    const { out, w, advance } = setup(false);
    for (let i = 0; i < 1000; i++) {
      w.tick();
      advance(20); // a job every 20 ms: 20 s in all
    }
    w.end();
    // 1,000 jobs over 20 s: lines at 0, 5, 10 and 15 s, and the end (was 1,000 lines).
    expect(LOG_EVERY_MS).toBe(5000);
    expect(out.length).toBe(5);
    expect(out.every((l) => l.endsWith("\n") && !l.includes("\r"))).toBe(true);
  });

  it("into a pipe: nothing new since the last line, no repeated end line", () => {
    const { out, w, advance } = setup(false);
    w.tick();
    advance(10);
    w.end();
    expect(out).toEqual(["line 1\n"]);
  });

  it("on a terminal: redrawn in place, ended with a newline", () => {
    const { out, w, advance } = setup(true);
    for (let i = 0; i < 10; i++) {
      w.tick();
      advance(150);
    }
    expect(w.interrupt()).toBe("\n");
    w.end();
    expect(out.slice(0, -1).every((l) => l.startsWith("\r") && !l.includes("\n"))).toBe(true);
    expect(out.at(-1)!.endsWith("\n")).toBe(true);
  });
});
