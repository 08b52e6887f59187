/**
 * The 8 PAL-Set log types (Mem-PAL Table 5), told from the fixed phrasing the synthesis prompt asked
 * for ("The user searched for ...", "用户搜索了..."). The published logs do not carry their type, so
 * this is inference: null when no phrasing matches.
 */
export const LOG_TYPES = [
  { code: "web_search", en: "Web Search", zh: "网络搜索" },
  { code: "content_publishing", en: "Content Publishing", zh: "内容发布" },
  { code: "content_browsing", en: "Content Browsing", zh: "内容浏览" },
  { code: "message_sending", en: "Message Sending", zh: "消息发送" },
  { code: "message_receiving", en: "Message Receiving", zh: "消息接收" },
  { code: "schedule_management", en: "Schedule Management", zh: "日程管理" },
  { code: "transaction_record", en: "Transaction Record", zh: "交易记录" },
  { code: "device_operation", en: "Device Operation", zh: "设备操作" },
] as const;
export type LogType = (typeof LOG_TYPES)[number]["code"];

// Each pattern looks for the type's verb phrase. Several may match one log ("browsed ... and
// ordered"), so the one that occurs first wins: the phrasing always opens with the main verb.
const PATTERNS: Array<[LogType, RegExp]> = [
  ["web_search", /\bsearch(?:ed|es)? (?:for|on)\b|搜索了|搜索/i],
  ["content_publishing", /\b(?:published|posted|shared|uploaded) (?:a|an|the|his|her|their)?\b|发布了|发表了|发布/i],
  ["content_browsing", /\b(?:browsed|viewed|read|watched) (?:a|an|the)\b|浏览了|浏览/i],
  ["message_sending", /\bsent (?:a )?messages? to\b|发送了?(?:一条)?消息|发消息/i],
  [
    "message_receiving",
    /\breceived (?:a |an )?(?:message|notification|reminder|push)|(?:收到|接收到|接收)了?(?:来自)?.{0,30}?(?:消息|通知|提醒|推送)/i,
  ],
  [
    "schedule_management",
    /\b(?:created|scheduled|set up|added) (?:a |an )?(?:schedule|calendar event|event|reminder)|创建了?.{0,30}?日程|日程/i,
  ],
  ["transaction_record", /\bcompleted (?:a |the )?purchase\b|\bpurchased\b|完成了?.{0,12}?(?:购买|消费|订单|支付)|购买了/i],
  ["device_operation", /\bperformed (?:a |an )?.{0,60}?operation\b|(?:进行|完成)了.{0,30}?操作/i],
];

/** The inferred type of a log's content, or null when unsure. */
export function inferLogType(content: string): LogType | null {
  let best: LogType | null = null;
  let bestAt = Infinity;
  for (const [type, re] of PATTERNS) {
    const m = re.exec(content);
    if (m && m.index < bestAt) {
      best = type;
      bestAt = m.index;
    }
  }
  return best;
}
