/**
 * Loads one PAL-Set session for the session and topic pages through the PAL-Set query module and
 * shapes it as the props the components take (so it lives in app/, between lib/ and components/).
 * Null whenever any id is unknown (→ 404).
 */
import type { Db } from "@/db/client";
import { getPalSample, type PalSampleDetail } from "@/lib/datasets/palset/queries";
import { getDataset, type DatasetRow } from "@/lib/datasets/browse/datasets";
import { parseId, segment } from "@/lib/datasets/browse/params";
import { DATASET_KIND_LIST } from "@/lib/datasets/kinds";
import type { SessionData } from "@/components/datasets/SessionView";

export type LoadedSession = { ds: DatasetRow; userKey: string; session: SessionData };

export function loadSession(db: Db, raw: { datasetId: string; userKey: string; sampleKey: string }): LoadedSession | null {
  const id = parseId(raw.datasetId);
  const userKey = segment(raw.userKey);
  const sampleKey = segment(raw.sampleKey);
  if (id == null || userKey == null || sampleKey == null) return null;
  const ds = getDataset(db, id);
  if (!ds || !hasSessions(ds.kind)) return null;
  const s = getPalSample(db, ds.id, userKey, sampleKey);
  if (!s) return null;
  return { ds, userKey, session: toSessionData(s) };
}

/** Sessions (samples with logs, dialogue and topics) are what the kind's browse entry says it has. */
function hasSessions(kind: string): boolean {
  return DATASET_KIND_LIST.some((k) => k.id === kind && k.browse.sessions);
}

function toSessionData(s: PalSampleDetail): SessionData {
  return {
    sampleKey: s.sampleKey,
    split: s.split,
    dialogueTimestamp: s.dialogueTimestamp,
    situation: s.situation,
    prev: s.prevSampleKey,
    next: s.nextSampleKey,
    logs: s.logs.map(({ position, timestamp, logType, content }) => ({ position, timestamp, logType, content })),
    turns: s.turns.map(({ turnKey: _, ...t }) => t),
    topics: s.topics.map((t) => ({
      topicKey: t.topicKey,
      userQuery: t.userQuery,
      implicitNeeds: t.implicitNeeds,
      requirement: t.requirement,
      requirementTypeKey: t.requirementTypeKey,
      requirementType:
        t.requirementType && t.requirementTypeKey
          ? {
              aspect: t.requirementType.aspect,
              typeKey: t.requirementTypeKey,
              requirementType: t.requirementType.requirementType,
              preferencePos: t.requirementType.preferencePos ?? [],
              preferenceNeg: t.requirementType.preferenceNeg ?? [],
            }
          : null,
      solutionPos: t.solutionPos,
      solutionNeg: t.solutionNeg,
      candidates: t.candidates,
      framework: t.framework,
      solutionPreference: t.solutionPreference,
    })),
  };
}
