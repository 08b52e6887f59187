/**
 * PAL-Set import: read every file once, validate everything, then write it all in ONE transaction
 * (nothing lands when anything fails; other data sets are untouched). See docs/data-formats.md.
 *
 * Phases, reported through `onProgress`: reading (files), validating (users; also language
 * detection and the quality report), writing (users), done.
 */
import { describeSource } from "../source";
import fs from "node:fs";
import path from "node:path";
import { eq, max, sql } from "drizzle-orm";
import { checkName, claimDataset } from "../replace";
import type { Db } from "@/db/client";
import { datasets, palCandidates, palLogs, palRequirementTypes, palSamples, palTopics, palTurns, palUsers } from "@/db/schema";
import { DatasetError, type ImportOptions, type ImportResult, type QualityReport } from "../types";
import { actionCode, assignTopics } from "./actions";
import { extraOf, withNested } from "./extra";
import { findJsonError } from "./json-error";
import { decodeUtf8 } from "@/lib/utf8";
import { jsonTextTooDeep, tooDeepMessage } from "@/lib/json-depth";
import { defaultName, resolveInputs } from "./inputs";
import { LanguageCounter } from "@/lib/llm/language";
import { inferLogType } from "./log-types";
import {
  isObj,
  linkUser,
  normaliseBackground,
  requirementTypes,
  splitTemplateKey,
  topicNo,
  type ProfileFile,
  type ProfileKind,
  type SampleLinks,
} from "./profile";
import { ReportBuilder, reportUser } from "./report";
import { checkTopLevel, KEYS, oneLine, validateUser, type PalSample, type PalUser } from "./schema";
import { palsetStats } from "./stats";
import { parseTimestamp } from "./timestamp";
import { TableWriter, type Tx } from "../writer";

type Entry = { file: string; userKey: string; user: PalUser | null };

/**
 * Reads and parses one JSON file; a syntax error becomes a one-line DatasetError with line and column,
 * and so do invalid UTF-8 (lib/utf8) and nesting deeper than MAX_JSON_DEPTH (lib/json-depth).
 */
