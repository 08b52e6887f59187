import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PALSET_EN } from "@/test/fixtures";
import { afterAll, describe, expect, it } from "vitest";
import { checkTotal, makeUploadDir, MAX_UPLOAD_BYTES, receiveFramed, sanitizeRelativePath, UploadError } from "./upload";
import { parseId, readListState, segment } from "./params";
import { fmtSpan, humanKey, topicAnchor } from "./format";
import { runImport, type ImportEvent } from "./run-import";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const uploadDir = () => {
  const d = makeUploadDir();
  dirs.push(d);
  return d;
};

function framed(manifest: object, files: Buffer[], chunk = 5): ReadableStream<Uint8Array> {
  const m = Buffer.from(JSON.stringify(manifest));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(m.length);
  const all = Buffer.concat([len, m, ...files]);
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i >= all.length) return c.close();
      c.enqueue(new Uint8Array(all.subarray(i, i + chunk)));
      i += chunk;
    },
  });
}

async function refusal(p: Promise<unknown>): Promise<UploadError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UploadError) return e;
    throw e;
  }
  throw new Error("expected an UploadError");
}

describe("upload", () => {
  it("sanitises names and never leaves the upload directory", () => {
    expect(sanitizeRelativePath("../../etc/passwd")).toBe("etc/passwd");
    expect(sanitizeRelativePath("a\\..\\b/.hidden.json")).toBe("a/b/hidden.json");
    expect(sanitizeRelativePath("HiCUPID/hf/qa/test_1-00000-of-00001.parquet")).toBe("HiCUPID/hf/qa/test_1-00000-of-00001.parquet");
    expect(sanitizeRelativePath("x/a/b/c/d.json")).toBe("a/b/c/d.json");
    expect(sanitizeRelativePath("用户 0001:<bad>.json")).toBe("用户 0001__bad_.json");
    expect(sanitizeRelativePath("../..")).toBeNull();
  });

  it("streams each file of a framed body to disk, keeping folders and separating clashes", async () => {
    const dir = uploadDir();
    const r = await receiveFramed(
      framed(
        {
          kind: "hicupid",
          name: "x",
          files: [
            { path: "hf/dialogue/train.parquet", size: 5 },
            { path: "hf/qa/train.parquet", size: 3 },
            { path: "hf/qa/train.parquet", size: 2 },
          ],
        },
        [Buffer.from("hello"), Buffer.from("abc"), Buffer.from("zz")],
      ),
      dir,
    );
    expect(r.files.map((f) => path.relative(dir, f).split(path.sep).join("/"))).toEqual([
      "hf/dialogue/train.parquet",
      "hf/qa/train.parquet",
      "copy-2/hf/qa/train.parquet",
    ]);
    expect(r.files.map((f) => fs.readFileSync(f, "utf8"))).toEqual(["hello", "abc", "zz"]);
  });

  it("refuses short, long, oversized, nameless and wrong-type uploads with a clear reason", async () => {
    expect(
      (
        await refusal(
          receiveFramed(framed({ kind: "palset", name: "x", files: [{ path: "a.json", size: 5 }] }, [Buffer.from("abc")]), uploadDir()),
        )
      ).message,
    ).toMatch(/ended early/);
    expect(
      (
        await refusal(
          receiveFramed(framed({ kind: "palset", name: "x", files: [{ path: "a.json", size: 2 }] }, [Buffer.from("abc")]), uploadDir()),
        )
      ).message,
    ).toMatch(/more bytes/);
    const big = await refusal(
      receiveFramed(framed({ kind: "palset", name: "x", files: [{ path: "a.json", size: MAX_UPLOAD_BYTES + 1 }] }, []), uploadDir()),
    );
    expect([big.status, big.message]).toEqual([413, expect.stringContaining("500 MB")]);
    expect(
      (
        await refusal(
          receiveFramed(framed({ kind: "palset", name: " ", files: [{ path: "a.json", size: 1 }] }, [Buffer.from("x")]), uploadDir()),
        )
      ).message,
    ).toMatch(/name/);
    expect(
      (
        await refusal(
          receiveFramed(framed({ kind: "hicupid", name: "x", files: [{ path: "README.md", size: 1 }] }, [Buffer.from("x")]), uploadDir()),
        )
      ).message,
    ).toMatch(/README\.md.*\.parquet/);
    expect(() => checkTotal(MAX_UPLOAD_BYTES)).not.toThrow();
  });
});

describe("list state and ids", () => {
  it("accepts only known sorts and bounded numbers", () => {
    const sorts = ["userKey", "logs"] as const;
    expect(readListState({ sort: "logs", dir: "desc", q: " 00 ", page: "3", size: "50" }, sorts, { sort: "userKey" })).toEqual({
      sort: "logs",
      dir: "desc",
      filter: "00",
      page: 3,
      pageSize: 50,
    });
    expect(readListState({ sort: "drop table", dir: "up", page: "-2", size: "7" }, sorts, { sort: "userKey" })).toEqual({
      sort: "userKey",
      dir: "asc",
      filter: "",
      page: 1,
      pageSize: 25,
    });
    expect([parseId("12"), parseId("0"), parseId("1e3"), parseId("99999999999999999999"), parseId("abc")]).toEqual([
      12,
      null,
      null,
      null,
      null,
    ]);
    expect([segment("%30000"), segment("0000"), segment("%E0%A4%A")]).toEqual(["0000", "0000", null]);
  });

  it("formats spans, keys and anchors", () => {
    expect(fmtSpan("2024-01-01 09:00", "2024-02-01 10:00")).toBe("2024-01-01 → 2024-02-01");
    expect(fmtSpan(null, null)).toBe("–");
    expect(humanKey("candidateSolutions")).toBe("candidate solutions");
    expect(humanKey("logType.web_search")).toBe("log type: web search");
    expect(topicAnchor("topic-2")).toBe("topic-2");
  });
});

describe("runImport (child process)", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pal-browse-import-"));
  dirs.push(tmp);
  process.env.PAL_DB = path.join(tmp, "t.db");
  const fixture = path.join(PALSET_EN, "users", "0000.json");

  async function collect(paths: string[], name: string): Promise<ImportEvent[]> {
    const out: ImportEvent[] = [];
    for await (const ev of runImport({ kind: "palset", paths, name, lang: "en", uploadDir: tmp })) out.push(ev);
    return out;
  }

  it("streams progress and ends with the result", async () => {
    const evs = await collect([fixture], "ok");
    expect(evs.some((e) => "phase" in e && e.phase === "reading")).toBe(true);
    const last = evs[evs.length - 1];
    expect(last).toHaveProperty("result.stats.users", 1);
  });

  it("ends with a one-line error naming the uploaded file, not the temp path", async () => {
    const data = JSON.parse(fs.readFileSync(fixture, "utf8"));
    const uid = Object.keys(data)[0];
    data[uid].history[0].logs[0].timestamp = "yesterday";
    const bad = path.join(tmp, "sub", "broken.json");
    fs.mkdirSync(path.dirname(bad), { recursive: true });
    fs.writeFileSync(bad, JSON.stringify(data));
    const evs = await collect([bad], "bad");
    const last = evs[evs.length - 1] as { error: string };
    expect(last.error).toMatch(/broken\.json/);
    expect(last.error).toMatch(/timestamp/);
    expect(last.error).not.toContain(tmp);
    expect(last.error).not.toContain("\n");
  });
});
