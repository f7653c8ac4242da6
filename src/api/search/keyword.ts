// What a keyword search needs from the index settings (query configuration, field weights,
// `attributesToSearchOn`), and the `_rankingScoreDetails` of its rule ranks (relevancy.md §8).
import type { KeywordSetup, RuleScore } from '../../engine/search/rank/index.ts';
import { Tokenizer } from '../../engine/tokenizer/index.ts';
import { formatRustFloat } from '../../engine/filter/parser/index.ts';
import { ApiError } from '../errors/index.ts';
import { isFacetedBy, matchPattern, type Settings } from '../settings/index.ts';

/** The keyword search configuration of an index's settings; `fields` in field-id order. */
export function keywordSetup(s: Settings, fields: readonly string[]): KeywordSetup {
  const stopWords = new Set(s.stopWords);
  const base = { separatorTokens: s.separatorTokens, nonSeparatorTokens: s.nonSeparatorTokens, dictionary: s.dictionary };
  const tokenizer = new Tokenizer({ ...base, stopWords });
  const plain = new Tokenizer(base);
  const normalise = (text: string) => plain.tokenize(text).map((t) => t.word);
  const synonyms = new Map<string, string[][]>();
  for (const [key, values] of Object.entries(s.synonyms)) {
    const k = normalise(key).join(' ');
    if (k === '') continue;
    const list = synonyms.get(k) ?? [];
    for (const v of values) {
      const words = normalise(v);
      if (words.length > 0 && !list.some((l) => l.join(' ') === words.join(' '))) list.push(words);
    }
    synonyms.set(k, list);
  }
  const t = s.typoTolerance;
  const weights = fieldWeights(s.searchableAttributes, fields);
  return {
    tokenizer,
    query: {
      typos: {
        enabled: t.enabled,
        oneTypo: t.minWordSizeForTypos.oneTypo,
        twoTypos: t.minWordSizeForTypos.twoTypos,
        disableOnWords: new Set(t.disableOnWords.map((w) => normalise(w).join(''))),
      },
      prefixSearch: s.prefixSearch !== 'disabled',
      synonyms,
      stopWords: new Set(s.stopWords.flatMap(normalise)),
    },
    rankingRules: s.rankingRules,
    weights,
    flatWeights: [...weights.values()].every((w) => w === 0),
    proximity: s.proximityPrecision,
  };
}

function isAll(list: readonly string[] | null): boolean {
  return list === null || list.includes('*');
}

/** Searchable field id → weight: the rank of the first `searchableAttributes` entry covering it. */
export function fieldWeights(searchable: readonly string[] | null, fields: readonly string[]): Map<number, number> {
  const out = new Map<number, number>();
  fields.forEach((path, fid) => {
    if (isAll(searchable)) out.set(fid, 0);
    else {
      const rank = searchable!.findIndex((rule) => isFacetedBy(path, rule));
      if (rank >= 0) out.set(fid, rank);
    }
  });
  return out;
}

/**
 * Field ids of `attributesToSearchOn` (null: no restriction), checked against the searchable
 * attributes (search.md §9.2).
 */
export function searchOnFids(on: readonly string[] | null, s: Settings, fields: readonly string[], indexUid: string): number[] | null {
  if (on === null || on.includes('*')) return null;
  const searchable = s.searchableAttributes;
  if (!isAll(searchable)) {
    for (const name of on) {
      if (name.includes('*')) continue;
      if (!searchable!.some((rule) => isFacetedBy(name, rule))) {
        const displayed = s.displayedAttributes;
        const shown = searchable!.filter((a) => isAll(displayed) || displayed!.some((d) => isFacetedBy(a, d)));
        const names = [...shown].sort().join(', ') + (shown.length < searchable!.length ? ', <..hidden-attributes>' : '');
        throw new ApiError(
          'invalid_search_attributes_to_search_on',
          `Index \`${indexUid}\`: Attribute \`${name}\` is not searchable. Available searchable attributes are: \`${names}\`.`,
        );
      }
    }
  }
  const weights = fieldWeights(searchable, fields);
  const out: number[] = [];
  fields.forEach((path, fid) => {
    if (!weights.has(fid)) return;
    if (on.some((name) => (name.includes('*') ? matchPattern(name, path) === 'match' : isFacetedBy(path, name)))) out.push(fid);
  });
  return out;
}

/**
 * `_rankingScoreDetails` of one hit: rule entries in order, halves of `attribute` and
 * `exactness` merged; sort entries show their value, or `<hidden>` for a field not displayed.
 */
export function scoreDetails(scores: readonly RuleScore[], legacyAttribute: boolean, isDisplayed: (field: string) => boolean = () => true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let order = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    const next = scores[i + 1];
    const score = s.rank / s.max;
    switch (s.rule) {
      case 'words':
        out.words = { order: order++, matchingWords: s.rank, maxMatchingWords: s.max, score };
        break;
      case 'typo':
        out.typo = { order: order++, typoCount: s.max - s.rank, maxTypoCount: s.max - 1, score };
        break;
      case 'proximity':
        out.proximity = { order: order++, score };
        break;
      case 'attributeRank':
        if (legacyAttribute && next?.rule === 'wordPosition') {
          out.attribute = {
            order: order++,
            attributeRankingOrderScore: score,
            queryWordDistanceScore: next.rank / next.max,
            score: merged(s, next),
          };
          i++;
        } else out.attributeRank = { order: order++, score };
        break;
      case 'wordPosition':
        out.wordPosition = { order: order++, score };
        break;
      case 'exactAttribute': {
        const words = next?.rule === 'exactWords' ? next : null;
        if (words !== null) i++;
        const matchType = s.rank === 3 ? 'exactMatch' : s.rank === 2 ? 'matchesStart' : 'noExactMatch';
        const total = words === null ? score : merged(s, words);
        out.exactness =
          matchType === 'noExactMatch' && words !== null
            ? { order: order++, matchType, matchingWords: words.rank - 1, maxMatchingWords: words.max - 1, score: total }
            : { order: order++, matchType, score: total };
        break;
      }
      case 'exactWords':
        out.exactness = { order: order++, matchType: 'noExactMatch', matchingWords: s.rank - 1, maxMatchingWords: s.max - 1, score };
        break;
      case 'skipped':
        out.skipped = { order: order++ };
        break;
      case 'vectorSort':
        out.vectorSort = { order: order++, similarity: s.similarity ?? null };
        break;
      case 'sort': {
        const d = s.sort;
        if (d?.kind !== 'field') break;
        if (isDisplayed(d.field)) out[`${d.field}:${d.asc ? 'asc' : 'desc'}`] = { order, value: d.value };
        else out[`<hidden-rule-${order}>`] = { order, value: '<hidden>' };
        order++;
        break;
      }
      case 'geoSort': {
        const d = s.sort;
        if (d?.kind !== 'geo') break;
        const key = `_geoPoint(${formatRustFloat(d.lat)}, ${formatRustFloat(d.lng)}):${d.asc ? 'asc' : 'desc'}`;
        out[key] = { order: order++, value: d.point === null ? null : { lat: d.point[0], lng: d.point[1] }, distance: d.distance };
        break;
      }
    }
  }
  return out;
}

function merged(a: RuleScore, b: RuleScore): number {
  return ((a.rank - 1) * b.max + b.rank) / (a.max * b.max);
}
