/**
 * Reasoning models (DeepSeek-R1, Qwen3, QwQ behind vLLM, ...) think before they answer: in a
 * `<think>…</think>` block at the start of the content, or in a separate `reasoning_content` field.
 * The answer is what follows; the reasoning is kept for the ledger, never parsed.
 */

export type SplitReply = {
  /** The reply without its reasoning: what is validated, cached and returned. */
  answer: string;
  /** The reasoning text, or null when the reply had none. */
  reasoning: string | null;
  /** The reply as received (reasoning_content shown as a leading <think> block): what the ledger keeps. */
  raw: string;
};

const OPEN = /^\s*<think(?:ing)?>/i;
const CLOSE = /<\/think(?:ing)?>/i;

export function splitReasoning(content: string, reasoningContent?: string | null): SplitReply {
  let answer = content;
  const parts: string[] = [];
  if (reasoningContent) parts.push(reasoningContent);
  const close = CLOSE.exec(content);
  if (OPEN.test(content) || close) {
    if (close) {
      // Some chat templates open the block in the prompt, so only the closing tag arrives.
      parts.push(content.slice(0, close.index).replace(OPEN, "").trim());
      answer = content.slice(close.index + close[0].length);
    } else {
      // The model was cut off while thinking: there is no answer.
      parts.push(content.replace(OPEN, "").trim());
      answer = "";
    }
  }
  const reasoning = parts.length ? parts.join("\n") : null;
  const raw = reasoningContent ? `<think>${reasoningContent}</think>\n${content}` : content;
  // A reply without thinking is passed on exactly as it came.
  return { answer: answer === content ? content : answer.trim(), reasoning, raw };
}
