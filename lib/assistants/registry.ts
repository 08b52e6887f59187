/**
 * Every memory method, in one list: the CLI, the experiment runner and the pages read it. A new
 * method is one new folder (<method>/index.ts exports its Assistant) plus one import and one line here.
 */
import { InvalidInputError } from "@/lib/errors";
import type { Assistant } from "./core/types";
import { vanilla } from "./vanilla";
import { vanillaLog } from "./vanilla-log";
import { turnRag } from "./turn-rag";
import { sessionRag } from "./session-rag";
import { recursum } from "./recursum";
import { conditionmem } from "./conditionmem";
import { memorybank } from "./memorybank";
import { ldAgent } from "./ld-agent";
import type { Db } from "@/db/client";
import { externalAssistant } from "./external";
import { findExternalMethod } from "./external/store";
import { resolveModelConfig } from "@/lib/llm/config";
import { h2memory, h2memoryNoBackground, h2memoryNoGraph, h2memoryNoPrinciple, h2memoryNoTopic } from "./h2memory";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each method has its own options type
export const ASSISTANTS: readonly Assistant<any>[] = [
  vanilla,
  vanillaLog,
  turnRag,
  sessionRag,
  recursum,
  conditionmem,
  memorybank,
  ldAgent,
  h2memory,
  h2memoryNoGraph,
  h2memoryNoBackground,
  h2memoryNoTopic,
  h2memoryNoPrinciple,
];

export function getAssistant(id: string): Assistant<unknown> {
  const a = ASSISTANTS.find((x) => x.id === id);
  if (!a) throw new InvalidInputError(`unknown method "${id}" (available: ${ASSISTANTS.map((x) => x.id).join(", ")})`);
  return a as Assistant<unknown>;
}

/**
 * A built-in method, else a registered external method (lib/assistants/external): what the builder and
 * respond use, since external methods live in the database.
 */
export function findAssistant(db: Db, id: string): Assistant<unknown> {
  if (ASSISTANTS.some((x) => x.id === id)) return getAssistant(id);
  const m = findExternalMethod(db, id);
  if (m) return externalAssistant(m, { embedding: hasModel(db, "embedding") }) as Assistant<unknown>;
  return getAssistant(id); // throws, naming the methods available
}

/** Whether a role has a model configured (an external method may call the embedding role only then). */
function hasModel(db: Db, role: "embedding"): boolean {
  try {
    resolveModelConfig(db, role);
    return true;
  } catch {
    return false;
  }
}
