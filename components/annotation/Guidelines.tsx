import ReactMarkdown, { defaultUrlTransform } from "react-markdown";
import { isInlineImageSrc } from "@/lib/annotation/guideline-images";

const link = "text-indigo-700 underline";

/** react-markdown's safe URL filter drops every data: URL; an inline image (data:image/...) is kept for <img>. */
function urlTransform(url: string, key: string): string {
  return key === "src" && isInlineImageSrc(url) ? url : defaultUrlTransform(url);
}

/**
 * Campaign guidelines: Markdown without raw HTML (react-markdown escapes it), links opened safely.
 * Images load only from this app or a data: URL; any other image becomes a link, so opening the
 * guidelines never contacts another site.
 */
export function Guidelines({ text }: { text: string }) {
  return (
    <div className="prose-sm space-y-2 text-sm text-slate-700 [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_li]:list-disc">
      <ReactMarkdown
        skipHtml
        urlTransform={urlTransform}
        components={{
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
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
