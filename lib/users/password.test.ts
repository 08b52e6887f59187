import { describe, expect, it } from "vitest";
import { hashPassword, MAX_PASSWORD_BYTES, verifyPassword } from "./password";

describe("verifyPassword", () => {
  it("accepts a 72-byte password exactly and refuses it with any suffix (bcrypt would ignore the suffix)", async () => {
    const ascii = "p".repeat(MAX_PASSWORD_BYTES);
    const euro = "€".repeat(24); // 3 bytes each: 72 bytes in 24 characters
    for (const pw of [ascii, euro]) {
      const hash = await hashPassword(pw);
      expect(await verifyPassword(pw, hash)).toBe(true);
      for (const suffix of ["x", "anything at all", "€"]) expect(await verifyPassword(pw + suffix, hash), suffix).toBe(false);
    }
  });

  it("still refuses a wrong password of normal length", async () => {
    expect(await verifyPassword("wrong-password", await hashPassword("right-password"))).toBe(false);
  });
});
