/**
 * TEST DOUBLE: one responder for whole protocol runs (the presets' tests): H2Memory's and the baselines'
 * build steps, the judges and the user simulator of the experiments' replies, HiCUPID's A/B and schedule
 * judges, and any task prompt. Never offered as a model.
 */
import type { ChatRequest, Reply } from "./fake-openai";
import { h2memoryReply, taskReply } from "./h2memory-responder";
import { baselinePurpose, baselineResponder } from "./baseline-responder";
import { experimentReplies } from "./experiment-replies";

const judged = experimentReplies();
const baselines = baselineResponder(taskReply);
const body = (r: ChatRequest) => r.messages.map((m) => String(m.content ?? "")).join("\n");

export function protocolResponder(req: ChatRequest): Reply {
  const h2 = h2memoryReply(req);
  if (h2 !== undefined) return h2;
  if (baselinePurpose(req)) return baselines(req);
  const t = body(req);
  if (t.includes("Better Response: <A/B/Tie>")) return "1. Personalization: fine\n2. Logical Validity: fine\n\nBetter Response: Tie";
  if (t.includes("Satisfaction: <YES/NO>")) return "1. Personalization: fine\n\nSatisfaction: YES";
  const j = judged(req);
  return j !== "unexpected prompt" ? j : taskReply(req);
}
