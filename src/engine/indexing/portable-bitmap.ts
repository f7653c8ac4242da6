// Portable roaring bytes written directly from sorted ids, without building a native bitmap:
// most keys of a batch are new and hold one or a few ids, where the native round trip
// (construct, add, serialise, copy) costs more than the put itself.
//
//   u32 cookie 12346 (no run containers) | u32 n | n × [u16 key, u16 cardinality − 1]
//   | n × u32 offset | containers: ≤ 4096 ids → u16 values, else a 8 KiB bitset
//
// The bytes are those CRoaring's portable serialisation gives for a bitmap built by adding the
// same ids (array containers up to 4096 values, bitsets above, no run containers).

import { SMALL_IDS } from '../bitmap/index.ts';

const COOKIE_NO_RUN = 12346;
const ARRAY_MAX = 4096;
const BITSET_BYTES = 8192;

/** A reusable output buffer; a value written into it is valid until the next write. */
export class ByteScratch {
  bytes = new Uint8Array(1 << 16);

  ensure(n: number): Uint8Array {
    if (n > this.bytes.length) this.bytes = new Uint8Array(Math.max(n, this.bytes.length * 2));
    return this.bytes;
  }
}

/**
 * The search postings value of the sorted, unique, non-negative ids[from..to) (non-empty): raw
 * u32s up to SMALL_IDS ids (engine/bitmap `postingsFrom`), else portable bytes; written into
 * `scratch`, valid until the scratch is written again.
 */
export function encodePostings(ids: Int32Array | Uint32Array, from: number, to: number, scratch: ByteScratch): Uint8Array {
  const n = to - from;
  if (n > SMALL_IDS) return encodeSortedIds(ids, from, to, scratch);
  const out = scratch.ensure(n * 4);
  for (let i = 0; i < n; i++) writeU32(out, i * 4, ids[from + i]!);
  return out.subarray(0, n * 4);
}

/**
 * Portable bytes of the sorted, unique, non-negative ids[from..to) (non-empty), written into
 * `scratch`; the returned view is valid until the scratch is written again.
 */
export function encodeSortedIds(ids: Int32Array | Uint32Array, from: number, to: number, scratch: ByteScratch): Uint8Array {
  if (to - from === 1) return encodeOne(ids[from]!, scratch);
  // containers: one per distinct high 16 bits
  let n = 0;
  let size = 8;
  for (let i = from; i < to; ) {
    const high = ids[i]! >>> 16;
    let j = i + 1;
    while (j < to && ids[j]! >>> 16 === high) j++;
    const card = j - i;
    size += 8 + (card <= ARRAY_MAX ? card * 2 : BITSET_BYTES);
    n++;
    i = j;
  }
  const out = scratch.ensure(size);
  writeU32(out, 0, COOKIE_NO_RUN);
  writeU32(out, 4, n);
  let header = 8;
  let offsets = 8 + 4 * n;
  let data = 8 + 8 * n;
  for (let i = from; i < to; ) {
    const high = ids[i]! >>> 16;
    let j = i + 1;
    while (j < to && ids[j]! >>> 16 === high) j++;
    const card = j - i;
    out[header] = high & 0xff;
    out[header + 1] = high >>> 8;
    out[header + 2] = (card - 1) & 0xff;
    out[header + 3] = (card - 1) >>> 8;
    header += 4;
    writeU32(out, offsets, data);
    offsets += 4;
    if (card <= ARRAY_MAX) {
      for (let k = i; k < j; k++) {
        const low = ids[k]! & 0xffff;
        out[data] = low & 0xff;
        out[data + 1] = low >>> 8;
        data += 2;
      }
    } else {
      out.fill(0, data, data + BITSET_BYTES);
      for (let k = i; k < j; k++) {
        const low = ids[k]! & 0xffff;
        out[data + (low >>> 3)]! |= 1 << (low & 7);
      }
      data += BITSET_BYTES;
    }
    i = j;
  }
  return out.subarray(0, size);
}

function encodeOne(id: number, scratch: ByteScratch): Uint8Array {
  const out = scratch.ensure(18);
  writeU32(out, 0, COOKIE_NO_RUN);
  writeU32(out, 4, 1);
  const high = id >>> 16;
  out[8] = high & 0xff;
  out[9] = high >>> 8;
  out[10] = 0;
  out[11] = 0;
  writeU32(out, 12, 16);
  out[16] = id & 0xff;
  out[17] = (id >>> 8) & 0xff;
  return out.subarray(0, 18);
}

function writeU32(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff;
  out[at + 1] = (v >>> 8) & 0xff;
  out[at + 2] = (v >>> 16) & 0xff;
  out[at + 3] = v >>> 24;
}
