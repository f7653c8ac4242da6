// Highlight, crop and match bounds of one text value (search.md §7.4–7.6), a port of milli's
// `Matcher` (`matches/mod.rs`, `best_match_interval.rs`): the same tokens, the same window
// growth and the same quirks, so `_formatted` strings come out as Meilisearch's.
import { originalPrefixEnd, type Segment, type Tokenizer } from '../../engine/tokenizer/index.ts';
import type { MatchingPhrase, MatchingWords, TermIds } from './matching-words.ts';

/** What to do with one value: highlight matches, crop to `crop` words (null or 0: no crop). */
export interface FormatOptions {
  highlight: boolean;
  crop: number | null;
}

/** Tags and crop marker of a query. */
export interface Markers {
  preTag: string;
  postTag: string;
  cropMarker: string;
}

/** One `_matchesPosition` entry: UTF-8 byte offsets in the original value. */
export interface MatchBounds {
  start: number;
  length: number;
  indices?: number[];
}

/** A match: one word token, or a phrase spanning several tokens (indices into `segments`). */
export interface TextMatch {
  ids: TermIds;
  firstToken: number;
  lastToken: number;
  firstWord: number;
  lastWord: number;
  /** Where the highlight ends: JS index and UTF-8 byte offset (a prefix match ends inside its word). */
  endChar: number;
  endByte: number;
}

/** A text, its tokens and what matched in it. */
export interface TextMatches {
  text: string;
  segments: Segment[];
  matches: TextMatch[];
}

/** Tokenizes `text` and finds the query's matches in it (milli `compute_matches`). */
export function findMatches(text: string, tokenizer: Tokenizer, words: MatchingWords): TextMatches {
  const segments = tokenizer.segments(text);
  const matches: TextMatch[] = [];
  if (words.isEmpty) return { text, segments, matches };
  // word tokens with their word position (every non-separator token counts)
  const wordTokens: number[] = [];
  for (let i = 0; i < segments.length; i++) if (segments[i]!.kind !== 'separator') wordTokens.push(i);
  let w = 0;
  while (w < wordTokens.length) {
    const t = wordTokens[w]!;
    const seg = segments[t]!;
    let next = w + 1;
    let found = false;
    for (const phrase of words.phrases) {
      const end = matchPhrase(phrase, segments, wordTokens, w);
      if (end === -1) continue;
      const last = segments[wordTokens[end]!]!;
      matches.push({
        ids: phrase.ids, firstToken: t, lastToken: wordTokens[end]!, firstWord: w, lastWord: end,
        endChar: last.charEnd, endByte: last.end,
      });
      next = end + 1;
      found = true;
      break;
    }
    if (!found) {
      const m = words.match({ word: seg.lemma, isStopWord: seg.kind === 'stopWord' });
      if (m !== null) {
        let endChar = seg.charEnd;
        let endByte = seg.end;
        if (m.highlightUnits !== undefined) {
          const e = originalPrefixEnd(text, seg, m.highlightUnits);
          endChar = e.charEnd;
          endByte = e.end;
        }
        matches.push({ ids: m.ids, firstToken: t, lastToken: t, firstWord: w, lastWord: w, endChar, endByte });
      }
    }
    w = next;
  }
  return { text, segments, matches };
}

/** Index (in `wordTokens`) of the last word of the phrase starting at `w`, or -1. */
function matchPhrase(phrase: MatchingPhrase, segments: Segment[], wordTokens: number[], w: number): number {
  const n = phrase.words.length;
  if (n === 0 || w + n > wordTokens.length) return -1;
  for (let k = 0; k < n; k++) {
    const seg = segments[wordTokens[w + k]!]!;
    const want = phrase.words[k];
    const ok = want === null || want === undefined ? seg.kind === 'stopWord' : seg.lemma === want;
    if (!ok) return -1;
  }
  return w + n - 1;
}

/** `_matchesPosition` entries of a value (`indices`: the array positions holding it, outermost first). */
export function matchBounds(found: TextMatches, arrayIndices: readonly number[] = []): MatchBounds[] {
  return found.matches.map((m) => {
    const start = found.segments[m.firstToken]!.start;
    const b: MatchBounds = { start, length: m.endByte - start };
    if (arrayIndices.length > 0) b.indices = [...arrayIndices];
    return b;
  });
}

