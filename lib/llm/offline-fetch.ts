/**
 * The transport of an offline client (ModelClientOptions.offline): nothing leaves the process. Every
 * request is answered 404 at once, which the client records as a deterministic failure (no retry), so a
 * replay names each request its bundle had no reply for.
 */
export const NO_BUNDLED_REPLY = "no bundled reply (offline replay: the network is closed)";

export async function offlineFetch(): Promise<Response> {
  return new Response(JSON.stringify({ error: { message: NO_BUNDLED_REPLY, type: "offline" } }), {
    status: 404,
    headers: { "content-type": "application/json" },
  });
}
