// Level groups under random batches of additions, replacements and deletions, against brute force.
// Checks after every batch:
// 1. ranges (numbers and strings, random bounds, inclusive or not) and prefixes equal a scan of
//    the documents; a range unions at most top + 2 × levels × MAX_GROUP bitmaps
// 2. every group is the union of its children, its size their count, its right bound their
//    greatest key; the level sizes kept in meta are the real counts; the top level is small
// 3. ordered values with `within` skip exactly the values none of those documents hold
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bitmap } from '../bitmap/index.ts';
import { Index } from '../index/index.ts';
import { compareUtf8 } from '../words/index.ts';
import { defaultFacetConfig } from './config.ts';
import { decodeGroupHeader, groupDocids, type FacetKey } from './codec.ts';
import { facetReader } from './reader.ts';
import { boundsTest, levelSizes, numberKind, rangeParts, stringKind, type LevelKind } from './levels.ts';
import { MAX_GROUP, TOP_SIZE } from './level-writer.ts';
import { FacetIndexWriter } from './writer.ts';
import { rng } from '../random.fixtures.ts';

const CONFIG = defaultFacetConfig({ filterable: [{ field: 'n' }, { field: 's' }] });
const FIDS = new Map([['n', 0], ['s', 1]]);

function checkGroups<K extends FacetKey>(kind: LevelKind<K>, fid: number): void {
  const sizes = levelSizes(kind, fid);
  const levels: [K, Uint8Array][][] = [];
  for (let l = 0; l < sizes.length + 1; l++) {
    levels.push([...kind.table.entries({ start: [fid, l] as never, end: [fid, l + 1] as never })].map(([k, v]) => [k[2], v]));
  }
  assert.equal(levels[sizes.length]!.length, 0, 'no level above the top');
  assert.deepEqual(levels.slice(0, sizes.length).map((l) => l.length), sizes.length === 1 && sizes[0] === 0 ? [0] : sizes);
  const top = sizes.length - 1;
  assert.ok(levels[top]!.length <= TOP_SIZE || top === 0, `top level ${top} has ${levels[top]!.length} entries`);
  for (let l = 1; l < sizes.length; l++) {
    const below = levels[l - 1]!;
    const groups = levels[l]!;
    let j = 0;
    for (let g = 0; g < groups.length; g++) {
      const [left, bytes] = groups[g]!;
      const header = decodeGroupHeader<K>(bytes, kind.name === 'number');
      const next = groups[g + 1]?.[0];
      assert.equal(kind.compare(below[j]![0], left), 0, `group ${String(left)} starts at its first child`);
      const union = new Bitmap();
      let right: K = left;
      let n = 0;
      for (; j < below.length && (next === undefined || kind.compare(below[j]![0], next) < 0); j++, n++) {
        const [key, childBytes] = below[j]!;
        if (l === 1) {
          union.orInPlace(kind.valueDocids(childBytes));
          right = key;
        } else {
          const h = decodeGroupHeader<K>(childBytes, kind.name === 'number');
          union.orInPlace(groupDocids(childBytes, h));
          right = h.right;
        }
      }
      assert.equal(header.size, n, 'group size');
      assert.ok(n >= 1 && n <= MAX_GROUP + MAX_GROUP, `group of ${n}`);
      assert.equal(kind.compare(header.right, right), 0, 'right bound');
      assert.ok(groupDocids(bytes, header).isEqual(union), 'group bitmap is the union of its children');
    }
    assert.equal(j, below.length, 'every child has a group');
  }
}

