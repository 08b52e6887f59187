/**
 * `pal methods check`: a conformance check of a registered method against a small synthetic user. It
 * walks the protocol as a run does (GET /, each session phase in order, one answer per task type the
 * service claims) and once more with a model that fails, where an answer made after a failed model call
 * is an invented one. The run's endpoint answers with placeholder replies: the check pays for nothing.
 */
import crypto from "node:crypto";
import type { Session, TaskInput, TaskType } from "../core/types";
import { callService, ExternalMethodError } from "./http";
import { openGrant, type GrantModel } from "./endpoint";
import { describeReply, logsView, respondReply, sessionView, sessionsReply, TASK_TYPES, type ServiceDescription } from "./protocol";
import type { ExternalMethod } from "./store";

export type CheckStep = { step: string; ok: boolean; ms: number; message: string };
export type CheckReport = {
  method: string;
  url: string;
  conforms: boolean;
  service: ServiceDescription | null;
  steps: CheckStep[];
  violations: string[];
};

const turn = (user: string, assistant: string) => ({
  user,
  assistant,
  userAction: null,
  userActionCode: null,
  assistantAction: null,
  assistantActionCode: null,
});

/** The synthetic user: two sessions; the answers are asked in the second (its dialogue is never sent). */
const SESSIONS: Session[] = [
  {
    seq: 0,
    key: "check_sample0",
    split: "history",
    timestamp: "2026-01-05 20:00:00",
    logs: [
      { timestamp: "2026-01-03 09:00:00", content: "Booked a beginners' yoga class for Saturday morning." },
      { timestamp: "2026-01-04 18:30:00", content: "Searched for quick vegetarian dinners." },
    ],
    dialogue: [turn("I want to get fitter but I hate gyms.", "Would short home workouts or runs in the park suit you better?")],
  },
  {
    seq: 1,
    key: "check_sample1",
    split: "query",
    timestamp: "2026-01-12 20:00:00",
    logs: [{ timestamp: "2026-01-11 07:45:00", content: "Bought a yoga mat." }],
    dialogue: [],
  },
];

const INPUTS: Record<TaskType, TaskInput> = {
  query: { type: "query", query: "Any ideas for this weekend?" },
  requirement: { type: "requirement", requirement: "A way to stay active at home on weekday evenings." },
  selection: {
    type: "selection",
    requirement: "A way to stay active at home.",
    candidates: ["A 20-minute yoga flow", "A gym membership", "Evening runs", "A rowing machine"].map((solution, i) => ({
      id: String(i + 1),
      solution,
    })),
  },
  dialogue: { type: "dialogue", turns: [{ user: "I'd like some advice." }], action: "requirement_prediction" },
  question: { type: "question", question: "What kind of exercise does the user like?" },
};

/** Placeholder replies carrying every task's output keys, and small deterministic vectors. */
const placeholder: GrantModel = {
  async chat() {
    const text = JSON.stringify({
      requirement: "check",
      solution: "check",
      analysis: "check",
      selected_solutions: ["1", "2"],
      content: "check",
      answer: "check",
    });
    return { text, cacheKey: crypto.randomUUID(), usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 } };
  },
  async embed(texts) {
    return texts.map((t) => Array.from(crypto.createHash("sha256").update(t).digest().subarray(0, 8), (b) => b / 255 - 0.5));
  },
};

/** A model whose every call fails (as an endpoint that is down). */
const failing: GrantModel = {
  chat: async () => Promise.reject(new Error("the model endpoint failed (conformance check)")),
  embed: async () => Promise.reject(new Error("the model endpoint failed (conformance check)")),
};

