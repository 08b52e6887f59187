/**
 * What building a method's memory for some users will cost, before anything is spent (the dry run):
 * 0 for the users whose memory version is already complete, the method's own estimate
 * (Assistant.estimateBuild) over the sessions still to build for the others.
 */
import type { Db } from "@/db/client";
import type { ModelRole } from "@/db/schema";
import { InvalidInputError } from "@/lib/errors";
import type { ModelClient, RoleParams } from "@/lib/llm/client";
import { findMemoryVersion, listSteps, settingsKeyOf } from "@/lib/memory/versions";
import { checkRetrieverKind, memorySettings, parseOptions } from "./context";
import { findAssistant } from "../registry";
import { loadSessions, type DatasetRef } from "./sessions";
import type { BuildSharedPart, CallRange } from "./types";

/** Tokens per build call by role when the ledger has too few build calls to measure them. */
export const BUILD_TOKEN_GUESS: Partial<Record<ModelRole, { prompt: number; completion: number }>> = {
  assistant: { prompt: 1500, completion: 300 },
  embedding: { prompt: 400, completion: 0 },
};

export type MemoryBuildEstimate = {
  method: string;
  users: number;
  /** Users whose memory is already complete (nothing to pay). */
  usersBuilt: number;
  /** Calls per role; null when the method states no estimate. */
  calls: Partial<Record<ModelRole, CallRange>> | null;
  exact: boolean;
  /** How the bounds arise (the method's words), when not exact. */
  note: string | null;
  /** Per user, the parts of `calls` another method may make with the same requests (BuildEstimate.shared); 0 calls for a built user. */
  shared: Array<BuildSharedPart & { userKey: string }>;
};

export type EstimateBuildInput = {
  dataset: DatasetRef;
  method: string;
  options?: unknown;
  retriever?: string;
  users: string[];
  /** Reads the build roles' endpoints (part of the memory's identity); never calls a model. */
  llm: ModelClient;
  /** The run's parameters per role (part of the memory's identity, as buildMemory gets them). */
  roleParams?: RoleParams;
};

/**
 * The memory versions these users would be built into (as buildMemory opens them). Null when a build
 * role has no model configured: then no version can match (and a launch is refused anyway).
 */
function settingsKey(a: ReturnType<typeof findAssistant>, i: EstimateBuildInput): string | null {
  try {
    return settingsKeyOf(
      memorySettings(a, parseOptions(a, i.options), checkRetrieverKind(i.retriever), i.dataset.language, i.llm, i.roleParams),
    );
  } catch (e) {
    if (e instanceof InvalidInputError) return null;
    throw e;
  }
}

export function estimateMemoryBuild(db: Db, i: EstimateBuildInput): MemoryBuildEstimate {
  const a = findAssistant(db, i.method);
  const options = parseOptions(a, i.options);
  const retrieverKind = checkRetrieverKind(i.retriever);
  const out: MemoryBuildEstimate = { method: a.id, users: i.users.length, usersBuilt: 0, calls: {}, exact: true, note: null, shared: [] };
  const key = a.buildRoles.length ? settingsKey(a, i) : null;
  for (const userKey of i.users) {
    const sessions = loadSessions(db, i.dataset, userKey);
    const v = key ? findMemoryVersion(db, { datasetId: i.dataset.id, userKey, method: a.id, settingsKey: key }) : null;
    if (v?.status === "complete" && v.sessionsTotal === sessions.length) {
      out.usersBuilt++;
      // Its shareable parts cost nothing more (their replies are cached): listed with 0 calls.
      const none = a.estimateBuild?.(sessions, {
        options,
        datasetKind: i.dataset.kind,
        retrieverKind,
        done: new Set(sessions.map((s) => s.seq)),
      });
      for (const p of none?.shared ?? []) out.shared.push({ userKey, key: p.key, calls: {} });
      continue;
    }
    // A method that calls no model while building costs nothing whatever its memory's state.
    if (!a.buildRoles.length) continue;
    if (!a.estimateBuild) {
      out.calls = null;
      continue;
    }
    const done = new Set(
      v
        ? listSteps(db, v.id)
            .filter((s) => s.status === "complete")
            .map((s) => s.seq)
        : [],
    );
    const e = a.estimateBuild(sessions, { options, datasetKind: i.dataset.kind, retrieverKind, done });
    if (out.calls) {
      for (const [role, r] of Object.entries(e.calls) as Array<[ModelRole, CallRange]>) {
        const sum = (out.calls[role] ??= { min: 0, max: 0 });
        sum.min += r.min;
        sum.max += r.max;
        if (r.min !== r.max) out.exact = false;
      }
    }
    if (e.note && !out.note) out.note = e.note;
    for (const p of e.shared ?? []) out.shared.push({ userKey, ...p });
  }
  if (!out.calls) out.exact = false;
  return out;
}
