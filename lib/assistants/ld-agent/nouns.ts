/**
 * LD-Agent's topic nouns: the noun set V of a query or of a memory's dialogue, used by the topic
 * overlap score (score.ts). The paper extracts nouns from the text; its public code keeps the lemmas
 * of English tokens tagged NOUN.
 *
 * - Chinese: jieba's part-of-speech tagger (the project's instance), every tag starting with "n"
 *   (n, nr person, ns place, nt organisation, nz other proper noun, ...).
 * - English: wink-nlp with its English lite model (offline, from the npm registry), tokens tagged
 *   NOUN or PROPN, as lower-cased lemmas ("shoes" → "shoe"). Proper nouns are included so that both
 *   languages agree (jieba's n* tags include names and places).
 * Mixed text: runs of Chinese characters go to jieba, the rest to wink-nlp.
 */
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { jieba } from "@/lib/metrics/segment";

const CJK_CHAR = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const CJK_RUNS = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
const ENGLISH_NOUN_TAGS = new Set(["NOUN", "PROPN"]);

let nlp: ReturnType<typeof winkNLP> | undefined;

/** The process-wide wink-nlp pipeline (the model takes ~0.3 s to load, so once). */
function english(): ReturnType<typeof winkNLP> {
  if (!nlp) nlp = winkNLP(model, ["pos"]);
  return nlp;
}

function chineseNouns(run: string, out: Set<string>): void {
  for (const { word, tag } of jieba().tag(run, true)) {
    if (tag.startsWith("n") && CJK_CHAR.test(word)) out.add(word);
  }
}

function englishNouns(run: string, out: Set<string>): void {
  if (!/[A-Za-z]/.test(run)) return;
  const n = english();
  const tokens = n.readDoc(run).tokens();
  const pos = tokens.out(n.its.pos);
  // wink-nlp's own typings reject its.lemma in out() although it works there (its addons argument).
  const lemmas = (tokens.out as (f: unknown) => string[])(n.its.lemma);
  for (let i = 0; i < pos.length; i++) {
    if (!ENGLISH_NOUN_TAGS.has(pos[i])) continue;
    const lemma = String(lemmas[i]).toLowerCase().trim();
    if (/[a-z0-9]/.test(lemma)) out.add(lemma);
  }
}

/** The set of normalised nouns of a text, in order of first appearance. */
export function extractNouns(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.normalize("NFKC").matchAll(CJK_RUNS)) {
    if (CJK_CHAR.test(m[0])) chineseNouns(m[0], out);
    else englishNouns(m[0], out);
  }
  return out;
}
