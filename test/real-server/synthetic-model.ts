/**
 * A tiny synthetic Qwen2 model for llama-server: the real Qwen2 tokenizer (llama.cpp's bundled
 * models/ggml-vocab-qwen2.gguf) and seeded random weights (2 layers, 64 wide), so the server loads it and
 * replies through its real protocol, grammars and token accounting. The replies are word salad.
 *
 * One bias makes the salad terse, so a reply ends in a few tokens instead of running to the token limit:
 * every token embedding carries a shared positive first component (the final hidden state keeps it), and the
 * output head scales it by a per-token preference: end of turn first, then closing quotes and brackets, then
 * the digit 1 and "No", then a few hundred short words; tokens with whitespace only or line breaks are
 * disfavoured. Under a JSON grammar that gives short valid JSON; without one, after the prompt's final line
 * break, a word and the end of turn.
 */
import { mulberry32 } from "@/lib/random";
import { GGUF_TYPE, f32, readGgufMetadata, str, u32, writeGguf, type GgufTensor, type GgufValue } from "./gguf";

export const MODEL_SHAPE = { embd: 64, layers: 2, heads: 4, headsKv: 2, ff: 128, context: 32768 } as const;

/** The project's seeded generator, so the same model comes out on every machine. */
const random = mulberry32;

function normal(rand: () => number) {
  return Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
}

function filled(n: number, rand: () => number, std: number, mean = 0) {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = mean + std * normal(rand);
  return a;
}

const tokenText = (token: string) => token.replace(/Ġ/g, " ").replace(/Ċ/g, "\n").replace(/ĉ/g, "\t");

/**
 * What the last token does to the next one, through the second component: a line break (the end of the chat
 * prompt) holds back the end of turn and quotes and brings words forward, so a plain reply is a word, not empty.
 */
function follow(token: string, special: boolean): number {
  if (special) return -3;
  const text = tokenText(token);
  if (/^ ?[a-z]{3,6}$/.test(text) && text.length % 5 === 0) return 1;
  if (text.includes('"')) return -2;
  return 0;
}

/** How much the model prefers a token (see the file's comment); 0 for most. */
function preference(token: string, special: boolean): number {
  if (special) return token === "<|im_end|>" || token === "<|endoftext|>" ? 3 : -2;
  const text = tokenText(token);
  if (text.trim() === "" || /[\n\t]/.test(text)) return -2;
  if (/^[\s"]*"[\s"]*$/.test(text) || /^"[,}\]]+$/.test(text)) return 2.5;
  if (/^[\]}]+$/.test(text)) return 2;
  // Where a grammar leaves a choice between values: the digit 1 (the first turn and the lowest score both
  // read "1", so a turn span comes out in order) and "No" (keep, the answer that needs no further field).
  if (text === "1" || text === "No") return 1.5;
  if (/^ ?[a-z]{3,6}$/.test(text) && text.length % 5 === 0) return 1; // a few hundred short words
  return 0;
}

/** Writes the model to `file` from the vocabulary GGUF; returns the vocabulary size. */
export function writeSyntheticQwen2(vocabFile: string, file: string, seed = 27): { vocab: number } {
  const vocab = readGgufMetadata(vocabFile);
  const tokens = vocab.get("tokenizer.ggml.tokens");
  const types = vocab.get("tokenizer.ggml.token_type");
  if (!tokens || !("elementType" in tokens)) throw new Error(`${vocabFile}: no tokenizer.ggml.tokens`);
  const nVocab = tokens.value.length;
  const { embd, layers, heads, headsKv, ff, context } = MODEL_SHAPE;
  const kvDim = (embd / heads) * headsKv;

  const meta = new Map<string, GgufValue>([
    ["general.architecture", str("qwen2")],
    ["general.name", str("pal-studio synthetic qwen2 (random weights)")],
    ["general.file_type", u32(1)],
    ["qwen2.context_length", u32(context)],
    ["qwen2.embedding_length", u32(embd)],
    ["qwen2.block_count", u32(layers)],
    ["qwen2.feed_forward_length", u32(ff)],
    ["qwen2.attention.head_count", u32(heads)],
    ["qwen2.attention.head_count_kv", u32(headsKv)],
    ["qwen2.rope.freq_base", f32(1000000)],
    ["qwen2.attention.layer_norm_rms_epsilon", f32(1e-6)],
  ]);
  // The tokenizer and its chat template (ChatML) as llama.cpp ships them.
  for (const [k, v] of vocab) if (k.startsWith("tokenizer.")) meta.set(k, v);

  const rand = random(seed);
  // Input embeddings: a shared positive first component, the second set after a line break; output head (not
  // tied): the first component scaled by the token's preference, the second by what follows a line break.
  const tokEmbd = filled(embd * nVocab, rand, 0.15);
  const output = filled(embd * nVocab, rand, 0.15);
  for (let t = 0; t < nVocab; t++) {
    const token = String(tokens.value[t]);
    const special = types && "elementType" in types ? Number(types.value[t]) === 3 : false;
    tokEmbd[t * embd] = 4;
    tokEmbd[t * embd + 1] = !special && tokenText(token).includes("\n") ? 3 : 0;
    output[t * embd] = preference(token, special);
    output[t * embd + 1] = follow(token, special);
  }
  const ones = (n: number) => new Float32Array(n).fill(1);
  const small = (n: number) => filled(n, rand, 0.02);
  const tensors: GgufTensor[] = [
    { name: "token_embd.weight", dims: [embd, nVocab], type: "f16", data: tokEmbd },
    { name: "output_norm.weight", dims: [embd], type: "f32", data: ones(embd) },
    { name: "output.weight", dims: [embd, nVocab], type: "f16", data: output },
  ];
  for (let i = 0; i < layers; i++) {
    const b = `blk.${i}`;
    tensors.push(
      { name: `${b}.attn_norm.weight`, dims: [embd], type: "f32", data: ones(embd) },
      { name: `${b}.attn_q.weight`, dims: [embd, embd], type: "f32", data: small(embd * embd) },
      { name: `${b}.attn_q.bias`, dims: [embd], type: "f32", data: small(embd) },
      { name: `${b}.attn_k.weight`, dims: [embd, kvDim], type: "f32", data: small(embd * kvDim) },
      { name: `${b}.attn_k.bias`, dims: [kvDim], type: "f32", data: small(kvDim) },
      { name: `${b}.attn_v.weight`, dims: [embd, kvDim], type: "f32", data: small(embd * kvDim) },
      { name: `${b}.attn_v.bias`, dims: [kvDim], type: "f32", data: small(kvDim) },
      { name: `${b}.attn_output.weight`, dims: [embd, embd], type: "f32", data: small(embd * embd) },
      { name: `${b}.ffn_norm.weight`, dims: [embd], type: "f32", data: ones(embd) },
      { name: `${b}.ffn_gate.weight`, dims: [embd, ff], type: "f32", data: small(embd * ff) },
      { name: `${b}.ffn_up.weight`, dims: [embd, ff], type: "f32", data: small(embd * ff) },
      { name: `${b}.ffn_down.weight`, dims: [ff, embd], type: "f32", data: small(ff * embd) },
    );
  }
  writeGguf(file, meta, tensors);
  return { vocab: nVocab };
}

export { GGUF_TYPE };
