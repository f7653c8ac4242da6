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

/** Decoded into by orPortable: one wrapper for every union, so folding many values allocates nothing per value. */
const scratch = new Bitmap();

/** `target ∪= decode(bytes)` without a bitmap object per call (the reads of a key's chunks, of a prefix's words). */
export function orPortable(target: Bitmap, bytes: Uint8Array | undefined | null): void {
  if (!bytes || bytes.length === 0) return;
  scratch.deserialize(bytes, 'portable');
  target.orInPlace(scratch);
}
