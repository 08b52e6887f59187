/**
 * TEST DOUBLE: scripted replies for H2Memory's construction prompts, for the fake OpenAI server
 * (test/fake-openai.ts). It reads the step tag of a request and answers that step validly and
 * deterministically from the prompt's own text (so replies are in the prompt's language). Used by
 * the H2Memory tests, the end-to-end browser test and the memory benchmark; never offered as a model.
 *
 * The shape of the answers is chosen so tests can predict them:
 * - log graph: log_i follows log_{i-1} unless i is a multiple of 3 (components of 3 logs);
 *   log_i is caused_by log_{i-2} when i % 3 == 2.
 * - topic outlines: one topic per 4 turns.
 * - background: updates the first aspect of the first situation.
 * - requirement/preference updates: "Yes" when the number of new items is even.
 */
import { stepOf } from "@/lib/assistants/h2memory/prompts";
import type { ChatRequest, Reply } from "./fake-openai";
import { baselineResponder } from "./baseline-responder";

const userText = (req: ChatRequest) => {
  const u = req.messages.find((m) => m.role === "user");
  return typeof u?.content === "string" ? u.content : "";
};
const isZh = (req: ChatRequest) => /[\u4e00-\u9fff]/.test(req.messages.find((m) => m.role === "system")?.content as string);
const ASPECTS = ["work", "health", "family", "leisure"] as const;
const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
/** The first quoted block of a prompt ("""...""") after a heading. */
const blocks = (s: string) => [...s.matchAll(/"""\n([\s\S]*?)\n"""/g)].map((m) => m[1]);

export function h2memoryReply(req: ChatRequest): Reply | undefined {
  const step = stepOf(req.messages);
  if (!step) return undefined;
  const zh = isZh(req);
  const body = userText(req);
  switch (step) {
    case "log-graph": {
      const m = /(log_(\d+)) ~ (log_(\d+))/.exec(body)!;
      const out: Record<string, { caused_by: string[]; follows: string[] }> = {};
      for (let i = Number(m[2]); i <= Number(m[4]); i++) {
        const caused = i % 3 === 2 ? [`log_${i - 2}`] : [];
        const follows = i % 3 !== 0 ? [`log_${i - 1}`] : [];
        out[`log_${i}`] = { caused_by: caused, follows };
      }
      return JSON.stringify(out);
    }
    case "situation": {
      const logs = [...blocks(body)[0].matchAll(/^(log_\d+) \[[^\]]*\] (.*)$/gm)];
      const ids = logs.map((l) => l[1]);
      const gist = logs.map((l) => l[2].slice(0, 20)).join(zh ? "；" : "; ");
      const aspect = ASPECTS[hash(ids.join(",")) % 4];
      return JSON.stringify({
        situation: zh ? `用户近期经历：${gist}` : `Recently the user went through: ${gist}`,
        situation_aspects: [aspect],
      });
    }
    case "topic-outline": {
      const dialogue = blocks(body)[0];
      const turns = [...dialogue.matchAll(/^(turn_\d+)\nuser: (.*)$/gm)].map((m) => ({ key: m[1], user: m[2] }));
      const topics = [];
      for (let i = 0; i < turns.length; i += 4) {
        const span = turns.slice(i, i + 4);
        topics.push({
          turn_span: [span[0].key, span.at(-1)!.key],
          requirement: zh ? `用户想要：${span[0].user.slice(0, 30)}` : `The user wants: ${span[0].user.slice(0, 60)}`,
          solution_list: [
            {
              solution: zh ? `方案：${span.at(-1)!.user.slice(0, 20)}` : `Plan: ${span.at(-1)!.user.slice(0, 40)}`,
              user_feedback: zh ? "用户认可" : "the user agreed",
              feedback_type: "pos",
            },
          ],
          preference: zh ? `偏好与${span[0].user.slice(0, 10)}相关的方案` : `Prefers plans about ${span[0].user.slice(0, 60)}`,
        });
      }
      return JSON.stringify({ topic_outlines: topics });
    }
    case "requirement-refinement": {
      const [bg, situation, requirement] = blocks(body);
      const add = situation.split("\n")[0]?.slice(0, 20) || bg.split("\n")[0]?.slice(0, 20) || "";
      return JSON.stringify({ requirement: zh ? `${requirement}（结合近况：${add}）` : `${requirement} (given: ${add})` });
    }
    case "background": {
      const [, current] = blocks(body);
      const { situation_list } = JSON.parse(current) as { situation_list: string[] };
      const aspect = ASPECTS[hash(situation_list[0]) % 4];
      return JSON.stringify({ updating_aspects: [aspect], updating_content: { [aspect]: situation_list[0].slice(0, 60) } });
    }
    case "requirement-abstraction": {
      const reqs = JSON.parse(blocks(body)[0]) as string[];
      return JSON.stringify({ general_requirement: zh ? `类型：${reqs[0].slice(0, 12)}` : `Type: ${reqs[0].slice(0, 80)}` });
    }
    case "preference-abstraction": {
      const [type, prefs] = blocks(body);
      const p = (JSON.parse(prefs) as string[])[0] ?? type;
      return JSON.stringify({ principle: zh ? `原则：${p.slice(0, 20)}` : `Principle: ${p.slice(0, 100)}` });
    }
    case "requirement-update": {
      const [type, reqs] = blocks(body);
      const n = (JSON.parse(reqs) as string[]).length;
      return JSON.stringify(
        n % 2 === 0 ? { adjust: "Yes", general_requirement: `${type}${zh ? "（修订）" : " (revised)"}` } : { adjust: "No" },
      );
    }
    case "preference-update": {
      const [, principle, prefs] = blocks(body);
      const n = (JSON.parse(prefs) as string[]).length;
      return JSON.stringify(n % 2 === 0 ? { adjust: "Yes", principle: `${principle}${zh ? "（修订）" : " (revised)"}` } : { adjust: "No" });
    }
    case "query-generation": {
      const ctx = blocks(body)[0]
        .split("\n")
        .filter((l) => l.startsWith("user: "));
      return JSON.stringify({ requirement: (ctx.at(-1) ?? "").slice(6) || (zh ? "用户的需求" : "the user's need") });
    }
  }
  return undefined;
}

