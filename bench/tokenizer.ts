// Throughput of Tokenizer.tokenize on the shared text datasets (not run by `npm test`):
//   node --import tsx bench/tokenizer.ts
// Prints words/s and MB/s per dataset (best of several rounds, after a warm-up), next to a bare
// regex word count on the same texts: the machine is shared, so compare the two lines.

import { readFileSync } from 'node:fs';
import { Tokenizer } from '../src/engine/tokenizer/index.ts';

const DATASETS = new URL('../../shared/datasets/', import.meta.url);

function load(file: string, field: string): string[] {
  return readFileSync(new URL(file, DATASETS), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => String((JSON.parse(line) as Record<string, unknown>)[field]));
}

function measure(name: string, texts: readonly string[], tokenizer: Tokenizer, rounds = 5): void {
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  let words = 0;
  for (const t of texts) words += tokenizer.tokenize(t).length; // warm-up
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (const t of texts) tokenizer.tokenize(t);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    best = Math.min(best, ms);
  }
  const wps = (words / best) * 1000;
  console.log(`${name}: ${words} words, ${(bytes / 1e6).toFixed(1)} MB, best ${best.toFixed(1)} ms → ` +
    `${(wps / 1e6).toFixed(2)}M words/s, ${(bytes / 1e6 / (best / 1000)).toFixed(0)} MB/s`);
}

function regexBaseline(name: string, texts: readonly string[], rounds = 5): void {
  const word = /[\p{L}\p{N}]+/gu;
  let best = Infinity;
  let words = 0;
  for (let r = 0; r <= rounds; r++) {
    const t0 = process.hrtime.bigint();
    words = 0;
    for (const t of texts) {
      word.lastIndex = 0;
      while (word.test(t)) words++;
    }
    if (r > 0) best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(`${name}: regex baseline (count only) ${((words / best) * 1000 / 1e6).toFixed(2)}M words/s`);
}

const plain = new Tokenizer();
const sotu = load('text-sotu-233/sotu.ndjson', 'text');
const divina = load('text-divina-commedia-14k/lines.ndjson', 'txt');
regexBaseline('text-sotu-233', sotu);
measure('text-sotu-233 (text)', sotu, plain);
measure('text-divina-commedia-14k (txt)', divina, plain);
const stopWords = new Set(['the', 'of', 'and', 'to', 'in', 'a', 'che', 'e', 'di', 'la']);
measure('text-sotu-233 with 10 stop words', sotu, new Tokenizer({ stopWords }));
