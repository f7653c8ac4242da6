// What search indexing needs from the settings, as plain data: it travels to the extractor
// thread with each job (structured clone), and both threads compile it to the same field
// matchers and tokenizer, so a document is indexed the same way on either side.
import { Tokenizer } from '../tokenizer/index.ts';
import type { SearchableFields } from './search-data.ts';

export interface SearchConfig {
  /** searchable attribute rules (`doggo` covers `doggo` and `doggo.*`); null = every field */
  searchable: readonly string[] | null;
  /** `typoTolerance.disableOnAttributes` rules: their words are exact-only */
  exact: readonly string[];
  /** `typoTolerance.disableOnNumbers` */
  numbersExact: boolean;
  proximity: 'byWord' | 'byAttribute';
  stopWords: readonly string[];
  separatorTokens: readonly string[];
  nonSeparatorTokens: readonly string[];
  dictionary: readonly string[];
  /**
   * Words' prefixes of 1 to this many characters are indexed too, as pseudo-words (`prefixKey`):
   * set by the search writer from the index (main `prefixPostings`), not by the settings; absent: none.
   */
  prefixLength?: number;
}

/** Field matchers and tokenizer, as extraction uses them. */
export interface CompiledSearchConfig {
  fields: SearchableFields;
  tokenizer: Tokenizer;
  prefixLength: number;
}

/** True when `rule` covers `path`: the path itself or a field nested below it. */
function covers(rule: string, path: string): boolean {
  return path === rule || (path.startsWith(rule) && path.charCodeAt(rule.length) === 0x2e /* . */);
}

function memo(test: (path: string) => boolean): (path: string) => boolean {
  const known = new Map<string, boolean>();
  return (path) => {
    let v = known.get(path);
    if (v === undefined) {
      v = test(path);
      known.set(path, v);
    }
    return v;
  };
}

/** Top-level fields with a meaning of their own, never searched (milli's documents skip them). */
const RESERVED_FIELDS = ['_geo', '_geojson', '_vectors'];
const isReserved = (path: string) => RESERVED_FIELDS.some((r) => covers(r, path));

/** Compiles a config: memoised field matchers and its tokenizer. */
export function compileSearchConfig(config: SearchConfig): CompiledSearchConfig {
  const searchable = config.searchable === null || config.searchable.includes('*') ? null : config.searchable;
  const exact = config.exact;
  return {
    fields: {
      isSearchable: memo((path) => !isReserved(path) && (searchable === null || searchable.some((r) => covers(r, path)))),
      isExact: exact.length === 0 ? () => false : memo((path) => exact.some((r) => covers(r, path))),
      numbersExact: config.numbersExact,
      proximity: config.proximity,
    },
    tokenizer: new Tokenizer({
      stopWords: new Set(config.stopWords),
      separatorTokens: config.separatorTokens,
      nonSeparatorTokens: config.nonSeparatorTokens,
      dictionary: config.dictionary,
    }),
    prefixLength: config.prefixLength ?? 0,
  };
}

/** Default settings: every field searchable, nothing exact, no custom tokenization. */
export function defaultSearchConfig(over: Partial<SearchConfig> = {}): SearchConfig {
  return {
    searchable: null,
    exact: [],
    numbersExact: false,
    proximity: 'byWord',
    stopWords: [],
    separatorTokens: [],
    nonSeparatorTokens: [],
    dictionary: [],
    ...over,
  };
}