test('level groups follow random batches; ranges equal brute force', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-levels-'));
  const index = Index.open(dir, { primaryKey: 'id', now: 1 });
  const random = rng(7);
  const docs = new Map<number, { n: number[]; s: string[] }>();
  const word = () => String.fromCharCode(...Array.from({ length: 1 + Math.floor(random() * 3) }, () => 97 + Math.floor(random() * 6)));
  try {
    // batch sizes: one bulk load (levels built by scans), then small batches (groups patched)
    const batches = [3000, 5, 40, 1, 300, 12, 2000, 7, 60, 1500];
    for (const [b, size] of batches.entries()) {
      index.env.write(() => {
        const w = new FacetIndexWriter(index, CONFIG, (p) => FIDS.get(p)!);
        w.beginTask();
        for (let i = 0; i < size; i++) {
          const id = Math.floor(random() * 4000);
          const old = docs.get(id);
          if (old) w.removeDocument(id, old);
          // later batches delete more, to shrink levels as well
          if (b >= 6 && random() < 0.6) {
            docs.delete(id);
            continue;
          }
          const doc = {
            n: Array.from({ length: 1 + Math.floor(random() * 2) }, () => Math.round((random() - 0.3) * 2000) / (random() < 0.5 ? 1 : 8)),
            s: Array.from({ length: Math.floor(random() * 3) }, word),
          };
          w.addDocument(id, doc, String(id));
          docs.set(id, doc);
        }
        w.save();
        index.setMain('fieldsOrder', ['n', 's']);
      });
      const r = facetReader(index);
      checkGroups(numberKind(index.facets), 0);
      checkGroups(stringKind(index.facets), 1);
      const values = [...new Set([...docs.values()].flatMap((d) => d.n))];
      for (let q = 0; q < 60; q++) {
        const pick = () => (random() < 0.7 && values.length > 0 ? values[Math.floor(random() * values.length)]! : Math.round((random() - 0.3) * 2000) / 4);
        const lo = random() < 0.15 ? null : { value: pick(), inclusive: random() < 0.5 };
        const hi = random() < 0.15 ? null : { value: pick(), inclusive: random() < 0.5 };
        const expected = [...docs].filter(([, d]) => d.n.some((n) => (lo === null || (lo.inclusive ? n >= lo.value : n > lo.value)) && (hi === null || (hi.inclusive ? n <= hi.value : n < hi.value)))).map(([id]) => id).sort((a, b) => a - b);
        assert.deepEqual(r.numberRange(0, lo, hi).toArray(), expected, `numbers ${JSON.stringify([lo, hi])}`);
        const top = levelSizes(numberKind(index.facets), 0).length - 1;
        const parts = rangeParts(numberKind(index.facets), 0, boundsTest((a, b) => a - b, lo, hi));
        assert.ok(parts <= TOP_SIZE + 2 * top * MAX_GROUP + 2 * MAX_GROUP, `${parts} bitmaps for ${top + 1} levels`);

        const slo = random() < 0.15 ? null : { value: word(), inclusive: random() < 0.5 };
        const shi = random() < 0.15 ? null : { value: word(), inclusive: random() < 0.5 };
        const sexpected = [...docs].filter(([, d]) => d.s.some((s) => (slo === null || (slo.inclusive ? compareUtf8(s, slo.value) >= 0 : compareUtf8(s, slo.value) > 0)) && (shi === null || (shi.inclusive ? compareUtf8(s, shi.value) <= 0 : compareUtf8(s, shi.value) < 0)))).map(([id]) => id).sort((a, b) => a - b);
        assert.deepEqual(r.stringRange(1, slo, shi).toArray(), sexpected, `strings ${JSON.stringify([slo, shi])}`);
        const prefix = word().slice(0, 1 + Math.floor(random() * 2));
        const pexpected = [...docs].filter(([, d]) => d.s.some((s) => s.startsWith(prefix))).map(([id]) => id).sort((a, b) => a - b);
        assert.deepEqual(r.stringStartsWith(1, prefix).toArray(), pexpected, `prefix ${prefix}`);
      }
      // ordered values restricted to a few documents
      const within = Bitmap.from([...docs.keys()].filter(() => random() < 0.01));
      for (const order of ['asc', 'desc'] as const) {
        const expected = [...new Set([...within].flatMap((id) => docs.get(id)!.n))].sort((a, b) => (order === 'asc' ? a - b : b - a));
        const got = [...r.numbers(0, order, within)];
        assert.deepEqual(got.map(([n]) => n), expected);
        for (const [n, d] of got) assert.deepEqual(d.toArray(), [...within].filter((id) => docs.get(id)!.n.includes(n)));
        const all = [...r.numbers(0, order)].map(([n]) => n);
        assert.deepEqual(all, [...new Set([...docs.values()].flatMap((d) => d.n))].sort((a, b) => (order === 'asc' ? a - b : b - a)));
      }
    }
  } finally {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
