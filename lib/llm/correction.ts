import type { Lang } from "./types";

/** The follow-up message that asks for a corrected reply (the project's own wording). */
export function correctionMessage(problem: string, language: Lang | undefined, json: boolean): string {
  if (language === "zh") {
    return json
      ? `你上一条回复无法使用（${problem}）。请严格按要求的 JSON 格式重新作答，只输出 JSON，内容使用中文。`
      : `你上一条回复无法使用（${problem}）。请用中文重新作答。`;
  }
  const lang = language === "en" ? ", written in English" : "";
  return json
    ? `Your previous reply could not be used (${problem}). Answer again in exactly the requested JSON format, output only the JSON${lang}.`
    : `Your previous reply could not be used (${problem}). Please answer again${lang}.`;
}
