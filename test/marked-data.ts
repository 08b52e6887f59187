/**
 * Small data sets with distinctive marker strings, for tests that prove what may and may not reach
 * a prompt: MK_S<seq>_LOG in each session's logs, MK_S<seq>_DLG in its dialogue, MK_S<seq>_TOPIC in
 * its topics (PAL-Set); MK_DLG_META in dialogue metadata and MK_QA_* in QA pairs (HiCUPID).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/db/client";
import { importPalset } from "@/lib/datasets/palset/import";
import { importHicupid } from "@/lib/datasets/hicupid/import";
import { PALSET_MINI_EN } from "./fixtures";

const ROOT = path.resolve(__dirname, "..");

/* eslint-disable @typescript-eslint/no-explicit-any -- raw published JSON */
export async function importMarkedPalset(db: Db, name = "Marked PAL-Set"): Promise<{ dir: string; cleanup: () => void }> {
  const data = JSON.parse(fs.readFileSync(path.join(PALSET_MINI_EN, "input.json"), "utf8"));
  for (const [uid, user] of Object.entries<any>(data)) {
    [...user.history, ...user.query].forEach((s: any, seq: number) => {
      // The fixture's users share some text; the user id keeps their prompts apart.
      for (const l of s.logs) l.content += ` (u${uid}) MK_S${seq}_LOG`;
      for (const t of Object.values<any>(s.dialogue)) {
        t.user.content += ` (u${uid}) MK_S${seq}_DLG`;
        t.assistant.content += ` MK_S${seq}_DLG`;
      }
      for (const topic of Object.values<any>(s.topics)) {
        topic.user_query += ` MK_S${seq}_TOPIC`;
        topic.requirement += ` MK_S${seq}_TOPIC`;
        topic.implicit_needs = topic.implicit_needs.map((n: string) => `${n} MK_S${seq}_TOPIC`);
        topic.solution.pos = topic.solution.pos.map((n: string) => `${n} MK_S${seq}_TOPIC`);
        for (const c of topic.candidate_solutions) c.solution += ` MK_S${seq}_TOPIC`;
      }
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-marked-"));
  fs.writeFileSync(path.join(dir, "input.json"), JSON.stringify(data));
  await importPalset(db, { paths: [path.join(dir, "input.json")], name, lang: "en" });
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function importMarkedHicupid(db: Db, name = "Marked HiCUPID"): Promise<{ dir: string; cleanup: () => void }> {
  const src = path.join(ROOT, "fixtures/hicupid/jsonl");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-marked-hc-"));
  for (const config of ["dialogue", "qa"]) {
    fs.mkdirSync(path.join(dir, config));
    for (const f of fs.readdirSync(path.join(src, config))) {
      const rows = fs
        .readFileSync(path.join(src, config, f), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      for (const r of rows) {
        if (config === "dialogue") {
          r.metadata = { ...(r.metadata ?? {}), marker: "MK_DLG_META" };
          r.user += " MK_HC_DLG";
        } else {
          r.metadata = { ...(r.metadata ?? {}), marker: "MK_QA_META" };
          r.personalized_answer += " MK_QA_ANSWER";
          r.general_answer += " MK_QA_ANSWER";
          r.question += " MK_QA_QUESTION";
        }
      }
      fs.writeFileSync(path.join(dir, config, f), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    }
  }
  await importHicupid(db, { paths: [dir], name });
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
