import { InvalidInputError } from "@/lib/errors";
import type { ModelClient, RoleParams } from "@/lib/llm/client";
import { createRetriever, RETRIEVER_KINDS, type Retriever, type RetrieverKind } from "@/lib/retrieval";
import type { Assistant, Language } from "./types";

export type MethodSetup = {
  /** The method name (registry id). */
  method: string;
  /** Method options; parsed with the method's schema (defaults filled in). */
  options?: unknown;
  /** Retriever kind for methods that retrieve (default bm25). */
  retriever?: RetrieverKind;
  /** Builds retrievers; `defaultRetrievers` (lib/retrieval) unless a test injects another. */
  createRetriever?: CreateRetriever;
  /**
   * A run's parameters per role (ModelClient.forRun: the assistant's temperature...), part of the
   * memory's identity: a memory built at another temperature is another memory, never reused silently.
   */
  roleParams?: RoleParams;
};

export type RetrieverRequest = { language: Language; llm: ModelClient; purpose: string };
export type CreateRetriever = (kind: RetrieverKind, req: RetrieverRequest) => Retriever;

/**
 * The production retrievers: BM25/TF-IDF over the data set's language (no network), dense through
 * the model client's embedding role (vectors cached per model and text in SQLite).
 */
export const defaultRetrievers: CreateRetriever = (kind, { language, llm, purpose }) => {
  if (kind === "dense") {
    return createRetriever("dense", { model: llm.config("embedding").model, embed: (texts) => llm.embed(texts, { purpose }) });
  }
  return createRetriever(kind, { tokenizer: { language } });
};

export function parseOptions<O>(a: Assistant<O>, options: unknown): O {
  const r = a.options.safeParse(options ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidInputError(`options of method "${a.id}": ${i.path.join(".") || "(root)"}: ${i.message}`);
  }
  return r.data;
}

export function checkRetrieverKind(kind: string | undefined): RetrieverKind {
  const k = kind ?? "bm25";
  if (!(RETRIEVER_KINDS as readonly string[]).includes(k))
    throw new InvalidInputError(`--retriever: expected ${RETRIEVER_KINDS.join(" or ")}, got "${k}"`);
  return k as RetrieverKind;
}

export function retrieverFactory(
  setup: MethodSetup,
  kind: RetrieverKind,
  language: Language,
  llm: ModelClient,
  method: string,
): (k?: RetrieverKind) => Retriever {
  return (k = kind) => {
    const create = setup.createRetriever ?? defaultRetrievers;
    return create(k, { language, llm, purpose: `${method}.retrieve` });
  };
}

/**
 * Everything a memory depends on, stored with the version and hashed into its settings key: the
 * method and its options, the retriever where the method uses one, and the endpoint/model/params
 * of each role used while building (never the API key) with the run's parameters over the endpoint's
 * (`roleParams`: what the build's calls carry), and the prompt language. Without run parameters the
 * identity is what it always was, so memories built before them are still found.
 */
export function memorySettings(
  a: Assistant<unknown>,
  options: unknown,
  retriever: RetrieverKind,
  language: Language,
  llm: ModelClient,
  roleParams: RoleParams = {},
) {
  const models = Object.fromEntries(
    a.buildRoles.map((role) => {
      const c = llm.config(role === "judge" ? "judge" : role);
      const { model, ...run } = (roleParams[role] ?? {}) as Record<string, unknown>;
      return [role, { endpoint: c.baseURL, model: typeof model === "string" ? model : c.model, params: { ...c.params, ...run } }];
    }),
  );
  return { method: a.id, options, retriever: a.usesRetriever ? retriever : null, models, language } as Record<string, unknown>;
}