export async function checkMethod(m: ExternalMethod): Promise<CheckReport> {
  const steps: CheckStep[] = [];
  const violations: string[] = [];
  const policy = { retries: 0, baseMs: 1, maxMs: 1 };
  const namespace = `check-${crypto.randomBytes(6).toString("hex")}`;
  const common = { user: "check-user", namespace, language: "en", datasetKind: "palset", options: {} };
  async function step<T>(name: string, model: GrantModel, run: (llm: unknown) => Promise<T>): Promise<{ value: T | null; calls: number }> {
    const g = await openGrant(model, m.name);
    const t0 = performance.now();
    try {
      const value = await run(g.access);
      steps.push({ step: name, ok: true, ms: Math.round(performance.now() - t0), message: "" });
      return { value, calls: g.grant.calls };
    } catch (e) {
      const message = e instanceof ExternalMethodError ? e.message.replace(/^external method "[^"]+": /, "") : String(e);
      steps.push({ step: name, ok: false, ms: Math.round(performance.now() - t0), message });
      return { value: null, calls: g.grant.calls };
    } finally {
      g.close();
    }
  }
  const described = await step("GET /", placeholder, () => callService(m, { method: "GET", path: "/", schema: describeReply }, policy));
  const service = described.value;
  if (!service) violations.push(`GET / ${steps[0].message}`);
  const memory: Array<{ kind: string; key: string; content: unknown; seq: number }> = [];
  const phases: Array<["logs" | "dialogue", Session]> = [
    ["logs", SESSIONS[0]],
    ["dialogue", SESSIONS[0]],
    ["logs", SESSIONS[1]],
  ];
  for (const [phase, s] of phases) {
    const session = phase === "logs" ? logsView(s) : sessionView(s);
    const r = await step(`POST /sessions (session ${s.seq}, ${phase})`, placeholder, (llm) =>
      callService(m, { method: "POST", path: "/sessions", body: { ...common, phase, session, llm }, schema: sessionsReply }, policy),
    );
    if (!r.value) violations.push(`POST /sessions (session ${s.seq}, ${phase}): ${steps.at(-1)!.message}`);
    // Visible from the phase's point on: a dialogue's entries from the next session.
    for (const e of r.value?.entries ?? []) memory.push({ ...e, seq: phase === "logs" ? s.seq : s.seq + 1 });
  }
  const respond = (input: TaskInput, model: GrantModel, label: string) =>
    step(label, model, (llm) =>
      callService(
        m,
        {
          method: "POST",
          path: "/respond",
          body: { ...common, input, session: logsView(SESSIONS[1]), memory: memory.filter((e) => e.seq <= 1), llm },
          schema: respondReply(input.type),
        },
        policy,
      ),
    );
  const claimed = service?.tasks ?? TASK_TYPES.filter((t) => t !== "question");
  for (const type of claimed) {
    const r = await respond(INPUTS[type], placeholder, `POST /respond (${type})`);
    if (!r.value) violations.push(`POST /respond (${type}): ${steps.at(-1)!.message}`);
  }
  if (claimed.length) {
    const r = await respond(INPUTS[claimed[0]], failing, `POST /respond (${claimed[0]}) while every model call fails`);
    if (r.value && r.calls > 0)
      violations.push(
        `POST /respond answered although all ${r.calls} of its model calls failed: an answer must not be invented (answer non-2xx with the reason)`,
      );
    else if (!r.value) steps[steps.length - 1].ok = true; // failing here is what a conforming method does
  }
  return { method: m.name, url: m.url, conforms: violations.length === 0, service, steps, violations };
}

/** What the service says of itself (GET /, no retry, at most `timeoutMs`). */
export function describeService(m: ExternalMethod, timeoutMs = m.timeoutMs): Promise<ServiceDescription> {
  return callService(
    { ...m, timeoutMs: Math.min(m.timeoutMs, timeoutMs) },
    { method: "GET", path: "/", schema: describeReply },
    {
      retries: 0,
      baseMs: 1,
      maxMs: 1,
    },
  );
}

/**
 * Before a run: what each external method's service says of itself (GET /, no retry), as lines to show:
 * a service that does not answer, does not claim a task the run asks, or calls models outside the run.
 */
export async function preflight(methods: readonly ExternalMethod[], tasks: readonly TaskType[]): Promise<string[]> {
  const lines: string[] = [];
  for (const m of methods) {
    try {
      const d = await describeService(m);
      const missing = tasks.filter((t) => !d.tasks.includes(t));
      lines.push(`external method ${m.name}: ${d.name}${d.version ? ` ${d.version}` : ""} at ${m.url}`);
      if (missing.length) lines.push(`  it does not claim ${missing.join(", ")}: those jobs will likely fail`);
      if (d.outsideModels.length)
        lines.push(
          `  it calls models outside this run (${d.outsideModels.join(", ")}): those calls are outside the ledger, the cost and the audit`,
        );
    } catch (e) {
      lines.push(
        `external method ${m.name}: ${(e as Error).message.replace(/^external method "[^"]+": /, "")} (is the service running? pal methods check ${m.name})`,
      );
    }
  }
  return lines;
}
