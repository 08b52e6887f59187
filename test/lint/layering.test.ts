/**
 * The layering rule is enforced by ESLint (eslint.config.mjs): lib/ and db/ never import app/,
 * components/ or cli/; components/ never import app/ (server actions come as props from the page) or cli/. This runs the real ESLint with the project's config over source text placed
 * in lib/ and db/, so the test fails if the rule is dropped or stops matching.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../fixtures";

const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("lint: lib/ and db/ never import the front ends", () => {
  it.each([
    ["lib/datasets/violation.ts", 'import { ImportForm } from "@/components/datasets/ImportForm";\nexport const x = ImportForm;\n'],
    ["lib/users/violation.ts", 'import { registerUser } from "../../cli/commands/user";\nexport const x = registerUser;\n'],
    ["lib/violation.ts", 'import * as actions from "@/app/(app)/admin/users/actions";\nexport const x = actions;\n'],
    ["db/violation.ts", 'import { main } from "../cli/main";\nexport const x = main;\n'],
  ])("%s importing a front end is an error", async (file, code) => {
    const messages = await restricted(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/never import app\/, components\/ or cli\//);
  });

  it("allows lib/ → lib/ and db/, and app/ → components/", async () => {
    expect(
      await restricted(
        "lib/ok.ts",
        'import { getDb } from "@/db/client";\nimport { AppError } from "./errors";\nexport const x = [getDb, AppError];\n',
      ),
    ).toEqual([]);
    expect(
      await restricted("app/ok.tsx", 'import { ImportForm } from "@/components/datasets/ImportForm";\nexport const x = ImportForm;\n'),
    ).toEqual([]);
    // A package whose name merely contains "app" is no front end.
    expect(await restricted("lib/ok2.ts", 'import { NextResponse } from "next/server";\nexport const x = NextResponse;\n')).toEqual([]);
  });
});

describe("lint: components/ never import app/ or cli/", () => {
  it.each([
    [
      "components/admin/Violation.tsx",
      'import { addUserAction } from "@/app/(app)/admin/users/actions";\nexport const x = addUserAction;\n',
    ],
    [
      "components/annotation/Violation.tsx",
      'import type { ActionState } from "../../app/(app)/campaigns/actions";\nexport type X = ActionState;\n',
    ],
    ["components/Violation.tsx", 'import { main } from "@/cli/main";\nexport const x = main;\n'],
  ])("%s importing app/ or cli/ is an error", async (file, code) => {
    const messages = await restricted(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/components\/ never import app\/ or cli\/: take a server action as a prop/);
  });

  it("allows components/ → lib/ and components/", async () => {
    expect(
      await restricted(
        "components/admin/Ok.tsx",
        'import type { FormAction } from "@/lib/http/action-result";\nimport { PageHeader } from "@/components/shell/PageHeader";\nexport type X = FormAction;\nexport const y = PageHeader;\n',
      ),
    ).toEqual([]);
  });
});
