/**
 * H2Memory's principle memory (M_P), the parts that need no model: KMeans over the requirement
 * vectors of all history dialogues (n = 8 clusters on PAL-Bench, Mem-PAL Appendix C; fewer when
 * there are fewer distinct requirements), and, for a later session, the assignment of a new
 * requirement to its nearest centre and that centre's update. The model then extracts (or updates)
 * the requirement type γ_i and preference principle ρ_i of the cluster that changed.
 *
 * Vectors are passed in by the caller: H2Memory embeds the requirements through the embedding role
 * (principles.ts, `withFeatures`), as Mem-PAL encodes them with its sentence encoder. Distances are squared Euclidean (ml-kmeans' own),
 * which on L2-normalised vectors orders points exactly as cosine similarity does.
 *
 * Reproducibility: k-means++ seeding draws from the project's PRNG (lib/random.ts, mulberry32) with a
 * recorded seed, then ml-kmeans iterates (Lloyd) from those centres. Cluster ids are renumbered by
 * first appearance in the input, and centres are the exact means of their members.
 */
import { kmeans } from "ml-kmeans";
import { InvalidInputError } from "@/lib/errors";
import { mulberry32 } from "@/lib/random";

export const PRINCIPLE_CLUSTERS = 8;
export const DEFAULT_CLUSTER_SEED = 42;
/** Every cluster must abstract at least this many requirements: a one-member "type" is no abstraction. */
export const MIN_CLUSTER_SIZE = 2;
/**
 * Starts tried at one n before giving up on it: Mem-PAL's public code (principle_extraction.py) refits KMeans
 * with n = 8 from new random starts up to 100 times while a cluster has fewer than 2 members.
 */
export const KMEANS_TRIES = 100;

export interface ClusterOptions {
  /** Wanted number of clusters; fewer when there are fewer distinct vectors. Default 8. */
  n?: number;
  /**
   * Smallest cluster allowed (default 2): while a cluster is smaller, KMeans is refitted from new seeded starts
   * (seed, seed + 1, ...; up to `tries`), and only then with one cluster fewer.
   */
  minSize?: number;
  /** Starts tried per n (default KMEANS_TRIES, 100). */
  tries?: number;
  /** Seed of the k-means++ draws; recorded in the result. Default 42. */
  seed?: number;
  maxIterations?: number;
  tolerance?: number;
}

/** The state kept in memory: the centres and how many requirements each one averages. */
export interface PrincipleClusterState {
  seed: number;
  centroids: number[][];
  counts: number[];
}

export interface ClusteringResult extends PrincipleClusterState {
  /** The cluster of each input vector, by position. */
  assignments: number[];
  iterations: number;
  converged: boolean;
  /** Failed starts at the kept n before the kept one (its start is `seed`); absent when the first start did. */
  restarts?: number;
  /** Each n given up on (every one of its `tries` starts left a cluster under minSize): the last start's sizes. */
  redone?: Array<{ n: number; sizes: number[]; tries: number }>;
}

function squaredDistance(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    s += d * d;
  }
  return s;
}

function checkVectors(vectors: readonly (readonly number[])[], what: string, dim?: number): number {
  let d = dim ?? -1;
  vectors.forEach((v, i) => {
    if (!Array.isArray(v) || v.length === 0 || !v.every(Number.isFinite)) {
      throw new InvalidInputError(`${what}[${i}]: not a non-empty vector of finite numbers`);
    }
    if (d === -1) d = v.length;
    if (v.length !== d) throw new InvalidInputError(`${what}[${i}]: dimension ${v.length}, expected ${d}`);
  });
  return d;
}

/**
 * k-means++ seeding (Arthur & Vassilvitskii): the first centre uniformly, each next one with
 * probability proportional to its squared distance to the nearest centre chosen so far. Stops early
 * when every point coincides with a centre, so duplicates never yield an empty cluster.
 */
export function kmeansPlusPlus(vectors: readonly (readonly number[])[], n: number, seed: number): number[] {
  if (vectors.length === 0 || n <= 0) return [];
  const rand = mulberry32(seed);
  const chosen = [Math.floor(rand() * vectors.length)];
  const d2 = vectors.map((v) => squaredDistance(v, vectors[chosen[0]]));
  while (chosen.length < n) {
    let total = 0;
    for (const x of d2) total += x;
    if (total === 0) break;
    const r = rand() * total;
    let acc = 0;
    let pick = -1;
    for (let i = 0; i < d2.length; i++) {
      if (d2[i] === 0) continue;
      acc += d2[i];
      pick = i;
      if (acc > r) break;
    }
    chosen.push(pick);
    for (let i = 0; i < vectors.length; i++) d2[i] = Math.min(d2[i], squaredDistance(vectors[i], vectors[pick]));
  }
  return chosen;
}

