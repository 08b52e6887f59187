/**
 * Secrets out of stored error text. An endpoint's error body is stored and shown (ledger, job errors,
 * campaign pages and their exports); a provider that echoes the request's Authorization header would
 * put the API key there. Every key this process has read (saved keys as they are decrypted, keys from
 * the environment) is masked wherever it appears, and so is anything shaped like a key (`sk-…`,
 * `Bearer …`, an `api_key`/`authorization` field) even when this process never saw it.
 */
const known = new Set<string>();

/** Remembers a key this process uses, so that error text quoting it is masked. Short values are ignored. */
export function rememberSecret(secret: string | null | undefined): void {
  const s = secret?.trim();
  if (s && s.length >= 8) known.add(s);
}

export const MASK = "«masked»";

const SHAPED: Array<[RegExp, string]> = [
  // OpenAI, DeepSeek, DashScope, Anthropic ("sk-ant-…"), Hugging Face tokens.
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{6,}/g, `$1-${MASK}`],
  [/\bhf_[A-Za-z0-9]{8,}/g, `hf_${MASK}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, `$1 ${MASK}`],
  [
    /(["']?(?:authorization|api[-_]?key|x-api-key|access[-_]?token)["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b|«)([^"'\s,;&}]{6,})/gi,
    `$1${MASK}`,
  ],
];

/** `text` with every remembered key and every key-shaped string masked. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const k of known) if (out.includes(k)) out = out.split(k).join(MASK);
  for (const [re, to] of SHAPED) out = out.replace(re, to);
  return out;
}
