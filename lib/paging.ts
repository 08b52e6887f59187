/**
 * The one paging and text-filter helper of every list read from SQL (data-set users, QA pairs, and
 * the experiment and annotation lists to come). Page numbers and sizes arrive from URLs, so they are
 * clamped here, never trusted; the filter is bound as a parameter with LIKE's wildcards escaped.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** One page of a list, with the total for the pager. */
export type Paged<T> = { rows: T[]; total: number; page: number; pageSize: number };

export type PageWindow = { page: number; pageSize: number; offset: number };

/** 1-based page and a size within [1, maxSize] (default `defaultSize`), with the SQL offset. */
export function pageWindow(page?: number, pageSize?: number, limits: { defaultSize?: number; maxSize?: number } = {}): PageWindow {
  const def = limits.defaultSize ?? 50;
  const size = Math.min(Math.max(Math.floor(pageSize ?? def) || def, 1), limits.maxSize ?? 500);
  const p = Math.min(Math.max(Math.floor(page ?? 1) || 1, 1), 1_000_000);
  return { page: p, pageSize: size, offset: (p - 1) * size };
}

/** `column` contains `text`, case-insensitively for ASCII (SQLite's LIKE); `%`, `_` and `\` match themselves. */
export function containsText(column: SQLWrapper, text: string): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} like ${pattern} escape '\\'`;
}
