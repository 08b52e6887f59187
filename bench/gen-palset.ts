/**
 * A deterministic, full-size synthetic PAL-Set in the published shape (docs/data-formats.md), for the import
 * benchmark. Per user it hits the averages of Mem-PAL Table 1 exactly over 10 users (history 25.7
 * sessions, 888.7 logs, 361.7 turns, 62.5 topics; query 3.3, 107.5, 39.3, 8.3), 8 candidate
 * solutions per topic (2 pos, 2 neg, 4 neu), Chinese text of the published lengths and phrasing
 * (so log-type inference and language detection see realistic input), written like the original
 * (`json.dump(..., indent=4, ensure_ascii=False)`).
 *
 * Usage: `npx tsx bench/gen-palset.ts OUT.json [users]`.
 */
import fs from "node:fs";
import path from "node:path";
import { mulberry32 } from "@/lib/random";

export type GenStats = { users: number; samples: number; logs: number; turns: number; topics: number; candidates: number; bytes: number };

const PLACES = ["国际会展中心", "市立医院", "公司会议室", "城市公园", "健身房", "社区图书馆", "江南食府", "客户公司", "地铁站", "游乐园"];
const THINGS = [
  "展会订单合同模板",
  "胃部健康保养方法",
  "亲子活动推荐",
  "时间管理技巧",
  "高血压饮食指南",
  "周末短途旅行路线",
  "团队协作工具",
  "睡眠质量改善方法",
  "家庭教育书籍",
  "跑步训练计划",
];
const PEOPLE = ["妻子", "同事张经理", "客户王总", "儿子的老师", "母亲", "团队成员", "司机", "好友李明"];
const APPS = ["美团APP", "支付宝", "大众点评", "手机日历", "企业内部系统", "健康通APP", "智能手环", "笔记本电脑", "社交平台", "电子书平台"];
const CLAUSES = [
  "最近工作压力比较大，经常需要加班到很晚",
  "希望能在不影响工作的前提下照顾好自己的身体",
  "家里因为孩子教育的问题时常发生争执",
  "想找一些适合全家人一起参与的轻松活动",
  "担心自己没有足够的时间坚持下去",
  "之前尝试过几种方法但效果都不太理想",
  "更倾向于简单易行、可以马上开始的办法",
  "不太喜欢需要投入大量时间和金钱的方案",
  "如果能有具体的步骤和时间安排就更好了",
  "希望这个办法能够和现有的生活节奏相结合",
];

const ACTIONS = {
  inquiry: ["话题询问", "需求推测"],
  confirm: ["需求确认", "方案提议"],
  discuss: ["方案讨论", "方案讨论"],
  feedbackMore: ["方案反馈", "方案提议"],
  feedbackEnd: ["方案反馈", "反馈回应"],
} as const;

