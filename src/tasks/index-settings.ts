// The settings of an index as the API shapes them, kept in the index's main table, and what
// the engine needs of them to index documents for search.
import { defaultSettings, matchFieldLegacy, type Settings } from '../api/settings/index.ts';
import type { Index } from '../engine/index/index.ts';
import type { SearchConfig } from '../engine/indexing/search-writer.ts';
import { Tokenizer } from '../engine/tokenizer/index.ts';

/** The settings of an index (defaults until a settings task has run). */
export function storedSettings(index: Index): Settings {
  return (index.getMain('settings') as Settings | undefined) ?? defaultSettings();
}

const legacyMatch = (rules: readonly string[], path: string) => rules.some((r) => matchFieldLegacy(r, path) === 'match');

/** What search indexing needs from the settings: searchable and exact fields, the tokenizer. */
export function searchConfig(s: Settings): SearchConfig {
  const searchable = s.searchableAttributes;
  const exact = s.typoTolerance.disableOnAttributes;
  return {
    fields: {
      isSearchable: (path) => searchable === null || searchable.includes('*') || legacyMatch(searchable, path),
      isExact: (path) => legacyMatch(exact, path),
      numbersExact: s.typoTolerance.disableOnNumbers,
      proximity: s.proximityPrecision,
    },
    tokenizer: new Tokenizer({
      stopWords: new Set(s.stopWords),
      separatorTokens: s.separatorTokens,
      nonSeparatorTokens: s.nonSeparatorTokens,
      dictionary: s.dictionary,
    }),
  };
}

/** Settings whose change means the search tables must be rebuilt (settings.md §8). */
export function searchSignature(s: Settings): string {
  const t = s.typoTolerance;
  return JSON.stringify([s.searchableAttributes, s.stopWords, s.separatorTokens, s.nonSeparatorTokens, s.dictionary, t.disableOnAttributes, t.disableOnNumbers, s.proximityPrecision]);
}