/** The formatted value: crop window, then highlight tags around the matches inside it. */
export function formatText(found: TextMatches, options: FormatOptions, markers: Markers): string {
  const { text, segments, matches } = found;
  if (!options.highlight && options.crop === null) return text;
  const [cropStart, cropEnd] =
    options.crop !== null && options.crop > 0 ? cropBounds(found, options.crop) : [0, text.length];
  let out = '';
  if (cropStart > 0) out += markers.cropMarker;
  let index = cropStart;
  if (options.highlight) {
    for (const m of matches) {
      const mStart = segments[m.firstToken]!.charStart;
      const mEnd = segments[m.lastToken]!.charEnd;
      // milli keeps a match that only touches the window (an empty highlight results)
      if (mEnd < cropStart || mStart > cropEnd) continue;
      const start = Math.max(mStart, cropStart);
      const end = Math.min(mEnd, cropEnd);
      if (index < start) out += text.slice(index, start);
      const hlEnd = Math.max(start, Math.min(m.endChar, end));
      out += markers.preTag + text.slice(start, hlEnd) + markers.postTag;
      if (hlEnd < end) out += text.slice(hlEnd, end);
      index = end;
    }
  }
  if (index < cropEnd) out += text.slice(index, cropEnd);
  if (cropEnd < text.length) out += markers.cropMarker;
  return out;
}

/** The crop window `[start, end)` in JS indices (milli `crop_bounds`). */
export function cropBounds(found: TextMatches, cropSize: number): [number, number] {
  const { text, segments: tokens, matches } = found;
  let remaining = cropSize;
  let forward = true;
  let beforeStart = 0;
  let afterStart = 0;
  if (matches.length > 0) {
    const [first, last] = bestMatchInterval(matches, cropSize);
    const size = last.lastWord - first.firstWord + 1;
    forward = cropSize >= size;
    remaining = forward ? cropSize - size : size - cropSize;
    afterStart = Math.min(last.lastToken + 1, tokens.length);
    beforeStart = forward ? first.firstToken : 0;
  }
  // `before` walks left from the first match; `after` walks right from the last match, or
  // (a match longer than the window) left from it, dropping its extra words
  let b = beforeStart - 1;
  let a = forward ? afterStart : Math.min(afterStart, tokens.length - 1);
  const step = forward ? 1 : -1;
  const has = (i: number) => i >= 0 && i < tokens.length;
  const isWord = (i: number) => tokens[i]!.kind !== 'separator';
  while (remaining > 0) {
    const before = has(b);
    const after = has(a);
    if (before && after) {
      const bw = isWord(b);
      const aw = isWord(a);
      if (!bw && !aw) {
        const bh = tokens[b]!.hard;
        if (bh === tokens[a]!.hard) {
          b--;
          // this avoids an ending separator before the crop marker
          if (remaining > 1) a += step;
        } else if (bh) a += step;
        else b--;
      } else if (bw && !aw) {
        b--;
        remaining--;
      } else if (!bw && aw) {
        a += step;
        remaining--;
      } else {
        b--;
        remaining--;
        if (remaining > 0) {
          a += step;
          remaining--;
        }
      }
    } else if (before) {
      if (isWord(b)) remaining--;
      b--;
    } else if (after) {
      if (isWord(a)) remaining--;
      a += step;
    } else break;
  }
  const start = has(b) ? tokens[b]!.charEnd : 0;
  const end = has(a) ? tokens[a]!.charStart : text.length;
  return [start, end];
}

/** The first and last match of the best interval fitting in `cropSize` words (milli `find_best_match_interval`). */
export function bestMatchInterval(matches: readonly TextMatch[], cropSize: number): [TextMatch, TextMatch] {
  let best: { first: number; last: number; score: number[] } | null = null;
  const save = (first: number, last: number) => {
    const score = intervalScore(matches.slice(first, last + 1));
    if (best === null || greater(score, best.score)) best = { first, last, score };
  };
  let first = 0;
  let firstWordPos = matches[0]!.firstWord;
  for (let index = 0; index < matches.length; index++) {
    const nextLast = matches[index]!.lastWord;
    if (nextLast - firstWordPos >= cropSize) {
      if (index !== 0) save(first, index - 1);
      for (;;) {
        first++;
        if (first === matches.length) {
          first--;
          break;
        }
        firstWordPos = matches[first]!.firstWord;
        if (firstWordPos > nextLast || nextLast - firstWordPos < cropSize) break;
      }
    }
  }
  const last = matches.length - 1;
  const m = matches[first]!;
  if (first !== last || m.lastWord - m.firstWord + 1 < cropSize) save(first, last);
  const chosen = best as { first: number; last: number } | null;
  return chosen === null ? [matches[0]!, matches[0]!] : [matches[chosen.first]!, matches[chosen.last]!];
}

/** [distinct query positions, −(gaps capped at 7), ordered pairs]; phrases count as ordered, adjacent words. */
function intervalScore(matches: readonly TextMatch[]): number[] {
  const ids = new Set<number>();
  let order = 0;
  let distance = 0;
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i]!;
    const inner = m.lastWord - m.firstWord;
    order += inner;
    distance -= inner;
    const next = matches[i + 1];
    if (next !== undefined) {
      if (next.ids[0] > m.ids[0]) order++;
      distance -= Math.min(next.firstWord - m.lastWord, 7);
    }
    for (let id = m.ids[0]; id <= m.ids[1]; id++) ids.add(id);
  }
  return [ids.size, distance, order];
}

function greater(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}
