// Measures the word dictionary on the 275k English word list. Not a test.
//   node --import tsx bench/words.ts [path/to/words.txt]
// Default path: ../shared/datasets/words-english-275k/words.txt from the working directory.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WordSet, compareUtf8 } from '../src/engine/words/index.ts';
import type { FuzzyOptions } from '../src/engine/words/index.ts';

const file = process.argv[2] ?? resolve(process.cwd(), '../shared/datasets/words-english-275k/words.txt');
const text = readFileSync(file, 'utf8');
const words = text.split('\n').filter((w) => w.length > 0).sort(compareUtf8);

let seed = 0x2545f491;
function rand(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
}
const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
const letters = 'abcdefghijklmnopqrstuvwxyz';

/** One random edit: substitution, insertion, deletion or adjacent swap. */
function typo(w: string): string {
  for (;;) {
    const i = Math.floor(rand() * w.length);
    const op = Math.floor(rand() * 4);
    let out = w;
    if (op === 0) out = w.slice(0, i) + pick([...letters]) + w.slice(i + 1);
    else if (op === 1) out = w.slice(0, i) + pick([...letters]) + w.slice(i);
    else if (op === 2) out = w.slice(0, i) + w.slice(i + 1);
    else if (i + 1 < w.length) out = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    if (out !== w) return out;
  }
}

function stats(times: number[]): string {
  const s = [...times].sort((a, b) => a - b);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const f = (ms: number) => (ms * 1000).toFixed(1).padStart(7);
  return `mean ${f(mean)} µs  p50 ${f(q(0.5))}  p95 ${f(q(0.95))}  p99 ${f(q(0.99))}  max ${f(s[s.length - 1]!)}`;
}

// Build.
const buildTimes: number[] = [];
let set = WordSet.build(words);
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  set = WordSet.build(words);
  buildTimes.push(performance.now() - t0);
}
const bytes = set.toBytes();
console.log(`words            ${words.length} (${Buffer.byteLength(text)} bytes of text)`);
console.log(`build            ${Math.min(...buildTimes).toFixed(0)} ms (best of 3; ${buildTimes.map((t) => t.toFixed(0)).join(', ')})`);
console.log(`size             ${bytes.length} bytes = ${(bytes.length / words.length).toFixed(2)} bytes/word (address width ${bytes[5]})`);
const copy = new Uint8Array(bytes.length);
copy.set(bytes);
let t0 = performance.now();
set = WordSet.fromBytes(copy);
console.log(`fromBytes        ${((performance.now() - t0) * 1000).toFixed(1)} µs`);
if (set.size !== words.length) throw new Error('size mismatch');

// Exact lookups.
const present = Array.from({ length: 100_000 }, () => pick(words));
const absent = present.map((w) => w + 'q');
for (const list of [present, absent]) for (const w of list) set.has(w); // warm-up
for (const [name, list] of [['present', present], ['absent', absent]] as const) {
  let hits = 0;
  let bestNs = Infinity;
  for (let r = 0; r < 5; r++) {
    t0 = performance.now();
    for (const w of list) if (set.has(w)) hits++;
    bestNs = Math.min(bestNs, ((performance.now() - t0) * 1e6) / list.length);
  }
  console.log(`has (${name})`.padEnd(17) + `${bestNs.toFixed(0)} ns/op, best of 5 passes over 100k random words (${hits / 5} hits)`);
}

// Prefix enumeration, 10 words.
const prefixes = Array.from({ length: 2000 }, () => {
  const w = pick(words);
  return w.slice(0, Math.min(w.length, 2 + Math.floor(rand() * 3)));
});
const prefixTimes: number[] = [];
let enumerated = 0;
for (const pfx of prefixes) for (const _ of set.prefixed(pfx, 10)); // warm-up
for (const pfx of prefixes) {
  t0 = performance.now();
  for (const _ of set.prefixed(pfx, 10)) enumerated++;
  prefixTimes.push(performance.now() - t0);
}
console.log(`prefixed(p, 10)  ${stats(prefixTimes)}  (${(enumerated / prefixes.length).toFixed(1)} words/query, 2-4 char prefixes)`);

// Typo search.
const long5 = words.filter((w) => w.length >= 5);
const long9 = words.filter((w) => w.length >= 9);
const queries1 = Array.from({ length: 1000 }, () => {
  const w = pick(long5);
  return { original: w, query: typo(w) };
});
const queries2 = Array.from({ length: 1000 }, () => {
  const w = pick(long9);
  return { original: w, query: typo(typo(w)) };
});

const ROUNDS = 3;

/** Per query: the best of ROUNDS runs (filters out pauses and noisy neighbours); and one plain pass. */
function runFuzzy(label: string, qs: { original: string; query: string }[], opts: FuzzyOptions): void {
  for (const { query } of qs) for (const _ of set.fuzzy(query, opts)); // warm-up
  const best = qs.map(() => Infinity);
  let single: number[] = [];
  let results = 0;
  let found = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const times: number[] = [];
    qs.forEach(({ original, query }, k) => {
      const t = performance.now();
      const out = [...set.fuzzy(query, opts)];
      const dt = performance.now() - t;
      times.push(dt);
      if (dt < best[k]!) best[k] = dt;
      if (round === 0) {
        results += out.length;
        if (out.some((r) => r.word === original)) found++;
      }
    });
    if (round === 0) single = times;
  }
  console.log(label);
  console.log(`    best of ${ROUNDS}: ${stats(best)}`);
  console.log(`    one pass:  ${stats(single)}`);
  console.log(
    `    ${(results / qs.length).toFixed(1)} results/query, original word found for ${((100 * found) / qs.length).toFixed(1)}% of the queries`,
  );
}

console.log('fuzzy, 1000 queries each (random words >= 5 chars with 1 typo injected; >= 9 chars with 2 typos):');
runFuzzy('1 typo injected, maxTypos 1, first letter x2', queries1, { maxTypos: 1, firstLetterCounts2: true });
runFuzzy('1 typo injected, maxTypos 2, first letter x2', queries1, { maxTypos: 2, firstLetterCounts2: true });
runFuzzy('1 typo injected, maxTypos 1', queries1, { maxTypos: 1 });
runFuzzy('1 typo injected, maxTypos 2', queries1, { maxTypos: 2 });
runFuzzy('2 typos injected, maxTypos 2, first letter x2', queries2, { maxTypos: 2, firstLetterCounts2: true });
runFuzzy('2 typos injected, maxTypos 2', queries2, { maxTypos: 2 });
const prefixQueries = queries1.map(({ original, query }) => ({ original, query: query.slice(0, Math.max(5, query.length - 2)) }));
runFuzzy('prefix: maxTypos 1, first letter x2, limit 150', prefixQueries, {
  maxTypos: 1,
  prefix: true,
  firstLetterCounts2: true,
  limit: 150,
});
runFuzzy('prefix: maxTypos 2, first letter x2, limit 200', prefixQueries, {
  maxTypos: 2,
  prefix: true,
  firstLetterCounts2: true,
  limit: 200,
});

// Incremental merge.
const added = Array.from({ length: 1000 }, (_, i) => `zz${i}${pick(words)}`);
const removed = Array.from({ length: 1000 }, () => pick(words));
t0 = performance.now();
const merged = set.with(added, removed);
console.log(`with(+1000, -1000) ${(performance.now() - t0).toFixed(0)} ms -> ${merged.size} words`);
