import { sqliteTable, integer, text, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";
import { users } from "./auth";
import { datasets } from "./datasets";
import { palSamples } from "./palset";
import { experiments } from "./experiments";

/** The kinds of campaign (lib/annotation/kinds registers one module per kind). */
export const CAMPAIGN_KINDS = ["session-quality", "pairwise-dialogue", "hicupid-ab", "output-rating", "answer-correctness"] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

/** Where a campaign's items came from: sampled PAL-Set sessions, an uploaded file, or a PAL Studio experiment. */
export const ITEM_SOURCES = ["palset-session", "upload", "experiment"] as const;

/** A campaign created although what annotators read names a system it compares (issue 40.15). */
export type BlindingOverride = { named: Array<{ system: string; where: string }>; by: number; at: string };

/**
 * A human-evaluation campaign. Users are never deleted (they are disabled), so every foreign key to
 * users is RESTRICT: a label always keeps its annotator.
 */
export const campaigns = sqliteTable("campaigns", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  kind: text("kind", { enum: CAMPAIGN_KINDS }).notNull(),
  source: text("source", { enum: ITEM_SOURCES }).notNull(),
  datasetId: integer("dataset_id").references(() => datasets.id, { onDelete: "set null" }),
  /** Markdown, rendered without raw HTML. */
  guidelines: text("guidelines"),
  /**
   * The title annotators see (the name is the researchers' own and never reaches them); null: a neutral
   * title from the kind (lib/annotation/blinding.ts, annotatorTitleOf).
   */
  annotatorTitle: text("annotator_title"),
  /**
   * Set only when the campaign was created although its annotator title or guidelines name a system it
   * compares: what was named where, by whom and when. The agreement report and exports carry it as a warning.
   */
  blindingOverride: text("blinding_override", { mode: "json" }).$type<BlindingOverride>(),
  /** k: annotations per item. */
  perItem: integer("per_item").notNull().default(3),
  status: text("status", { enum: ["open", "closed"] })
    .notNull()
    .default("open"),
  /** How split human votes are resolved (lib/agreement majority tie rule), recorded with the campaign. */
  tieRule: text("tie_rule", { enum: ["tie", "first", "adjudicate", "none"] })
    .notNull()
    .default("tie"),
  /** Sampling parameters (users, sessions per user, seed) or the uploaded file's name. */
  config: text("config", { mode: "json" }).$type<Record<string, unknown>>(),
  createdBy: integer("created_by")
    .notNull()
    .references(() => users.id, { onDelete: "restrict" }),
  createdAt: createdAt(),
  /**
   * Bumped by triggers (migration 0030_agreement_version_triggers) on every write the agreement report
   * reads: labels, assignment status, adjudications, judge labels. The cached report names the version it saw.
   */
  agreementVersion: integer("agreement_version").notNull().default(0),
  /**
   * How items reach people: "fixed" (dealt out at creation to the listed annotators) or "dynamic"
   * (served to whoever asks next, k per item, with a hold: lib/annotation/participants/serve.ts).
   */
  assignment: text("assignment", { enum: ["fixed", "dynamic"] })
    .notNull()
    .default("fixed"),
  /** The secret of the participant link `/join/<token>`; null: the campaign takes no participants. */
  joinToken: text("join_token").unique(),
  /** Crowd settings (lib/annotation/participants/settings.ts): hold, quota, cap, codes, consent, gold rate, minimum time. */
  crowd: text("crowd", { mode: "json" }).$type<Record<string, unknown>>(),
  /**
   * Bumped when a participant joins or finishes (labels and exclusions bump agreementVersion): the cached
   * participants table (participant_quality_reports) names both versions it saw.
   */
  participantsVersion: integer("participants_version").notNull().default(0),
  /**
   * The guidelines' current version (campaign_guideline_versions keeps every one): written with
   * `guidelines` in one update, so a page that reads both shows the text of the version it sends back.
   */
  guidelinesVersion: integer("guidelines_version").notNull().default(1),
});

