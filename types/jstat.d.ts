// jstat ships no types; only what lib/experiments/significance.ts uses.
declare module "jstat" {
  const jStat: { studentt: { cdf(x: number, dof: number): number } };
  export default jStat;
}
