import { describe, expect, it } from "vitest";
import { InvalidInputError } from "@/lib/errors";
import { TfidfVectorizer } from "@/lib/retrieval/tfidf";
import { assignRequirement, clusterRequirements, kmeansPlusPlus, nearestCluster } from "./principle-clusters";
import { promptMembers } from "./principles";

// Three well separated pairs: the only sensible 3-clustering is by pair.
const PAIRS = [
  [20, 0],
  [0, 0],
  [10, 1],
  [0, 1],
  [20, 1],
  [10, 0],
];

describe("clusterRequirements", () => {
  it("clusters well separated points by pair, ids by first appearance, centres = member means", () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const r = clusterRequirements(PAIRS, { n: 3, seed });
      expect(r.seed).toBe(seed);
      expect(r.assignments).toEqual([0, 1, 2, 1, 0, 2]);
      expect(r.centroids).toEqual([
        [20, 0.5],
        [0, 0.5],
        [10, 0.5],
      ]);
      expect(r.counts).toEqual([2, 2, 2]);
      expect(r.converged).toBe(true);
    }
  });

  it("uses 8 clusters by default, fewer when there are fewer (distinct) points", () => {
    // 8 wanted, 6 points: six one-member clusters at every one of the 100 starts, so n is lowered until every
    // cluster has 2 (the pairs)
    const pairs = clusterRequirements(PAIRS);
    expect(pairs.counts).toEqual([2, 2, 2]);
    expect(pairs.redone![0]).toEqual({ n: 8, sizes: [1, 1, 1, 1, 1, 1], tries: 100 });
    const dup = clusterRequirements([
      [1, 1],
      [1, 1],
      [5, 5],
      [1, 1],
      [5, 5],
    ]);
    expect(dup.assignments).toEqual([0, 0, 1, 0, 1]);
    expect(dup.counts).toEqual([3, 2]);
    expect(clusterRequirements([])).toMatchObject({ centroids: [], counts: [], assignments: [] });
    const many = Array.from({ length: 40 }, (_, i) => [i % 10, Math.floor(i / 10)]);
    expect(clusterRequirements(many).centroids.length).toBe(8);
  });

  it("is reproducible for a seed; the k-means++ draws come from the project's PRNG", () => {
    const pts = Array.from({ length: 30 }, (_, i) => [Math.sin(i) * 5, Math.cos(i * 1.7) * 5]);
    expect(clusterRequirements(pts, { seed: 7 })).toEqual(clusterRequirements(pts, { seed: 7 }));
    expect(kmeansPlusPlus(pts, 8, 7)).toEqual(kmeansPlusPlus(pts, 8, 7));
    expect(new Set(kmeansPlusPlus(pts, 8, 7)).size).toBe(8);
    // 3 distinct points and n = 3: every point becomes a centre, whatever the draws
    expect([...kmeansPlusPlus([[0], [1], [2]], 3, 9)].sort()).toEqual([0, 1, 2]);
  });

  // 0 and 0.1 are close, 10 is far: n = 2 gives {0, 0.1} and {10}; the one-member cluster makes it redo
  // with n = 1, all three together. Recorded: the attempt and its sizes.
  it("redoes the clustering with one cluster fewer until every cluster has at least 2 members, recording it", () => {
    const r = clusterRequirements([[0], [0.1], [10]], { n: 2, seed: 3 });
    expect(r.counts).toEqual([3]);
    expect(r.assignments).toEqual([0, 0, 0]);
    expect(r.centroids[0][0]).toBeCloseTo(10.1 / 3, 12);
    expect(r.redone).toEqual([{ n: 2, sizes: [2, 1], tries: 100 }]);
    // nothing to redo: no record
    expect(clusterRequirements([[0], [0.1], [10], [10.1]], { n: 2, seed: 3 }).redone).toBeUndefined();
    // minSize 1 keeps the singleton (worked out by hand: any start at n = 2 splits off 10)
    expect(clusterRequirements([[0], [0.1], [10]], { n: 2, seed: 3, minSize: 1 }).counts).toEqual([2, 1]);
  });

  // Mem-PAL's public code refits KMeans at n = 8 from new random starts, up to 100 times, while a cluster has
  // fewer than 2 members. Here: 0, 0.1, 0.2 | 10, 10.1 | 20 with minSize 3 at n = 2: a start that puts its
  // second centre at 20 ends {0 … 10.1} and {20} (sizes 5, 1: too small), one that puts it at 10 ends
  // {0, 0.1, 0.2} and {10, 10.1, 20} (3, 3). Worked out by hand; which seeds start which way is the PRNG's.
  it("refits at the same n from new seeded starts before lowering n, recording the restarts", () => {
    const pts = [[0], [0.1], [0.2], [10], [10.1], [20]];
    const opts = { n: 2, minSize: 3 };
    const badSeed = [...Array(50).keys()].find((s) => clusterRequirements(pts, { ...opts, seed: s, tries: 1 }).redone)!;
    expect(badSeed).toBeDefined();
    // One start only (the old rule): the failed start lowers n at once.
    const once = clusterRequirements(pts, { ...opts, seed: badSeed, tries: 1 });
    expect(once.redone).toEqual([{ n: 2, sizes: [5, 1], tries: 1 }]);
    expect(once.counts).toEqual([6]);
    // Restarts: the next seeds are tried at n = 2 until one gives 3 and 3.
    const r = clusterRequirements(pts, { ...opts, seed: badSeed });
    expect(r.counts).toEqual([3, 3]);
    expect(r.redone).toBeUndefined();
    expect(r.restarts).toBeGreaterThan(0);
    expect(r.seed).toBe(badSeed + r.restarts!);
    for (let a = 0; a < r.restarts!; a++) expect(clusterRequirements(pts, { ...opts, seed: badSeed + a, tries: 1 }).redone).toBeDefined();
    expect(clusterRequirements(pts, { ...opts, seed: r.seed, tries: 1 }).redone).toBeUndefined();
  });

  it("refuses ragged or non-finite vectors naming the position", () => {
    expect(() => clusterRequirements([[1, 2], [1]])).toThrow("requirements[1]: dimension 1, expected 2");
    expect(() => clusterRequirements([[1, NaN]])).toThrow(InvalidInputError);
    expect(() => clusterRequirements([[1]], { n: 0 })).toThrow(/n must be a positive integer/);
  });

  it("clusters TF-IDF vectors of requirements by topic", () => {
    const reqs = [
      "recommend running shoes for my knee pain",
      "a cheap hotel near the beach for the holiday",
      "running shoes with soft soles",
      "book a beach hotel for the family holiday",
    ];
    const v = new TfidfVectorizer({ language: "en" }).fit(reqs);
    const r = clusterRequirements(
      reqs.map((t) => v.transformDense(t)),
      { n: 2 },
    );
    expect(r.assignments).toEqual([0, 1, 0, 1]);
  });
});

