// Facet data made on the extractor thread (engine/facet/chunk.ts) indexes exactly like facet data
// the writer extracts itself. Random batches run side by side on two indexes, one fed through the
// extractor thread (payload files, `addExtracted`), one through `addDocument`. Properties checked:
// 1. after every batch, every facet table holds the same keys and the same bytes (ids, values,
//    original spellings, levels, exists/null/empty, document records, points, geo cells), and the
//    same field order
// 2. every task has the same outcome: an invalid `_geo` fails its task with the same message, also
//    when other documents of the payload were written before it; a skipped document (skipCreation,
//    unknown id) with an invalid `_geo` fails nothing
// 3. with replacements inside one payload (within a chunk and across chunks), partial updates,
//    deletions, clears, failed tasks, settings changes in the middle of a batch (later payloads
//    extract with the new configuration), and pending changes written early (tiny bound)
// 4. the level-0 values, exists/null/empty sets, document records, points and geo cells equal
//    those of a rebuild from the stored documents (the per-document rows are put as documents
//    are recorded, and original spellings are read back from them)
// 5. a chunk extracted with another configuration than the writer's is not used
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index } from '../index/index.ts';
import type { Table } from '../store/index.ts';
import { bitmapFrom } from '../bitmap/index.ts';
import { defaultFacetConfig, type FacetConfig, type FacetWriterOptions } from '../facet/index.ts';
import { decodeStringEntry } from '../facet/codec.ts';
import { LEAF_LEVEL, OUTLIERS_LEVEL } from '../facet/geo-grid.ts';
import { DocumentsWriter, type AddOptions } from './documents.ts';
import { Extractor } from './extract/extractor.ts';
import { rng } from '../random.fixtures.ts';

type Doc = Record<string, unknown>;
type Op =
  | { kind: 'add'; docs: Doc[]; opts: AddOptions; failAfter?: boolean }
  | { kind: 'delete'; ids: string[] }
  | { kind: 'settings'; config: FacetConfig; fails: boolean }
  | { kind: 'clear'; fails: boolean };

const REPLACE: AddOptions = { method: 'replace', primaryKey: 'id', skipCreation: false };
const UPDATE: AddOptions = { method: 'update', primaryKey: 'id', skipCreation: false };
const SKIP: AddOptions = { method: 'replace', primaryKey: 'id', skipCreation: true };

const CONFIGS: FacetConfig[] = [
  defaultFacetConfig({ filterable: [{ field: 'color' }, { field: 'price' }, { field: '_geo' }], sortable: ['price'], geo: true }),
  defaultFacetConfig({ filterable: [{ patterns: ['meta.*'], faceted: true }, { field: 'tags' }], distinct: 'meta.size' }),
  defaultFacetConfig({ filterable: [{ field: 'meta' }, { field: 'color' }], sortable: ['flag', '_geo'], ascDesc: ['price'], geo: true }),
  defaultFacetConfig({ filterable: [{ patterns: ['*'], faceted: true }], geo: true }),
  defaultFacetConfig({ filterable: [{ patterns: ['color'], faceted: false }] }),
];

const COLORS: unknown[] = ['Red', 'red ', 'BLUE', 'Grün', 'GRÜN', '', '   ', null, ['a', 'B', 'a'], [], {}, true, 7, 'Ωmega'];
const NAMES = ['x', 'Y', 'Zoë', 'zoe', ''];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

function randomGeo(rand: () => number, invalid: boolean): unknown {
  if (invalid) return pick(rand, ['here', { lat: 1 }, { lng: 2 }, { lat: 'north', lng: 2 }, { lat: 1, lng: 2, alt: 3 }, [1, 2]]);
  const r = rand();
  if (r < 0.1) return null;
  if (r < 0.2) return { lat: String(Math.round(rand() * 90)), lng: '-12.5' };
  if (r < 0.25) return { lat: 95, lng: 200 }; // outside the valid ranges: the outliers cell
  // few distinct points: cells shared by many documents, points moving within a cell
  return { lat: 40 + Math.floor(rand() * 4) + (rand() < 0.5 ? 0.001 : 0), lng: 2 + Math.floor(rand() * 4) };
}

