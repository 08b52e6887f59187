import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { InvalidInputError } from "@/lib/errors";
import { createUser, listUsers, updateUser } from "./users";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

describe("password rules and user updates", () => {
  it("refuses a password of only spaces and one longer than bcrypt's 72 bytes; accepts exactly 72 bytes", async () => {
    t = tempDb();
    await expect(createUser(t.db, { email: "a@x.org", role: "admin", password: "          " })).rejects.toThrow(/only spaces/);
    await expect(createUser(t.db, { email: "a@x.org", role: "admin", password: "a".repeat(73) })).rejects.toThrow(/72 bytes/);
    // 25 three-byte characters = 75 bytes, only 25 characters.
    await expect(createUser(t.db, { email: "a@x.org", role: "admin", password: "密".repeat(25) })).rejects.toThrow(InvalidInputError);
    expect(listUsers(t.db)).toHaveLength(0);
    await createUser(t.db, { email: "a@x.org", role: "admin", password: "a".repeat(72) });
    expect(listUsers(t.db)).toHaveLength(1);
  });

  it("an update with nothing to change is bad input (400), not a crash", async () => {
    t = tempDb();
    const u = await createUser(t.db, { email: "b@x.org", role: "researcher", password: "password-1" });
    expect(() => updateUser(t!.db, u.id, {})).toThrow(InvalidInputError);
  });
});
