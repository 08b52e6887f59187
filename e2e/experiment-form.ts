/** The New experiment form's user checkboxes, as a researcher ticks them. */
import type { Locator } from "@playwright/test";
import { expect } from "./fixtures";

/** Chooses "Only these users" and ticks each id (the ids are fetched when the choice is made). */
export async function chooseUsers(form: Locator, users: string[]): Promise<void> {
  const box = form.getByTestId("user-choices");
  await box.getByLabel("Only these users").check();
  for (const u of users) await box.getByLabel(u, { exact: true }).check();
  await expect(box).toContainText(`${users.length} chosen`);
}
