/** A form's refusal (a server action's `error`), announced to screen readers; nothing when there is none. */
export function ActionError({ error, inline = false, className = "" }: { error?: string | null; inline?: boolean; className?: string }) {
  if (!error) return null;
  const Tag = inline ? "span" : "p";
  return (
    <Tag role="alert" className={`text-xs text-rose-700 ${className}`.trim()}>
      {error}
    </Tag>
  );
}
