// Word segmentation of scripts written without spaces (Chinese, Japanese, Thai, Khmer).
//
// Charabia uses jieba (Chinese), lindera/UniDic (Japanese) and FST dictionaries (Thai, Khmer);
// we use ICU's dictionaries through `Intl.Segmenter`. Both are dictionary-based, so most words
// come out the same, but not all (charabia's Thai dictionary keeps "ภาษาไทย" whole, ICU
// splits it in two). Index and query go through the same code, so matching stays consistent.
//
// Intl.Segmenter is slow (~1M words/s) and quadratic on long strings in Node 20, so it only sees
// runs between separators, cut into windows of WINDOW code units; the last piece of a window is
// re-segmented with the next window so that no word is cut at a window edge.

const WINDOW = 64;
const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (s === undefined) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, s);
  }
  return s;
}

// All characters numeric or ASCII punctuation: charabia never segments such runs further.
const NUMBER_LIKE = /^[\p{N}!-/:-@[-`{-~]+$/u;

/** True if charabia keeps this run whole instead of calling its dictionary segmenter. */
export function isNumberLike(run: string): boolean {
  return NUMBER_LIKE.test(run);
}

/**
 * Word boundaries of text[start, end) for `locale` ('zh', 'ja', 'th', 'km'):
 * pushes the end offset of every piece to `ends` (the last one is `end`).
 */
export function segmentRun(text: string, start: number, end: number, locale: string, ends: number[]): void {
  const segmenter = segmenterFor(locale);
  let from = start;
  while (from < end) {
    let to = Math.min(end, from + WINDOW);
    const unit = text.charCodeAt(to - 1);
    if (to < end && unit >= 0xd800 && unit <= 0xdbff) to--; // never cut a surrogate pair
    const last = to === end;
    let pieceStart = from;
    let pieces = 0;
    for (const piece of segmenter.segment(text.slice(from, to))) {
      const pStart = from + piece.index;
      if (pStart === from) continue;
      ends.push(pStart);
      pieceStart = pStart;
      pieces++;
    }
    if (last || pieces === 0) {
      ends.push(to); // one piece filling a whole window is cut there (a 64-unit "word")
      from = to;
    } else {
      from = pieceStart; // its start is already pushed as the end of the piece before it
    }
  }
}
