// Measures the word dictionary on the 275k English word list, then typo search on the word set
// of the 135k GeoNames city names. Not a test.
//   node --import tsx bench/words.ts [path/to/words.txt] [path/to/cities.ndjson] [--cities-only]
// Default paths: ../shared/datasets/words-english-275k/words.txt and
// ../shared/datasets/geo-cities-geonames-135k/cities.ndjson from the working directory.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Tokenizer } from '../src/engine/tokenizer/index.ts';
import { WordSet, compareUtf8, wordSetOf } from '../src/engine/words/index.ts';
import type { FuzzyOptions } from '../src/engine/words/index.ts';

const args = process.argv.slice(2);
if (args[0] === '--fresh-process') {
  freshProcess(args[1]!, Number(args[2]));
  process.exit(0);
}
const positional = args.filter((a) => !a.startsWith('--'));
const citiesFile = positional[1] ?? resolve(process.cwd(), '../shared/datasets/geo-cities-geonames-135k/cities.ndjson');
if (args.includes('--cities-only')) {
  cities(citiesFile);
  process.exit(0);
}

const file = positional[0] ?? resolve(process.cwd(), '../shared/datasets/words-english-275k/words.txt');
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

if (existsSync(citiesFile)) cities(citiesFile);

// Typo search on the word set of the GeoNames city names (what search-cities derives typos from):
// the walks derive.ts was slow on, fully iterated, warm and in fresh processes; then a stream of
// derive-like queries (the word's typo budget by length, a quarter of them prefixes, iterated
// until 150 one-typo and 50 two-typo words or the end).

function named(): [string, FuzzyOptions][] {
  return [
    ['castleknock', { maxTypos: 2, prefix: false, firstLetterCounts2: true }],
    ['pedernales', { maxTypos: 2, prefix: false, firstLetterCounts2: true }],
    ['periş', { maxTypos: 1, prefix: true, firstLetterCounts2: true }],
  ];
}

function describe(q: string, o: FuzzyOptions): string {
  return `${q}, ${o.maxTypos} typo${o.maxTypos === 1 ? '' : 's'}${o.prefix ? ', prefix' : ''}`;
}

/** Iterates like derive.ts: stops at 150 one-typo and 50 two-typo words. */
function deriveLike(set: WordSet, q: string, o: FuzzyOptions): number {
  const twoCap = o.maxTypos === 2 ? 50 : 0;
  let one = 0;
  let two = 0;
  let n = 0;
  for (const m of set.fuzzy(q, o)) {
    if (one >= 150 && two >= twoCap) break;
    n++;
    if (m.typos === 1 && one < 150) one++;
    else if (m.typos === 2 && two < twoCap) two++;
  }
  return n;
}

/** Child mode: one named walk, three times, in a fresh process; prints the times (ms) as JSON. */
function freshProcess(bytesFile: string, which: number): void {
  const set = WordSet.fromBytes(new Uint8Array(readFileSync(bytesFile)));
  const [q, o] = named()[which]!;
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    for (const _ of set.fuzzy(q, o));
    times.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify(times));
}

function cities(path: string): void {
  const t0 = performance.now();
  const tokenizer = new Tokenizer();
  const distinct = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.length === 0) continue;
    const name = (JSON.parse(line) as { name?: unknown }).name;
    if (typeof name !== 'string') continue;
    for (const t of tokenizer.tokenize(name)) if (!t.isStopWord && t.word.length > 0) distinct.add(t.word);
  }
  const set = wordSetOf(distinct);
  console.log(`cities word set  ${set.size} words from the names of ${path.split('/').slice(-2).join('/')} (${((performance.now() - t0) / 1000).toFixed(1)} s to tokenize and build)`);

  // Fresh processes: the first calls run in V8's interpreter and baseline tiers.
  const CHILDREN = 5;
  const dir = mkdtempSync(join(tmpdir(), 'muninn-words-'));
  const bytesFile = join(dir, 'cities.words');
  writeFileSync(bytesFile, set.toBytes());
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  const ms = (x: number) => x.toFixed(2).padStart(6);
  console.log(`fuzzy, fully iterated, in ${CHILDREN} fresh processes each (median ms of the 1st / 2nd / 3rd call):`);
  named().forEach(([q, o], k) => {
    const runs: number[][] = [];
    for (let c = 0; c < CHILDREN; c++) {
      const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--fresh-process', bytesFile, String(k)], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`fresh process failed: ${r.stderr}`);
      runs.push(JSON.parse(r.stdout) as number[]);
    }
    const calls = [0, 1, 2].map((i) => median(runs.map((x) => x[i]!)));
    console.log(`    ${describe(q, o).padEnd(28)} ${calls.map(ms).join(' /')}`);
  });
  rmSync(dir, { recursive: true, force: true });

  // Warm.
  console.log('fuzzy, fully iterated, warm (1000 runs after 300):');
  for (const [q, o] of named()) {
    for (let r = 0; r < 300; r++) for (const _ of set.fuzzy(q, o));
    const times: number[] = [];
    let results = 0;
    for (let r = 0; r < 1000; r++) {
      const t = performance.now();
      results = 0;
      for (const _ of set.fuzzy(q, o)) results++;
      times.push(performance.now() - t);
    }
    console.log(`    ${describe(q, o).padEnd(28)} ${stats(times)}  (${results} results)`);
  }

  // A stream of derive-like queries: city-name words with 0 to 2 typos injected.
  let s = 0x1b873593;
  const rnd = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
  const list = [...distinct].filter((w) => [...w].length >= 5);
  const queries: { q: string; o: FuzzyOptions }[] = [];
  while (queries.length < 1000) {
    let cs = [...list[Math.floor(rnd() * list.length)]!];
    const edits = Math.floor(rnd() * 3);
    for (let e = 0; e < edits; e++) {
      const i = Math.floor(rnd() * cs.length);
      const c = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rnd() * 26)]!;
      const op = Math.floor(rnd() * 4);
      if (op === 0) cs[i] = c;
      else if (op === 1) cs.splice(i, 0, c);
      else if (op === 2 && cs.length > 1) cs.splice(i, 1);
      else if (i + 1 < cs.length) [cs[i], cs[i + 1]] = [cs[i + 1]!, cs[i]!];
    }
    const prefix = rnd() < 0.25;
    if (prefix && cs.length > 5) cs = cs.slice(0, cs.length - Math.floor(rnd() * 3));
    const len = cs.length;
    if (len < 5) continue;
    queries.push({ q: cs.join(''), o: { maxTypos: len >= 9 ? 2 : 1, prefix, firstLetterCounts2: true } });
  }
  const best = queries.map(() => Infinity);
  let first: number[] = [];
  for (let round = 0; round < 3; round++) {
    const times = queries.map(({ q, o }, k) => {
      const t = performance.now();
      deriveLike(set, q, o);
      const dt = performance.now() - t;
      if (dt < best[k]!) best[k] = dt;
      return dt;
    });
    if (round === 0) first = times;
  }
  console.log(`derive-like stream, 1000 city words with 0-2 typos (typo budget by length, 25% prefix):`);
  console.log(`    one pass:  ${stats(first)}`);
  console.log(`    best of 3: ${stats(best)}`);
}
