import { NotFoundError } from "@/lib/errors";
import { hicupidViews } from "./hicupid";
import { palsetViews } from "./palset";
import { locomoViews, longmemevalViews } from "./convmem";
import type { KindViews } from "./types";

/** The browse views per data-set kind id (the kinds themselves are in lib/datasets/kinds). */
const VIEWS: Record<string, KindViews> = { palset: palsetViews, hicupid: hicupidViews, locomo: locomoViews, longmemeval: longmemevalViews };

export function kindViews(kind: string): KindViews {
  const v = VIEWS[kind];
  if (!v) throw new NotFoundError(`no browse views for data sets of kind "${kind}"`);
  return v;
}
