// Facet tables kept in step with documents, read back through the reader. Checks:
// 1. equality, ranges (strings and numbers, bounds inclusive/exclusive), STARTS WITH, CONTAINS,
//    exists / null / empty, per-document values, ordered values with and without `within`
// 2. the original spelling shown is the one of the smallest internal id holding the value, and
//    moves to the next document when that one is deleted or changes its spelling
// 3. replacing and deleting documents remove their old values; clear empties every table
// 4. a failed task (rolled back) leaves no trace, also after it wrote pending deltas early
// 5. a rebuild with another configuration re-indexes every document; `stale` tells when one is due
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index } from '../index/index.ts';
import { defaultFacetConfig, type FacetConfig } from './config.ts';
import { facetReader, type FacetReader } from './reader.ts';
import { FacetIndexWriter, type FacetWriterOptions } from './writer.ts';
import type { Bitmap } from '../bitmap/index.ts';

type Doc = Record<string, unknown>;

/** Documents by internal id, written through a FacetIndexWriter in batches of tasks. */
class Fixture {
  readonly index: Index;
  readonly dir: string;
  readonly fids = new Map<string, number>();
  docs = new Map<number, Doc>();
  config: FacetConfig;
  opts: FacetWriterOptions = {};

  constructor(config: FacetConfig) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-facet-'));
    this.index = Index.open(this.dir, { primaryKey: 'id', now: 1 });
    this.config = config;
  }

  fid = (p: string): number => {
    let f = this.fids.get(p);
    if (f === undefined) this.fids.set(p, (f = this.fids.size));
    return f;
  };

  /** One batch; each task gets put/del on a staged copy of the documents; a throw fails the task. */
  batch(tasks: ((t: TaskOps) => void)[], config = this.config): void {
    this.index.env.write(() => {
      const w = new FacetIndexWriter(this.index, this.config, this.fid, this.opts);
      for (const task of tasks) {
        const staged = new Map(this.docs);
        const cp = w.beginTask();
        try {
          this.index.env.write(() => {
            task(new TaskOps(w, staged, this));
            w.endTask();
          });
          this.docs = staged;
        } catch {
          w.rollback(cp);
        }
      }
      if (config !== this.config) {
        this.config = config;
        w.beginTask();
        w.rebuild(config, [...this.docs].map(([id, doc]) => [id, doc, String(id)]));
      }
      w.save();
      this.index.setMain('fieldsOrder', [...this.fids.keys()]);
      this.index.setMain('generation', this.index.generation() + 1);
    });
  }

  get reader(): FacetReader {
    return facetReader(this.index);
  }

  fidOf(p: string): number {
    return this.reader.fieldId(p)!;
  }

  async close(): Promise<void> {
    await this.index.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

class TaskOps {
  constructor(
    readonly w: FacetIndexWriter,
    readonly docs: Map<number, Doc>,
    readonly fx: Fixture,
  ) {}

  put(id: number, doc: Doc): void {
    const old = this.docs.get(id);
    if (old) this.w.removeDocument(id, old);
    for (const p of paths(doc)) this.fx.fid(p);
    this.w.addDocument(id, doc, String(id));
    this.docs.set(id, doc);
  }

  del(id: number): void {
    const old = this.docs.get(id);
    if (old) this.w.removeDocument(id, old);
    this.docs.delete(id);
  }

  clear(): void {
    this.w.clearAll();
    this.docs.clear();
  }
}

function paths(doc: Doc, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(doc)) {
    const p = prefix ? `${prefix}.${k}` : k;
    out.push(p);
    const items = Array.isArray(v) ? v : [v];
    for (const item of items) if (item !== null && typeof item === 'object' && !Array.isArray(item)) out.push(...paths(item as Doc, p));
  }
  return out;
}

const ids = (b: Bitmap) => b.toArray();
const ALL = defaultFacetConfig({ filterable: [{ patterns: ['*'], faceted: true }] });

async function withFixture(config: FacetConfig, fn: (fx: Fixture) => void): Promise<void> {
  const fx = new Fixture(config);
  try {
    fn(fx);
  } finally {
    await fx.close();
  }
}

