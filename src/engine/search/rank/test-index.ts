// Test support: an index in a temp directory with search tables, and a default keyword setup.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index } from '../../index/index.ts';
import { runBatch } from '../../indexing/batch.test-support.ts';
import type { SearchConfig } from '../../indexing/search-config.ts';
import { Tokenizer } from '../../tokenizer/index.ts';
import { keywordSearch, type KeywordRequest, type KeywordResult, type KeywordSetup } from './search.ts';

export const DEFAULT_RULES = ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'];

export interface TestIndex {
  index: Index;
  search(q: string, opts?: Partial<KeywordRequest> & { setup?: Partial<KeywordSetup> }): KeywordResult & { docs: string[] };
  close(): Promise<void>;
}

/** Indexes `docs` (primary key `id`) with every field searchable, weights in `searchable` order when given. */
export function testIndex(docs: Record<string, unknown>[], opts: { searchable?: string[]; stopWords?: string[]; prefixLength?: number } = {}): TestIndex {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-rank-'));
  // postings in chunks of 4 ids: the searches read keys spread over several chunks (decision 0006)
  const index = Index.open(dir, { primaryKey: 'id', now: 1, postingsChunkBits: 2, ...(opts.prefixLength !== undefined ? { prefixLength: opts.prefixLength } : {}) });
  const searchable = opts.searchable ?? null;
  const stopWords = new Set(opts.stopWords ?? []);
  const config: SearchConfig = {
    searchable,
    exact: [],
    numbersExact: false,
    proximity: 'byWord',
    stopWords: [...stopWords],
    separatorTokens: [],
    nonSeparatorTokens: [],
    dictionary: [],
  };
  runBatch(index, config, [(w) => {
    for (const d of docs) w.addDocument(d, 'id', { method: 'replace', primaryKey: 'id', skipCreation: false });
  }]);
  const fields = index.fieldsOrder();
  const weights = new Map<number, number>();
  fields.forEach((f, fid) => {
    if (searchable === null) weights.set(fid, 0);
    else {
      const rank = searchable.findIndex((s) => f === s || f.startsWith(`${s}.`));
      if (rank >= 0) weights.set(fid, rank);
    }
  });
  const base: KeywordSetup = {
    tokenizer: new Tokenizer({ stopWords }),
    query: {
      typos: { enabled: true, oneTypo: 5, twoTypos: 9, disableOnWords: new Set() },
      prefixSearch: true,
      synonyms: new Map(),
      stopWords,
    },
    rankingRules: DEFAULT_RULES,
    weights,
    flatWeights: [...weights.values()].every((w) => w === 0),
    proximity: 'byWord',
  };
  return {
    index,
    search(q, o = {}) {
      const { setup, ...req } = o;
      const result = keywordSearch(
        index,
        index.wordSets(),
        { q, offset: 0, limit: 20, strategy: 'last', fids: null, scores: true, threshold: null, deadline: Infinity, ...req },
        { ...base, ...setup },
      );
      const docs = result.ids.map((id) => String(index.documentById(id)!.id));
      return { ...result, docs };
    },
    async close() {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
