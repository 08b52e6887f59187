// jstat ships no types; only what lib/jobs/significance.ts uses.
declare module "jstat" {
  const jStat: { studentt: { cdf(x: number, dof: number): number } };
  export default jStat;
}
