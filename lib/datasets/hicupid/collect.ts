/**
 * Gathers checked HiCUPID rows into the data set the importer writes, and the quality report.
 * Everything is validated and settled here, before a single row is written.
 *
 * Order: users by first appearance (dialogue files first, splits in their usual order); a user's
 * dialogues in file order (the published files list a history persona → profile → schedule); turns
 * in file order within their dialogue; QA pairs in file order.
 *
 * Dialogue type rule (first that applies):
 *   1. the rows' `type` column;
 *   2. the rows' `metadata`, when exactly one of `persona`, `profile`, `schedule` is set;
 *   3. the QA pairs that reference the dialogue: a persona (schedule) pair's dialogues are persona
 *      (schedule) dialogues; a profile (multi-info) pair lists the profile dialogues first and its
 *      persona dialogue last (the layout the published code reads), so with two or more ids the last
 *      is a persona dialogue and the others profile dialogues;
 *   4. otherwise unknown (null), with a warning.
 */
import { HC_TYPES } from "@/db/schema";
import type { QualityReport } from "../types";
import type { QaRow, TurnRow } from "./rows";
import { WarningList } from "../warnings";

export type HcType = (typeof HC_TYPES)[number];

export type CollectedUser = {
  key: string;
  dialogues: number;
  turns: number;
  qa: number;
  persona: number;
  profile: number;
  schedule: number;
};

export type CollectedDialogue = {
  /** Index into `users`. */
  user: number;
  key: string;
  split: string;
  /** Order in the user's history, from 0. */
  position: number;
  type: string | null;
  metadata: unknown;
  turnCount: number;
};

/** Column-wise, to keep ~600k turns light in memory. */
export type CollectedTurns = {
  /** Index into `dialogues`. */
  dialogue: number[];
  position: number[];
  user: string[];
  assistant: string[];
  /** Unknown columns as JSON text, or null. */
  extra: (Record<string, unknown> | null)[];
};

export type CollectedQa = Omit<QaRow, "userKey" | "extra"> & { user: number; extra: Record<string, unknown> | null };

export type Collected = {
  users: CollectedUser[];
  dialogues: CollectedDialogue[];
  turns: CollectedTurns;
  qa: CollectedQa[];
  /** The counts of docs/data-formats.md. */
  stats: { users: number; dialogues: number; turns: number; qa: number };
  report: QualityReport;
};

type DialogueAcc = CollectedDialogue & { typeColumn: string | null; typeMixed: boolean; at: string };

const PERSONA = 1;
const PROFILE = 2;
const SCHEDULE = 4;
const REF_BIT: Record<HcType, number> = { persona: PERSONA, profile: PROFILE, schedule: SCHEDULE };

function isHcType(s: string | null): s is HcType {
  return (HC_TYPES as readonly (string | null)[]).includes(s);
}

export class HicupidCollector {
  private readonly userIndex = new Map<string, number>();
  private readonly users: CollectedUser[] = [];
  private readonly dialogueIndex = new Map<string, number>();
  private readonly dialogues: DialogueAcc[] = [];
  private readonly turns: CollectedTurns = { dialogue: [], position: [], user: [], assistant: [], extra: [] };
  private readonly qa: CollectedQa[] = [];
  private readonly qaAt: string[] = [];
  private readonly unknownColumns = new Set<string>();
  private lastDialogue = -1;
  readonly warnings = new WarningList();

