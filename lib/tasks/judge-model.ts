/**
 * The experiments' side of a judge (lib/judges): a job's model port seen as the judge role under a named
 * configuration ("judge:gscore", a HiCUPID judge config) and, when given, a temperature. The tasks turn an
 * item into the judge's input and its verdict into a score row; the judge makes the calls.
 */
import type { JudgeModel } from "@/lib/judges/judge";
import type { ModelPort } from "./ports";

export function taskJudgeModel(model: ModelPort, config: string, temperature?: number): JudgeModel {
  return {
    json: (req) => model.chatJson({ ...req, role: "judge", config, temperature }),
    text: (req) => model.chatText({ ...req, role: "judge", config, temperature }),
  };
}
