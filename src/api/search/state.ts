// What searches of an index share until its next write: settings, fields, word sets and the
// keyword setup, cached by the index generation (bumped by every write transaction).
import { settingsOf, type Settings } from '../settings/index.ts';
import { keywordSetup } from './keyword.ts';
import { facetReader, type FacetReader } from '../../engine/facet/index.ts';
import type { Index } from '../../engine/index/index.ts';
import { ReadCache, type KeywordSetup, type SharedReads } from '../../engine/search/rank/index.ts';
import { Tokenizer } from '../../engine/tokenizer/index.ts';

export interface IndexSearchState {
  generation: number;
  settings: Settings;
  fields: string[];
  /** word sets and table reads shared by this generation's searches */
  wordSets: SharedReads;
  keyword: KeywordSetup;
  /** the index's facet values (filters, sort, distinct, facets) */
  facets: FacetReader;
  /** the index tokenizer without stop words, as hits are formatted with */
  formatTokenizer: Tokenizer;
}

const states = new WeakMap<Index, IndexSearchState>();

export function indexSearchState(index: Index): IndexSearchState {
  const generation = index.generation();
  const cached = states.get(index);
  if (cached !== undefined && cached.generation === generation) return cached;
  const settings = settingsOf(index);
  const fields = index.fieldsOrder();
  const facets = facetReader(index);
  const state: IndexSearchState = {
    generation,
    settings,
    fields,
    wordSets: { ...index.wordSets(), cache: new ReadCache(), documents: index.usedIds(), facets },
    facets,
    keyword: keywordSetup(settings, fields),
    formatTokenizer: new Tokenizer({
      separatorTokens: settings.separatorTokens,
      nonSeparatorTokens: settings.nonSeparatorTokens,
      dictionary: settings.dictionary,
    }),
  };
  states.set(index, state);
  return state;
}
