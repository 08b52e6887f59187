/**
 * A small GGUF (v3) reader and writer, enough for the real-server suite: read the metadata of llama.cpp's
 * vocabulary files (models/ggml-vocab-*.gguf, no tensors) and write a model file with metadata and F32/F16
 * tensors. Format: magic "GGUF", version, tensor count, metadata count, the key/value pairs, the tensor
 * infos (name, dims innermost first, type, offset), padding to the alignment, then the tensor data.
 */
import fs from "node:fs";

export const GGUF_TYPE = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

/** A metadata value with its GGUF type (arrays keep their element type). */
export type GgufValue =
  | { type: number; value: number | bigint | boolean | string }
  | { type: typeof GGUF_TYPE.ARRAY; elementType: number; value: Array<number | bigint | boolean | string> };

export type GgufTensor = { name: string; dims: number[]; type: "f32" | "f16"; data: Float32Array };

const ALIGNMENT = 32;

class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  u32() {
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  u64() {
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }
  str() {
    const n = Number(this.u64());
    const s = this.buf.toString("utf8", this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  scalar(type: number): number | bigint | boolean | string {
    const b = this.buf;
    const at = this.pos;
    const size = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 }[type as 0];
    if (type === GGUF_TYPE.STRING) return this.str();
    if (size === undefined) throw new Error(`GGUF: unknown value type ${type}`);
    this.pos += size;
    switch (type) {
      case GGUF_TYPE.UINT8:
        return b.readUInt8(at);
      case GGUF_TYPE.INT8:
        return b.readInt8(at);
      case GGUF_TYPE.UINT16:
        return b.readUInt16LE(at);
      case GGUF_TYPE.INT16:
        return b.readInt16LE(at);
      case GGUF_TYPE.UINT32:
        return b.readUInt32LE(at);
      case GGUF_TYPE.INT32:
        return b.readInt32LE(at);
      case GGUF_TYPE.FLOAT32:
        return b.readFloatLE(at);
      case GGUF_TYPE.BOOL:
        return b.readUInt8(at) !== 0;
      case GGUF_TYPE.UINT64:
        return b.readBigUInt64LE(at);
      case GGUF_TYPE.INT64:
        return b.readBigInt64LE(at);
      default:
        return b.readDoubleLE(at);
    }
  }
}

/** The metadata of a GGUF file (its tensors are not read). */
export function readGgufMetadata(file: string): Map<string, GgufValue> {
  const r = new Reader(fs.readFileSync(file));
  if (r.u32() !== 0x46554747) throw new Error(`${file}: not a GGUF file`);
  const version = r.u32();
  if (version < 2) throw new Error(`${file}: GGUF version ${version} is too old`);
  r.u64(); // tensor count
  const n = Number(r.u64());
  const kv = new Map<string, GgufValue>();
  for (let i = 0; i < n; i++) {
    const key = r.str();
    const type = r.u32();
    if (type === GGUF_TYPE.ARRAY) {
      const elementType = r.u32();
      const count = Number(r.u64());
      const value: Array<number | bigint | boolean | string> = new Array(count);
      for (let j = 0; j < count; j++) value[j] = r.scalar(elementType);
      kv.set(key, { type, elementType, value });
    } else kv.set(key, { type, value: r.scalar(type) });
  }
  return kv;
}

/** Growable little-endian byte writer. */
class Writer {
  private chunks: Buffer[] = [];
  length = 0;
  bytes(b: Buffer) {
    this.chunks.push(b);
    this.length += b.length;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.bytes(b);
  }
  u64(v: number | bigint) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.bytes(b);
  }
  str(s: string) {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.bytes(b);
  }
  scalar(type: number, v: number | bigint | boolean | string) {
    const sizes: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
    if (type === GGUF_TYPE.STRING) return this.str(String(v));
    const b = Buffer.alloc(sizes[type]);
    switch (type) {
      case GGUF_TYPE.UINT8:
        b.writeUInt8(Number(v));
        break;
      case GGUF_TYPE.INT8:
        b.writeInt8(Number(v));
        break;
      case GGUF_TYPE.UINT16:
        b.writeUInt16LE(Number(v));
        break;
      case GGUF_TYPE.INT16:
        b.writeInt16LE(Number(v));
        break;
      case GGUF_TYPE.UINT32:
        b.writeUInt32LE(Number(v));
        break;
      case GGUF_TYPE.INT32:
        b.writeInt32LE(Number(v));
        break;
      case GGUF_TYPE.FLOAT32:
        b.writeFloatLE(Number(v));
        break;
      case GGUF_TYPE.BOOL:
        b.writeUInt8(v ? 1 : 0);
        break;
      case GGUF_TYPE.UINT64:
        b.writeBigUInt64LE(BigInt(v as number));
        break;
      case GGUF_TYPE.INT64:
        b.writeBigInt64LE(BigInt(v as number));
        break;
      case GGUF_TYPE.FLOAT64:
        b.writeDoubleLE(Number(v));
        break;
      default:
        throw new Error(`GGUF: cannot write value type ${type}`);
    }
    this.bytes(b);
  }
  pad(to: number) {
    const rest = this.length % to;
    if (rest) this.bytes(Buffer.alloc(to - rest));
  }
  buffer() {
    return Buffer.concat(this.chunks, this.length);
  }
}

