/** Pairwise-dialogue campaign items for the benchmarks (the kind's upload format, one JSON line each). */
export const pairwiseItemLines = (n: number): string[] =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `t${i}`,
      user_info: `user ${i}`,
      a: { system: "sys-a", output: `answer a ${i}` },
      b: { system: "sys-b", output: `answer b ${i}` },
    }),
  );
