/**
 * Reading list state (sort, direction, filter, page, page size) from a page's search params.
 * Every value is checked against what the list allows, so a hand-edited URL can never reach SQL
 * as anything but a known column or a bounded number.
 */
import { pageWindow } from "@/lib/paging";

export type SearchParams = Record<string, string | string[] | undefined>;

export type ListState<S extends string> = {
  sort: S;
  dir: "asc" | "desc";
  filter: string;
  page: number;
  pageSize: number;
};

export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** The first value of a search param, or undefined. */
export function one(sp: SearchParams, key: string): string | undefined {
  const v = sp[key];
  return Array.isArray(v) ? v[0] : v;
}

export function readListState<S extends string>(
  sp: SearchParams,
  sorts: readonly S[],
  defaults: { sort: S; dir?: "asc" | "desc"; pageSize?: number },
): ListState<S> {
  const sortRaw = one(sp, "sort");
  const sort = sorts.includes(sortRaw as S) ? (sortRaw as S) : defaults.sort;
  const dirRaw = one(sp, "dir");
  const dir = dirRaw === "asc" || dirRaw === "desc" ? dirRaw : (defaults.dir ?? "asc");
  const filter = (one(sp, "q") ?? "").trim().slice(0, 200);
  const pageSizeRaw = Number(one(sp, "size"));
  const pageSize = (PAGE_SIZES as readonly number[]).includes(pageSizeRaw) ? pageSizeRaw : (defaults.pageSize ?? 25);
  const { page } = pageWindow(Number(one(sp, "page")), pageSize);
  return { sort, dir, filter, page, pageSize };
}

/** A positive integer route segment (data-set id), or null. */
export function parseId(s: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

/** A route segment, decoded once if Next left it encoded; null when it cannot be decoded. */
export function segment(s: string): string | null {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