/**
 * KMeans over requirement vectors (see the module comment). No vectors → no clusters. While a cluster
 * has fewer than `minSize` members (default 2), KMeans is refitted with the same n from new seeded starts
 * (seed, seed + 1, ..., up to `tries`, default 100, as Mem-PAL's public code refits up to 100 times); the
 * kept start is `seed` and the failed ones before it `restarts`. Only when every start fails is n lowered by
 * one (our choice: the public code then keeps its last clustering, small clusters and all); each n given up
 * on is recorded in `redone`. With fewer than minSize vectors in all, one cluster holds them.
 */
export function clusterRequirements(vectors: readonly (readonly number[])[], options: ClusterOptions = {}): ClusteringResult {
  const minSize = options.minSize ?? MIN_CLUSTER_SIZE;
  const tries = Math.max(1, options.tries ?? KMEANS_TRIES);
  const seed = options.seed ?? DEFAULT_CLUSTER_SEED;
  const redone: Array<{ n: number; sizes: number[]; tries: number }> = [];
  let n = options.n ?? PRINCIPLE_CLUSTERS;
  for (;;) {
    let last: ClusteringResult | null = null;
    let fewest = Infinity;
    for (let a = 0; a < tries; a++) {
      const r = clusterOnce(vectors, { ...options, n, seed: (seed + a) >>> 0 });
      last = r;
      fewest = Math.min(fewest, r.counts.length);
      if (n <= 1 || r.counts.every((c) => c >= minSize))
        return { ...r, ...(a > 0 ? { restarts: a } : {}), ...(redone.length ? { redone } : {}) };
    }
    redone.push({ n, sizes: last!.counts, tries });
    n = Math.min(n, fewest) - 1;
  }
}

function clusterOnce(vectors: readonly (readonly number[])[], options: ClusterOptions): ClusteringResult {
  const n = options.n ?? PRINCIPLE_CLUSTERS;
  const seed = options.seed ?? DEFAULT_CLUSTER_SEED;
  if (!Number.isInteger(n) || n < 1) throw new InvalidInputError(`clusters: n must be a positive integer, got ${n}`);
  const dim = checkVectors(vectors, "requirements");
  if (vectors.length === 0) return { seed, centroids: [], counts: [], assignments: [], iterations: 0, converged: true };

  const init = kmeansPlusPlus(vectors, Math.min(n, vectors.length), seed).map((i) => [...vectors[i]]);
  const data = vectors.map((v) => [...v]);
  const res = kmeans(data, init.length, {
    initialization: init,
    maxIterations: options.maxIterations ?? 100,
    tolerance: options.tolerance ?? 1e-6,
  });

  // Renumber by first appearance (dropping any cluster Lloyd emptied) and take exact member means.
  const renumber = new Map<number, number>();
  const assignments = res.clusters.map((c) => {
    let id = renumber.get(c);
    if (id === undefined) renumber.set(c, (id = renumber.size));
    return id;
  });
  const k = renumber.size;
  const centroids = Array.from({ length: k }, () => new Array<number>(dim).fill(0));
  const counts = new Array<number>(k).fill(0);
  assignments.forEach((c, i) => {
    counts[c]++;
    const v = vectors[i];
    for (let j = 0; j < dim; j++) centroids[c][j] += v[j];
  });
  for (let c = 0; c < k; c++) for (let j = 0; j < dim; j++) centroids[c][j] /= counts[c];
  return { seed, centroids, counts, assignments, iterations: res.iterations, converged: res.converged };
}

/** The nearest centre (squared Euclidean); equal distances go to the lower cluster id. */
export function nearestCluster(centroids: readonly (readonly number[])[], vector: readonly number[]): number {
  let best = -1;
  let bestD = Infinity;
  for (let c = 0; c < centroids.length; c++) {
    const d = squaredDistance(centroids[c], vector);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

export interface Assignment {
  /** The cluster the requirement joined: the one whose type and principle the model should revisit. */
  cluster: number;
  /** The new state (the input state is not changed). */
  state: PrincipleClusterState;
  /** How far the centre moved (Euclidean). */
  shift: number;
}

/**
 * Adds a later requirement: nearest centre, then that centre becomes the running mean of its
 * members, c ← c + (x − c)/(count + 1). Only that cluster changes.
 */
export function assignRequirement(state: PrincipleClusterState, vector: readonly number[]): Assignment {
  if (state.centroids.length === 0)
    throw new InvalidInputError("clusters: no clusters to assign a requirement to (cluster the history first)");
  checkVectors([vector], "requirement", state.centroids[0].length);
  const cluster = nearestCluster(state.centroids, vector);
  const old = state.centroids[cluster];
  const count = state.counts[cluster];
  const moved = old.map((c, j) => c + (vector[j] - c) / (count + 1));
  const centroids = state.centroids.map((c, i) => (i === cluster ? moved : c));
  const counts = state.counts.map((n, i) => (i === cluster ? n + 1 : n));
  return { cluster, state: { seed: state.seed, centroids, counts }, shift: Math.sqrt(squaredDistance(old, moved)) };
}