  /** `label` and `where` name the row for warnings (`qa/train.jsonl`, `line 3`). */
  addTurn(row: TurnRow, label: string, where: string): void {
    const user = this.user(row.userKey);
    const id = `${user}\u0000${row.split}\u0000${row.dialogueKey}`;
    let d = this.dialogueIndex.get(id);
    if (d === undefined) {
      d = this.dialogues.length;
      this.dialogueIndex.set(id, d);
      this.dialogues.push({
        user,
        key: row.dialogueKey,
        split: row.split,
        position: this.users[user].dialogues,
        type: null,
        metadata: row.metadata,
        turnCount: 0,
        typeColumn: row.type,
        typeMixed: false,
        at: `${label}: ${where}`,
      });
      this.users[user].dialogues++;
    } else if (d !== this.lastDialogue) {
      this.warnings.add(
        "dialogue-rows-apart",
        "a dialogue's rows are not next to each other; its turns are kept in file order",
        `${label}: ${where}: user ${row.userKey} dialogue ${row.dialogueKey}`,
      );
    }
    this.lastDialogue = d;
    const acc = this.dialogues[d];
    if (row.type !== null && acc.typeColumn !== null && row.type !== acc.typeColumn && !acc.typeMixed) {
      acc.typeMixed = true;
      this.warnings.add(
        "dialogue-type-mixed",
        "a dialogue's rows disagree on its type; the first row's type is kept",
        `${label}: ${where}`,
      );
    }
    acc.typeColumn ??= row.type;
    if (acc.metadata === null) acc.metadata = row.metadata;

    this.turns.dialogue.push(d);
    this.turns.position.push(acc.turnCount++);
    this.turns.user.push(row.user);
    this.turns.assistant.push(row.assistant);
    this.turns.extra.push(this.extraJson(row.extra, "dialogue"));
    this.users[acc.user].turns++;
    if (!row.user.trim()) this.emptyString(label, where, "user");
    if (!row.assistant.trim()) this.emptyString(label, where, "assistant");
  }

  addQa(row: QaRow, label: string, where: string): void {
    const user = this.user(row.userKey);
    this.users[user].qa++;
    const { userKey: _key, extra, ...rest } = row;
    this.qa.push({ ...rest, user, extra: this.extraJson(extra, "qa") });
    this.qaAt.push(`${label}: ${where}`);
    if (!isHcType(row.type)) {
      this.warnings.add("unknown-qa-type", `QA type not one of ${HC_TYPES.join(", ")}; kept as given`, `${label}: ${where}: "${row.type}"`);
    }
    if (row.dialogueKeys.length === 0) this.warnings.add("qa-no-dialogues", "QA pair lists no relevant dialogue", `${label}: ${where}`);
    for (const col of ["question", "personalizedAnswer", "generalAnswer"] as const) {
      if (!row[col].trim())
        this.emptyString(
          label,
          where,
          col === "question" ? "question" : col === "personalizedAnswer" ? "personalized_answer" : "general_answer",
        );
    }
  }

  /** Files not imported (the `evaluation` config). */
  skip(labels: string[]): void {
    for (const l of labels) {
      this.warnings.add("skipped-evaluation", "the evaluation config holds no dialogue or QA rows and is not imported", l);
    }
  }

  finish(): Collected {
    const refs = this.resolveReferences();
    const dialogues = this.dialogues.map((d, i) => this.settleType(d, refs[i]));
    for (const d of dialogues) if (isHcType(d.type)) this.users[d.user][d.type]++;
    for (const u of this.users) {
      if (u.dialogues === 0) this.warnings.add("user-without-dialogues", "user has QA pairs but no dialogues", `user ${u.key}`);
      if (u.qa === 0) this.warnings.add("user-without-qa", "user has dialogues but no QA pairs", `user ${u.key}`);
    }
    const stats = { users: this.users.length, dialogues: dialogues.length, turns: this.turns.user.length, qa: this.qa.length };
    return {
      users: this.users,
      dialogues,
      turns: this.turns,
      qa: this.qa,
      stats,
      report: {
        counts: { ...stats, ...this.breakdown(dialogues) },
        warnings: this.warnings.list(),
        ...(this.unknownColumns.size ? { unrecognised: [...this.unknownColumns].sort() } : {}),
      },
    };
  }

  private user(key: string): number {
    let i = this.userIndex.get(key);
    if (i === undefined) {
      i = this.users.length;
      this.userIndex.set(key, i);
      this.users.push({ key, dialogues: 0, turns: 0, qa: 0, persona: 0, profile: 0, schedule: 0 });
    }
    return i;
  }

