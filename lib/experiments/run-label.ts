/**
 * A run (replicate) as people count it: from 1, in the CLI, the pages, the exports and the case studies
 * alike (issue 44.5: `pal bundle verify` said "run 0" where the page said "run 1"). Stored indexes stay 0-based.
 */
export const runNumber = (replicate: number) => replicate + 1;
export const runLabel = (replicate: number) => `run ${runNumber(replicate)}`;