function randomDoc(rand: () => number, id: number | string, badGeo = 0.02): Doc {
  const doc: Doc = { id };
  if (rand() < 0.8) doc.color = pick(rand, COLORS);
  if (rand() < 0.7) doc.price = pick(rand, [1, 2, 2.5, -0, 0, 10, 1e9, -3, '30']);
  if (rand() < 0.5) doc.tags = Array.from({ length: Math.floor(rand() * 4) }, () => pick(rand, ['a', 'b', 'B', 'c ', 'd']));
  if (rand() < 0.5) doc.meta = { size: Math.floor(rand() * 5), deep: [{ name: pick(rand, NAMES) }, { name: pick(rand, NAMES) }], empty: rand() < 0.5 ? {} : null };
  if (rand() < 0.3) doc.flag = rand() < 0.5;
  if (rand() < 0.6) doc._geo = randomGeo(rand, rand() < badGeo);
  return doc;
}

/** Every facet table as stored (keys and value bytes), and the field order. */
function dump(index: Index): Record<string, [string, string][]> {
  const t = index.facets;
  const out: Record<string, [string, string][]> = {};
  for (const [name, table] of Object.entries(t)) {
    out[name] = [...(table as Table<unknown, unknown>).entries()].map(([k, v]) => [JSON.stringify(k), v instanceof Uint8Array ? Buffer.from(v).toString('hex') : JSON.stringify(v)]);
  }
  out.fieldsOrder = index.fieldsOrder().map((f, i) => [String(i), f]);
  return out;
}

/** The content of the tables a rebuild derives from documents alone (levels above 0 may be grouped differently). */
function contents(index: Index): Record<string, [string, unknown][]> {
  const t = index.facets;
  const ids = (v: Uint8Array) => bitmapFrom(v).toArray();
  const out: Record<string, [string, unknown][]> = { strings: [], numbers: [], fieldDocids: [], docValues: [], geoPoints: [], geoCells: [] };
  for (const [k, v] of t.strings.entries()) {
    if (k[1] !== 0) continue;
    const e = decodeStringEntry(v);
    out.strings!.push([JSON.stringify(k), { originId: e.originId, original: e.original, docids: e.docids.toArray() }]);
  }
  for (const [k, v] of t.numbers.entries()) if (k[1] === 0) out.numbers!.push([JSON.stringify(k), ids(v)]);
  for (const [k, v] of t.fieldDocids.entries()) out.fieldDocids!.push([JSON.stringify(k), ids(v)]);
  for (const [k, v] of t.docValues.entries()) out.docValues!.push([String(k), Buffer.from(v).toString('hex')]);
  for (const [k, v] of t.geoPoints.entries()) out.geoPoints!.push([String(k), Buffer.from(v).toString('hex')]);
  for (const [k, v] of t.geoCells.entries()) out.geoCells!.push([JSON.stringify(k), k[0] === LEAF_LEVEL || k[0] === OUTLIERS_LEVEL ? Buffer.from(v).toString('hex') : ids(v)]);
  return out;
}

/** `contents` after re-indexing every stored document, in a transaction then aborted. */
function rebuilt(index: Index, config: FacetConfig): Record<string, [string, unknown][]> {
  let out: Record<string, [string, unknown][]> = {};
  const abort = new Error('abort');
  try {
    index.env.write(() => {
      const w = new DocumentsWriter(index, undefined, { facets: config });
      w.reindexFacets(config);
      w.save(2);
      out = contents(index);
      throw abort;
    });
  } catch (err) {
    if (err !== abort) throw err;
  }
  return out;
}

class Side {
  readonly index: Index;
  config: FacetConfig;
  readonly #payloads: string;
  #files = 0;
  /** documents that came with facet data from the extractor */
  fromChunks = 0;

