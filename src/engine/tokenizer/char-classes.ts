// The scanner's lookup tables for one tokenizer configuration.
//
// Charabia splits each script group on separator and dictionary strings with a leftmost-longest
// Aho-Corasick automaton, then classifies each piece by its NFKD form. Here:
//   • `cls[unit]` gives the class of every UTF-16 code unit; one-character separators whose
//     class does not depend on context are resolved in the table (the fast path);
//   • a unit that starts a longer pattern (". ", ", ", a custom separator, a dictionary word,
//     an astral separator) or whose separator has an unusual classification ("…" classifies as
//     the word "...", a separator that is also a stop word) is C_PATTERN: the scanner walks
//     the trie from there and takes the longest match (leftmost-longest, position by position),
//     falling back to `base[unit]` when nothing matches.

import { DEFAULT_SEPARATORS, HARD_SEPARATORS } from './separators.ts';
import { classifyForm } from './normalize.ts';
import { LANG_NONE } from './locales.ts';
import * as sc from './scripts.ts';

// imported bindings are getters once compiled: read them once (`match` is on the hot path)
const OTHER = sc.OTHER;
const SCRIPT_OF_UNIT = sc.SCRIPT_OF_UNIT;

export const C_ASCII_OTHER = 0; // ASCII digit or $ < = > ^ | ~: word character, script Other
export const C_LOWER = 1; // a-z
export const C_UPPER = 2; // A-Z
export const C_SLOW = 3; // any other word character (non-ASCII, ASCII control): full normalisation
export const C_SOFT = 4;
export const C_HARD = 5;
export const C_PATTERN = 6;
export const C_HIGH = 7; // high surrogate of a character that is not a separator

/** How a matched string is classified (charabia `Classifier`). */
export const K_WORD = 0;
export const K_STOP = 1;
export const K_SOFT = 2;
export const K_HARD = 3;

export interface PatternInfo {
  readonly kind: number;
  /** NFKD form without control characters: the lemma of separators, the input of words. */
  readonly form: string;
}

interface TrieNode {
  next: Map<number, TrieNode> | null;
  info: PatternInfo | null;
}

export interface TableConfig {
  readonly separatorTokens?: readonly string[] | undefined;
  readonly nonSeparatorTokens?: readonly string[] | undefined;
  readonly dictionary?: readonly string[] | undefined;
  /** Stop words, NFKD. */
  readonly stopWords: ReadonlySet<string>;
}

/** Effective separators: (default ∪ separatorTokens) − nonSeparatorTokens (settings.md §6.7). */
export function effectiveSeparators(config: TableConfig): readonly string[] {
  if (!config.separatorTokens?.length && !config.nonSeparatorTokens?.length) return DEFAULT_SEPARATORS;
  const set = new Set([...DEFAULT_SEPARATORS, ...(config.separatorTokens ?? [])]);
  for (const t of config.nonSeparatorTokens ?? []) set.delete(t);
  set.delete('');
  return [...set];
}

export class CharClasses {
  readonly cls = new Uint8Array(0x10000);
  readonly base = new Uint8Array(0x10000);
  /** Forms classified as separators (the effective list). */
  readonly separatorSet: ReadonlySet<string>;
  /** Longest separator in code units: longer word forms cannot be separators. */
  readonly maxSeparatorLength: number;
  private readonly root: TrieNode = { next: new Map(), info: null };

  // result of the last successful `match`
  matchLength = 0;
  matchInfo: PatternInfo | null = null;
  matchScript = OTHER;

  constructor(config: TableConfig) {
    const separators = effectiveSeparators(config);
    this.separatorSet = new Set(separators);
    this.maxSeparatorLength = separators.reduce((m, s) => Math.max(m, s.length), 0);
    this.fillWordClasses();
    const patterns = new Set([...separators, ...(config.dictionary ?? [])]);
    patterns.delete('');
    const prefixes = new Set<number>();
    for (const p of patterns) if (p.length > 1) prefixes.add(p.charCodeAt(0));
    for (const p of patterns) {
      const info = this.classify(p, config.stopWords);
      const unit = p.charCodeAt(0);
      const simple = p.length === 1 && !prefixes.has(unit) && (info.kind === K_SOFT || info.kind === K_HARD);
      if (simple) {
        const c = info.kind === K_HARD ? C_HARD : C_SOFT;
        this.cls[unit] = c;
        this.base[unit] = c;
        continue;
      }
      this.insert(p, info);
      if (p.length === 1 && (info.kind === K_SOFT || info.kind === K_HARD)) {
        this.base[unit] = info.kind === K_HARD ? C_HARD : C_SOFT;
      }
      this.cls[unit] = C_PATTERN;
    }
  }

