import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allows, levelFilter, parseLogFilter } from './index.ts';

test('log filters: the most specific target wins, bare targets take every level, Meilisearch names map to Muninn parts', () => {
  const f = parseLogFilter('warn,muninn::http=debug,muninn::http::body=off,index_scheduler');
  assert.equal(allows(f, 'info', 'muninn::server'), false);
  assert.equal(allows(f, 'warn', 'muninn::server'), true);
  assert.equal(allows(f, 'debug', 'muninn::http'), true);
  assert.equal(allows(f, 'trace', 'muninn::http'), false);
  assert.equal(allows(f, 'error', 'muninn::http::body'), false);
  assert.equal(allows(f, 'trace', 'muninn::instance'), true);
  // a prefix counts at `::` boundaries only
  assert.equal(allows(parseLogFilter('muninn::http=info'), 'info', 'muninn::https'), false);
  // without a bare level, targets no directive names are off
  assert.equal(allows(parseLogFilter('meilisearch=info'), 'info', 'muninn::search'), true);
  assert.equal(allows(parseLogFilter('actix_web=info'), 'info', 'muninn::search'), false);
  assert.equal(allows(parseLogFilter('3'), 'info', 'x'), true);
  assert.equal(allows(parseLogFilter('OFF'), 'error', 'x'), false);
  assert.equal(allows(levelFilter('WARN'), 'warn', 'muninn::http'), true);
  assert.equal(allows(levelFilter('WARN'), 'info', 'muninn::http'), false);
});