/**
 * The shared task prompts (lib/assistants/core/task-prompts.ts): a valid answer per output format, in
 * the prompt's language. Selection picks the first two candidate ids the prompt lists.
 */
export function taskReply(req: Pick<ChatRequest, "messages">): string {
  const text = req.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
  const zh = /[\u4e00-\u9fff]{4}/.test(text);
  if (text.includes('"selected_solutions"')) {
    const ids = [...text.matchAll(/"id": "([^"]+)"/g)].map((m) => m[1]);
    const picked = ids.length >= 2 ? ids.slice(0, 2) : ["1", "2"];
    return JSON.stringify({
      analysis: zh ? "这两个方案最符合用户的偏好。" : "These two fit the user's preferences best.",
      selected_solutions: picked,
    });
  }
  if (text.includes('{"requirement"'))
    return JSON.stringify({ requirement: zh ? "用户想要一个适合自己的安排。" : "The user wants a plan that suits them." });
  if (text.includes('{"solution"')) return JSON.stringify({ solution: zh ? "安排一次轻松的散步。" : "Take a relaxing walk." });
  if (text.includes('{"content"')) return JSON.stringify({ content: zh ? "能再多说一点你的想法吗？" : "Could you tell me a bit more?" });
  return zh ? "这是一个符合用户情况的回答。" : "An answer that fits the user.";
}

const baselines = baselineResponder(taskReply);

/**
 * TEST DOUBLE responder for the whole app (e2e setup, memory benchmark): H2Memory's steps by their
 * tag, the baselines' steps by their wording (test/baseline-responder.ts), everything else as a task.
 */
export function palResponder(req: ChatRequest): Reply {
  return h2memoryReply(req) ?? baselines(req);
}
