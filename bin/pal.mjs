#!/usr/bin/env node
// The `pal` CLI: registers the TypeScript loader, then runs cli/main.ts in this same process.
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.PAL_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import(pathToFileURL(path.join(root, "cli", "main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