test('filters read back: equality, ranges, prefixes, substrings, exists/null/empty, document values', () =>
  withFixture(ALL, (fx) => {
    fx.batch([
      (t) => {
        t.put(0, { color: 'Red', price: 10, tags: ['a', 'b'], note: null });
        t.put(1, { color: 'blue', price: 10.5, tags: [], note: '' });
        t.put(2, { color: ' BLUE ', price: '10', tags: ['b'], note: {} });
        t.put(3, { price: -3, color: 'bleu', tags: ['c', 7] });
        t.put(4, { other: 1 });
      },
    ]);
    const r = fx.reader;
    const color = fx.fidOf('color');
    const price = fx.fidOf('price');
    const tags = fx.fidOf('tags');
    const note = fx.fidOf('note');
    assert.equal(r.fieldId('nope'), undefined);
    assert.deepEqual(ids(r.stringEquals(color, 'blue')), [1, 2]);
    assert.deepEqual(ids(r.stringEquals(color, 'Blue')), []); // callers normalize
    assert.deepEqual(ids(r.numberEquals(price, 10)), [0]);
    assert.deepEqual(ids(r.numberEquals(price, -0)), []);
    assert.deepEqual(ids(r.stringEquals(price, '10')), [2]);
    assert.deepEqual(ids(r.numberRange(price, { value: 10, inclusive: true }, null)), [0, 1]);
    assert.deepEqual(ids(r.numberRange(price, { value: 10, inclusive: false }, null)), [1]);
    assert.deepEqual(ids(r.numberRange(price, null, { value: 10, inclusive: false })), [3]);
    assert.deepEqual(ids(r.numberRange(price, { value: 11, inclusive: true }, { value: 10, inclusive: true })), []);
    assert.deepEqual(ids(r.numberRange(price, { value: 10, inclusive: true }, { value: 10, inclusive: false })), []);
    assert.deepEqual(ids(r.stringRange(color, { value: 'bleu', inclusive: false }, { value: 'red', inclusive: false })), [1, 2]);
    assert.deepEqual(ids(r.stringRange(color, { value: 'c', inclusive: true }, null)), [0]);
    assert.deepEqual(ids(r.stringStartsWith(color, 'bl')), [1, 2, 3]);
    assert.deepEqual(ids(r.stringStartsWith(color, '')), [0, 1, 2, 3]);
    assert.deepEqual(ids(r.stringContains(color, 'e')), [0, 1, 2, 3]);
    assert.deepEqual(ids(r.stringContains(color, 'lu')), [1, 2]);
    assert.deepEqual(ids(r.exists(tags)), [0, 1, 2, 3]);
    assert.deepEqual(ids(r.isEmpty(tags)), [1]);
    assert.deepEqual(ids(r.isNull(note)), [0]);
    assert.deepEqual(ids(r.isEmpty(note)), [1, 2]);
    assert.deepEqual(ids(r.exists(note)), [0, 1, 2]);
    assert.deepEqual(r.docNumbers(tags, 3), [7]);
    assert.deepEqual(r.docStrings(tags, 0), ['a', 'b']);
    assert.deepEqual(r.docStrings(color, 2), ['blue']);
    assert.deepEqual(r.docOriginals(color, 2), [' BLUE ']);
    assert.deepEqual(r.docNumbers(price, 4), []);
    assert.deepEqual(
      [...r.numbers(price, 'asc')].map(([n, d]) => [n, ids(d)]),
      [[-3, [3]], [10, [0]], [10.5, [1]]],
    );
    assert.deepEqual(
      [...r.strings(color, 'desc')].map(([s, o, d]) => [s, o, ids(d)]),
      [['red', 'Red', [0]], ['blue', 'blue', [1, 2]], ['bleu', 'bleu', [3]]],
    );
    const within = fx.reader.stringEquals(tags, 'b');
    assert.deepEqual(
      [...r.strings(color, 'asc', within)].map(([s, , d]) => [s, ids(d)]),
      [['blue', [2]], ['red', [0]]],
    );
    assert.deepEqual([...r.stringsWithPrefix(color, 'bl')].map(([s]) => s), ['bleu', 'blue']);
  }));

test('original spelling: smallest document holding the value, kept up to date', () =>
  withFixture(ALL, (fx) => {
    fx.batch([(t) => (t.put(3, { c: 'BLUE' }), t.put(1, { c: ' Blue' }), t.put(2, { c: 'blue' }))]);
    const orig = () => [...fx.reader.strings(fx.fidOf('c'), 'asc')].map(([, o]) => o);
    assert.deepEqual(orig(), [' Blue']);
    fx.batch([(t) => t.del(1)]);
    assert.deepEqual(orig(), ['blue']);
    fx.batch([(t) => t.put(2, { c: 'bLuE' })]);
    assert.deepEqual(orig(), ['bLuE']);
    fx.batch([(t) => t.put(0, { c: 'Blue!' }), (t) => t.put(0, { c: 'BLUE ' })]);
    assert.deepEqual(orig(), ['BLUE ']);
  }));

