// Property test on real words: the typo walk against a brute-force restricted Damerau-Levenshtein
// oracle over a plain word list, for a few thousand random queries and every option set.
// Words: a sample of the English word list and of the GeoNames city-name words (non-ASCII:
// accents, Turkish, Cyrillic, CJK...). Skipped when the shared datasets are not there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WordSet, compareUtf8 } from './index.ts';
import type { FuzzyMatch, FuzzyOptions } from './fuzzy.ts';
import { BIT_PARALLEL_MAX } from './fuzzy.ts';
import { codePoints } from './utf8.ts';
import { missingDatasets, sharedDatasetPath } from '../../../test/fixtures/paths.ts';

const ENGLISH = sharedDatasetPath('words-english-275k/words.txt');
const CITIES = sharedDatasetPath('geo-cities-geonames-135k/cities.ndjson');

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

function sample<T>(r: () => number, list: T[], n: number): T[] {
  const a = list.slice();
  for (let i = 0; i < n && i < a.length; i++) {
    const k = i + Math.floor(r() * (a.length - i));
    [a[i], a[k]] = [a[k]!, a[i]!];
  }
  return a.slice(0, n);
}

/**
 * OSA distances of q to each word of `cps` (sorted), as whole * 4 + prefix: to the whole word and
 * to its closest prefix, each capped at 3. The DP table is computed column by column over the
 * characters of the word; a word reuses the columns of the previous word up to their common
 * prefix (the same columns, computed once), and stops at the first column whose every cell
 * exceeds 2 (the column minimum never decreases, so no longer prefix, nor the whole word, is
 * then within 2).
 */
function oracle(q: Int32Array, cps: Int32Array[], maxLen: number, out: Int32Array): void {
  const m = q.length;
  const R = m + 1;
  const cols = new Int32Array((maxLen + 1) * R);
  const pmin = new Int32Array(maxLen + 1); // min over j' <= j of D[m][j']
  for (let i = 0; i <= m; i++) cols[i] = i;
  pmin[0] = m;
  let prev: Int32Array = new Int32Array(0);
  let computed = 0; // columns 0..computed hold the table of `prev`
  let dead = Infinity; // first column of `prev` whose cells all exceed 2
  for (let k = 0; k < cps.length; k++) {
    const w = cps[k]!;
    const n = w.length;
    let L = 0;
    const lim = Math.min(computed, n);
    while (L < lim && prev[L] === w[L]) L++;
    prev = w;
    if (dead <= L) {
      computed = L;
      out[k] = 3 * 4 + Math.min(pmin[dead - 1]!, 3);
      continue;
    }
    dead = Infinity;
    let j = L + 1;
    for (; j <= n; j++) {
      const c = j * R;
      const p = c - R;
      const pp = p - R;
      const wc = w[j - 1]!;
      const wp = j > 1 ? w[j - 2]! : -1;
      cols[c] = j;
      let min = j;
      for (let i = 1; i <= m; i++) {
        const qc = q[i - 1]!;
        let v = cols[p + i - 1]! + (qc === wc ? 0 : 1);
        const del = cols[p + i]! + 1;
        if (del < v) v = del;
        const ins = cols[c + i - 1]! + 1;
        if (ins < v) v = ins;
        if (i > 1 && qc === wp && q[i - 2] === wc) {
          const tr = cols[pp + i - 2]! + 1;
          if (tr < v) v = tr;
        }
        cols[c + i] = v;
        if (v < min) min = v;
      }
      pmin[j] = Math.min(pmin[j - 1]!, cols[c + m]!);
      if (min > 2) {
        dead = j;
        break;
      }
    }
    computed = Math.min(j, n);
    out[k] = dead <= n ? 3 * 4 + Math.min(pmin[dead - 1]!, 3) : Math.min(cols[n * R + m]!, 3) * 4 + Math.min(pmin[n]!, 3);
  }
}

const OPTION_SETS: FuzzyOptions[] = [];
for (const maxTypos of [0, 1, 2] as const) {
  for (const prefix of [false, true]) {
    for (const firstLetterCounts2 of [false, true]) OPTION_SETS.push({ maxTypos, prefix, firstLetterCounts2 });
  }
}

