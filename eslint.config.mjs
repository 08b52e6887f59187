// ESLint (flat config): Next.js's recommended rules with Core Web Vitals and TypeScript, plus the
// project's layering: data flows db/ → lib/ → app/ → components/, so db/ and lib/ never import
// app/, components/ or cli/ (the CLI and the app are two thin front ends over lib/); components/ never
// import app/ or cli/ (a page passes its server actions to its components as props).
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** Matches an import of app/, components/ or cli/ by alias (`@/app/...`) or by relative path (`../../cli/x`). */
export const FRONT_END_IMPORT = "^(@/|(\\.\\./)+)(app|components|cli)(/|$)";

/** Matches an import of app/ or cli/, by alias or relative path: what components/ may not import. */
export const APP_IMPORT = "^(@/|(\\.\\./)+)(app|cli)(/|$)";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", "node_modules/**", "test-results/**", "playwright-report/**", "data/**", "next-env.d.ts"]),
  {
    files: ["lib/**/*.{ts,tsx}", "db/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: FRONT_END_IMPORT,
              message: "lib/ and db/ are the domain: they never import app/, components/ or cli/ (move the shared code into lib/).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: APP_IMPORT,
              message:
                "components/ never import app/ or cli/: take a server action as a prop from the page (see docs/conventions.md), move shared code into lib/.",
            },
          ],
        },
      ],
    },
  },
  {
    // The CLI bundle cannot load SQLite's addon through better-sqlite3's default loader: connections
    // are opened by db/client (openDb, openSqlite), which loads it by path. Types may be imported.
    files: ["lib/**/*.{ts,tsx}", "db/**/*.ts", "cli/**/*.ts", "app/**/*.{ts,tsx}"],
    ignores: ["db/client.ts", "**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [{ name: "better-sqlite3", allowTypeImports: true, message: "open SQLite with openSqlite or openDb from @/db/client." }] },
      ],
    },
  },
  {
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring to drop a key, placeholder arguments).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
]);