  constructor(
    dir: string,
    name: string,
    config: FacetConfig,
    readonly extractor: Extractor | null,
    readonly writerOptions: FacetWriterOptions,
  ) {
    this.index = Index.open(path.join(dir, name), { primaryKey: 'id', now: 1 });
    this.config = config;
    this.#payloads = path.join(dir, `${name}-payloads`);
    fs.mkdirSync(this.#payloads);
  }

  /** Runs one batch as the scheduler does; returns each task's outcome ('ok' or its error message). */
  batch(ops: Op[], staleConfig = false): string[] {
    const outcomes: string[] = [];
    this.index.env.write(() => {
      const w = new DocumentsWriter(this.index, undefined, { facets: this.config, facetWriter: this.writerOptions });
      for (const op of ops) {
        const cp = w.checkpoint();
        try {
          this.index.env.write(() => {
            this.#apply(w, op, staleConfig);
            w.endTask();
          });
          outcomes.push('ok');
          if (op.kind === 'settings') this.config = op.config;
        } catch (err) {
          w.rollback(cp);
          outcomes.push((err as Error).message);
        }
      }
      w.save(2);
    });
    return outcomes;
  }

  #apply(w: DocumentsWriter, op: Op, staleConfig: boolean): void {
    switch (op.kind) {
      case 'add':
        if (this.extractor === null) {
          for (const d of op.docs) w.addDocument(d, 'id', op.opts);
        } else {
          const file = path.join(this.#payloads, `${++this.#files}.ndjson`);
          fs.writeFileSync(file, op.docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
          const config = staleConfig && w.facetConfig !== null ? { ...w.facetConfig } : w.facetConfig;
          for (const d of this.extractor.documents(file, 'id', () => false, null, config)) {
            if (d.facets !== null) this.fromChunks++;
            w.addExtracted(d, op.opts);
          }
        }
        if (op.failAfter) throw new Error('the task fails after writing');
        return;
      case 'delete':
        w.deleteByIds(op.ids);
        return;
      case 'settings':
        w.reindexFacets(op.config);
        if (op.fails) throw new Error('the settings task fails after re-indexing');
        return;
      case 'clear':
        w.clear();
        if (op.fails) throw new Error('the clear fails');
        return;
    }
  }
}

function randomOp(rand: () => number, nextId: () => number): Op {
  const r = rand();
  const ids = () => Array.from({ length: 1 + Math.floor(rand() * 12) }, () => Math.floor(rand() * 60));
  if (r < 0.45) return { kind: 'add', docs: ids().map((id) => randomDoc(rand, id)), opts: rand() < 0.3 ? UPDATE : REPLACE };
  if (r < 0.52) {
    // unknown ids are skipped, invalid `_geo` or not; known ones are replaced
    const docs = ids().map((id) => randomDoc(rand, rand() < 0.5 ? id : `new-${nextId()}`, 0.5));
    return { kind: 'add', docs, opts: SKIP };
  }
  if (r < 0.6) return { kind: 'add', docs: ids().map((id) => randomDoc(rand, id, 0)), opts: REPLACE, failAfter: true };
  if (r < 0.75) return { kind: 'delete', ids: ids().map(String) };
  if (r < 0.9) return { kind: 'settings', config: pick(rand, CONFIGS), fails: rand() < 0.25 };
  return { kind: 'clear', fails: rand() < 0.4 };
}

async function withDir(fn: (dir: string, extractor: Extractor) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-facet-tables-'));
  const extractor = Extractor.start();
  try {
    await fn(dir, extractor);
  } finally {
    await extractor.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function randomRun(seed: number, writerOptions: FacetWriterOptions): Promise<void> {
  await withDir(async (dir, extractor) => {
    const rand = rng(seed);
    let counter = 0;
    const nextId = () => ++counter;
    // an active configuration to start with (the inactive one comes with settings changes)
    const config = CONFIGS[seed % (CONFIGS.length - 1)]!;
    const inline = new Side(dir, 'inline', config, null, writerOptions);
    const extracted = new Side(dir, 'extracted', config, extractor, writerOptions);
    try {
      // a payload of several chunks whose ids repeat within a chunk and across chunks, then one of updates
      const big = Array.from({ length: 4500 }, (_, i) => randomDoc(rand, i % 2300, 0));
      const updates = Array.from({ length: 300 }, (_, i) => randomDoc(rand, 2000 + i, 0));
      const batches: Op[][] = [[{ kind: 'add', docs: big, opts: REPLACE }, { kind: 'add', docs: updates, opts: UPDATE }]];
      for (let b = 0; b < 14; b++) batches.push(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => randomOp(rand, nextId)));
      for (const [b, ops] of batches.entries()) {
        const label = `seed ${seed}, batch ${b}`;
        assert.deepEqual(extracted.batch(ops), inline.batch(ops), `${label}: outcomes`);
        assert.deepEqual(dump(extracted.index), dump(inline.index), `${label}: tables`);
        assert.deepEqual(contents(extracted.index), rebuilt(extracted.index, extracted.config), `${label}: tables as a rebuild makes them`);
      }
      assert.ok(extracted.fromChunks > 4500, 'documents came with facet data from the extractor');
    } finally {
      await inline.index.close();
      await extracted.index.close();
    }
  });
}

test('facet tables built from extractor chunks equal those the writer builds, over random batches', async () => {
  for (const seed of [1, 2, 3, 4, 5]) await randomRun(seed, {});
});

test('the same with pending changes written early (task boundaries and inside tasks)', async () => {
  for (const seed of [6, 7, 8]) await randomRun(seed, { maxDeltaBytes: 1 });
});

test('an invalid _geo found by the extractor fails the task that indexes it, with the same message', async () => {
  await withDir(async (dir, extractor) => {
    const config = CONFIGS[0]!;
    const inline = new Side(dir, 'inline', config, null, {});
    const extracted = new Side(dir, 'extracted', config, extractor, {});
    try {
      const rand = rng(99);
      const good = Array.from({ length: 3000 }, (_, i) => randomDoc(rand, i, 0));
      const ops: Op[] = [
        { kind: 'add', docs: good.slice(0, 10), opts: REPLACE },
        // fails on its second chunk, after 2,500 documents were written
        { kind: 'add', docs: [...good.slice(10, 2510), { id: 'bad', _geo: { lat: 1, lng: 2, doggo: 'are the best' } }, ...good.slice(2510)], opts: REPLACE },
        // an unknown document with an invalid `_geo` is skipped: nothing fails
        { kind: 'add', docs: [{ id: 'ghost', _geo: 'nowhere', color: 'Ghost' }, good[3]!], opts: SKIP },
      ];
      const outcomes = extracted.batch(ops);
      assert.deepEqual(outcomes, [
        'ok',
        'The `_geo` field in the document with the id: `"bad"` contains the following unexpected fields: `{"doggo":"are the best"}`.',
        'ok',
      ]);
      assert.deepEqual(inline.batch(ops), outcomes);
      assert.deepEqual(dump(extracted.index), dump(inline.index));
      assert.equal(extracted.index.numberOfDocuments(), 10);
    } finally {
      await inline.index.close();
      await extracted.index.close();
    }
  });
});

test('a chunk extracted with another configuration is not used: the writer extracts the document', async () => {
  await withDir(async (dir, extractor) => {
    const config = CONFIGS[2]!;
    const inline = new Side(dir, 'inline', config, null, {});
    const extracted = new Side(dir, 'extracted', config, extractor, {});
    try {
      const rand = rng(7);
      const ops: Op[] = [{ kind: 'add', docs: Array.from({ length: 500 }, (_, i) => randomDoc(rand, i % 400, 0)), opts: REPLACE }];
      assert.deepEqual(extracted.batch(ops, true), inline.batch(ops));
      assert.deepEqual(dump(extracted.index), dump(inline.index));
    } finally {
      await inline.index.close();
      await extracted.index.close();
    }
  });
});