/** Every version of a campaign's guidelines, with its author and time (lib/annotation/guideline-versions.ts). */
export const campaignGuidelineVersions = sqliteTable(
  "campaign_guideline_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    guidelines: text("guidelines").notNull(),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("campaign_guideline_versions_identity").on(t.campaignId, t.version)],
);

/**
 * A crowd participant of one campaign, joined from its link. Their user row (role "participant", no
 * password) owns their assignments; the Prolific ids are kept here. `browserKey` is a hash of a secret
 * the joining browser keeps: the same PID resumes only from that browser.
 */
export const participants = sqliteTable(
  "participants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "restrict" }),
    /** Pseudonymous id shown in exports and tables (never the Prolific id). */
    code: text("code").notNull(),
    prolificPid: text("prolific_pid").notNull(),
    studyId: text("study_id"),
    sessionId: text("session_id"),
    browserKey: text("browser_key").notNull(),
    consentedAt: integer("consented_at"),
    status: text("status", { enum: ["active", "completed", "screened-out"] })
      .notNull()
      .default("active"),
    finishedAt: integer("finished_at"),
    /** Excluded by the PI: their labels stay, marked, and drop out of agreement. */
    excluded: integer("excluded", { mode: "boolean" }).notNull().default(false),
    excludedReason: text("excluded_reason"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("participants_campaign_pid").on(t.campaignId, t.prolificPid), uniqueIndex("participants_code").on(t.code)],
);

/** A label spec (like a Langfuse score config): one dimension of a campaign, its scale and ordered categories. */
export const campaignDimensions = sqliteTable(
  "campaign_dimensions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** Stable key, e.g. "logs", "dialogue", "requirement", "preference", "personalization". */
    key: text("key").notNull(),
    title: text("title").notNull(),
    question: text("question"),
    scale: text("scale", { enum: ["nominal", "ordinal"] }).notNull(),
    /** Ordered categories in canonical terms: [{value, label}] (e.g. Win/Tie/Lose for slot A, or 1/2/3). */
    categories: text("categories", { mode: "json" }).$type<Array<{ value: string; label: string }>>().notNull(),
  },
  (t) => [uniqueIndex("campaign_dimensions_key").on(t.campaignId, t.key)],
);

export const campaignAnnotators = sqliteTable(
  "campaign_annotators",
  {
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] })],
);

/**
 * A compared system of a pairwise campaign (e.g. "h2memory" vs "vanilla-log", or a model vs the
 * HiCUPID reference). Slot "A" is the canonical first side: labels are stored from its point of view.
 * Names never reach an annotator.
 */
export const campaignSystems = sqliteTable(
  "campaign_systems",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    slot: text("slot", { enum: ["A", "B"] }).notNull(),
    name: text("name").notNull(),
    /** Set when the outputs come from an experiment of PAL Studio (source "experiment"). */
    experimentId: integer("experiment_id").references(() => experiments.id, { onDelete: "set null" }),
    method: text("method"),
  },
  (t) => [uniqueIndex("campaign_systems_slot").on(t.campaignId, t.slot)],
);

/** An item to label. `content` is what annotators may see (never a system name). */
export const campaignItems = sqliteTable(
  "campaign_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** The id the item had in its source (a session key, an uploaded line's id). Researchers only. */
    externalId: text("external_id").notNull(),
    /** The PAL-Set session rated (session-quality campaigns). */
    palSampleId: integer("pal_sample_id").references(() => palSamples.id, { onDelete: "set null" }),
    /** Shared context shown with the item (profile, situation, question, user metadata...). */
    content: text("content", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** What researchers read in lists: the topic or question and whose it is (lib/annotation/item-title.ts). */
    title: text("title"),
    /**
     * A gold item / attention check: the expected canonical value per dimension. Served at the campaign's
     * gold rate to every participant (not counted in k), never marked as such to them.
     */
    gold: text("gold", { mode: "json" }).$type<Record<string, string>>(),
    /**
     * Set on an attention check generated at creation (lib/annotation/participants/attention.ts): which check
     * it is. Such an item also has `gold` (its expected answer), so it is served like gold and never enters
     * agreement or tables; it looks like any item to the participant.
     */
    attention: text("attention", { enum: ["identical-pair", "broken-reply"] }),
  },
  (t) => [
    index("campaign_items_campaign").on(t.campaignId, t.position),
    uniqueIndex("campaign_items_external").on(t.campaignId, t.externalId),
  ],
);

