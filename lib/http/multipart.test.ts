/** The streamed multipart reader: fields, one file as bytes, limits enforced while reading. */
import { describe, expect, it } from "vitest";
import { newCampaignFromForm } from "@/lib/annotation/form";
import { readMultipartForm } from "./multipart";

const post = (form: FormData) => new Request("http://localhost/x", { method: "POST", body: form });

describe("readMultipartForm", () => {
  it("reads repeated fields and the file's exact bytes", async () => {
    const form = new FormData();
    form.append("name", "c");
    form.append("annotators", "2");
    form.append("annotators", "3");
    form.append("file", new Blob([Buffer.from([0x7b, 0xe9, 0x7d])]), "x.jsonl");
    const got = await readMultipartForm(post(form), { fileField: "file", maxFileBytes: 1024, what: "a campaign file" });
    expect(got.get("name")).toBe("c");
    expect(got.getAll("annotators")).toEqual(["2", "3"]);
    expect(got.file?.name).toBe("x.jsonl");
    expect([...got.file!.bytes]).toEqual([0x7b, 0xe9, 0x7d]);
  });

  it("refuses a file over the limit with 413, and invalid UTF-8 in a campaign file with file and line", async () => {
    const big = new FormData();
    big.append("file", new Blob([Buffer.alloc(5000, 0x61)]), "big.jsonl");
    await expect(readMultipartForm(post(big), { fileField: "file", maxFileBytes: 4096, what: "a campaign file" })).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/^a campaign file is limited to/),
    });
    const bad = new FormData();
    bad.append("source", "upload");
    bad.append("file", new Blob([Buffer.from('{"id": "a"}\n{"id": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]), "p.jsonl");
    const form = await readMultipartForm(post(bad), { fileField: "file", maxFileBytes: 4096, what: "a campaign file" });
    expect(() => newCampaignFromForm(form)).toThrow("p.jsonl:2: not valid UTF-8 (byte 24)");
  });
});
