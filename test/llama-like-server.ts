/**
 * A raw HTTP/1.1 server (TEST DOUBLE over node:net) that ends a streamed chat reply the way llama.cpp's
 * llama-server does (issue 40.8): chunked server-sent events with no `Connection: close` header, then
 * the connection is closed. It reads nothing more on that connection: a request written into it is
 * reset unread (counted in `unread`), as the real server's closed socket answers it. Whole (non-stream)
 * replies keep the connection alive. node:http's server cannot play this part: it answers a request that
 * says `Connection: close` with that header, and Node's client then never pools the socket.
 */
import net from "node:net";
import type { AddressInfo } from "node:net";

export type LlamaLike = {
  baseURL: string;
  /** Requests answered, in order: whether each was streamed, and the connection it came on. */
  answered: Array<{ stream: boolean; connection: number }>;
  /** Requests written into a connection the server had finished with: reset, never read. */
  unread: number;
  close(): Promise<void>;
};

const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
const sse = (o: unknown) => chunk(`data: ${JSON.stringify(o)}\n\n`);

function streamed(socket: net.Socket, tokens: number): void {
  socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
  for (let i = 0; i < tokens; i++)
    socket.write(sse({ model: "llama", choices: [{ index: 0, delta: { content: `t${i} ` }, finish_reason: null }] }));
  socket.write(sse({ model: "llama", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
  socket.write(sse({ model: "llama", choices: [], usage: { prompt_tokens: 5, completion_tokens: tokens, total_tokens: 5 + tokens } }));
  socket.write(chunk("data: [DONE]\n\n"));
  socket.write("0\r\n\r\n");
}

function whole(socket: net.Socket, tokens: number): void {
  const body = JSON.stringify({
    id: "w",
    object: "chat.completion",
    created: 0,
    model: "llama",
    choices: [{ index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" }],
    usage: { prompt_tokens: 5, completion_tokens: tokens, total_tokens: 5 + tokens },
  });
  socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** `tokens` completion tokens per reply; a finished connection is closed after `closeMs` if the client has not written into it. */
export async function startLlamaLike(o: { tokens?: number; closeMs?: number } = {}): Promise<LlamaLike> {
  const tokens = o.tokens ?? 4;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const state: Pick<LlamaLike, "answered" | "unread"> = { answered: [], unread: 0 };
  const server = net.createServer((socket) => {
    const id = connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buf = Buffer.alloc(0);
    let finished = false;
    socket.on("data", (d: Buffer) => {
      if (finished) {
        // The connection was done with: what comes now is never read (the kernel answers with a reset).
        state.unread++;
        socket.resetAndDestroy();
        return;
      }
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buf.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.subarray(end + 4, end + 4 + length).toString("utf8");
        buf = buf.subarray(end + 4 + length);
        const stream = (JSON.parse(body || "{}") as { stream?: boolean }).stream === true;
        state.answered.push({ stream, connection: id });
        if (!stream) {
          whole(socket, tokens);
          continue;
        }
        streamed(socket, tokens);
        finished = true;
        setTimeout(() => socket.end(), o.closeMs ?? 300);
        return;
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get answered() {
      return state.answered;
    },
    get unread() {
      return state.unread;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