/** The compared outputs of a pairwise item, each tied to its system by a foreign key. */
export const campaignOutputs = sqliteTable(
  "campaign_outputs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    itemId: integer("item_id")
      .notNull()
      .references(() => campaignItems.id, { onDelete: "cascade" }),
    systemId: integer("system_id")
      .notNull()
      .references(() => campaignSystems.id, { onDelete: "cascade" }),
    /** A string, or a dialogue: [{role, content}]. */
    output: text("output", { mode: "json" }).$type<unknown>().notNull(),
  },
  (t) => [uniqueIndex("campaign_outputs_item_system").on(t.itemId, t.systemId)],
);

export const assignments = sqliteTable(
  "assignments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    itemId: integer("item_id")
      .notNull()
      .references(() => campaignItems.id, { onDelete: "cascade" }),
    annotatorId: integer("annotator_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** Order in the annotator's queue. */
    position: integer("position").notNull(),
    /** Shown order (blinding): true when canonical B is shown first/left. Recorded per item and annotator. */
    swapped: integer("swapped", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: ["pending", "done", "skipped"] })
      .notNull()
      .default("pending"),
    skipReason: text("skip_reason"),
    /** Autosaved, unsubmitted choices (shown terms). */
    draft: text("draft", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Total time spent on the item, in ms, summed over visits. */
    msSpent: integer("ms_spent").notNull().default(0),
    /** The client-generated id of the last accepted submission: a repeat of it is a no-op. */
    submissionId: text("submission_id"),
    submittedAt: integer("submitted_at"),
    /** Dynamic campaigns: a pending assignment holds its item until then (ms); lapsed, the item goes back. */
    heldUntil: integer("held_until"),
    createdAt: createdAt(),
  },
  (t) => [
    index("assignments_item_status").on(t.itemId, t.status),
    uniqueIndex("assignments_item_annotator").on(t.itemId, t.annotatorId),
    index("assignments_annotator").on(t.annotatorId, t.campaignId, t.position),
  ],
);

/**
 * Every submission id ever accepted for an assignment. A retry of any of them, however late, is a
 * duplicate and changes nothing, so an old request arriving after a newer one cannot undo it.
 */
export const assignmentSubmissions = sqliteTable(
  "assignment_submissions",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    submissionId: text("submission_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.assignmentId, t.submissionId] })],
);

/** One human label per assignment and dimension, in canonical A/B order; the order shown is kept beside it. */
export const labels = sqliteTable(
  "labels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    dimension: text("dimension").notNull(),
    /** Canonical value (Win/Tie/Lose for slot A, or the rating). */
    value: text("value").notNull(),
    /** What the annotator pressed, in the order shown (e.g. "Win" for the side shown first). */
    shownValue: text("shown_value").notNull(),
    swapped: integer("swapped", { mode: "boolean" }).notNull().default(false),
    comment: text("comment"),
    /** The guidelines' version the annotator's page showed when this label was submitted (last submission). */
    guidelineVersion: integer("guideline_version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: integer("updated_at"),
  },
  (t) => [uniqueIndex("labels_assignment_dimension").on(t.assignmentId, t.dimension)],
);

/** Earlier versions of an edited label. */
export const labelHistory = sqliteTable(
  "label_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    labelId: integer("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    shownValue: text("shown_value").notNull(),
    comment: text("comment"),
    /** When the replaced version had been written. */
    writtenAt: integer("written_at").notNull(),
    replacedAt: createdAt(),
  },
  (t) => [index("label_history_label").on(t.labelId)],
);

