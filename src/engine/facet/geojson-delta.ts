// Pending changes of the geojson-cells table (geojson-grid.ts): per cell, per document, its box
// there or null (removed), the last operation on a document deciding, as for the facet keys
// (delta.ts). The shapes themselves (geojson-shapes) are put at once by the writer; a removal
// is computed from the stored shape, so the old version of a document is never parsed again.
import type { Table } from '../store/index.ts';
import type { Box } from './geojson-geometry.ts';
import { cellEntryMap, cellKey, cellKeyParts, encodeCellEntries, shapeCells } from './geojson-grid.ts';
import type { Shape } from './geojson.ts';

/** Rough bytes of one pending (cell, document) operation. */
const OP_BYTES = 64;

export class ShapeDelta {
  /** cell key (geojson-grid `cellKey`) → document → its box in the cell, or null: removed */
  readonly cells = new Map<number, Map<number, Box | null>>();
  bytes = 0;

  get empty(): boolean {
    return this.cells.size === 0;
  }

  /** Files a document's shape. */
  add(id: number, shape: Shape): void {
    for (const [key, box] of shapeCells(shape)) this.#op(key, id, box);
  }

  /** Takes a document's (stored) shape out of its cells. */
  remove(id: number, shape: Shape): void {
    for (const key of shapeCells(shape).keys()) this.#op(key, id, null);
  }

  #op(key: number, id: number, box: Box | null): void {
    let ops = this.cells.get(key);
    if (ops === undefined) this.cells.set(key, (ops = new Map()));
    ops.set(id, box);
    this.bytes += OP_BYTES;
  }

  /** Appends `later`'s changes after this delta's (`later` must not be used afterwards). */
  merge(later: ShapeDelta): void {
    for (const [key, ops] of later.cells) {
      const mine = this.cells.get(key);
      if (mine === undefined) this.cells.set(key, ops);
      else for (const [id, box] of ops) mine.set(id, box);
    }
    this.bytes += later.bytes;
  }
}

/** Writes the cells of a delta, each read and written once, in key order. */
export function writeShapeDelta(cells: Table<[number, number], Uint8Array>, delta: ShapeDelta): void {
  // no cells yet: every key is new (no reads)
  const fresh = cells.count() === 0;
  const keys = [...delta.cells.keys()].map(cellKeyParts).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const key of keys) {
    const ops = delta.cells.get(cellKey(key[0], key[1]))!;
    const bytes = fresh ? undefined : cells.get(key);
    const entries = cellEntryMap(bytes);
    for (const [id, box] of ops) {
      if (box === null) entries.delete(id);
      else entries.set(id, box);
    }
    if (entries.size > 0) cells.put(key, encodeCellEntries(entries));
    else if (bytes !== undefined) cells.remove(key);
  }
}
