/**
 * Joining a campaign from its participant link. No password, no account page: the participant is a
 * user of role "participant" made on first join, bound to this one campaign. The Prolific ids come
 * from the link; a secret the browser keeps (its `browserKey`) is stored hashed, so the same PID
 * resumes from the same browser and nobody else can take over their work by typing their PID.
 */
import crypto from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaigns, participants, users } from "@/db/schema";
import { prepared } from "@/db/statements";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors";
import { crowdSettingsOf, type CrowdSettings } from "./settings";
import { annotatorTitleOf } from "../blinding";
import { kindDef } from "../kinds";
import { bumpParticipantsVersion } from "./quality";

export interface JoinRequest {
  token: string;
  /** PROLIFIC_PID (absent: an anonymous participant, named by the browser's key). */
  pid?: string | null;
  studyId?: string | null;
  sessionId?: string | null;
  browserKey: string;
  /** The participant ticked the consent box (needed when the campaign has a consent text). */
  consent?: boolean;
}

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const KEY_RE = /^[A-Za-z0-9_-]{16,128}$/;
const TOKEN_RE = /^[A-Za-z0-9_-]{16,64}$/;

export type ParticipantRow = typeof participants.$inferSelect;

export interface JoinCampaign {
  id: number;
  name: string;
  status: "open" | "closed";
  guidelines: string;
  settings: CrowdSettings;
}

/** The campaign behind a link (a malformed or unknown token is "not found", never a hint). */
export function campaignByToken(db: Db, token: string): JoinCampaign {
  const c =
    typeof token === "string" && TOKEN_RE.test(token) ? db.select().from(campaigns).where(eq(campaigns.joinToken, token)).get() : undefined;
  if (!c) throw new NotFoundError("this study link is not valid");
  // Participants read the title for annotators, never the researchers' name (it may name a system: issue 40.15).
  const name = annotatorTitleOf(c, kindDef(c.kind).annotatorTitle);
  return { id: c.id, name, status: c.status, guidelines: c.guidelines ?? "", settings: crowdSettingsOf(c.crowd) };
}

/** A new link secret: 128 bits, URL-safe. */
export function newJoinToken(): string {
  return crypto.randomBytes(16).toString("base64url");
}

const hashKey = (key: string) => crypto.createHash("sha256").update(key).digest("hex");

function optionalId(field: string, v: string | null | undefined): string | null {
  if (v === undefined || v === null || v === "") return null;
  if (typeof v !== "string" || !ID_RE.test(v)) throw new InvalidInputError(`${field}: expected letters, digits, - or _ (up to 64)`);
  return v;
}

/**
 * The participant for this link and PID: made on first join (within the cap, after consent), the same
 * one on return from the same browser. Another browser with the same PID is refused.
 */
export function joinCampaign(db: Db, req: JoinRequest): { userId: number; participant: ParticipantRow } {
  if (typeof req.browserKey !== "string" || !KEY_RE.test(req.browserKey))
    throw new InvalidInputError("browserKey: expected 16-128 letters, digits, - or _");
  const pid = optionalId("PROLIFIC_PID", req.pid) ?? `anon-${hashKey(req.browserKey).slice(0, 16)}`;
  const studyId = optionalId("STUDY_ID", req.studyId);
  const sessionId = optionalId("SESSION_ID", req.sessionId);
  const key = hashKey(req.browserKey);
  return db.transaction(
    (tx) => {
      const c = campaignByToken(tx as unknown as Db, req.token);
      const existing = tx
        .select()
        .from(participants)
        .where(and(eq(participants.campaignId, c.id), eq(participants.prolificPid, pid)))
        .get();
      if (existing) {
        if (!crypto.timingSafeEqual(Buffer.from(existing.browserKey), Buffer.from(key)))
          throw new ForbiddenError("this participant id already started this study in another browser; continue there");
        return { userId: existing.userId, participant: existing };
      }
      if (c.status !== "open") throw new ConflictError("this study is closed");
      if (c.settings.maxParticipants !== null) {
        const n = tx.select({ n: count() }).from(participants).where(eq(participants.campaignId, c.id)).get()!.n;
        if (n >= c.settings.maxParticipants) throw new ConflictError("this study is full");
      }
      if (c.settings.consent && !req.consent) throw new InvalidInputError("consent: please read and accept the consent statement");
      const code = `P-${crypto.randomBytes(5).toString("hex")}`;
      const user = tx
        .insert(users)
        // "!" is no bcrypt hash: no password ever matches it, and sign-in refuses the role anyway.
        .values({ email: `${code.toLowerCase()}@participants.invalid`, name: code, role: "participant", passwordHash: "!" })
        .returning({ id: users.id })
        .get();
      const participant = tx
        .insert(participants)
        .values({
          campaignId: c.id,
          userId: user.id,
          code,
          prolificPid: pid,
          studyId,
          sessionId,
          browserKey: key,
          consentedAt: c.settings.consent ? Date.now() : null,
        })
        .returning()
        .get();
      bumpParticipantsVersion(tx as unknown as Db, c.id);
      return { userId: user.id, participant };
    },
    { behavior: "immediate" },
  );
}

/** The participant row of a signed-in participant user (their one campaign), or null. */
export function participantOf(db: Db, userId: number): (ParticipantRow & { joinToken: string | null }) | null {
  // Every page and request of a participant starts here: built and prepared once, not per request.
  const r = prepared(db, "participants.of", () =>
    db
      .select({ p: participants, joinToken: campaigns.joinToken })
      .from(participants)
      .innerJoin(campaigns, eq(campaigns.id, participants.campaignId))
      .where(eq(participants.userId, sql.placeholder("userId")))
      .prepare(),
  ).get({ userId });
  return r ? { ...r.p, joinToken: r.joinToken } : null;
}

/** A participant's own record, checked against the link they are on: another campaign's link is forbidden. */
export function participantForToken(db: Db, userId: number, token: string): ParticipantRow {
  const p = participantOf(db, userId);
  if (!p || p.joinToken !== token) throw new ForbiddenError("this page belongs to another study");
  return p;
}

/**
 * A participant's writes are accepted only while they are working: once completed or screened out (their
 * code given), their labels are final. Staff users pass through.
 */
export function assertParticipantMayWrite(db: Db, userId: number, role: string): void {
  if (role !== "participant") return;
  const p = db.select({ status: participants.status }).from(participants).where(eq(participants.userId, userId)).get();
  if (!p) throw new ForbiddenError("you have not joined a study");
  if (p.status !== "active") throw new ConflictError("your part of this study is finished; your answers are final");
}
