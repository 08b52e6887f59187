/**
 * The data-quality report of a PAL-Set import: counts, and warnings with a few examples each (where:
 * user, sample, JSON path). Nothing here refuses input: the schema does that; this tells a researcher
 * what the accepted data looks like (e.g. the Chinese left in the English translation).
 */
import type { QualityReport } from "../types";
import { WarningList } from "../warnings";
import { actionCode, isRoleAction } from "./actions";
import { isOtherLanguage } from "@/lib/llm/language";
import { formatPath, type PalSample, type PalUser } from "./schema";
import { parseTimestamp } from "./timestamp";

const MAX_UNRECOGNISED = 200;

/** Collects counts and warnings while the importer walks the data. */
export class ReportBuilder {
  readonly counts: Record<string, number> = {};
  private readonly warnings = new WarningList();
  private readonly unrecognisedKeys = new Map<string, { n: number; example: string }>();

  count(key: string, n = 1): void {
    this.counts[key] = (this.counts[key] ?? 0) + n;
  }

  /** One occurrence of a kind of problem; `where` is built only when it becomes an example. */
  warn(code: string, message: string, where: string | (() => string)): void {
    this.warnings.add(code, message, where);
  }

  /** A profile key or value we could not map (`what`, e.g. `background key "hobby2"`), seen at `where` (user/entry); kept as it was, listed once per kind in the report. */
  unrecognised(what: string, where: string): void {
    const u = this.unrecognisedKeys.get(what);
    if (u) u.n++;
    else if (this.unrecognisedKeys.size < MAX_UNRECOGNISED) this.unrecognisedKeys.set(what, { n: 1, example: where });
    this.count("unrecognisedProfileKeys");
  }

  /** The report; `base` (the data set's stats) leads the counts. */
  toReport(base: Record<string, number> = {}): QualityReport {
    const report: QualityReport = { counts: { ...base, ...this.counts }, warnings: this.warnings.list() };
    if (this.unrecognisedKeys.size)
      report.unrecognised = [...this.unrecognisedKeys].map(([what, u]) => `${what} (${u.n}×, e.g. ${u.example})`);
    return report;
  }
}

const SPLITS = ["history", "query"] as const;

/** The quality checks of one user's (valid) object. */
export function reportUser(rb: ReportBuilder, lang: "zh" | "en", userKey: string, user: PalUser): void {
  const where = (path: PropertyKey[]) => () => formatPath(userKey, user, path);
  walkStrings(user, [], (s, path) => {
    if (s.trim() === "") rb.warn("empty-string", "empty text", where(path));
    else if (isOtherLanguage(s, lang)) {
      rb.warn(
        "mixed-language",
        lang === "en" ? "Chinese text in an English data set" : "English-only text in a Chinese data set",
        () => `${formatPath(userKey, user, path)}: ${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)}`,
      );
    }
  });
  for (const split of SPLITS) {
    user[split].forEach((sample, i) => reportSample(rb, userKey, user, [split, i], sample));
  }
}

function reportSample(rb: ReportBuilder, userKey: string, user: PalUser, at: PropertyKey[], sample: PalSample): void {
  const where =
    (...rest: PropertyKey[]) =>
    () =>
      formatPath(userKey, user, [...at, ...rest]);

  // Same-shaped zero-padded timestamps order as strings; only odd pairs need parsing.
  let prev = "";
  sample.logs.forEach((log, i) => {
    const t = log.timestamp;
    const earlier = t.length === prev.length ? t < prev : prev !== "" && parseTimestamp(t)! < parseTimestamp(prev)!;
    if (earlier) rb.warn("logs-out-of-order", "log earlier than the one before it", where("logs", i, "timestamp"));
    prev = t;
  });

  let inquiries = 0;
  let first = true;
  for (const key in sample.dialogue) {
    const turn = sample.dialogue[key];
    for (const role of ["user", "assistant"] as const) {
      const label = turn[role].action;
      const code = actionCode(label);
      if (!code)
        rb.warn(
          "unknown-action",
          "action label not among the 8 of Mem-PAL (kept as it is)",
          () => `${where("dialogue", key, role, "action")()}: ${JSON.stringify(label)}`,
        );
      else if (!isRoleAction(role, code))
        rb.warn(
          "role-action",
          `an action of the other role`,
          () => `${where("dialogue", key, role, "action")()}: ${JSON.stringify(label)}`,
        );
      if (role === "user" && code === "topic_inquiry") inquiries++;
      if (first && role === "user" && code !== "topic_inquiry")
        rb.warn("dialogue-start", "dialogue does not start with a Topic Inquiry", where("dialogue", key, "user", "action"));
    }
    first = false;
  }
  if (first) rb.warn("no-turns", "sample without dialogue turns", where("dialogue"));

  const topicKeys = Object.keys(sample.topics);
  if (topicKeys.length === 0) rb.warn("no-topics", "sample without topics", where("topics"));
  if (!first && inquiries !== topicKeys.length) {
    rb.warn(
      "topic-count-mismatch",
      "number of Topic Inquiry turns differs from the number of topics (turn→topic assignment is approximate)",
      () => `${where("dialogue")()}: ${inquiries} inquiries, ${topicKeys.length} topics`,
    );
  }
  for (const tk of topicKeys) {
    const topic = sample.topics[tk];
    const c = topic.candidate_solutions;
    if (c.length !== 8)
      rb.warn(
        "candidate-count",
        "topic without exactly 8 candidate solutions",
        () => `${where("topics", tk, "candidate_solutions")()}: ${c.length}`,
      );
    const pos = c.filter((x) => x.feedback === "pos");
    const neg = c.filter((x) => x.feedback === "neg");
    if (pos.length !== 2 || neg.length !== 2)
      rb.warn(
        "feedback-count",
        "topic without exactly 2 pos and 2 neg candidates",
        () => `${where("topics", tk, "candidate_solutions")()}: ${pos.length} pos, ${neg.length} neg`,
      );
    for (const pol of ["pos", "neg"] as const) {
      const marked = new Set((pol === "pos" ? pos : neg).map((x) => x.solution));
      topic.solution[pol].forEach((s, i) => {
        if (!marked.has(s))
          rb.warn(
            "candidates-missing-solution",
            `a ${pol} solution is not among the candidates marked ${pol}`,
            where("topics", tk, "solution", pol, i),
          );
      });
    }
  }
}

/** Calls `fn` with every string inside `v` and its JSON path (the path array is reused: copy it to keep it). */
function walkStrings(v: unknown, path: PropertyKey[], fn: (s: string, path: PropertyKey[]) => void): void {
  if (typeof v === "string") return fn(v, path);
  if (v === null || typeof v !== "object") return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      walkStrings(v[i], path, fn);
      path.pop();
    }
    return;
  }
  for (const k in v as Record<string, unknown>) {
    path.push(k);
    walkStrings((v as Record<string, unknown>)[k], path, fn);
    path.pop();
  }
}
