// Text helpers shared by the search workloads: NDJSON reading, the tokenizer the in-process
// peers share, a seeded PRNG, and typo / prefix injection for generated queries.
import fs from 'node:fs';

export type Doc = Record<string, unknown>;

export function readNdjson(file: string): Doc[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Doc);
}

/** Lower case, diacritics removed (NFD, combining marks dropped): "Lòria" -> "loria". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const SPLIT = /[^\p{L}\p{N}]+/u;

/** Splits on anything that is not a letter or a digit (Unicode-aware), folds every token. */
export function tokenize(text: string): string[] {
  return fold(text).split(SPLIT).filter((t) => t !== '');
}

/** A string for a field value: arrays are joined with spaces, numbers stringified, objects dropped. */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(fieldText).filter((s) => s !== '').join(' ');
  return '';
}

/** mulberry32: small, fast, seeded; the same seed gives the same query set on every machine. */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * One edit at a random position, never on the first letter (as most real typos, and so that a
 * prefix index still has a chance): substitution, deletion, insertion or transposition of
 * neighbours, chosen uniformly. Words shorter than 3 characters are returned unchanged.
 */
export function typo(word: string, rng: Rng): string {
  const chars = [...word];
  if (chars.length < 3) return word;
  const at = 1 + rng.int(chars.length - 1);
  switch (rng.int(4)) {
    case 0: {
      let c = rng.pick([...LETTERS]);
      while (c === chars[at]) c = rng.pick([...LETTERS]);
      chars[at] = c;
      break;
    }
    case 1:
      chars.splice(at, 1);
      break;
    case 2:
      chars.splice(at, 0, rng.pick([...LETTERS]));
      break;
    default: {
      const j = at === chars.length - 1 ? at - 1 : at;
      if (chars[j] === chars[j + 1]) chars[j + 1] = chars[j + 1] === 'e' ? 'a' : 'e';
      else [chars[j], chars[j + 1]] = [chars[j + 1]!, chars[j]!];
    }
  }
  return chars.join('');
}

/** The first ceil(60%) characters of a word, at least 3 (or the whole word when shorter). */
export function prefixOf(word: string): string {
  const chars = [...word];
  if (chars.length <= 3) return word;
  return chars.slice(0, Math.max(3, Math.ceil(chars.length * 0.6))).join('');
}

/** A small English + Italian stop list for choosing query words (not used by any engine). */
export const STOP_WORDS = new Set(
  ('a an and are as at be but by for from has have he her his i in is it its not of on or our she that the their them ' +
    'they this to was we were will with you your can all any been do does had if into more no so than then there ' +
    'these those what when which who why would could should about also just out up one two new get got like ' +
    'e il la le lo li gli di da del che non per con si se un una mi ma ne ch al io tu sua suo piu').split(' '),
);
