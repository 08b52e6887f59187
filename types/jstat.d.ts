// jstat ships no types; only what lib/experiments/significance.ts and paper-table/wtl.ts use.
declare module "jstat" {
  const jStat: { studentt: { cdf(x: number, dof: number): number }; binomial: { cdf(k: number, n: number, p: number): number } };
  export default jStat;
}
