import ReactMarkdown from "react-markdown";

/** Campaign guidelines: Markdown without raw HTML (react-markdown escapes it), links opened safely. */
export function Guidelines({ text }: { text: string }) {
  return (
    <div className="prose-sm space-y-2 text-sm text-slate-700 [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_li]:list-disc">
      <ReactMarkdown
        skipHtml
        components={{
          a: ({ href, children }) => (
            <a href={href} rel="noreferrer noopener" target="_blank" className="text-indigo-700 underline">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
