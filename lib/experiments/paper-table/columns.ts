/** The columns of each paper table, in the paper's order, with the metric each reads. */
import type { Column, ColumnGroup } from "./types";

const col = (key: string, label: string, digits: number, latex = label, rank = true): Column => ({ key, label, latex, digits, rank });

/** Mem-PAL Table 2: task.metric keys of experimentResults' summary. */
export const MEM_PAL_T2_GROUPS: ColumnGroup[] = [
  { label: "Requirement Restatement", latex: "Requirement Restatement", span: 5 },
  { label: "Solution Proposal", latex: "Solution Proposal", span: 5 },
];
export const MEM_PAL_T2_COLUMNS: Column[] = [
  ...["requirement", "solution"].flatMap((task) => [
    col(`${task}.bleu1`, "B-1", 2),
    col(`${task}.bleu2`, "B-2", 2),
    col(`${task}.bleu3`, "B-3", 2),
    col(`${task}.bleu4`, "B-4", 2),
    task === "requirement" ? col("requirement.gscore", "G-Score", 2) : col("solution.selection", "S-Score", 2),
  ]),
];

/** Mem-PAL Table 3: Win / Tie / Lose per dimension (no ranking: each row is its own comparison). */
export const MEM_PAL_T3_GROUPS: ColumnGroup[] = [
  { label: "Requirement", latex: "Requirement", span: 3 },
  { label: "Preference", latex: "Preference", span: 3 },
];
export const MEM_PAL_T3_COLUMNS: Column[] = ["requirement", "preference"].flatMap((d) => [
  col(`${d}.win`, "Win", 0, "Win", false),
  col(`${d}.tie`, "Tie", 0, "Tie", false),
  col(`${d}.lose`, "Lose", 0, "Lose", false),
]);

/** HiCUPID Table 3: BLEU, ROUGE-L, then per judge Persona, Schedule, Multi-Info (our "profile"), Total. */
export function hicupidColumns(judges: number): { groups: ColumnGroup[]; columns: Column[] } {
  const names = [
    ["GPT-4o Score (S_GPT)", "GPT-4o Score ($S_{GPT}$)"],
    ["Llama 3.2 Score (S_Llama)", "Llama 3.2 Score ($S_{Llama}$)"],
  ];
  const groups: ColumnGroup[] = [{ label: "", latex: "", span: 2 }];
  const columns: Column[] = [col("bleu", "BLEU (Total)", 1), col("rougeL", "ROUGE-L (Total)", 1)];
  for (let j = 0; j < Math.min(2, judges); j++) {
    const s = j === 0 ? "" : `@${j + 1}`;
    groups.push({ label: names[j][0], latex: names[j][1], span: 4 });
    columns.push(
      col(`persona${s}`, "Persona", 1),
      col(`schedule${s}`, "Schedule", 1),
      col(`profile${s}`, "Multi-Info", 1),
      col(`total${s}`, "Total", 1),
    );
  }
  return { groups, columns };
}

/** Mem-PAL Table 10 (the DeepSeek-V3.1 supplement): Table 2's two judge scores. */
export const MEM_PAL_T10_GROUPS: ColumnGroup[] = [
  { label: "Requirement Restatement", latex: "Requirement Restatement", span: 1 },
  { label: "Solution Proposal", latex: "Solution Proposal", span: 1 },
];
export const MEM_PAL_T10_COLUMNS: Column[] = [col("requirement.gscore", "G-Score", 2), col("solution.selection", "S-Score", 2)];

/** HiCUPID Table A2: the share of questions whose associated dialogue was retrieved, per type, and the weighted total. */
export const HICUPID_A2_GROUPS: ColumnGroup[] = [
  { label: "", latex: "", span: 2 },
  { label: "Multi-Info", latex: "Multi-Info", span: 2 },
  { label: "", latex: "", span: 1 },
];
export const HICUPID_A2_COLUMNS: Column[] = [
  col("hitPersona", "Persona", 1),
  col("hitSchedule", "Schedule", 1),
  col("hitMultiPersona", "Persona", 1),
  col("hitMultiProfile", "Profile", 1),
  col("hitRate", "Total", 1),
];
