import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { createdAt } from "./common";

/**
 * "participant" is below annotator: a crowd participant who joined a campaign from its link
 * (lib/annotation/participants), with no password, limited to their own queue in that one campaign.
 */
export const ROLES = ["admin", "researcher", "annotator", "participant"] as const;
export type Role = (typeof ROLES)[number];
/** The roles an admin gives an account (participants are made only by joining a study link). */
export const ACCOUNT_ROLES = ["admin", "researcher", "annotator"] as const;

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  email: text("email").notNull().unique(),
  name: text("name"),
  role: text("role", { enum: ROLES }).notNull(),
  passwordHash: text("password_hash").notNull(),
  disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
  lastLoginAt: integer("last_login_at"),
});

/** Every login attempt, for the failed-login limit per email and per IP. */
export const loginAttempts = sqliteTable(
  "login_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    success: integer("success", { mode: "boolean" }).notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("login_attempts_email_at").on(t.email, t.at), index("login_attempts_ip_at").on(t.ip, t.at)],
);

/**
 * Sessions signed out before they expired. The session cookie is a self-contained signed token, so
 * a copy taken before sign-out would stay valid until it expires; every request checks its session
 * id (`sid`, fixed at sign-in) against this table. Rows are pruned once their token has expired.
 */
export const revokedSessions = sqliteTable("revoked_sessions", {
  sid: text("sid").primaryKey(),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  expiresAt: integer("expires_at").notNull(),
  revokedAt: integer("revoked_at").notNull(),
});

/**
 * One-time sign-in links an admin issues from Admin → Users (issue 44.7): only the token's sha256 is kept
 * (the link is shown once); a link signs its user in once, before `expiresAt`, unless revoked.
 */
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("sign_in_links_user").on(t.userId)],
);
