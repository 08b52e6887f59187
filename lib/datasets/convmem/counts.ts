import type { ConvData } from "./types";

/** The counts convmemStats computes from the stored rows, from the data before it is written. */
export function dataCounts(d: ConvData): Record<string, number> {
  return {
    threads: d.threads.length,
    sessions: d.sessions.length,
    sessionRefs: d.threads.reduce((n, t) => n + t.timeline.length, 0),
    turns: d.sessions.reduce((n, s) => n + s.turns.length, 0),
    qa: d.qa.length,
  };
}