  private extraJson(extra: Record<string, unknown> | null, config: string): Record<string, unknown> | null {
    if (!extra) return null;
    for (const k of Object.keys(extra)) this.unknownColumns.add(`${config}.${k}`);
    return extra;
  }

  private emptyString(label: string, where: string, column: string): void {
    this.warnings.add("empty-string", "empty text", `${label}: ${where}: column "${column}"`);
  }

  /**
   * Which QA types reference each dialogue (bit flags). QA ids resolve within the user's dialogues of
   * any split: Test Set 1 asks about train users' histories.
   */
  private resolveReferences(): Uint8Array {
    const byUserKey = new Map<string, number[]>();
    this.dialogues.forEach((d, i) => {
      const k = `${d.user}\u0000${d.key}`;
      const list = byUserKey.get(k);
      if (list) list.push(i);
      else byUserKey.set(k, [i]);
    });
    const refs = new Uint8Array(this.dialogues.length);
    this.qa.forEach((q, i) => {
      const last = q.dialogueKeys.at(-1);
      for (const key of q.dialogueKeys) {
        const found = byUserKey.get(`${q.user}\u0000${key}`);
        if (!found) {
          this.warnings.add(
            "qa-unknown-dialogue",
            "QA pair references a dialogue id the user does not have",
            `${this.qaAt[i]}: user ${this.users[q.user].key} dialogue ${key}`,
          );
          continue;
        }
        for (const d of found) refs[d] |= refBit(q.type, key === last && q.dialogueKeys.length > 1);
      }
    });
    return refs;
  }

  private settleType(acc: DialogueAcc, refBits: number): CollectedDialogue {
    const { typeColumn, typeMixed: _m, at, ...d } = acc;
    const given = typeColumn?.trim() || typeFromMetadata(d.metadata);
    let type: string | null = given ?? null;
    if (given) {
      if (!isHcType(given))
        this.warnings.add("unknown-dialogue-type", `dialogue type not one of ${HC_TYPES.join(", ")}; kept as given`, `${at}: "${given}"`);
      const conflict =
        (refBits & PERSONA && given !== "persona") ||
        (refBits & SCHEDULE && given !== "schedule") ||
        (refBits & PROFILE && given !== "profile");
      if (conflict)
        this.warnings.add(
          "dialogue-type-conflict",
          "a dialogue's type does not match the QA pairs that reference it",
          `${at}: type "${given}"`,
        );
    } else if (refBits === PERSONA) type = "persona";
    else if (refBits === SCHEDULE) type = "schedule";
    else if (refBits === PROFILE) type = "profile";
    if (!type)
      this.warnings.add(
        "dialogue-type-unknown",
        "no type column, metadata or QA reference tells the dialogue's type",
        `${at}: user ${this.users[d.user].key} dialogue ${d.key}`,
      );
    return { ...d, type };
  }

  private breakdown(dialogues: CollectedDialogue[]): Record<string, number> {
    const counts: Record<string, number> = {};
    const inc = (k: string, n = 1) => (counts[k] = (counts[k] ?? 0) + n);
    for (const d of dialogues) {
      inc(`dialogues.${d.split}`);
      inc(`turns.${d.split}`, d.turnCount);
      inc(`dialogues.${d.type ?? "unknown"}`);
    }
    for (const q of this.qa) {
      inc(`qa.${q.split}`);
      inc(`qa.${q.type}`);
      inc(`qa.${q.split}.${q.type}`);
    }
    return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** What a QA pair's reference says about a dialogue's type. */
function refBit(qaType: string, lastOfSeveral: boolean): number {
  if (qaType === "profile") return lastOfSeveral ? PERSONA : PROFILE;
  return isHcType(qaType) ? REF_BIT[qaType] : 0;
}

/** A metadata object naming exactly one of persona / profile / schedule says what the dialogue is about. */
function typeFromMetadata(metadata: unknown): string | null {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  const set = HC_TYPES.filter((k) => (metadata as Record<string, unknown>)[k] != null);
  return set.length === 1 ? set[0] : null;
}
