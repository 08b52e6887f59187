/**
 * The arguments of a small `pal run` on the shipped English demo set: the named methods on the
 * requirement task for user 0000, one run (not the Mem-PAL preset's 3 repeats), then `more`
 * (e.g. "--json", "--dry-run"). The e2e specs that start runs from the command line share it.
 */
export function demoRunArgs(methods: string, ...more: string[]): string[] {
  return [
    "run",
    "--dataset",
    "PAL-Set demo (en)",
    "--method",
    methods,
    "--repeats",
    "1",
    "--task",
    "requirement",
    "--users",
    "0000",
    ...more,
  ];
}
