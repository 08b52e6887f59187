/**
 * An external method as an Assistant (issue 41, docs/external-methods.md). Each phase of each history
 * session is POSTed to {url}/sessions in time order (the builder walks them), each task input to
 * {url}/respond, with the run's model endpoint in "llm" (endpoint.ts).
 *
 * Memory: the method may hand entries back from /sessions ({"entries": [...]}); PAL Studio stores them as
 * the method's memory (visible from the phase's point on, as for built-in methods: the inspector shows
 * them, a crash resumes, bundles carry them) and sends the entries visible at the answer's point with each
 * /respond. A stateful service ignores "memory" and keeps its own under "namespace", which is one memory
 * version (data set, user, method, settings): a new namespace is a fresh memory. A step redone after a
 * crash is sent again, so a stateful service should treat (namespace, seq, phase) as idempotent.
 */
import { z } from "zod";
import type { RetryOptions } from "@/lib/llm/retry";
import type { Assistant, BuildContext, RespondContext } from "../core/types";
import { callService } from "./http";
import { openGrant } from "./endpoint";
import { currentView, inputView, logsView, respondReply, sessionView, sessionsReply, toTaskOutput } from "./protocol";
import type { ExternalMethod } from "./store";
import { namespaceOf } from "./reset";

/** Options a config gives the method are passed to it as they are (and are part of its memory's settings). */
const options = z.record(z.string(), z.unknown()).default({});

type Ctx = BuildContext<Record<string, unknown>> | RespondContext<Record<string, unknown>>;

/** The fields every request carries. */
function common(ctx: Ctx) {
  return {
    user: ctx.userKey,
    namespace: namespaceOf(ctx.memory.versionId),
    language: ctx.language,
    datasetKind: ctx.datasetKind,
    options: ctx.options,
  };
}

/**
 * `roles.embedding`: whether the embedding role has a model. Its model is then part of the memory's
 * settings (a method may embed while building); without one, the method builds with chat calls only.
 */
export function externalAssistant(
  m: ExternalMethod,
  roles: { embedding: boolean } = { embedding: true },
  policy?: RetryOptions,
): Assistant<Record<string, unknown>> {
  async function withLlm<T>(ctx: Ctx, send: (llm: unknown, stop: () => Error | null) => Promise<T>) {
    const g = await openGrant(ctx.llm, m.name, ctx.userKey);
    try {
      const value = await send(g.access, () => g.grant.fatal);
      // The run paused while the method was calling the model: whatever it answered, it answered without them.
      if (g.grant.fatal) throw g.grant.fatal;
      return { value, grant: g.grant };
    } finally {
      g.close();
    }
  }
  async function post(ctx: BuildContext<Record<string, unknown>>, phase: "logs" | "dialogue", session: unknown) {
    const { value, grant } = await withLlm(ctx, (llm, stop) =>
      callService(
        m,
        { method: "POST", path: "/sessions", body: { ...common(ctx), phase, session, llm }, schema: sessionsReply },
        policy,
        stop,
      ),
    );
    if (value.entries?.length)
      ctx.memory.putAll(value.entries.map((e) => ({ ...e, content: e.content ?? null, callKeys: grant.callKeys })));
  }
  return {
    id: m.name,
    label: m.label,
    description: `External method served at ${m.url}`,
    options,
    entryKinds: [],
    buildRoles: roles.embedding ? ["assistant", "embedding"] : ["assistant"],
    usesRetriever: false,
    buildLogs: (ctx, s) => post(ctx, "logs", logsView(s)),
    buildDialogue: (ctx, s) => post(ctx, "dialogue", sessionView(s)),
    estimateBuild: () => ({ calls: {}, note: "an external method's model calls are known only once it runs" }),
    async respond(ctx, input) {
      const memory = ctx.memory.list().map((e) => ({ kind: e.kind, key: e.key, content: e.content, seq: e.validFromSeq }));
      const { value, grant } = await withLlm(ctx, (llm, stop) =>
        callService(
          m,
          {
            method: "POST",
            path: "/respond",
            body: { ...common(ctx), input: inputView(input), session: currentView(ctx.current), memory, llm },
            schema: respondReply(input.type),
          },
          policy,
          stop,
        ),
      );
      return { output: toTaskOutput(input.type, value.output), retrieved: value.retrieved, calls: grant.calls };
    },
  };
}
