import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memPalBleu } from "@/lib/metrics/bleu";

const run = promisify(execFile);
const root = path.resolve(__dirname, "..", "..");
let dir: string;

/** Runs `node bin/pal.mjs ...args`; resolves with the exit code instead of throwing. */
async function pal(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(root, "bin", "pal.mjs"), ...args], {
      cwd: dir,
      env: { ...process.env, PAL_DB: path.join(dir, "pal.db") },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pal-metrics-cli-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("pal metrics bleu", () => {
  it("appends bleu: [b1..b4] to each input line, in input order", async () => {
    const lines = [
      { id: 1, reference: "我想去北京大学看看", candidate: "我想去北京看看" },
      { id: 2, references: ["今天天气很好", "天气很好"], candidate: "天气很好", extra: { keep: true } },
      { id: 3, reference: "完全不同", candidate: "The cat sat." },
    ];
    const file = write("pairs.jsonl", `${lines.map((l) => JSON.stringify(l)).join("\n")}\n\n`);
    const { code, stdout } = await pal("metrics", "bleu", "--in", file);
    expect(code).toBe(0);
    const out = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(out.map((o) => o.id)).toEqual([1, 2, 3]);
    expect(out[0]).toEqual({ ...lines[0], bleu: memPalBleu(lines[0].reference!, lines[0].candidate) });
    expect(out[0].bleu[0]).toBeCloseTo(0.8, 15);
    expect(out[1].extra).toEqual({ keep: true });
    expect(out[1].bleu).toEqual(memPalBleu(lines[1].references!, lines[1].candidate));
    expect(out[2].bleu).toEqual([0, 0, 0, 0]);
  });

  it("--out writes the file", async () => {
    const file = write("one.jsonl", '{"reference":"a b c d","candidate":"a b c d"}\n');
    const out = path.join(dir, "out.jsonl");
    expect((await pal("metrics", "bleu", "--in", file, "--out", out)).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, "utf8")).bleu).toEqual([1, 1, 1, 1]);
  });

  it("a bad line fails with one line naming the line number and field, and writes nothing", async () => {
    const file = write("bad.jsonl", '{"reference":"a","candidate":"a"}\n{"reference":"a"}\n');
    const [r, notJson] = await Promise.all([
      pal("metrics", "bleu", "--in", file),
      pal("metrics", "bleu", "--in", write("bad2.jsonl", '{"reference":"a","candidate":"a"}\n{oops\n')),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/line 2: field "candidate"/);
    expect(notJson.code).not.toBe(0);
    expect(notJson.stderr).toMatch(/line 2: not valid JSON/);
  });
});

describe("pal metrics agreement", () => {
  it("prints the agreement report of docs/cli.md", async () => {
    const file = write(
      "ratings.json",
      JSON.stringify({
        scale: "ordinal",
        categories: [1, 2, 3],
        items: [
          { id: "s1", ratings: { ann: 3, bob: 3 } },
          { id: "s2", ratings: { ann: 2, bob: 3 } },
          { id: "s3", ratings: { ann: 1, bob: 1 } },
          { id: "s4", ratings: { ann: 3, bob: 2 } },
        ],
      }),
    );
    const { code, stdout } = await pal("metrics", "agreement", "--in", file, "--bootstrap", "200", "--seed", "7", "--json");
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ percentAgreement: 0.5, fleissKappa: 0.2, krippendorffAlpha: 0.5625 });
    expect(r.cohen).toHaveLength(1);
    expect(r.cohen[0]).toMatchObject({ raters: ["ann", "bob"], n: 4, kappa: 0.2 });
    expect(r.cohen[0].linearWeightedKappa).toBeCloseTo(3 / 7, 15);
    expect(r.cohen[0].quadraticWeightedKappa).toBeCloseTo(7 / 11, 15);
    expect(r.bootstrap).toMatchObject({ iterations: 200, seed: 7, level: 0.95 });
  });

  it("without --json: a readable table, not JSON (issue 44.8)", async () => {
    const file = write(
      "ratings2.json",
      JSON.stringify({ scale: "nominal", items: [{ ratings: { ann: "x", bob: "x" } }, { ratings: { ann: "y", bob: "x" } }] }),
    );
    const { code, stdout } = await pal("metrics", "agreement", "--in", file);
    expect(code).toBe(0);
    expect(() => JSON.parse(stdout)).toThrow();
    expect(stdout).toMatch(/^percent agreement\s+0\.500\s+2\s+too few items for an interval/m);
    expect(stdout).toContain("(--json for the JSON report)");
  });

  it("bad input fails with the place named", async () => {
    const file = write("bad.json", JSON.stringify({ scale: "ordinal", categories: [1, 2], items: [{ ratings: { a: 3 } }] }));
    const r = await pal("metrics", "agreement", "--in", file);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/items\[0\]\.ratings\.a: label 3 is not in categories/);
  });

  it("--help shows an example for each command", async () => {
    const [a, b] = await Promise.all([pal("metrics", "agreement", "--help"), pal("metrics", "bleu", "--help")]);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/Example:\n\s+\$ cat ratings.json/);
    expect(b.stdout).toMatch(/Example:[\s\S]*pal metrics bleu --in pairs.jsonl/);
  });
});
