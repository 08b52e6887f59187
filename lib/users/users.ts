import { eq, asc, sql, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users, ACCOUNT_ROLES, type Role } from "@/db/schema";
import { hashPassword, MAX_PASSWORD_BYTES } from "@/lib/users/password";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "@/lib/errors";

export { MAX_PASSWORD_BYTES };

export const newUserSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "email: not a valid email address" })),
  name: z.string().trim().max(200).optional(),
  role: z.enum(ACCOUNT_ROLES, { error: `role: must be one of ${ACCOUNT_ROLES.join(", ")}` }),
  // bcrypt reads only the first 72 bytes: a longer password would silently match any with the same start.
  password: z
    .string()
    .min(8, { error: "password: at least 8 characters" })
    .refine((p) => p.trim().length > 0, { error: "password: must not be only spaces" })
    .refine((p) => Buffer.byteLength(p, "utf8") <= MAX_PASSWORD_BYTES, {
      error: `password: at most ${MAX_PASSWORD_BYTES} bytes (bcrypt's limit)`,
    }),
});

export type PublicUser = {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
};

const publicColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  disabled: users.disabled,
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
};

/** `role` is checked at run time (ACCOUNT_ROLES: a participant is never made here). */
export async function createUser(db: Db, input: Omit<z.input<typeof newUserSchema>, "role"> & { role: Role }): Promise<PublicUser> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((i) => i.message).join("; "));
  const { email, name, role, password } = parsed.data;
  if (db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) {
    throw new ConflictError(`a user with email ${email} already exists`);
  }
  const passwordHash = await hashPassword(password);
  return db
    .insert(users)
    .values({ email, name: name || null, role, passwordHash })
    .returning(publicColumns)
    .get();
}

/** Accounts (crowd participants are not accounts: they are listed on their campaign's page). */
export function listUsers(db: Db): PublicUser[] {
  return db.select(publicColumns).from(users).where(ne(users.role, "participant")).orderBy(asc(users.id)).all();
}

export function getUser(db: Db, id: number): PublicUser | undefined {
  return db.select(publicColumns).from(users).where(eq(users.id, id)).get();
}

export function findUserWithHash(db: Db, email: string) {
  return db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

export type UserPatch = { role?: Role; disabled?: boolean };

/**
 * Changes a user's role or disabled flag. `actorId` is who asks: an admin may not demote or disable
 * their own account (the last admin would lock everybody out).
 */
export function updateUser(db: Db, id: number, patch: UserPatch, actorId?: number): PublicUser {
  if (patch.role === undefined && patch.disabled === undefined) throw new InvalidInputError("nothing to change: give role and/or disabled");
  const parsedRole = patch.role === undefined ? undefined : z.enum(ACCOUNT_ROLES).safeParse(patch.role);
  if (parsedRole && !parsedRole.success) throw new InvalidInputError(`role: must be one of ${ACCOUNT_ROLES.join(", ")}`);
  const role = parsedRole?.data;
  if (actorId !== undefined && id === actorId && (patch.disabled || (role !== undefined && role !== "admin"))) {
    throw new ForbiddenError("you cannot demote or disable your own account");
  }
  const row = db
    .update(users)
    .set({ ...(role ? { role } : {}), ...(patch.disabled === undefined ? {} : { disabled: patch.disabled }) })
    .where(eq(users.id, id))
    .returning(publicColumns)
    .get();
  if (!row) throw new NotFoundError(`no user with id ${id}`);
  return row;
}

export async function setPassword(db: Db, id: number, password: string): Promise<void> {
  const parsed = newUserSchema.shape.password.safeParse(password);
  if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((i) => i.message).join("; "));
  const pw = parsed.data;
  db.update(users)
    .set({ passwordHash: await hashPassword(pw) })
    .where(eq(users.id, id))
    .run();
}

export function countUsers(db: Db): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .get()?.n ?? 0
  );
}