/** IEEE half precision of a float (round to nearest even; no NaN/infinity in our weights). */
const f32Cell = new Float32Array(1);
const u32Cell = new Uint32Array(f32Cell.buffer);
function toHalf(f: number): number {
  f32Cell[0] = f;
  const x = u32Cell[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  let mant = x & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant = (mant | 0x800000) >> (1 - exp);
    return sign | ((mant + 0x1000) >> 13);
  }
  if (exp >= 31) return sign | 0x7bff; // clamp to the largest finite half
  const h = sign | (exp << 10) | (mant >> 13);
  return mant & 0x1000 ? h + 1 : h; // round half up on the dropped bits
}

function tensorBytes(t: GgufTensor): Buffer {
  if (t.type === "f32") return Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const halves = new Uint16Array(t.data.length); // little-endian on every machine this runs on
  for (let i = 0; i < t.data.length; i++) halves[i] = toHalf(t.data[i]);
  return Buffer.from(halves.buffer);
}

/** Writes a GGUF v3 file with the metadata (in order) and tensors. */
export function writeGguf(file: string, metadata: Map<string, GgufValue>, tensors: GgufTensor[]): void {
  const w = new Writer();
  w.u32(0x46554747);
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.size);
  for (const [key, v] of metadata) {
    w.str(key);
    w.u32(v.type);
    if ("elementType" in v) {
      w.u32(v.elementType);
      w.u64(v.value.length);
      for (const x of v.value) w.scalar(v.elementType, x);
    } else w.scalar(v.type, v.value);
  }
  const datas = tensors.map(tensorBytes);
  let offset = 0;
  tensors.forEach((t, i) => {
    const expected = t.dims.reduce((a, b) => a * b, 1);
    if (expected !== t.data.length) throw new Error(`GGUF: tensor ${t.name} has ${t.data.length} values for dims ${t.dims}`);
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type === "f32" ? 0 : 1);
    w.u64(offset);
    offset += Math.ceil(datas[i].length / ALIGNMENT) * ALIGNMENT;
  });
  w.pad(ALIGNMENT);
  for (const d of datas) {
    w.bytes(d);
    w.pad(ALIGNMENT);
  }
  fs.writeFileSync(file, w.buffer());
}

export const u32 = (value: number): GgufValue => ({ type: GGUF_TYPE.UINT32, value });
export const f32 = (value: number): GgufValue => ({ type: GGUF_TYPE.FLOAT32, value });
export const str = (value: string): GgufValue => ({ type: GGUF_TYPE.STRING, value });
