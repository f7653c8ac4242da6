// Binary values of the facet tables (docs/decisions/0004). Integers are little-endian u32,
// floats little-endian f64, strings UTF-8 prefixed by their u32 byte length, bitmaps portable.
//
//   level-0 string   origin id · original · bitmap
//   group (level≥1)  size · right bound (f64, or string) · bitmap
//   document record  (fid · length · n · f64×n · m · (normalized · original | SAME)×m)×fields
//   geo point        lat · lng
//   leaf cell        (id · lat · lng)×n, by id
import { Bitmap, bitmapFrom } from '../bitmap/index.ts';

const SAME = 0xffffffff;

export type FacetKey = number | string;

function view(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? (bytes as unknown as Buffer) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A string value at level 0: its docids and the original spelling of `originId`. */
export interface StringEntry {
  originId: number;
  original: string;
  docids: Bitmap;
}

/** A level-0 string value; `docids` already in portable bytes. */
export function encodeStringEntry(e: { originId: number; original: string; docids: Uint8Array }): Buffer {
  const len = Buffer.byteLength(e.original, 'utf8');
  const b = Buffer.allocUnsafe(8 + len + e.docids.length);
  b.writeUInt32LE(e.originId, 0);
  b.writeUInt32LE(len, 4);
  b.write(e.original, 8, 'utf8');
  b.set(e.docids, 8 + len);
  return b;
}

export function decodeStringEntry(bytes: Uint8Array): StringEntry {
  const b = view(bytes);
  const len = b.readUInt32LE(4);
  return { originId: b.readUInt32LE(0), original: b.toString('utf8', 8, 8 + len), docids: bitmapFrom(b.subarray(8 + len)) };
}

export function stringEntryDocids(bytes: Uint8Array): Bitmap {
  const b = view(bytes);
  return bitmapFrom(b.subarray(8 + b.readUInt32LE(4)));
}

/** A group of consecutive keys of the level below: how many, the greatest level-0 key, the union. */
export interface GroupHeader<K extends FacetKey> {
  size: number;
  right: K;
  /** where the bitmap starts */
  offset: number;
}

/** A group; `docids` already in portable bytes. */
export function encodeGroup(size: number, right: FacetKey, docids: Uint8Array): Buffer {
  let head: Buffer;
  if (typeof right === 'number') {
    head = Buffer.allocUnsafe(12);
    head.writeDoubleLE(right, 4);
  } else {
    const s = Buffer.from(right, 'utf8');
    head = Buffer.allocUnsafe(8 + s.length);
    head.writeUInt32LE(s.length, 4);
    s.copy(head, 8);
  }
  head.writeUInt32LE(size, 0);
  return Buffer.concat([head, docids]);
}

export function decodeGroupHeader<K extends FacetKey>(bytes: Uint8Array, numeric: boolean): GroupHeader<K> {
  const b = view(bytes);
  if (numeric) return { size: b.readUInt32LE(0), right: b.readDoubleLE(4) as K, offset: 12 };
  const len = b.readUInt32LE(4);
  return { size: b.readUInt32LE(0), right: b.toString('utf8', 8, 8 + len) as K, offset: 8 + len };
}

export function groupDocids(bytes: Uint8Array, header: GroupHeader<FacetKey>): Bitmap {
  return bitmapFrom(view(bytes).subarray(header.offset));
}

/** The values of one field in one document, sorted (numbers ascending, strings by UTF-8 bytes). */
export interface DocValues {
  numbers: number[];
  strings: string[];
  /** original spelling of each of `strings` */
  originals: string[];
}

/** The facet values of a document: per field id, its values. */
export type DocRecord = Map<number, DocValues>;

/** fid · byte length · values, per field (a reader skips the fields it does not want). */
export function encodeDocRecord(record: DocRecord): Buffer {
  let size = 0;
  for (const v of record.values()) size += 16 + 8 * v.numbers.length + docStringsBytes(v);
  const b = Buffer.allocUnsafe(size);
  let at = 0;
  for (const [fid, v] of record) {
    const start = at;
    b.writeUInt32LE(fid, at);
    at = b.writeUInt32LE(v.numbers.length, at + 8);
    for (const n of v.numbers) at = b.writeDoubleLE(n, at);
    at = b.writeUInt32LE(v.strings.length, at);
    for (let i = 0; i < v.strings.length; i++) {
      const len = b.write(v.strings[i]!, at + 4, 'utf8');
      b.writeUInt32LE(len, at);
      at += 4 + len;
      if (v.originals[i] === v.strings[i]) at = b.writeUInt32LE(SAME, at);
      else {
        const olen = b.write(v.originals[i]!, at + 4, 'utf8');
        b.writeUInt32LE(olen, at);
        at += 4 + olen;
      }
    }
    b.writeUInt32LE(at - start - 8, start + 4);
  }
  return b;
}

function docStringsBytes(v: DocValues): number {
  let n = 0;
  for (let i = 0; i < v.strings.length; i++) {
    n += 8 + Buffer.byteLength(v.strings[i]!, 'utf8');
    if (v.originals[i] !== v.strings[i]) n += Buffer.byteLength(v.originals[i]!, 'utf8');
  }
  return n;
}

/** The values of one field of a document record (undefined when it has none). */
export function docRecordField(bytes: Uint8Array, fid: number): DocValues | undefined {
  const b = view(bytes);
  for (let at = 0; at + 8 <= b.length; ) {
    const len = b.readUInt32LE(at + 4);
    if (b.readUInt32LE(at) === fid) return decodeDocValues(b.subarray(at + 8, at + 8 + len));
    at += 8 + len;
  }
  return undefined;
}

function decodeDocValues(b: Buffer): DocValues {
  const n = b.readUInt32LE(0);
  const numbers = new Array<number>(n);
  let at = 4;
  for (let i = 0; i < n; i++, at += 8) numbers[i] = b.readDoubleLE(at);
  const m = b.readUInt32LE(at);
  at += 4;
  const strings = new Array<string>(m);
  const originals = new Array<string>(m);
  for (let i = 0; i < m; i++) {
    const len = b.readUInt32LE(at);
    strings[i] = b.toString('utf8', at + 4, at + 4 + len);
    at += 4 + len;
    const olen = b.readUInt32LE(at);
    at += 4;
    if (olen === SAME) originals[i] = strings[i]!;
    else {
      originals[i] = b.toString('utf8', at, at + olen);
      at += olen;
    }
  }
  return { numbers, strings, originals };
}

export function encodePoint(lat: number, lng: number): Buffer {
  const b = Buffer.allocUnsafe(16);
  b.writeDoubleLE(lat, 0);
  b.writeDoubleLE(lng, 8);
  return b;
}

export function decodePoint(bytes: Uint8Array): [number, number] {
  const b = view(bytes);
  return [b.readDoubleLE(0), b.readDoubleLE(8)];
}

const POINT_BYTES = 20;

/** Points of a leaf cell: parallel arrays, by id. */
export interface CellPoints {
  ids: number[];
  lats: number[];
  lngs: number[];
}

export function encodeCellPoints(p: CellPoints): Buffer {
  const b = Buffer.allocUnsafe(p.ids.length * POINT_BYTES);
  for (let i = 0, at = 0; i < p.ids.length; i++, at += POINT_BYTES) {
    b.writeUInt32LE(p.ids[i]!, at);
    b.writeDoubleLE(p.lats[i]!, at + 4);
    b.writeDoubleLE(p.lngs[i]!, at + 12);
  }
  return b;
}

export function decodeCellPoints(bytes: Uint8Array): CellPoints {
  const b = view(bytes);
  const n = Math.floor(b.length / POINT_BYTES);
  const ids = new Array<number>(n);
  const lats = new Array<number>(n);
  const lngs = new Array<number>(n);
  for (let i = 0, at = 0; i < n; i++, at += POINT_BYTES) {
    ids[i] = b.readUInt32LE(at);
    lats[i] = b.readDoubleLE(at + 4);
    lngs[i] = b.readDoubleLE(at + 12);
  }
  return { ids, lats, lngs };
}

export function encodeBitmap(bitmap: Bitmap): Uint8Array {
  return bitmap.serialize('portable');
}

const NO_RUN_COOKIE = 12346;
const ARRAY_MAX = 4096;

/**
 * Portable bytes of sorted unique ids, written without a native bitmap (the bytes CRoaring gives:
 * array containers up to 4096 values, 8 KiB bitsets above, no runs). New keys of a bulk load hold
 * a few ids, where the native round trip costs more than the put.
 */
export function encodeIds(ids: ArrayLike<number>): Buffer {
  let n = 0;
  let size = 8;
  for (let i = 0; i < ids.length; ) {
    const high = ids[i]! >>> 16;
    let j = i + 1;
    while (j < ids.length && ids[j]! >>> 16 === high) j++;
    size += 8 + (j - i <= ARRAY_MAX ? 2 * (j - i) : 8192);
    n++;
    i = j;
  }
  const out = Buffer.alloc(size);
  out.writeUInt32LE(NO_RUN_COOKIE, 0);
  out.writeUInt32LE(n, 4);
  let data = 8 + 8 * n;
  for (let i = 0, c = 0; i < ids.length; c++) {
    const high = ids[i]! >>> 16;
    let j = i + 1;
    while (j < ids.length && ids[j]! >>> 16 === high) j++;
    // descriptive header (key, cardinality − 1), then the offset header
    out.writeUInt16LE(high, 8 + 4 * c);
    out.writeUInt16LE(j - i - 1, 10 + 4 * c);
    out.writeUInt32LE(data, 8 + 4 * n + 4 * c);
    if (j - i <= ARRAY_MAX) {
      for (let k = i; k < j; k++, data += 2) out.writeUInt16LE(ids[k]! & 0xffff, data);
    } else {
      for (let k = i; k < j; k++) {
        const low = ids[k]! & 0xffff;
        out[data + (low >>> 3)]! |= 1 << (low & 7);
      }
      data += 8192;
    }
    i = j;
  }
  return out;
}

export function decodeBitmap(bytes: Uint8Array | undefined): Bitmap {
  return bitmapFrom(bytes);
}

