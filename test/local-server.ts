/** Helpers for tests and benchmarks that start the app as a real process on loopback. */
import type { ChildProcess } from "node:child_process";
import net from "node:net";

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers below 500; fails early, with the process output, if `child` exits. */
export async function waitForHttp(url: string, child: ChildProcess, output: () => string, ms = 180_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}):\n${output()}`);
    try {
      const r = await fetch(url, { redirect: "manual" });
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the app did not answer at ${url}:\n${output()}`);
}