test('replacements, deletions and clear remove old values', () =>
  withFixture(ALL, (fx) => {
    fx.batch([(t) => (t.put(0, { n: 1, s: 'x', e: [] }), t.put(1, { n: 2, s: 'y' }))]);
    fx.batch([(t) => t.put(0, { n: 3 }), (t) => t.del(1)]);
    const r = fx.reader;
    const n = fx.fidOf('n');
    const s = fx.fidOf('s');
    assert.deepEqual([...r.numbers(n, 'asc')].map(([v, d]) => [v, ids(d)]), [[3, [0]]]);
    assert.deepEqual([...r.strings(s, 'asc')], []);
    assert.deepEqual(ids(r.exists(s)), []);
    assert.deepEqual(ids(r.isEmpty(fx.fidOf('e'))), []);
    assert.deepEqual(r.docStrings(s, 0), []);
    // deleted then re-added in one batch, and added then deleted
    fx.batch([(t) => t.del(0), (t) => t.put(0, { n: 3 }), (t) => t.put(5, { n: 9 }), (t) => t.del(5)]);
    assert.deepEqual([...r.numbers(n, 'asc')].map(([v, d]) => [v, ids(d)]), [[3, [0]]]);
    fx.batch([(t) => t.clear(), (t) => t.put(7, { n: 4 })]);
    assert.deepEqual([...r.numbers(n, 'asc')].map(([v, d]) => [v, ids(d)]), [[4, [7]]]);
    assert.deepEqual(r.docNumbers(n, 0), []);
  }));

test('a failed task leaves no trace, also after writing pending deltas early', async () => {
  for (const maxDeltaBytes of [undefined, 1]) {
    await withFixture(ALL, (fx) => {
      fx.opts = { maxDeltaBytes };
      fx.batch([
        (t) => t.put(0, { n: 1, s: 'keep' }),
        (t) => {
          t.put(1, { n: 2, s: 'lost' });
          t.put(0, { n: 5 });
          t.w.endTask(); // writes pending deltas inside this task when the bound is 1 byte
          throw new Error('task fails');
        },
        (t) => t.put(2, { n: 3 }),
      ]);
      const r = fx.reader;
      assert.deepEqual([...r.numbers(fx.fidOf('n'), 'asc')].map(([v, d]) => [v, ids(d)]), [[1, [0]], [3, [2]]]);
      assert.deepEqual([...r.strings(fx.fidOf('s'), 'asc')].map(([v, , d]) => [v, ids(d)]), [['keep', [0]]]);
      assert.deepEqual(r.docNumbers(fx.fidOf('n'), 1), []);
    });
  }
});

test('invalid _geo fails the task; a rebuild follows a new configuration', () =>
  withFixture(defaultFacetConfig({ sortable: ['a'] }), (fx) => {
    fx.batch([(t) => (t.put(0, { a: 1, b: 'x', _geo: { lat: 1, lng: 2 } }), t.put(1, { a: 2, b: 'y' }))]);
    const r = fx.reader;
    assert.deepEqual(ids(r.numberRange(fx.fidOf('a'), null, null)), [0, 1]);
    assert.deepEqual(ids(r.exists(fx.fidOf('b'))), []);
    assert.equal(r.geoPoint(0), undefined);

    const geo = defaultFacetConfig({ filterable: [{ field: 'b' }, { field: '_geo' }], geo: true });
    fx.batch([], geo);
    assert.deepEqual(ids(r.numberRange(fx.fidOf('a'), null, null)), []);
    assert.deepEqual(ids(r.stringEquals(fx.fidOf('b'), 'y')), [1]);
    assert.deepEqual(r.geoPoint(0), [1, 2]);
    assert.deepEqual(ids(r.numberEquals(fx.fidOf('_geo.lat'), 1)), [0]);

    fx.batch([(t) => t.put(2, { b: 'z', _geo: { lat: 'north', lng: 2 } }), (t) => t.put(3, { b: 'w', _geo: null })]);
    assert.deepEqual(ids(r.stringRange(fx.fidOf('b'), null, null)), [0, 1, 3]);
    assert.equal(r.geoPoint(2), undefined);

    fx.index.env.write(() => {
      const w = new FacetIndexWriter(fx.index, geo, fx.fid);
      assert.equal(w.stale(), false);
      assert.equal(new FacetIndexWriter(fx.index, ALL, fx.fid).stale(), true);
    });
  }));
