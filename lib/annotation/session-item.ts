/** The content of a session-quality item: what the annotator reads, snapshotted when the campaign is made. */
import type { Db } from "@/db/client";
import { getPalSample, getPalUser } from "@/lib/datasets/palset/queries";
import { InvalidInputError } from "@/lib/errors";

export interface SessionItemContent extends Record<string, unknown> {
  timestamp: string;
  profile: Record<string, unknown> | null;
  situation: Record<string, unknown> | null;
  requirements: Array<{ aspect: string; requirementType: string | null; preferencePos: string[]; preferenceNeg: string[] }>;
  logs: Array<{ timestamp: string; type: string | null; content: string }>;
  dialogue: Array<{ role: "user" | "assistant"; content: string; action: string }>;
}

export function sessionItemContent(db: Db, datasetId: number, userKey: string, sampleKey: string): SessionItemContent {
  const s = getPalSample(db, datasetId, userKey, sampleKey);
  const u = getPalUser(db, datasetId, userKey);
  if (!s || !u) throw new InvalidInputError(`session ${userKey}/${sampleKey} not found`);
  // The requirement types the session's topics touch; the whole profile list when none is linked.
  const linked = s.topics.map((t) => t.requirementType).filter((r): r is NonNullable<typeof r> => r !== null);
  const reqs = linked.length ? linked : u.requirementTypes;
  const seen = new Set<string>();
  const requirements = reqs
    .map((r) => ({
      aspect: r.aspect,
      requirementType: r.requirementType,
      preferencePos: r.preferencePos ?? [],
      preferenceNeg: r.preferenceNeg ?? [],
    }))
    .filter((r) => {
      const k = `${r.aspect}|${r.requirementType}`;
      return seen.has(k) ? false : (seen.add(k), true);
    });
  return {
    timestamp: s.dialogueTimestamp,
    profile: u.background,
    situation: s.situation,
    requirements,
    logs: s.logs.map((l) => ({ timestamp: l.timestamp, type: l.logType, content: l.content })),
    dialogue: s.turns.flatMap((t) => [
      { role: "user" as const, content: t.userContent, action: t.userAction },
      { role: "assistant" as const, content: t.assistantContent, action: t.assistantAction },
    ]),
  };
}
