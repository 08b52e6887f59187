/**
 * The Response and Headers the keep-alive fetch (http-fetch.ts) hands the SDK: light stand-ins for the
 * global ones, which cost as much CPU per reply as the rest of the exchange.
 */

/**
 * A reply's headers as the SDK reads them (get, entries, iteration; it reads them several times per
 * reply, and logs them) without a Headers object per reply: undici's validates, sorts and copies on
 * every read. Names are lower-case; repeated ones are joined with ", " by get(), as Headers does.
 */
export class ReplyHeaders {
  readonly #pairs: Array<[string, string]>;

  constructor(raw: string[]) {
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i].toLowerCase(), raw[i + 1]]);
    this.#pairs = pairs;
  }

  get(name: string): string | null {
    const n = name.toLowerCase();
    let found: string | null = null;
    for (const [k, v] of this.#pairs) if (k === n) found = found === null ? v : `${found}, ${v}`;
    return found;
  }

  has(name: string): boolean {
    const n = name.toLowerCase();
    return this.#pairs.some(([k]) => k === n);
  }

  getSetCookie(): string[] {
    return this.#pairs.filter(([k]) => k === "set-cookie").map(([, v]) => v);
  }

  forEach(cb: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this.#pairs) cb.call(thisArg, v, k, this as unknown as Headers);
  }

  *entries(): HeadersIterator<[string, string]> {
    for (const [k, v] of this.#pairs) yield [k, v];
  }

  *keys(): HeadersIterator<string> {
    for (const [k] of this.#pairs) yield k;
  }

  *values(): HeadersIterator<string> {
    for (const [, v] of this.#pairs) yield v;
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
}

/**
 * A Response over a body already read into memory. The global Response would copy it into a web
 * stream and read it back for json()/text(), which cost as much as the rest of the exchange; the
 * readers here take the buffer directly, and `body` makes the stream only when someone asks for it.
 */
export class BufferedResponse extends Response {
  #buffer: Buffer | null;
  #used = false;
  #headers: Headers;

  constructor(buffer: Buffer | null, init: { status: number; statusText?: string; headers: ReplyHeaders }) {
    super(null, { status: init.status, statusText: init.statusText });
    this.#buffer = buffer;
    this.#headers = init.headers as unknown as Headers;
  }

  override get headers(): Headers {
    return this.#headers;
  }

  #take(): Buffer {
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#buffer ?? Buffer.alloc(0);
  }

  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | null = null;

  /** Made on first use; whoever takes the stream reads the body through it. */
  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#buffer === null) return null;
    this.#stream ??= new Blob([new Uint8Array(this.#take())]).stream();
    return this.#stream;
  }

  override get bodyUsed(): boolean {
    return this.#used;
  }

  override async text(): Promise<string> {
    return this.#take().toString("utf8");
  }

  override async json(): Promise<unknown> {
    return JSON.parse(this.#take().toString("utf8"));
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.#take();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async blob(): Promise<Blob> {
    return new Blob([new Uint8Array(this.#take())], { type: this.headers.get("content-type") ?? "" });
  }

  override clone(): Response {
    if (this.#used) throw new TypeError("Response.clone: Body has already been consumed.");
    return new BufferedResponse(this.#buffer, {
      status: this.status,
      statusText: this.statusText,
      headers: this.#headers as unknown as ReplyHeaders,
    });
  }
}
