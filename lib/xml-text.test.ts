/** The XML text helper: what XML 1.0 refuses is dropped from exports and refused at input, naming the field. */
import { describe, expect, it } from "vitest";
import { escapeXml, refuseControlChars, xmlSafe } from "./xml-text";

describe("xml text", () => {
  it("drops the characters XML 1.0 does not allow and keeps the rest, CJK and emoji included", () => {
    expect(xmlSafe("a\u0001b\u0000c\u001fd\uFFFEe\uFFFF")).toBe("abcde");
    expect(xmlSafe("\ud800lone")).toBe("lone");
    expect(xmlSafe("tab\tline\ncr\r 你好 😀 \u0085")).toBe("tab\tline\ncr\r 你好 😀 \u0085");
  });
  it("escapes markup after dropping", () => {
    expect(escapeXml(`<b a="x">&\u0001</b>`)).toBe("&lt;b a=&quot;x&quot;&gt;&amp;&lt;/b&gt;");
  });
  it("refuses control characters at input, naming the field and the code point", () => {
    expect(() => refuseControlChars("body.note", "shift\u0001work")).toThrow(/^body\.note: holds the control character U\+0001/);
    expect(() => refuseControlChars("body.note", "x\u007f")).toThrow(/U\+007F/);
    expect(refuseControlChars("body.note", "two\nlines\tok")).toBe("two\nlines\tok");
    expect(refuseControlChars("body.note", undefined)).toBeUndefined();
  });
});
