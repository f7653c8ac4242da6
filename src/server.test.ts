// How many search threads a server starts (decision 0008).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchThreads } from './server.ts';

test('search threads: none below 4 cores, one per core but two from 4, the variable wins', () => {
  assert.deepEqual([1, 2, 3, 4, 8, 64].map((cores) => searchThreads({}, cores)), [0, 0, 0, 2, 6, 62]);
  assert.equal(searchThreads({ MUNINN_SEARCH_THREADS: '3' }, 2), 3);
  assert.equal(searchThreads({ MUNINN_SEARCH_THREADS: ' 0 ' }, 16), 0);
  // not a count: the default
  assert.equal(searchThreads({ MUNINN_SEARCH_THREADS: 'many' }, 8), 6);
  assert.equal(searchThreads({ MUNINN_SEARCH_THREADS: '-1' }, 2), 0);
});