test('typo walk equals a brute-force oracle on real words (English + city names), 2,000 random queries', {
  skip: missingDatasets('words-english-275k/words.txt', 'geo-cities-geonames-135k/cities.ndjson'),
}, () => {
  const r = rng(0x5eed);
  const english = readFileSync(ENGLISH, 'utf8').split('\n').filter((x) => x.length > 0);
  const cityWords = new Set<string>();
  for (const line of readFileSync(CITIES, 'utf8').split('\n')) {
    if (line.length === 0) continue;
    const name = (JSON.parse(line) as { name: string }).name.toLowerCase();
    for (const x of name.split(/[^\p{L}\p{M}\p{N}]+/u)) if (x.length > 0) cityWords.add(x.normalize('NFC'));
  }
  const words = [...new Set([...sample(r, english, 6_000), ...sample(r, [...cityWords], 3_000)])].sort(compareUtf8);
  const set = WordSet.build(words);
  const cps = words.map((x) => codePoints(x));
  const pool = [...new Set(words.flatMap((x) => [...x]))];

  const edit = (x: string): string => {
    const cs = [...x];
    const i = Math.floor(r() * (cs.length + 1));
    const c = r() < 0.7 ? 'abcdefghijklmnopqrstuvwxyz'[Math.floor(r() * 26)]! : pool[Math.floor(r() * pool.length)]!;
    const op = Math.floor(r() * 4);
    if (op === 0 && i < cs.length) cs[i] = c;
    else if (op === 1) cs.splice(i, 0, c);
    else if (op === 2 && i < cs.length) cs.splice(i, 1);
    else if (i + 1 < cs.length) [cs[i], cs[i + 1]] = [cs[i + 1]!, cs[i]!];
    return cs.join('');
  };
  const pick = (list: string[]) => list[Math.floor(r() * list.length)]!;
  const queries: string[] = [];
  while (queries.length < 2000) {
    const kind = r();
    let x: string;
    if (kind < 0.6) x = pick(words);
    else if (kind < 0.7) x = pick(english);
    else if (kind < 0.8) x = [...pick(words)].slice(0, 3 + Math.floor(r() * 5)).join('');
    else if (kind < 0.9) x = pick(words) + pick(words) + pick(words) + (r() < 0.7 ? pick(words) : '');
    else x = Array.from({ length: 3 + Math.floor(r() * 6) }, () => pick(pool)).join('');
    const edits = Math.floor(r() * 3);
    for (let e = 0; e < edits; e++) x = edit(x);
    // Queries of one or two characters match most words under 2 typos in prefix mode (the
    // synthetic test in fuzzy.test.ts covers them).
    if ([...x].length >= 3) queries.push(x);
  }

  const maxLen = Math.max(...cps.map((w) => w.length));
  const dists = new Int32Array(words.length);
  let compared = 0;
  let long = 0;
  for (const query of queries) {
    const q = codePoints(query);
    if (q.length > BIT_PARALLEL_MAX) long++;
    const want: FuzzyMatch[][] = OPTION_SETS.map(() => []);
    oracle(q, cps, maxLen, dists);
    for (let k = 0; k < words.length; k++) {
      const o = dists[k]!;
      if (o === 15) continue; // both over 2
      const w = cps[k]!;
      const whole = o >> 2;
      const prefix = o & 3;
      const firstDiffers = w.length === 0 ? q.length > 0 : q.length === 0 || w[0] !== q[0];
      for (let s = 0; s < OPTION_SETS.length; s++) {
        const opts = OPTION_SETS[s]!;
        const cost = (opts.prefix ? prefix : whole) + (opts.firstLetterCounts2 && firstDiffers ? 1 : 0);
        if (cost <= opts.maxTypos) want[s]!.push({ word: words[k]!, typos: cost });
      }
    }
    OPTION_SETS.forEach((opts, s) => {
      const got = [...set.fuzzy(query, opts)];
      assert.deepEqual(got, want[s], `${JSON.stringify(query)} ${JSON.stringify(opts)}`);
      compared += got.length;
      if (want[s]!.length > 3) {
        // A limit returns the first results, and stopping early is fine.
        const limit = 1 + Math.floor(r() * (want[s]!.length - 1));
        assert.deepEqual([...set.fuzzy(query, { ...opts, limit })], want[s]!.slice(0, limit));
      }
    });
  }
  assert.ok(compared > 20_000, `only ${compared} matches compared: the test is too weak`);
  assert.ok(long > 20, `only ${long} queries over ${BIT_PARALLEL_MAX} characters`);
});