export function generatePalset(out: string, users = 100, seed = 20240101): GenStats {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const sentence = (n: number) => Array.from({ length: n }, () => pick(CLAUSES)).join("，") + "。";
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp = (ms: number, seconds: boolean) => {
    const d = new Date(ms);
    const s = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
    return seconds ? `${s}:${pad(d.getUTCSeconds())}` : s;
  };
  const logText = () => `${logHead()}${pick(CLAUSES)}。`;
  const logHead = () => {
    switch (int(0, 7)) {
      case 0:
        return `用户搜索了“${pick(THINGS)}”，并查看了相关文章和${pick(PLACES)}附近的推荐信息，${pick(CLAUSES)}。`;
      case 1:
        return `用户在${pick(APPS)}发布了文章，主要内容为：${pick(CLAUSES)}，${pick(CLAUSES)}。`;
      case 2:
        return `用户浏览了${pick(APPS)}的页面，主要内容为：关于“${pick(THINGS)}”的介绍，${pick(CLAUSES)}。`;
      case 3:
        return `用户向${pick(PEOPLE)}发送消息：“${pick(CLAUSES)}，${pick(CLAUSES)}。”`;
      case 4:
        return `用户接收到来自${pick(APPS)}的消息：“${pick(CLAUSES)}，请注意安排时间。”`;
      case 5:
        return `用户在${pick(APPS)}创建了“${pick(THINGS)}”日程，时间：10:00-12:00，地点：${pick(PLACES)}。`;
      case 6:
        return `用户通过${pick(APPS)}完成商品购买，产品：${pick(THINGS)}相关用品一份+配套服务一项。`;
      default:
        return `用户在${pick(APPS)}上进行了设置操作：${pick(CLAUSES)}，并记录了相关数据。`;
    }
  };
  /** Splits `total` into `n` parts, each in [min, max], deterministically. */
  const split = (total: number, n: number, min: number, max: number) => {
    const parts = Array(n).fill(min);
    let left = total - n * min;
    while (left > 0) {
      const i = Math.floor(r() * n);
      if (parts[i] < max) {
        parts[i]++;
        left--;
      }
    }
    return parts;
  };

  const stats: GenStats = { users, samples: 0, logs: 0, turns: 0, topics: 0, candidates: 0, bytes: 0 };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const fd = fs.openSync(out, "w");
  const write = (s: string) => {
    stats.bytes += Buffer.byteLength(s);
    fs.writeSync(fd, s);
  };
  write("{");
  for (let u = 0; u < users; u++) {
    const uid = String(u).padStart(4, "0");
    const d10 = u % 10;
    const plan = {
      history: { samples: 25 + (d10 < 7 ? 1 : 0), logs: 888 + (d10 < 7 ? 1 : 0), turns: 361 + (d10 < 7 ? 1 : 0), topics: 62 + (u % 2) },
      query: { samples: 3 + (d10 < 3 ? 1 : 0), logs: 107 + (u % 2), turns: 39 + (d10 < 3 ? 1 : 0), topics: 8 + (d10 < 3 ? 1 : 0) },
    };
    let clock = Date.UTC(2024, 0, 1, 8, 0, 0);
    let sampleNo = 0;
    const user: Record<string, unknown[]> = { history: [], query: [] };
    for (const setName of ["history", "query"] as const) {
      const p = plan[setName];
      const topicsPer = split(p.topics, p.samples, 1, 3);
      const logsPer = split(p.logs, p.samples, 5, 200);
      const turnsPerTopic = split(p.turns, p.topics, 3, 12);
      let topicCursor = 0;
      for (let s = 0; s < p.samples; s++) {
        const logs = [];
        for (let l = 0; l < logsPer[s]; l++) {
          clock += int(20, 600) * 60_000;
          logs.push({ timestamp: stamp(clock, false), content: logText() });
        }
        clock += int(1, 3) * 3_600_000;
        const dialogueAt = Math.floor(clock / 3_600_000) * 3_600_000;
        const dialogue: Record<string, unknown> = {};
        const topics: Record<string, unknown> = {};
        let turnNo = 0;
        for (let t = 0; t < topicsPer[s]; t++) {
          const nTurns = turnsPerTopic[topicCursor++];
          for (let k = 0; k < nTurns; k++) {
            const kind =
              k === 0
                ? ACTIONS.inquiry
                : k === 1
                  ? ACTIONS.confirm
                  : k === nTurns - 1
                    ? ACTIONS.feedbackEnd
                    : r() < 0.5
                      ? ACTIONS.discuss
                      : ACTIONS.feedbackMore;
            dialogue[`turn_${++turnNo}`] = {
              user: { action: kind[0], content: sentence(int(8, 14)) },
              assistant: { action: kind[1], content: sentence(int(14, 22)) },
            };
          }
          const sols = Array.from({ length: 8 }, () => `可以尝试${pick(THINGS)}，${pick(CLAUSES)}，${pick(CLAUSES)}。`);
          const order = [0, 1, 2, 3, 4, 5, 6, 7].sort(() => r() - 0.5);
          const fb = ["pos", "pos", "neg", "neg", "neu", "neu", "neu", "neu"];
          const feedback: string[] = [];
          order.forEach((o, i) => (feedback[o] = fb[i]));
          topics[`topic-${t + 1}`] = {
            user_query: `${pick(CLAUSES)}，有什么建议吗？`,
            implicit_needs: [pick(CLAUSES), pick(CLAUSES)],
            requirement: `用户${sentence(4)}`,
            solution: {
              pos: sols.filter((_, i) => feedback[i] === "pos"),
              neg: sols.filter((_, i) => feedback[i] === "neg"),
            },
            candidate_solutions: sols.map((solution, i) => ({ solution, feedback: feedback[i] })),
          };
          stats.topics++;
          stats.candidates += 8;
        }
        user[setName].push({
          sample_id: `${uid}_sample${sampleNo++}`,
          dialogue_timestamp: stamp(dialogueAt, true),
          logs,
          dialogue,
          topics,
        });
        stats.samples++;
        stats.logs += logs.length;
        stats.turns += turnNo;
      }
    }
    const body = JSON.stringify(user, null, 4).replace(/\n/g, "\n    ");
    write(`${u ? "," : ""}\n    ${JSON.stringify(uid)}: ${body}`);
  }
  write("\n}");
  fs.closeSync(fd);
  return stats;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const out = process.argv[2];
  if (!out) {
    console.error("usage: tsx bench/gen-palset.ts OUT.json [users]");
    process.exit(2);
  }
  console.log(JSON.stringify(generatePalset(out, Number(process.argv[3] ?? 100))));
}