export function readJsonFile(file: string): unknown {
  const name = path.basename(file);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    throw new DatasetError(`${name}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let text: string;
  try {
    text = decodeUtf8(bytes, name); // also drops a byte-order mark
  } catch (e) {
    throw new DatasetError((e as Error).message);
  }
  const deep = jsonTextTooDeep(text);
  if (deep) throw new DatasetError(tooDeepMessage(`${name}:${deep.line}`, deep));
  try {
    return JSON.parse(text);
  } catch (e) {
    const found = findJsonError(text);
    const reason = found ? `${found.reason} (line ${found.line}, column ${found.column})` : (e as Error).message;
    throw new DatasetError(oneLine(`${name}: invalid JSON: ${reason}`));
  }
}

/**
 * The first id to give a parent table's new rows. Explicit ids let children reference rows that are
 * still in a batch; we start above both the current maximum and AUTOINCREMENT's high-water mark, as
 * SQLite itself would (the transaction is IMMEDIATE, so no other writer interleaves).
 */
function nextId(tx: Tx, t: typeof palUsers | typeof palSamples | typeof palTopics, table: string): number {
  const top =
    tx
      .select({ m: max(t.id) })
      .from(t)
      .get()?.m ?? 0;
  const seq = tx.get<{ seq: number } | undefined>(sql`select seq from sqlite_sequence where name = ${table}`)?.seq ?? 0;
  return Math.max(top, seq) + 1;
}

/** Samples some of a user's dialogue and log text for language detection (enough, and cheap). */
function sampleLanguage(lc: LanguageCounter, user: PalUser): void {
  for (const s of [...user.history, ...user.query]) {
    for (let i = 0; i < s.logs.length && i < 10; i++) lc.add(s.logs[i].content);
    let n = 0;
    for (const k in s.dialogue) {
      lc.add(s.dialogue[k].user.content);
      if (++n === 5) break;
    }
  }
}

/** One file per profile kind; with several (e.g. background.json and background_en.json), the one of the data set's language. */
function pickProfiles(files: ProfileFile[], lang: string, rb: ReportBuilder): Map<ProfileKind, ProfileFile> {
  const out = new Map<ProfileKind, ProfileFile>();
  for (const f of files) {
    const prev = out.get(f.kind);
    if (!prev) {
      out.set(f.kind, f);
      continue;
    }
    const isEn = (x: ProfileFile) => /[_-]en\.json$/i.test(x.file);
    const fits = (x: ProfileFile) => (lang === "en") === isEn(x);
    if (fits(f) && !fits(prev)) out.set(f.kind, f);
    else if (fits(f) === fits(prev))
      rb.warn(
        "profile-duplicate",
        "two profile files of one kind; the first is used",
        `${path.basename(prev.file)}, ${path.basename(f.file)}`,
      );
  }
  return out;
}

export async function importPalset(db: Db, opts: ImportOptions): Promise<ImportResult> {
  const progress = opts.onProgress ?? (() => {});
  const inputs = resolveInputs(opts.paths);
  if (opts.name) checkName(db, opts.name, "palset", opts.replace);

  // ---- reading: each file parsed once ----
  const entries: Entry[] = [];
  const where = new Map<string, string>();
  const total = inputs.dataFiles.length + inputs.profileFiles.length;
  inputs.dataFiles.forEach((file, i) => {
    progress({ phase: "reading", done: i, total, detail: path.basename(file) });
    const name = path.basename(file);
    const data = readJsonFile(file) as Record<string, unknown>;
    for (const userKey of checkTopLevel(name, data)) {
      const first = where.get(userKey);
      if (first) throw new DatasetError(`${name}: ${userKey}: user id appears twice (also in ${first})`);
      where.set(userKey, name);
      entries.push({ file: name, userKey, user: data[userKey] as PalUser });
    }
  });
  const profileFiles: ProfileFile[] = inputs.profileFiles.map((p, i) => {
    progress({ phase: "reading", done: inputs.dataFiles.length + i, total, detail: path.basename(p.file) });
    const data = readJsonFile(p.file);
    if (!isObj(data)) throw new DatasetError(`${path.basename(p.file)}: expected an object keyed by user id (a ${p.kind} file)`);
    return { ...p, data };
  });
  progress({ phase: "reading", done: total, total });

  // ---- validating: everything before anything is written ----
  const lc = new LanguageCounter();
  entries.forEach((e, i) => {
    progress({ phase: "validating", done: i, total: entries.length, detail: e.userKey });
    validateUser(e.file, e.userKey, e.user);
    sampleLanguage(lc, e.user!);
  });
  const lang = opts.lang ?? lc.language();
  const name = opts.name ?? defaultName(opts.paths, lang);
  if (!opts.name) checkName(db, name, "palset", opts.replace);

  const rb = new ReportBuilder();
  for (const e of entries) reportUser(rb, lang, e.userKey, e.user!);
  const profiles = pickProfiles(profileFiles, lang, rb);
  for (const [kind, f] of profiles) {
    if (kind === "dialogue_template") continue;
    for (const uid of Object.keys(f.data)) {
      if (!where.has(uid))
        rb.warn("profile-unknown-user", "profile entry of a user not in the data (ignored)", `${path.basename(f.file)}: ${uid}`);
    }
  }
  const templates = dialogueTemplates(profiles.get("dialogue_template"));
  progress({ phase: "validating", done: entries.length, total: entries.length });

  // ---- writing: one transaction ----
  const datasetId = db.transaction(
    (tx) => {
      const id = claimDataset(
        tx,
        name,
        "palset",
        { language: lang, source: describeSource(opts.paths), importedBy: opts.importedBy },
        opts.replace,
      );
      const w = {
        users: new TableWriter(tx, palUsers, ["id", "datasetId", "userKey", "position", "name", "background", "profileRaw", "extra"]),
        types: new TableWriter(tx, palRequirementTypes, [
          "userId",
          "aspect",
          "typeKey",
          "requirementType",
          "preferencePos",
          "preferenceNeg",
        ]),
        samples: new TableWriter(tx, palSamples, [
          "id",
          "datasetId",
          "userId",
          "sampleKey",
          "split",
          "position",
          "seq",
          "dialogueTimestamp",
          "dialogueAt",
          "situation",
          "logCount",
          "turnCount",
          "topicCount",
          "extra",
        ]),
        logs: new TableWriter(tx, palLogs, ["sampleId", "position", "timestamp", "at", "logType", "content", "extra"]),
        turns: new TableWriter(tx, palTurns, [
          "sampleId",
          "turnKey",
          "position",
          "topicIndex",
          "userAction",
          "userActionCode",
          "userContent",
          "assistantAction",
          "assistantActionCode",
          "assistantContent",
          "extra",
        ]),
        topics: new TableWriter(tx, palTopics, [
          "id",
          "sampleId",
          "topicKey",
          "position",
          "userQuery",
          "implicitNeeds",
          "requirement",
          "solutionPos",
          "solutionNeg",
          "requirementTypeKey",
          "framework",
          "solutionPreference",
          "dialogueTemplate",
          "extra",
        ]),
        candidates: new TableWriter(tx, palCandidates, ["topicId", "position", "solution", "feedback", "extra"]),
      };
      const ids = {
        user: nextId(tx, palUsers, "pal_users"),
        sample: nextId(tx, palSamples, "pal_samples"),
        topic: nextId(tx, palTopics, "pal_topics"),
      };
      entries.forEach((e, position) => {
        progress({ phase: "writing", done: position, total: entries.length, detail: e.userKey });
        writeUser(w, ids, id, position, e.userKey, e.user!, profiles, templates, rb);
        e.user = null; // let the parsed data go as soon as it is written
      });
      w.logs.flush();
      w.turns.flush();
      w.candidates.flush();
      w.types.flush();
      for (const t of templates.values())
        if (!t.used) rb.warn("profile-unlinked", "profile entry without a matching topic (not imported)", `dialogue_template ${t.key}`);
      const stats = palsetStats(tx, id);
      tx.update(datasets)
        .set({ stats, report: rb.toReport(stats) })
        .where(eq(datasets.id, id))
        .run();
      return id;
    },
    { behavior: "immediate" },
  );
  progress({ phase: "done", done: entries.length, total: entries.length });

  const row = db.select({ stats: datasets.stats, report: datasets.report }).from(datasets).where(eq(datasets.id, datasetId)).get()!;
  return {
    datasetId,
    name,
    kind: "palset",
    language: lang,
    stats: row.stats ?? {},
    report: (row.report as QualityReport) ?? rb.toReport(),
  };
}

type Template = { key: string; entry: Record<string, unknown>; used: boolean };

/** dialogue_template.json → sample id → topic number → entry. */
function dialogueTemplates(f: ProfileFile | undefined): Map<string, Template> {
  const out = new Map<string, Template>();
  if (!f) return out;
  for (const [key, entry] of Object.entries(f.data)) {
    const parts = splitTemplateKey(key);
    if (parts && isObj(entry)) out.set(`${parts[0]}\u0000${topicNo(parts[1])}`, { key, entry, used: false });
    else out.set(key, { key, entry: isObj(entry) ? entry : {}, used: false });
  }
  return out;
}

type Writers = {
  users: TableWriter<typeof palUsers>;
  types: TableWriter<typeof palRequirementTypes>;
  samples: TableWriter<typeof palSamples>;
  logs: TableWriter<typeof palLogs>;
  turns: TableWriter<typeof palTurns>;
  topics: TableWriter<typeof palTopics>;
  candidates: TableWriter<typeof palCandidates>;
};

function writeUser(
  w: Writers,
  ids: { user: number; sample: number; topic: number },
  datasetId: number,
  position: number,
  userKey: string,
  user: PalUser,
  profiles: Map<ProfileKind, ProfileFile>,
  templates: Map<string, Template>,
  rb: ReportBuilder,
): void {
  const prof = (kind: ProfileKind) => {
    const v = profiles.get(kind)?.data[userKey];
    if (v !== undefined && !isObj(v)) rb.unrecognised(`${kind} entry that is not an object`, userKey);
    return isObj(v) ? v : null;
  };
  const samples: Array<{ split: "history" | "query"; position: number; sample: PalSample; at: number | null }> = [];
  for (const split of KEYS.user)
    user[split].forEach((sample, i) => samples.push({ split, position: i, sample, at: parseTimestamp(sample.dialogue_timestamp) }));

  // Profile: normalised background, requirement types, links to samples/topics.
  const raw: Record<string, unknown> = {};
  const bgRaw = prof("background");
  const background = bgRaw ? normaliseBackground(bgRaw, userKey, rb) : null;
  if (bgRaw) {
    raw.background = bgRaw;
    rb.count("usersWithBackground");
  }
  const req = prof("requirement");
  const pref = prof("preference");
  if (req) raw.requirement = req;
  if (pref) raw.preference = pref;
  const types = requirementTypes(req, pref, userKey, rb);
  const { links, unlinked } = linkUser(
    userKey,
    samples.map((s) => ({ sampleKey: s.sample.sample_id, dialogueAt: s.at, topicKeys: Object.keys(s.sample.topics) })),
    {
      situation: prof("situation"),
      requirement_framework: prof("requirement_framework"),
      solution_preference: prof("solution_preference"),
    },
    rb,
  );
  Object.assign(raw, unlinked);

  const userId = ids.user++;
  w.users.add({
    id: userId,
    datasetId,
    userKey,
    position,
    name: typeof background?.name === "string" ? background.name : null,
    background,
    profileRaw: Object.keys(raw).length ? raw : null,
    extra: extraOf(user, KEYS.user),
  });
  w.users.flush();
  for (const t of types) w.types.add({ userId, ...t });
  rb.count("requirementTypes", types.length);

  const sampleIds = samples.map(() => ids.sample++);
  samples.forEach((s, seq) => {
    const x = s.sample;
    w.samples.add({
      id: sampleIds[seq],
      datasetId,
      userId,
      sampleKey: x.sample_id,
      split: s.split,
      position: s.position,
      seq,
      dialogueTimestamp: x.dialogue_timestamp,
      dialogueAt: s.at,
      situation: links[seq].situation,
      logCount: x.logs.length,
      turnCount: Object.keys(x.dialogue).length,
      topicCount: Object.keys(x.topics).length,
      extra: extraOf(x, KEYS.sample),
    });
  });
  w.samples.flush();

  samples.forEach((s, seq) => writeSample(w, ids, sampleIds[seq], s.sample, links[seq], templates, rb));
}

function writeSample(
  w: Writers,
  ids: { topic: number },
  sampleId: number,
  x: PalSample,
  links: SampleLinks,
  templates: Map<string, Template>,
  rb: ReportBuilder,
): void {
  x.logs.forEach((log, i) => {
    const logType = inferLogType(log.content);
    rb.count(logType ? `logType.${logType}` : "logType.unknown");
    w.logs.add({
      sampleId,
      position: i,
      timestamp: log.timestamp,
      at: parseTimestamp(log.timestamp),
      logType,
      content: log.content,
      extra: extraOf(log, KEYS.log),
    });
  });

  const topicKeys = Object.keys(x.topics);
  const turnKeys = Object.keys(x.dialogue);
  const userCodes = turnKeys.map((k) => actionCode(x.dialogue[k].user.action));
  const topicOf = assignTopics(userCodes, topicKeys.length);
  turnKeys.forEach((k, i) => {
    const t = x.dialogue[k];
    let extra = extraOf(t, KEYS.turn);
    extra = withNested(extra, "user", extraOf(t.user, KEYS.utterance));
    extra = withNested(extra, "assistant", extraOf(t.assistant, KEYS.utterance));
    w.turns.add({
      sampleId,
      turnKey: k,
      position: i + 1,
      topicIndex: topicOf[i],
      userAction: t.user.action,
      userActionCode: userCodes[i],
      userContent: t.user.content,
      assistantAction: t.assistant.action,
      assistantActionCode: actionCode(t.assistant.action),
      assistantContent: t.assistant.content,
      extra,
    });
  });

  topicKeys.forEach((k, i) => {
    const t = x.topics[k];
    const topicId = ids.topic++;
    const link = links.topics[i];
    const tpl = templates.get(`${x.sample_id}\u0000${topicNo(k)}`);
    if (tpl) {
      tpl.used = true;
      rb.count("dialogueTemplatesLinked");
    }
    if (link.requirementTypeKey) rb.count("topicsWithRequirementType");
    w.topics.add({
      id: topicId,
      sampleId,
      topicKey: k,
      position: i,
      userQuery: t.user_query,
      implicitNeeds: t.implicit_needs,
      requirement: t.requirement,
      solutionPos: t.solution.pos,
      solutionNeg: t.solution.neg,
      requirementTypeKey: link.requirementTypeKey,
      framework: link.framework,
      solutionPreference: link.solutionPreference,
      dialogueTemplate: tpl?.entry ?? null,
      extra: withNested(extraOf(t, KEYS.topic), "solution", extraOf(t.solution, KEYS.solution)),
    });
  });
  // Candidates reference the topics: those must be in the table before a candidate batch may run.
  w.topics.flush();
  let topicId = ids.topic - topicKeys.length;
  for (const k of topicKeys) {
    x.topics[k].candidate_solutions.forEach((c, j) => {
      w.candidates.add({ topicId, position: j, solution: c.solution, feedback: c.feedback, extra: extraOf(c, KEYS.candidate) });
    });
    topicId++;
  }
}
