/**
 * Case studies: the items a researcher starred, each shown with the user's information and every
 * method's output on that item side by side (like Mem-PAL Figure 4), and exportable as Markdown.
 * Starring any method's job of an item stars the item: all methods' outputs on it are collected.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs } from "@/db/schema";
import { getTask } from "@/lib/tasks/registry";
import { getExperimentRow } from "./control";
import { latestScores } from "./results";

export type CaseStudy = {
  task: string;
  itemKey: string;
  /** Labelled facts about the user and the item (profile, situation, query, references). */
  info: Array<{ label: string; text: string }>;
  outputs: Array<{
    jobId: number;
    method: string;
    replicate: number;
    status: string;
    output: unknown;
    scores: Record<string, Record<string, number | null>>;
  }>;
};

export function caseStudies(db: Db, experimentId: number): CaseStudy[] {
  const e = getExperimentRow(db, experimentId);
  const starred = db
    .selectDistinct({ task: jobs.task, itemKey: jobs.itemKey })
    .from(jobs)
    .where(and(eq(jobs.experimentId, experimentId), eq(jobs.starred, true)))
    .orderBy(asc(jobs.task), asc(jobs.itemKey))
    .all();
  if (!starred.length) return [];
  const scores = latestScores(db, experimentId);
  const out: CaseStudy[] = [];
  for (const s of starred) {
    const rows = db
      .select({ id: jobs.id, method: jobs.method, replicate: jobs.replicate, status: jobs.status, output: jobs.output })
      .from(jobs)
      .where(and(eq(jobs.experimentId, experimentId), eq(jobs.task, s.task), inArray(jobs.itemKey, [s.itemKey])))
      .orderBy(asc(jobs.phase), asc(jobs.method), asc(jobs.replicate))
      .all();
    const task = getTask(s.task);
    out.push({
      task: s.task,
      itemKey: s.itemKey,
      info: task.describe ? task.describe(db, e.datasetId, s.itemKey) : [],
      outputs: rows.map((r) => ({
        jobId: r.id,
        method: r.method,
        replicate: r.replicate,
        status: r.status,
        output: r.output,
        scores: scores.get(r.id) ?? {},
      })),
    });
  }
  return out;
}

/** An output as readable text: a dialogue as turns, other outputs as their fields. */
export function outputText(output: unknown): string {
  if (output === null || output === undefined) return "(no output)";
  if (typeof output === "string") return output;
  const o = output as Record<string, unknown>;
  if (Array.isArray(o.dialogue)) {
    return (o.dialogue as Array<{ role: string; content: string }>)
      .map((u) => `${u.role === "user" ? "User" : "Assistant"}: ${u.content}`)
      .join("\n");
  }
  return Object.entries(o)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join("\n");
}

const quote = (s: string) =>
  s
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");

export function caseStudiesMarkdown(db: Db, experimentId: number): string {
  const e = getExperimentRow(db, experimentId);
  const lines = [`# Case studies: ${e.name} (experiment ${experimentId})`, ""];
  const list = caseStudies(db, experimentId);
  if (!list.length) lines.push("No starred items.", "");
  for (const c of list) {
    lines.push(`## ${c.task} · ${c.itemKey}`, "");
    for (const i of c.info) lines.push(`**${i.label}**`, "", quote(i.text), "");
    for (const o of c.outputs) {
      lines.push(`### ${o.method}${o.replicate ? ` (run ${o.replicate})` : ""}`, "");
      lines.push(quote(outputText(o.output)), "");
      const sc = Object.entries(o.scores).flatMap(([scorer, v]) =>
        Object.entries(v).map(([k, x]) => `${scorer}.${k} = ${x === null ? "—" : Number(x.toFixed(3))}`),
      );
      if (sc.length) lines.push(`Scores: ${sc.join(", ")}`, "");
    }
  }
  return lines.join("\n");
}
