/**
 * Lexical retrieval on a user-sized memory: 5,000 generated Chinese memory entries (a PAL-Set user
 * has ~890 history logs and ~60 topics, so this is several users' worth), 500 queries, top 3.
 *
 * Prints, measured in this run: adds/s (dominated by jieba), queries/s for BM25 and TF-IDF, and
 * their ratio against two baselines: tokenizing the query alone (the floor) and a naive BM25 that
 * scores every document from its own term map (no inverted index).
 */
import { Bm25Retriever } from "@/lib/retrieval/bm25";
import { TfidfRetriever } from "@/lib/retrieval/tfidf";
import { tokenize } from "@/lib/retrieval/tokenize";
import { mulberry32 } from "@/lib/random";

const DOCS = 5_000;
const QUERIES = 500;
const WORDS = (
  "今天 明天 周末 最近 每天 晚上 早上 需要 希望 建议 尝试 安排 计划 准备 健康 饮食 运动 散步 跑步 瑜伽 " +
  "睡眠 质量 工作 压力 会议 项目 报告 同事 老板 孩子 父母 家人 朋友 旅行 公园 超市 医院 医生 体检 药物 " +
  "提醒 时间 预算 控制 适合 方案 选择 推荐 简单 方便 营养 早餐 午餐 晚餐 蔬菜 水果 咖啡 放松 心情 焦虑 " +
  "休息 学习 课程 英语 考试 阅读 音乐 电影 礼物 餐厅 预订 出行 天气 高铁 机票 酒店 房间 价格 舒适 安静"
).split(" ");

function texts(n: number, len: [number, number], rand: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = len[0] + Math.floor(rand() * (len[1] - len[0]));
    const w: string[] = [];
    for (let j = 0; j < k; j++) w.push(WORDS[Math.floor(rand() * WORDS.length)]);
    out.push(w.join("，"));
  }
  return out;
}

function perSecond(n: number, fn: () => void): number {
  const t = performance.now();
  fn();
  return n / ((performance.now() - t) / 1000);
}

/** BM25 without an inverted index: term maps and df built once, every document scored per query. */
function naiveBm25(docs: string[][]): (query: string[], k: number) => number[] {
  const N = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / N;
  const maps = docs.map((d) => {
    const m = new Map<string, number>();
    for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const df = new Map<string, number>();
  for (const m of maps) for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return (query, k) => {
    const scores = maps.map((m, i) => {
      let s = 0;
      for (const t of query) {
        const tf = m.get(t) ?? 0;
        if (!tf) continue;
        const n = df.get(t)!;
        s += (Math.log(1 + (N - n + 0.5) / (n + 0.5)) * tf * 2.5) / (tf + 1.5 * (0.25 + (0.75 * docs[i].length) / avgdl));
      }
      return s;
    });
    // As the retriever: documents with score 0 fill the last places in insertion order (always k hits).
    return scores
      .map((s, i) => [s, i])
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, k)
      .map((x) => x[1]);
  };
}

export default async function main(): Promise<void> {
  const rand = mulberry32(20260101);
  const docs = texts(DOCS, [6, 20], rand).map((text, i) => ({ id: `m${i}`, text }));
  const queries = texts(QUERIES, [3, 8], rand);
  tokenize("预热"); // load jieba's dictionary outside the timings

  const bm25 = new Bm25Retriever({ tokenizer: { language: "zh" } });
  const adds = perSecond(DOCS, () => bm25.addSync(docs));
  const tfidf = new TfidfRetriever({ tokenizer: { language: "zh" } });
  tfidf.addSync(docs);
  tfidf.fitted();

  const floor = perSecond(QUERIES, () => queries.forEach((q) => tokenize(q, { language: "zh" })));
  const bm25Qps = perSecond(QUERIES, () => queries.forEach((q) => bm25.searchSync(q, 3)));
  const tfidfQps = perSecond(QUERIES, () => queries.forEach((q) => tfidf.searchSync(q, 3)));
  const naive = naiveBm25(docs.map((d) => tokenize(d.text, { language: "zh" })));
  const naiveQueries = 100;
  const naiveQps = perSecond(naiveQueries, () => queries.slice(0, naiveQueries).forEach((q) => naive(tokenize(q, { language: "zh" }), 3)));

  // The indexed BM25 must agree with the naive one on the ranking.
  for (const q of queries.slice(0, naiveQueries)) {
    const a = bm25.searchSync(q, 3).map((h) => Number(h.id.slice(1)));
    const b = naive(tokenize(q, { language: "zh" }), 3);
    if (a.join() !== b.join()) throw new Error(`BM25 ranking differs from the naive scan for "${q}": ${a} vs ${b}`);
  }

  const f = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(`${DOCS} Chinese memory entries, ${QUERIES} queries, top 3`);
  console.log(`add (tokenize + index): ${f(adds)} entries/s`);
  console.log(`query tokenize alone (floor): ${f(floor)} queries/s`);
  console.log(
    `BM25 search: ${f(bm25Qps)} queries/s = ${(bm25Qps / floor).toFixed(2)}x the floor, ${(bm25Qps / naiveQps).toFixed(0)}x a naive scan (${f(naiveQps)}/s)`,
  );
  console.log(`TF-IDF search: ${f(tfidfQps)} queries/s = ${(tfidfQps / floor).toFixed(2)}x the floor`);
}
