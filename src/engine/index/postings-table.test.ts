// A key's documents are the union of its chunks (one read per chunk; by default as many chunks as
// the table holds); neighbouring keys never leak in; entries merge the chunks in key order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bitmap, bitmapBytes } from '../bitmap/index.ts';
import { Index } from './index.ts';

test('docids unions the chunks of a key on every read path', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-postings-table-'));
  // chunks of 2 ids: id 9 is in chunk 4
  const index = Index.open(path.join(dir, 'index'), { primaryKey: 'id', now: 1, postingsChunkBits: 1 });
  try {
    const byChunk = new Map<number, number[]>();
    for (const id of [0, 3, 5, 9]) byChunk.set(id >>> 1, [...(byChunk.get(id >>> 1) ?? []), id]);
    index.env.write(() => {
      for (const [chunk, ids] of byChunk) index.search.words.raw.put([chunk, 'paris'], bitmapBytes(new Bitmap(ids)));
      // neighbours in key order
      index.search.words.raw.put([0, 'pari'], bitmapBytes(new Bitmap([1])));
      index.search.words.raw.put([4, 'parisian'], bitmapBytes(new Bitmap([8])));
    });
    for (const chunks of [5, 7, undefined]) assert.deepEqual(index.search.words.docids(['paris'], chunks).toArray(), [0, 3, 5, 9], `chunks ${chunks}`);
    assert.equal(index.search.words.chunkCount(), 5);
    assert.ok(index.search.words.has(['parisian']) && !index.search.words.has(['paris'], 0) && !index.search.words.has(['absent']));
    const entries = [...index.search.words.entries()].map(([[w], ids]) => [w, ids.toArray()]);
    assert.deepEqual(entries, [['pari', [1]], ['paris', [0, 3, 5, 9]], ['parisian', [8]]]);
    const some = [...index.search.words.entries({ start: ['paris'], end: ['parisian'] })].map(([[w]]) => w);
    assert.deepEqual(some, ['paris']);
    // fewer chunks than the key uses: only those are read
    assert.deepEqual(index.search.words.docids(['paris'], 3).toArray(), [0, 3, 5]);
    assert.deepEqual(index.search.words.docids(['paris'], 1).toArray(), [0]);
    assert.deepEqual(index.search.words.docids(['absent'], 3).toArray(), []);
  } finally {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
