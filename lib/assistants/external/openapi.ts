/**
 * The external-method protocol as an OpenAPI 3.1 document (`pal methods openapi`; a copy is
 * docs/external-methods.openapi.json, kept equal by openapi.test.ts). The schemas say what protocol.ts
 * sends and checks.
 */
const str = { type: "string" } as const;
const nullableStr = { type: ["string", "null"] } as const;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required: string[], extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required,
  ...extra,
});
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const outputs = {
  query: obj({ requirement: str }, ["requirement"], { additionalProperties: false }),
  requirement: obj({ solution: str }, ["solution"], { additionalProperties: false }),
  selection: obj({ analysis: str, selected_solutions: { type: "array", items: str } }, ["analysis", "selected_solutions"], {
    additionalProperties: false,
  }),
  dialogue: obj({ content: str }, ["content"], { additionalProperties: false }),
  question: obj({ answer: str }, ["answer"], { additionalProperties: false }),
};

const common = {
  user: { ...str, description: "The user's key in the data set." },
  namespace: { ...str, description: "One memory (data set, user, method, settings): a stateful service keeps its memory under it." },
  language: { enum: ["zh", "en"] },
  datasetKind: { enum: ["palset", "hicupid"] },
  options: { type: "object", description: "The method's options from the experiment config, as given." },
  llm: ref("Llm"),
};

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "PAL Studio external memory method",
      version: "1",
      description:
        "What a memory method served over HTTP implements to run under PAL Studio's protocols (docs/external-methods.md). PAL Studio is the client; the method is the server. Model calls go to the `llm` endpoint of each request.",
    },
    paths: {
      "/": {
        get: {
          summary: "Describe the service",
          responses: { "200": { description: "The service", ...json(ref("Description")) } },
        },
      },
      "/sessions": {
        post: {
          summary: "One phase of one history session, in time order",
          requestBody: { required: true, ...json(ref("SessionsRequest")) },
          responses: {
            "200": {
              description: "Done; entries handed back are stored by PAL Studio as the method's memory",
              ...json(ref("SessionsReply")),
            },
            default: { description: "Failed: the body's text is recorded as the failure" },
          },
        },
      },
      "/respond": {
        post: {
          summary: "Answer one task input in the current session",
          requestBody: { required: true, ...json(ref("RespondRequest")) },
          responses: {
            "200": { description: "The answer", ...json(ref("RespondReply")) },
            default: { description: "Failed (never invent an answer): the body's text is recorded as the job's failure" },
          },
        },
      },
      "/reset": {
        post: {
          summary: "Optional: forget the memory kept under a namespace (`pal methods reset`, Admin → Methods)",
          description:
            "Only a service that keeps its memory itself needs it. Once it answers 2xx, PAL Studio clears that memory version and the next run sends every session again into the namespace. 404, 405 or 501: no reset (PAL Studio then changes nothing).",
          requestBody: { required: true, ...json(ref("ResetRequest")) },
          responses: {
            "200": { description: "The namespace is empty", ...json(obj({}, [])) },
            "404": { description: "This service has no reset (nothing is changed)" },
            default: { description: "Failed: nothing is changed; the body's text is shown" },
          },
        },
      },
    },
    components: {
      schemas: {
        Llm: obj(
          {
            baseUrl: { ...str, description: "OpenAI-compatible base URL (…/v1): POST /chat/completions, POST /embeddings, GET /models" },
            apiKey: { ...str, description: "Bearer key for this run only: valid while the run runs, refused (401) once it stops" },
            models: obj({ assistant: str, embedding: str }, ["assistant", "embedding"]),
          },
          ["baseUrl", "apiKey", "models"],
        ),
        Description: obj(
          {
            name: str,
            version: str,
            tasks: { type: "array", items: { enum: Object.keys(outputs) } },
            outsideModels: {
              type: "array",
              items: str,
              description: "Models called outside the run's endpoint (outside the ledger and the audit)",
            },
            memory: { enum: ["returned", "service"] },
          },
          ["name", "tasks"],
        ),
        SessionLog: obj({ timestamp: str, content: str }, ["timestamp", "content"]),
        DialogueTurn: obj(
          {
            user: str,
            assistant: str,
            userAction: nullableStr,
            userActionCode: nullableStr,
            assistantAction: nullableStr,
            assistantActionCode: nullableStr,
          },
          ["user", "assistant"],
        ),
        SessionLogs: obj(
          { seq: { type: "integer" }, key: str, split: str, timestamp: nullableStr, logs: { type: "array", items: ref("SessionLog") } },
          ["seq", "key", "split", "timestamp", "logs"],
        ),
        Session: {
          allOf: [ref("SessionLogs"), obj({ dialogue: { type: "array", items: ref("DialogueTurn") } }, ["dialogue"])],
        },
        SessionsRequest: obj(
          {
            ...common,
            phase: { enum: ["logs", "dialogue"] },
            session: { description: "logs: SessionLogs (no dialogue); dialogue: Session", oneOf: [ref("SessionLogs"), ref("Session")] },
          },
          ["user", "namespace", "language", "phase", "session", "llm"],
        ),
        Entry: obj({ kind: str, key: str, content: {} }, ["kind", "key"]),
        SessionsReply: obj({ entries: { type: "array", items: ref("Entry"), maxItems: 2000 } }, []),
        TaskInput: {
          oneOf: [
            obj({ type: { const: "query" }, query: str }, ["type", "query"]),
            obj({ type: { const: "requirement" }, requirement: str }, ["type", "requirement"]),
            obj(
              {
                type: { const: "selection" },
                requirement: str,
                candidates: { type: "array", items: obj({ id: str, solution: str }, ["id", "solution"]) },
              },
              ["type", "requirement", "candidates"],
            ),
            obj(
              {
                type: { const: "dialogue" },
                turns: { type: "array", items: obj({ user: str, assistant: str }, ["user"]) },
                action: { enum: ["requirement_prediction", "solution_proposal", "solution_discussion", "feedback_response"] },
              },
              ["type", "turns", "action"],
            ),
            obj({ type: { const: "question" }, question: str }, ["type", "question"]),
          ],
        },
        RespondRequest: obj(
          {
            ...common,
            input: ref("TaskInput"),
            session: ref("SessionLogs"),
            memory: {
              type: "array",
              description: "The entries this method handed back that the answer may see",
              items: obj({ kind: str, key: str, content: {}, seq: { type: "integer" } }, ["kind", "key", "seq"]),
            },
          },
          ["user", "namespace", "language", "input", "session", "memory", "llm"],
        ),
        ResetRequest: obj(
          {
            user: common.user,
            namespace: common.namespace,
            method: { ...str, description: "The method's registered name." },
          },
          ["user", "namespace", "method"],
        ),
        RespondReply: obj(
          {
            output: { description: "The task's output keys, per input type", oneOf: Object.values(outputs) },
            retrieved: {
              type: "array",
              items: obj({ kind: str, key: str, text: str, score: { type: "number" } }, ["kind", "key", "text"]),
            },
          },
          ["output"],
        ),
      },
    },
  };
}