describe("assignRequirement", () => {
  const base = clusterRequirements(PAIRS, { n: 3 }); // centres (20,.5) (0,.5) (10,.5), 2 members each

  it("joins the nearest centre and moves it to the running mean", () => {
    // (0,2): nearest is (0,.5); new centre = (0, .5 + (2 − .5)/3) = (0, 1); it moved by .5
    const a = assignRequirement(base, [0, 2]);
    expect(a.cluster).toBe(1);
    expect(a.state.centroids).toEqual([
      [20, 0.5],
      [0, 1],
      [10, 0.5],
    ]);
    expect(a.state.counts).toEqual([2, 3, 2]);
    expect(a.shift).toBeCloseTo(0.5, 12);
    expect(base.centroids[1]).toEqual([0, 0.5]); // the input state is unchanged
    // the running mean equals the mean of all four members: (0,0) (0,1) (0,2) (0,−1) → (0, .5)
    const b = assignRequirement(a.state, [0, -1]);
    expect(b.state.centroids[1]).toEqual([0, 0.5]);
    expect(b.state.counts[1]).toBe(4);
  });

  it("breaks distance ties towards the lower cluster id and refuses a wrong dimension", () => {
    expect(nearestCluster([[0], [2]], [1])).toBe(0);
    expect(assignRequirement(base, [5, 0.5]).cluster).toBe(1); // equidistant from (0,.5) and (10,.5)
    expect(() => assignRequirement(base, [1, 2, 3])).toThrow("requirement[0]: dimension 3, expected 2");
    expect(() => assignRequirement({ seed: 1, centroids: [], counts: [] }, [1])).toThrow(/no clusters/);
  });
});

describe("principle abstraction prompts", () => {
  const members = Array.from({ length: 12 }, (_, i) => ({ key: `o${i}` }));
  it("show at most 10 members of a cluster: a seeded sample kept in member order", () => {
    expect(promptMembers(members.slice(0, 10), 1, 0)).toHaveLength(10);
    const a = promptMembers(members, 42, 3);
    expect(a).toHaveLength(10);
    expect(a.map((m) => m.key)).toEqual(members.filter((m) => a.includes(m)).map((m) => m.key)); // member order
    expect(promptMembers(members, 42, 3)).toEqual(a); // reproducible
    // a sample, not the first 10: across seeds the last members are shown too
    const shown = new Set([1, 2, 3, 4, 5, 6].flatMap((seed) => promptMembers(members, seed, 0).map((m) => m.key)));
    expect(shown.has("o11") || shown.has("o10")).toBe(true);
  });
});
