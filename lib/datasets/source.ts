import path from "node:path";

/**
 * How a data set's origin is recorded: the names of the files or folders given, without the
 * server's directories (an upload lands in a temp folder whose path means nothing to the reader).
 */
export function describeSource(paths: string[]): string {
  return paths.map((p) => path.basename(p.replace(/[\\/]+$/, ""))).join(", ");
}
