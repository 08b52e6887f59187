/** The benchmarks' floor: one chat completion over a kept-alive node:http connection, parsed, nothing else. */
import http from "node:http";

export function plainPost(url: URL, agent: http.Agent, i: number): Promise<unknown> {
  const body = JSON.stringify({ model: "fake", messages: [{ role: "user", content: `floor ${i}` }] });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
