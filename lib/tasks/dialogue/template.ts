/**
 * The action template of a simulated dialogue: one (user action, assistant action) pair per turn. From the
 * imported dialogue_template.json when the topic has one; otherwise drawn with a recorded seed in the
 * published scheme: Topic Inquiry / Requirement Prediction, Requirement Confirmation / Requirement
 * Prediction, Requirement Confirmation / Solution Proposal, then for each of the two solutions an optional
 * (p = 0.5) Solution Discussion pair before its Solution Feedback; the first feedback is answered with the
 * second Solution Proposal, the second with a Feedback Response. 5 to 7 turns.
 */
import { actionCode, isRoleAction, type ActionCode } from "@/lib/datasets/palset/actions";
import { mulberry32 } from "@/lib/random";
import { InvalidInputError } from "@/lib/errors";

export type TemplateTurn = { user: ActionCode; assistant: ActionCode };
export type DialogueTemplate = { source: "imported" | "generated"; seed?: number; turns: TemplateTurn[] };

export function generateTemplate(seed: number): DialogueTemplate {
  const rand = mulberry32(seed);
  const turns: TemplateTurn[] = [
    { user: "topic_inquiry", assistant: "requirement_prediction" },
    { user: "requirement_confirmation", assistant: "requirement_prediction" },
    { user: "requirement_confirmation", assistant: "solution_proposal" },
  ];
  for (const last of [false, true]) {
    if (rand() < 0.5) turns.push({ user: "solution_discussion", assistant: "solution_discussion" });
    turns.push({ user: "solution_feedback", assistant: last ? "feedback_response" : "solution_proposal" });
  }
  return { source: "generated", seed, turns };
}

/** The imported entry ({"turn_1": {"user": "<话题询问>", "assistant": "<需求推测>"}, ...}) as codes. */
export function parseTemplate(entry: Record<string, unknown>, where: string): DialogueTemplate {
  const keys = Object.keys(entry)
    .filter((k) => /^turn_\d+$/.test(k))
    .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  if (!keys.length) throw new InvalidInputError(`${where}: the dialogue template has no turn_N entries`);
  const turns = keys.map((k) => {
    const t = entry[k] as { user?: unknown; assistant?: unknown } | null;
    const code = (role: "user" | "assistant") => {
      const raw = String(t?.[role] ?? "")
        .replace(/^[<＜]|[>＞]$/g, "")
        .trim();
      const c = actionCode(raw);
      if (!c || !isRoleAction(role, c)) throw new InvalidInputError(`${where}.${k}.${role}: "${raw}" is not a ${role} action`);
      return c;
    };
    return { user: code("user"), assistant: code("assistant") };
  });
  return { source: "imported", turns };
}

/** A stable per-item seed: the experiment seed, the replicate and the item key. */
export function templateSeed(seed: number, replicate: number, itemKey: string): number {
  let h = (seed ^ (replicate * 0x9e3779b1)) >>> 0;
  for (let i = 0; i < itemKey.length; i++) h = Math.imul(h ^ itemKey.charCodeAt(i), 16777619) >>> 0;
  return h;
}
