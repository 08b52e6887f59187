/**
 * Memory entries in the order a builder wrote them: by the session they became visible in, then kind,
 * then key with its numbers read as numbers (MemoryBank's "turn#2" before "turn#10", not after "turn#11").
 */
export function byWriteOrder<E extends { validFromSeq: number; kind: string; key: string }>(a: E, b: E): number {
  return a.validFromSeq - b.validFromSeq || a.kind.localeCompare(b.kind) || a.key.localeCompare(b.key, undefined, { numeric: true });
}