/** A researcher's adjudicated label for one item and dimension. */
export const adjudications = sqliteTable(
  "adjudications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    itemId: integer("item_id")
      .notNull()
      .references(() => campaignItems.id, { onDelete: "cascade" }),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    /** Why the item needed a decision (lib/annotation/adjudication.ts ADJUDICATION_REASONS); null before reasons were asked. */
    reason: text("reason"),
    note: text("note"),
    adjudicatorId: integer("adjudicator_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("adjudications_item_dimension").on(t.itemId, t.dimension)],
);

/**
 * A judge's pass over a campaign's items: imported from a file, or an LLM judge run (lib/annotation/llm-judge).
 * An LLM run is resumed, not duplicated: the same judge and model configuration on the same campaign reuse it.
 */
export const judgeRuns = sqliteTable("judge_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  campaignId: integer("campaign_id")
    .notNull()
    .references(() => campaigns.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  origin: text("origin", { enum: ["import", "llm"] }).notNull(),
  model: text("model"),
  config: text("config", { mode: "json" }).$type<Record<string, unknown>>(),
  createdBy: integer("created_by")
    .notNull()
    .references(() => users.id, { onDelete: "restrict" }),
  createdAt: createdAt(),
  /** LLM runs: the last time a pass over the items finished (null while never finished). */
  finishedAt: integer("finished_at"),
  /** LLM runs: why the run's spend guard paused it (null: not paused). Running it again resumes it. */
  pausedReason: text("paused_reason"),
});

/**
 * A judge's verdict on one item and dimension, canonical A/B order. `judgments` keeps the individual
 * calls (e.g. six FairEval judgments, both orders: [{order, scoreA, scoreB, analysis}]).
 */
export const judgeLabels = sqliteTable(
  "judge_labels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => judgeRuns.id, { onDelete: "cascade" }),
    itemId: integer("item_id")
      .notNull()
      .references(() => campaignItems.id, { onDelete: "cascade" }),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    judgments: text("judgments", { mode: "json" }).$type<unknown[]>(),
    analysis: text("analysis"),
  },
  (t) => [uniqueIndex("judge_labels_run_item_dimension").on(t.runId, t.itemId, t.dimension)],
);

/**
 * An item and dimension an LLM judge run could not judge (the model endpoint failed, or no valid reply
 * after the retries): recorded instead of a verdict, cleared when a later pass succeeds.
 */
export const judgeFailures = sqliteTable(
  "judge_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => judgeRuns.id, { onDelete: "cascade" }),
    itemId: integer("item_id")
      .notNull()
      .references(() => campaignItems.id, { onDelete: "cascade" }),
    dimension: text("dimension").notNull(),
    error: text("error").notNull(),
    /** The last rejected reply, when there was one. */
    rawReply: text("raw_reply"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("judge_failures_run_item_dimension").on(t.runId, t.itemId, t.dimension)],
);

/**
 * A campaign's agreement report, computed in the background (lib/annotation/agreement-cache.ts) and served
 * from here: pages never compute it. `key` names what it was computed from (the campaign's agreement
 * version, tie rule and k, and the report's format); a page showing an older key shows its age and asks
 * for a fresh one.
 */
/** The last participants table of a crowd campaign, computed in the background (participants/quality-cache.ts). */
export const participantQualityReports = sqliteTable("participant_quality_reports", {
  campaignId: integer("campaign_id")
    .primaryKey()
    .references(() => campaigns.id, { onDelete: "cascade" }),
  key: text("key").notNull(),
  computedAt: integer("computed_at").notNull(),
  ms: integer("ms").notNull(),
  report: text("report").notNull(),
});

export const agreementReports = sqliteTable("agreement_reports", {
  campaignId: integer("campaign_id")
    .primaryKey()
    .references(() => campaigns.id, { onDelete: "cascade" }),
  key: text("key").notNull(),
  computedAt: integer("computed_at").notNull(),
  /** How long the computation took, in ms (wall time, slices included). */
  ms: integer("ms").notNull(),
  report: text("report").notNull(),
});
