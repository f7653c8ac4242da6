// Roaring bitmaps of u32 ids, and their portable byte form (the standard roaring format).
import roaring from 'roaring';

export const Bitmap = roaring.RoaringBitmap32;
export type Bitmap = InstanceType<typeof roaring.RoaringBitmap32>;

/** Decodes the portable serialisation; empty or missing bytes give an empty bitmap. */
export function bitmapFrom(bytes: Uint8Array | undefined | null): Bitmap {
  if (!bytes || bytes.length === 0) return new Bitmap();
  return Bitmap.deserialize(bytes, 'portable');
}

export function bitmapBytes(bitmap: Bitmap): Uint8Array {
  return bitmap.serialize('portable');
}

/** Decoded into by PostingsUnion: one wrapper for every union, so folding many values allocates nothing per value. */
const scratch = new Bitmap();

// Values of the search postings tables: a key with at most SMALL_IDS ids stores them as raw
// little-endian u32s (4 to 16 bytes); more, as portable bytes. Portable bytes are never 4, 8, 12 or
// 16 bytes long, except an empty bitmap's 8, which the postings never store (an emptied key is
// removed): without runs they take at least 18 bytes, with runs an odd number up to 8 containers.
// Most keys of a text index (word pairs, rare words) hold one id: 4 bytes instead of 18.
export const SMALL_IDS = 4;

/** Decodes a postings value (missing or empty: an empty bitmap). */
export function postingsFrom(bytes: Uint8Array | undefined | null): Bitmap {
  if (!bytes || bytes.length === 0) return new Bitmap();
  if (isSmall(bytes)) return new Bitmap(smallIds(bytes));
  return Bitmap.deserialize(bytes, 'portable');
}

/** The postings value of a non-empty bitmap. */
export function postingsBytes(bitmap: Bitmap): Uint8Array {
  if (bitmap.size > SMALL_IDS) return bitmap.serialize('portable');
  return smallBytes(bitmap.toUint32Array());
}

/** The raw form of 1 to SMALL_IDS ascending ids. */
export function smallBytes(ids: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(ids.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < ids.length; i++) view.setUint32(i * 4, ids[i]!, true);
  return out;
}

/** Whether a (non-empty) postings value is in the raw form: its ids are `smallIdAt(bytes, 0 … length / 4 − 1)`. */
export function isSmall(bytes: Uint8Array): boolean {
  return bytes.length <= SMALL_IDS * 4 && (bytes.length & 3) === 0;
}

/** The k-th id of a raw postings value. */
export function smallIdAt(bytes: Uint8Array, k: number): number {
  const at = k * 4;
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

function smallIds(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let k = 0; k < bytes.length >>> 2; k++) out.push(smallIdAt(bytes, k));
  return out;
}

/**
 * A union of many postings values: the ids of raw values are gathered and added in one native
 * call, portable ones folded through the scratch bitmap (a prefix's words, a word's positions).
 */
export class PostingsUnion {
  readonly #bitmap = new Bitmap();
  #small: number[] = [];

  add(bytes: Uint8Array | undefined | null): void {
    if (!bytes || bytes.length === 0) return;
    if (!isSmall(bytes)) {
      scratch.deserialize(bytes, 'portable');
      this.#bitmap.orInPlace(scratch);
      return;
    }
    for (let k = 0; k < bytes.length >>> 2; k++) this.#small.push(smallIdAt(bytes, k));
    if (this.#small.length >= 8192) this.#flush();
  }

  /** The union (the fold may go on after). */
  result(): Bitmap {
    this.#flush();
    return this.#bitmap;
  }

  #flush(): void {
    if (this.#small.length === 0) return;
    this.#bitmap.addMany(this.#small);
    this.#small = [];
  }
}
