import type { ReactElement } from "react";
import Markdown, { defaultUrlTransform, type Components } from "react-markdown";
import { isInlineImageSrc } from "@/lib/annotation/guideline-images";

const link = "text-indigo-700 underline";

/** react-markdown's safe URL filter drops every data: URL; an inline image (data:image/...) is kept for <img>. */
function urlTransform(url: string, key: string): string {
  return key === "src" && isInlineImageSrc(url) ? url : defaultUrlTransform(url);
}

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} rel="noreferrer noopener" target="_blank" className={link}>
      {children}
    </a>
  ),
  img: ({ src, alt }) => {
    const url = typeof src === "string" ? src : undefined;
    // eslint-disable-next-line @next/next/no-img-element -- guideline images are the author's files, not optimised assets
    if (isInlineImageSrc(url)) return <img src={url} alt={alt ?? ""} className="my-1 max-h-64 max-w-full" />;
    return (
      <a href={url} rel="noreferrer noopener" target="_blank" className={link} data-testid="guideline-image-link">
        image: {alt || url}
      </a>
    );
  },
};

/** How many distinct texts keep their parsed tree (least recently used dropped first). */
const CACHED_TEXTS = 16;
const parsed = new Map<string, ReactElement>();

/**
 * The guidelines' Markdown as a React tree, parsed once per text: a campaign's work page shows the same
 * guidelines on every request, and parsing them (micromark, then mdast → hast → JSX) cost 1.6 ms for a
 * kind's default text and about 5 ms for 3 KB, per page. The tree is immutable, so requests share it; a
 * new guideline version is a new text, hence its own entry.
 */
export function guidelinesTree(text: string): ReactElement {
  let tree = parsed.get(text);
  if (tree) parsed.delete(text);
  else tree = Markdown({ skipHtml: true, urlTransform, components, children: text });
  parsed.set(text, tree);
  if (parsed.size > CACHED_TEXTS) parsed.delete(parsed.keys().next().value!);
  return tree;
}

/**
 * Campaign guidelines: Markdown without raw HTML (react-markdown escapes it), links opened safely.
 * Images load only from this app or a data: URL; any other image becomes a link, so opening the
 * guidelines never contacts another site.
 */
export function Guidelines({ text }: { text: string }) {
  return (
    <div className="prose-sm space-y-2 text-sm text-slate-700 [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_li]:list-disc">
      {guidelinesTree(text)}
    </div>
  );
}
