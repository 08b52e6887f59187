/**
 * Mem-PAL's own Table 11 (the Evaluation-LLM and two students on 80 dialogue pairs) to set beside a
 * pairwise-dialogue campaign's Table 11 on the campaign page and in its JSON export. It reads as the
 * paper's comparison only when the campaign compares the paper's systems (H2Memory as A, Vanilla (with
 * log) as B); otherwise it is labelled as reference. Where the campaign's reading differs from the paper's
 * (judge model, humans by adjudication, ties dropped when either calls one), a note says so.
 */
import { MEM_PAL_TABLE11 } from "@/lib/experiments/paper-table/published";

export type Wtl = { Win: number; Tie: number; Lose: number };

export interface PublishedTable11View {
  source: string;
  setup: string;
  /** The campaign compares the paper's two systems, A and B as the paper has them. */
  sameComparison: boolean;
  /** The heading of the rows: the paper's comparison, or for reference only. */
  label: string;
  /** Per dimension key (requirement, preference): the paper's W / T / L and its Fleiss kappa (ties both call dropped). */
  dimensions: Record<string, { judge: Wtl; human: Wtl; fleissKappa: number }>;
  notes: string[];
}

const norm = (s: string | undefined) => (s ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");

/** Whether a campaign's system name is the paper's: "h2memory", "H2Memory"; "vanilla-log", "Vanilla (with log)". */
function isSystem(name: string | undefined, paper: string): boolean {
  const n = norm(name);
  return paper === "h2memory" ? n === "h2memory" : n === "vanillalog" || n === "vanillawithlog";
}

/** The paper's Table 11 for a campaign of this kind, or null (only pairwise dialogues have one). */
export function publishedTable11For(
  kind: string,
  systems: { A?: string; B?: string },
  reading: { judgeModel?: string | null; humans?: "vote" | "adjudication"; variant?: "both" | "either" } = {},
): PublishedTable11View | null {
  if (kind !== "pairwise-dialogue") return null;
  const t = MEM_PAL_TABLE11;
  const same = isSystem(systems.A, t.systems.A) && isSystem(systems.B, t.systems.B);
  const notes = [`${t.source}: ${t.setup}. Fleiss κ: the paper's, after dropping the items both call a tie.`];
  if (!same)
    notes.push(
      `This campaign compares ${systems.A ?? "?"} (A) with ${systems.B ?? "?"} (B), not the paper's H2Memory with Vanilla (with log): the paper's rows are for reference only.`,
    );
  if (reading.judgeModel !== undefined && !norm(reading.judgeModel ?? "").includes("gpt4turbo"))
    notes.push(
      `This run's judge: ${reading.judgeModel ?? "model not recorded (imported verdicts)"}; the paper's Evaluation-LLM is GPT-4-turbo-2024-04-09.`,
    );
  if (reading.humans === "adjudication") notes.push("The paper takes its humans by vote; these humans are by adjudication.");
  if (reading.variant === "either") notes.push("The paper's κ drops the items both call a tie; this one drops those either calls a tie.");
  return {
    source: t.source,
    setup: t.setup,
    sameComparison: same,
    label: same ? `${t.source} (the same comparison, ${t.items} topics)` : `${t.source}, for reference only (another comparison)`,
    dimensions: t.dimensions,
    notes,
  };
}