  private fillWordClasses(): void {
    const { cls, base } = this;
    for (let u = 0; u < 0x10000; u++) {
      let c = C_SLOW;
      if (u >= 0x61 && u <= 0x7a) c = C_LOWER;
      else if (u >= 0x41 && u <= 0x5a) c = C_UPPER;
      else if (u >= 0x20 && u < 0x7f) c = C_ASCII_OTHER;
      else if (u >= 0xd800 && u <= 0xdbff) c = C_HIGH;
      cls[u] = c;
      base[u] = c;
    }
  }

  private classify(pattern: string, stopWords: ReadonlySet<string>): PatternInfo {
    const form = classifyForm(pattern, LANG_NONE);
    let kind = K_WORD;
    if (stopWords.has(form)) kind = K_STOP;
    else if (this.separatorSet.has(form)) kind = HARD_SEPARATORS.has(form) ? K_HARD : K_SOFT;
    return { kind, form };
  }

  private insert(pattern: string, info: PatternInfo): void {
    let node = this.root;
    for (let i = 0; i < pattern.length; i++) {
      const u = pattern.charCodeAt(i);
      node.next ??= new Map();
      let child = node.next.get(u);
      if (child === undefined) {
        child = { next: null, info: null };
        node.next.set(u, child);
      }
      node = child;
    }
    node.info = info;
  }

  /**
   * Longest pattern starting at `text[i]` that stays inside one script group (charabia matches
   * within a group; a group starts where a second non-Other script appears). On success sets
   * matchLength, matchInfo and matchScript (the group's script after the match).
   */
  match(text: string, i: number, groupScript: number): boolean {
    let node: TrieNode | undefined = this.root;
    let script = groupScript;
    let best = 0;
    let bestInfo: PatternInfo | null = null;
    let bestScript = groupScript;
    for (let j = i; j < text.length; j++) {
      const u = text.charCodeAt(j);
      const s = SCRIPT_OF_UNIT[u]!;
      if (s !== OTHER && s !== script) {
        if (script !== OTHER && j !== i) break;
        script = s;
      }
      node = node.next?.get(u);
      if (node === undefined) break;
      if (node.info !== null) {
        best = j - i + 1;
        bestInfo = node.info;
        bestScript = script;
      }
    }
    if (bestInfo === null) return false;
    this.matchLength = best;
    this.matchInfo = bestInfo;
    this.matchScript = bestScript;
    return true;
  }
}

const cache = new Map<string, CharClasses>();
let defaultForms: ReadonlySet<string> | null = null;

function patternForms(separators: readonly string[], dictionary: readonly string[]): ReadonlySet<string> {
  if (separators === DEFAULT_SEPARATORS && dictionary.length === 0) {
    defaultForms ??= new Set(DEFAULT_SEPARATORS.map((p) => classifyForm(p, LANG_NONE)));
    return defaultForms;
  }
  return new Set([...separators, ...dictionary].map((p) => classifyForm(p, LANG_NONE)));
}

/** Tables for a configuration, shared between tokenizers with the same one. */
export function charClassesFor(config: TableConfig): CharClasses {
  const separators = effectiveSeparators(config);
  const dictionary = config.dictionary ?? [];
  // stop words only matter here when a separator or dictionary string is one of them
  let relevantStops: string[] = [];
  if (config.stopWords.size > 0) {
    const forms = patternForms(separators, dictionary);
    relevantStops = [...config.stopWords].filter((w) => forms.has(w)).sort();
  }
  const key = JSON.stringify([
    separators === DEFAULT_SEPARATORS ? null : [...separators].sort(),
    [...dictionary].sort(),
    relevantStops,
  ]);
  let tables = cache.get(key);
  if (tables === undefined) {
    tables = new CharClasses({ ...config, stopWords: new Set(relevantStops) });
    if (cache.size >= 64) cache.clear();
    cache.set(key, tables);
  }
  return tables;
}
