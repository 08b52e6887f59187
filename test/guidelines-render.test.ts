/**
 * components/annotation/Guidelines.tsx: the guidelines' Markdown is parsed once per text and the tree shared
 * by every request (the crowd work page renders it on each visit), with the same markup as before.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Guidelines, guidelinesTree } from "@/components/annotation/Guidelines";

const html = (text: string) => renderToStaticMarkup(createElement(Guidelines, { text }));

describe("Guidelines", () => {
  it("renders safe markup: raw HTML skipped, links in a new tab, outside images as links, inline images kept", () => {
    const text =
      "# T\n\nSee [site](https://x.org) and <b>raw</b> html.\n\n![pic](https://evil.example/a.png) ![in](data:image/png;base64,iVBORw0KGgo=) [js](javascript:alert(1))\n\n1. one\n2. two";
    // The markup of the uncached component this replaced (same text), byte for byte.
    const expected =
      '<div class="prose-sm space-y-2 text-sm text-slate-700 [&amp;_h2]:font-semibold [&amp;_h2]:text-slate-900 [&amp;_li]:ml-5 [&amp;_li]:list-disc"><h1>T</h1>\n' +
      '<p>See <a href="https://x.org" rel="noreferrer noopener" target="_blank" class="text-indigo-700 underline">site</a> and raw html.</p>\n' +
      '<p><a href="https://evil.example/a.png" rel="noreferrer noopener" target="_blank" class="text-indigo-700 underline" data-testid="guideline-image-link">image: pic</a> <img src="data:image/png;base64,iVBORw0KGgo=" alt="in" class="my-1 max-h-64 max-w-full"/> <a href="" rel="noreferrer noopener" target="_blank" class="text-indigo-700 underline">js</a></p>\n' +
      "<ol>\n<li>one</li>\n<li>two</li>\n</ol></div>";
    expect(html(text)).toBe(expected);
    expect(html(text)).toBe(expected); // the second, cached render is the same
  });

  it("parses a text once and shares its tree; another text (a new version) gets its own", () => {
    const v1 = "## Version 1\n\nChoose **W**, **T** or **L**.";
    const v2 = "## Version 2\n\nChoose **W**, **T** or **L**; comment on a 1.";
    const t1 = guidelinesTree(v1);
    expect(guidelinesTree(v1)).toBe(t1);
    expect(guidelinesTree(v2)).not.toBe(t1);
    expect(html(v2)).toContain("Version 2");
    expect(html(v1)).toContain("Version 1");
  });

  it("keeps a bounded number of texts, the least recently used dropped first", () => {
    const first = guidelinesTree("first text");
    for (let i = 0; i < 40; i++) guidelinesTree(`other text ${i}`);
    const again = guidelinesTree("first text");
    expect(again).not.toBe(first); // parsed again: it had been dropped
    expect(renderToStaticMarkup(again)).toBe(renderToStaticMarkup(first));
  });
});
