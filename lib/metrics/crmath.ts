/**
 * Correctly rounded `exp` and `log` for doubles.
 *
 * V8's Math.exp/Math.log (fdlibm) are within 1 ulp but not correctly rounded; CPython uses the C
 * library's, which on glibc are correctly rounded in practice. They disagree in the last bit for
 * several percent of arguments, so BLEU scores computed with Math.* differ from the Python recipe's
 * by ~1e-16. These versions evaluate in double-double arithmetic (~100 bits) and round once, so the
 * scores come out bit-identical to the reference in all but astronomically rare halfway cases.
 */

// --- double-double helpers (results through module variables to avoid allocation) --------------

let H = 0;
let L = 0;

const SPLITTER = 134217729; // 2^27 + 1, Dekker's splitting constant

/** H + L = a · b exactly (Dekker). */
function twoProd(a: number, b: number): void {
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  H = p;
  L = ah * bh - p + ah * bl + al * bh + al * bl;
}

/** (H, L) ← (ah, al) · (bh, bl). */
function ddMul(ah: number, al: number, bh: number, bl: number): void {
  twoProd(ah, bh);
  const p = H;
  const e = L + (ah * bl + al * bh);
  H = p + e;
  L = e - (H - p);
}

/** (H, L) ← (ah, al) + (bh, bl). */
function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  const s = ah + bh;
  const bb = s - ah;
  const e = ah - (s - bb) + (bh - bb) + al + bl;
  H = s + e;
  L = e - (H - s);
}

/** 1/n! as double-doubles, n = 1..12, for the Taylor series. */
const INV_FACT_HI: number[] = [];
const INV_FACT_LO: number[] = [];
{
  let f = 1;
  for (let n = 1; n <= 12; n++) {
    f *= n; // exact: 12! < 2^53
    const q1 = 1 / f;
    twoProd(q1, f);
    const rem = 1 - H - L;
    const q2 = rem / f;
    INV_FACT_HI.push(q1 + q2);
    INV_FACT_LO.push(q2 - (q1 + q2 - q1));
  }
}

const LN2_HI = 0.6931471805599453;
const LN2_LO = 2.3190468138462996e-17;
const INV_LN2 = 1.4426950408889634;
const SQUARINGS = 10;
const TERMS = 9;

/**
 * exp(x) as 2^k · (H + L) with H + L in [0.7, 1.5]; returns k. Range reduction by k·ln2 (ln2 as a
 * double-double), then by 2^-10, a Taylor series for expm1, and ten squarings back.
 */
function expParts(x: number): number {
  const k = Math.round(x * INV_LN2);
  twoProd(k, LN2_HI);
  const p = H;
  const pe = L;
  const r1 = x - p; // exact (Sterbenz): x and k·ln2 are close
  const rl = -pe - k * LN2_LO;
  let rh = r1 + rl;
  let rlo = rl - (rh - r1);
  const scale = 1 / (1 << SQUARINGS);
  rh *= scale;
  rlo *= scale;
  // expm1(r) = r·(1/1! + r·(1/2! + r·(1/3! + ...)))
  let uh = INV_FACT_HI[TERMS - 1];
  let ul = INV_FACT_LO[TERMS - 1];
  for (let n = TERMS - 2; n >= 0; n--) {
    ddMul(uh, ul, rh, rlo);
    ddAdd(H, L, INV_FACT_HI[n], INV_FACT_LO[n]);
    uh = H;
    ul = L;
  }
  ddMul(uh, ul, rh, rlo);
  uh = H;
  ul = L;
  // expm1(2r) = u·(2 + u)
  for (let i = 0; i < SQUARINGS; i++) {
    ddAdd(uh, ul, 2, 0);
    ddMul(uh, ul, H, L);
    uh = H;
    ul = L;
  }
  ddAdd(uh, ul, 1, 0);
  return k;
}

/** exp(x), correctly rounded (outside the normal range it defers to Math.exp). */
export function crExp(x: number): number {
  if (!(x > -708 && x < 709)) return Math.exp(x);
  if (x === 0) return 1;
  const k = expParts(x);
  return (H + L) * Math.pow(2, k);
}

/**
 * log(x), correctly rounded: one Newton step from Math.log in double-double,
 * log(x) = y0 + log1p(t) with t = x·exp(−y0) − 1 (|t| ~ 1e-16, so t − t²/2 is exact enough).
 */
export function crLog(x: number): number {
  const y0 = Math.log(x);
  if (!(x > 0) || x === Infinity || x === 1 || !(y0 > -700 && y0 < 700)) return y0;
  const k = expParts(-y0);
  const s = Math.pow(2, k);
  const eh = H * s;
  const el = L * s;
  twoProd(x, eh);
  const t = H - 1 + (L + x * el);
  return y0 + (t - (t * t) / 2);
}
