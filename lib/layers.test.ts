/**
 * The house drawn from the imports: lib/annotation above lib/experiments above lib/tasks above
 * lib/assistants above lib/llm. No module of a lower layer imports a higher one (its tests may: they
 * drive the whole stack), type-only imports included: a type that runs back up a floor ties the lower
 * layer to the higher one's shapes (a task reads its narrow TaskConfig, not the engine's config). Startup
 * that resumes both experiments and judge runs lives in lib/runtime, above both.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const LAYERS = ["lib/llm", "lib/assistants", "lib/tasks", "lib/experiments", "lib/annotation"];

function layerOf(file: string): number {
  const rel = path.relative(ROOT, file).split(path.sep).join("/");
  return LAYERS.findIndex((l) => rel === l || rel.startsWith(`${l}/`));
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.(test|e2e\.test)\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The modules a file imports (static, dynamic and type-only), as paths from the repository root. */
export function moduleImports(file: string, text: string): string[] {
  const specs: string[] = [];
  const statics = /^\s*(import|export)\s+(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const m of text.matchAll(statics)) specs.push(m[2]);
  for (const m of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) specs.push(m[1]);
  return specs.flatMap((s) => {
    if (s.startsWith("@/")) return [path.join(ROOT, s.slice(2))];
    if (s.startsWith(".")) return [path.resolve(path.dirname(file), s)];
    return [];
  });
}

describe("layers", () => {
  it("finds an import that runs against the layers (the check itself)", () => {
    const file = path.join(ROOT, "lib/tasks/x.ts");
    const found = moduleImports(
      file,
      'import { a } from "@/lib/experiments/config";\nimport type { B } from "@/lib/experiments/config";\n',
    );
    expect(found.map(layerOf)).toEqual([3, 3]);
    expect(moduleImports(file, 'export { a } from "../experiments/y";').map(layerOf)).toEqual([3]);
    expect(moduleImports(file, 'import type {\n  C,\n} from "../experiments/z";').map(layerOf)).toEqual([3]);
  });

  it("no module of a lower layer imports a higher one", () => {
    const wrong: string[] = [];
    for (const layer of LAYERS) {
      for (const file of sources(path.join(ROOT, layer))) {
        const mine = layerOf(file);
        for (const target of moduleImports(file, fs.readFileSync(file, "utf8"))) {
          if (layerOf(target) > mine) wrong.push(`${path.relative(ROOT, file)} imports ${path.relative(ROOT, target)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
