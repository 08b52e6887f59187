/**
 * The structural parts H2Memory's steps rely on, in one place: log-graph windows and connected
 * components (M_G), and the seeded KMeans with nearest-centre assignment and centre updates (M_P).
 *
 * TEMPORARY bodies: the retrieval branch owns these algorithms (lib/assistants/h2memory/log-graph.ts,
 * principle-clusters.ts); once merged, this file only re-exports them under these names.
 */
import { kmeans } from "ml-kmeans";

export type LogWindow = { contextStart: number; start: number; end: number };

/** Windows of `size` logs, each shown with up to `context` earlier logs. */
export function logGraphWindows(n: number, size: number, context: number): LogWindow[] {
  const out: LogWindow[] = [];
  for (let start = 0; start < n; start += size) out.push({ contextStart: Math.max(0, start - context), start, end: Math.min(n, start + size) });
  return out;
}

/** Connected components of an undirected graph on 0..n-1, each sorted, ordered by first member. */
export function connectedComponents(n: number, edges: Array<[number, number]>): number[][] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const [a, b] of edges) {
    const ra = find(a), rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) groups.set(find(i), [...(groups.get(find(i)) ?? []), i]);
  return [...groups.values()].sort((a, b) => a[0] - b[0]);
}

export function kmeansClusters(points: number[][], k: number, seed: number): { assignments: number[]; centres: number[][] } {
  const r = kmeans(points, k, { seed, initialization: "kmeans++" });
  return { assignments: r.clusters, centres: r.centroids };
}

const dist2 = (a: number[], b: number[]) => a.reduce((s, x, i) => s + (x - b[i]) ** 2, 0);

export function nearestCentre(centres: number[][], x: number[]): number {
  let best = 0;
  for (let i = 1; i < centres.length; i++) if (dist2(centres[i], x) < dist2(centres[best], x)) best = i;
  return best;
}

/** The centre of `count` members after one more joins: the running mean. */
export function moveCentre(centre: number[], count: number, x: number[]): number[] {
  return centre.map((c, i) => c + (x[i] - c) / (count + 1));
}
