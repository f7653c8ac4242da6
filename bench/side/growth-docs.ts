// Synthetic product-like documents for the `growth` workload, from the 275k English words.
//
//   word ranks: the words ordered by length + a seeded jitter of up to 6 letters, so that, as in
//   real text, the frequent words are the short ones; a word of rank r is drawn with probability
//   ∝ 1/(r+1) (Zipf, s = 1) through an alias table (O(1) per draw)
//   doc(i): its own PRNG seeded from (seed, i), so document i is the same at every size and the
//   queries can draw any document without generating the ones before it
//     { id: i+1, title: 3-6 words, body: 20-40 words, category: one of 50 (Zipf too), price }
import fs from 'node:fs';
import path from 'node:path';
import { quote } from '../lib/filter-bench.ts';
import { Rng, typo } from '../lib/text.ts';

export const CATEGORIES = 50;

export interface GrowthDoc {
  id: number;
  title: string;
  body: string;
  category: string;
  price: number;
}

/** Vose's alias method over weights: one uniform index and one coin per draw. */
class AliasTable {
  readonly #prob: Float64Array;
  readonly #alias: Int32Array;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += weights[i]!;
    const scaled = Float64Array.from({ length: n }, (_, i) => (weights[i]! * n) / sum);
    this.#prob = new Float64Array(n);
    this.#alias = new Int32Array(n);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((p, i) => (p < 1 ? small : large).push(i));
    while (small.length > 0 && large.length > 0) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.#prob[s] = scaled[s]!;
      this.#alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      (scaled[l]! < 1 ? small : large).push(l);
    }
    for (const i of [...small, ...large]) this.#prob[i] = 1;
  }

  draw(rng: Rng): number {
    const k = rng.int(this.#prob.length);
    return rng.next() < this.#prob[k]! ? k : this.#alias[k]!;
  }
}

const zipf = (n: number, s = 1) => Float64Array.from({ length: n }, (_, r) => 1 / (r + 1) ** s);

/** A 32-bit mix of (seed, i): each document's own PRNG seed. */
function docSeed(seed: number, i: number): number {
  let h = (seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class GrowthCorpus {
  readonly #seed: number;
  /** words in rank order: rank 0 is the most frequent */
  readonly #ranked: string[];
  readonly #words: AliasTable;
  readonly #categoryTable: AliasTable;
  readonly categories: string[];

  constructor(words: readonly string[], seed: number) {
    this.#seed = seed;
    const rng = new Rng(seed);
    const keyed = words.map((w) => [w.length + rng.next() * 6, w] as const);
    keyed.sort((a, b) => a[0] - b[0]);
    this.#ranked = keyed.map(([, w]) => w);
    this.#words = new AliasTable(zipf(this.#ranked.length));
    const names = new Set<string>();
    while (names.size < CATEGORIES) {
      const w = rng.pick(words);
      if (w.length >= 5 && w.length <= 9) names.add(w);
    }
    this.categories = [...names];
    this.#categoryTable = new AliasTable(zipf(CATEGORIES));
  }

  static load(datasetsDir: string, seed: number): GrowthCorpus {
    const text = fs.readFileSync(path.join(datasetsDir, 'words-english-275k', 'words.txt'), 'utf8');
    return new GrowthCorpus(text.split('\n').filter((w) => w !== ''), seed);
  }

  doc(i: number): GrowthDoc {
    const rng = new Rng(docSeed(this.#seed, i));
    const words = (n: number) => Array.from({ length: n }, () => this.#ranked[this.#words.draw(rng)]!).join(' ');
    const title = words(3 + rng.int(4));
    const body = words(20 + rng.int(21));
    const category = this.categories[this.#categoryTable.draw(rng)]!;
    const price = Math.round(Math.exp(rng.next() * Math.log(2000)) * 100) / 100; // log-uniform 1..2000
    return { id: i + 1, title, body, category, price: Math.max(1, price) };
  }

  /** Documents 0..n-1 as NDJSON payloads of `perPayload` documents. */
  payloads(n: number, perPayload: number): Buffer[] {
    const out: Buffer[] = [];
    for (let start = 0; start < n; start += perPayload) {
      const lines: string[] = [];
      for (let i = start; i < Math.min(n, start + perPayload); i++) lines.push(JSON.stringify(this.doc(i)));
      out.push(Buffer.from(lines.join('\n') + '\n', 'utf8'));
    }
    return out;
  }

  /**
   * `count` queries drawn from documents 0..n-1, a quarter of each kind, shuffled: two consecutive
   * body words; a title word of 5+ letters with one typo; the first 3 letters of a title word of 4+;
   * a title word with a filter (its category, or a price bound above its price, alternately).
   */
  queries(n: number, count: number, seed: number): Array<Record<string, unknown>> {
    const rng = new Rng(seed);
    const out: Array<Record<string, unknown>> = [];
    for (let k = 0; out.length < count && k < count * 50; k++) {
      const d = this.doc(rng.int(n));
      const title = d.title.split(' ');
      const kind = out.length % 4;
      if (kind === 0) {
        const body = d.body.split(' ');
        const at = rng.int(body.length - 1);
        out.push({ q: `${body[at]} ${body[at + 1]}`, limit: 10 });
      } else if (kind === 1) {
        const long = title.filter((w) => w.length >= 5);
        if (long.length === 0) continue;
        out.push({ q: typo(rng.pick(long), rng), limit: 10 });
      } else if (kind === 2) {
        const long = title.filter((w) => w.length >= 4);
        if (long.length === 0) continue;
        out.push({ q: rng.pick(long).slice(0, 3), limit: 10 });
      } else {
        const filter = out.length % 8 === 3 ? `category = ${quote(d.category)}` : `price < ${Math.ceil(d.price * 2)}`;
        out.push({ q: rng.pick(title), limit: 10, filter });
      }
    }
    return rng.shuffle(out);
  }
}
